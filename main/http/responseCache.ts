// Serialized JSON of heavy GET responses (document detail, long annotation lists), reused while the
// database has not changed at all since it was built. Any write anywhere invalidates every entry, so
// a cached answer is always the answer the handler would give now; the key holds the caller, so
// access rules keep applying. Bounded by total size, oldest entries go first.

interface Entry {
  stamp: string;
  /** Kept encoded, so a hit costs no UTF-8 conversion. */
  body: Buffer;
}

export class ResponseCache {
  private entries = new Map<string, Entry>();
  private bytes = 0;

  constructor(private readonly maxBytes = 64 * 1024 * 1024) {}

  get(key: string, stamp: string): Buffer | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    if (e.stamp !== stamp) {
      this.delete(key, e);
      return undefined;
    }
    return e.body;
  }

  set(key: string, stamp: string, body: Buffer): void {
    const old = this.entries.get(key);
    if (old) this.delete(key, old);
    if (body.length > this.maxBytes / 4) return;
    this.entries.set(key, { stamp, body });
    this.bytes += body.length;
    for (const [k, e] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.delete(k, e);
    }
  }

  private delete(key: string, e: Entry): void {
    this.entries.delete(key);
    this.bytes -= e.body.length;
  }
}
