// A bounded local cache of blobs for a remote store (S3BlobStore): callers that need a file path (the
// figure finder reads page images with sharp) get a local copy. Blobs never change under their key, so a
// cached copy is never stale. Files are filled under a temporary name and renamed into place, so a reader
// never sees half a file; when the cache holds more than its limit, the least recently used files go,
// except those handed out in the last minute (their readers may not have opened them yet).
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';

/** How long a file handed out stays safe from eviction, for its reader to open it. */
const IN_USE_MS = 60_000;

interface Entry {
  size: number;
  /** When it was last handed out (ms since the epoch). */
  used: number;
}

export class BlobCache {
  /** Least recently used first (a Map keeps insertion order; a hit moves the key to the end). */
  private entries: Map<string, Entry> | undefined;
  private total = 0;
  /** Fills under way, so that concurrent askers of one key share one download. */
  private readonly filling = new Map<string, Promise<string>>();

  /**
   * @param dir the cache's folder (created, 700)
   * @param maxBytes the bound on the cached files' total size
   * @param now the clock (tests move it)
   */
  constructor(readonly dir: string, readonly maxBytes: number, private readonly now: () => number = () => Date.now()) {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  }

  /**
   * The cached file of `key`, filled first when it is not there: `fill` writes the bytes to the temporary
   * file it is given (same file system as the cache), which then takes its place.
   */
  async file(key: string, tempFile: string, fill: (file: string) => Promise<void>): Promise<string> {
    const entries = await this.load();
    const target = path.join(this.dir, key);
    const known = entries.get(key);
    if (known && fs.existsSync(target)) {
      this.touch(key, known);
      return target;
    }
    const pending = this.filling.get(key);
    if (pending) return pending;
    const done = (async () => {
      try {
        await fill(tempFile);
        await fsp.rename(tempFile, target);
      } catch (err) {
        await fsp.rm(tempFile, { force: true });
        throw err;
      }
      const size = (await fsp.stat(target)).size;
      if (known) this.total -= known.size;
      this.total += size;
      this.touch(key, { size, used: 0 });
      await this.evict();
      return target;
    })();
    this.filling.set(key, done);
    try {
      return await done;
    } finally {
      this.filling.delete(key);
    }
  }

  /** Drops a key's copy (its blob was removed from the store). */
  async drop(key: string): Promise<void> {
    const entries = await this.load();
    const e = entries.get(key);
    if (e) {
      entries.delete(key);
      this.total -= e.size;
    }
    await fsp.rm(path.join(this.dir, key), { force: true });
  }

  /** The cached files' total size in bytes. */
  async size(): Promise<number> {
    await this.load();
    return this.total;
  }

  private touch(key: string, entry: Entry): void {
    entry.used = this.now();
    this.entries!.delete(key);
    this.entries!.set(key, entry);
  }

  /** The files already in the folder (from an earlier run), oldest first by modification time. */
  private async load(): Promise<Map<string, Entry>> {
    if (this.entries) return this.entries;
    const found: { key: string; size: number; mtime: number }[] = [];
    for (const name of await fsp.readdir(this.dir)) {
      if (!/^[0-9a-f]{64}$/.test(name)) continue;
      const st = await fsp.stat(path.join(this.dir, name));
      found.push({ key: name, size: st.size, mtime: st.mtimeMs });
    }
    found.sort((a, b) => a.mtime - b.mtime);
    // Another call may have loaded meanwhile (both awaited the folder): keep the first.
    if (this.entries) return this.entries;
    this.entries = new Map(found.map((f) => [f.key, { size: f.size, used: 0 }]));
    this.total = found.reduce((sum, f) => sum + f.size, 0);
    return this.entries;
  }

  private async evict(): Promise<void> {
    const entries = this.entries!;
    const safeAfter = this.now() - IN_USE_MS;
    for (const [key, e] of [...entries]) {
      if (this.total <= this.maxBytes) break;
      if (e.used > safeAfter) continue;
      entries.delete(key);
      this.total -= e.size;
      await fsp.rm(path.join(this.dir, key), { force: true });
    }
  }
}
