// A minimal POSIX tar (ustar) writer and reader for Folio's backups: regular files only, names of at
// most 100 bytes. Tar keeps a backup readable by ordinary tools (`tar tf backup.tar`), and its
// per-header checksum lets a reader tell a damaged or foreign file from a backup early.
import type { FileHandle } from 'node:fs/promises';

const BLOCK = 512;
/** The largest entry the 11 octal digits of a ustar size field can hold (8 GiB - 1). */
const MAX_SIZE = 0o77777777777;
const CHUNK = 1 << 20;

/** The archive is not a readable tar, or it ends early: the message says which. */
export class TarError extends Error {}

function octal(value: number, width: number): string {
  return value.toString(8).padStart(width - 1, '0') + '\0';
}

function header(name: string, size: number, mtime: Date): Buffer {
  const nameBytes = Buffer.from(name, 'utf8');
  if (nameBytes.length > 100) throw new TarError(`Archive entry name too long: ${name}`);
  if (size > MAX_SIZE) throw new TarError(`Archive entry too large: ${name} (${size} bytes)`);
  const h = Buffer.alloc(BLOCK);
  nameBytes.copy(h, 0);
  // 600: whoever unpacks a backup by hand gets files as private as the data folder's.
  h.write(octal(0o600, 8), 100, 'ascii');
  h.write(octal(0, 8), 108, 'ascii');
  h.write(octal(0, 8), 116, 'ascii');
  h.write(octal(size, 12), 124, 'ascii');
  h.write(octal(Math.floor(mtime.getTime() / 1000), 12), 136, 'ascii');
  h.write('0', 156, 'ascii');
  h.write('ustar\0', 257, 'ascii');
  h.write('00', 263, 'ascii');
  // The checksum is summed with its own field read as eight spaces.
  h.fill(0x20, 148, 156);
  h.write(octal(checksum(h), 7) + ' ', 148, 'ascii');
  return h;
}

function checksum(h: Buffer): number {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : h[i];
  return sum;
}

/** Appends entries to an open file; `finish` writes the end-of-archive blocks. */
export class TarWriter {
  private pos = 0;

  constructor(private readonly fh: FileHandle) {}

  private async write(buf: Buffer): Promise<void> {
    let done = 0;
    while (done < buf.length) {
      const { bytesWritten } = await this.fh.write(buf, done, buf.length - done, this.pos + done);
      done += bytesWritten;
    }
    this.pos += buf.length;
  }

  async add(name: string, data: Buffer, mtime = new Date()): Promise<void> {
    await this.write(header(name, data.length, mtime));
    await this.write(data);
    await this.pad(data.length);
  }

  /**
   * Streams `size` bytes from `source` (read from its start) into an entry, handing each chunk to
   * `onChunk` (hashing) on the way. A source that is shorter or longer than `size` is an error: the
   * header already promised that many bytes.
   */
  async addFrom(name: string, size: number, source: FileHandle, onChunk: (chunk: Buffer) => void, mtime = new Date()): Promise<void> {
    await this.write(header(name, size, mtime));
    const buf = Buffer.allocUnsafe(Math.min(CHUNK, Math.max(size, 1)));
    let done = 0;
    while (done < size) {
      const { bytesRead } = await source.read(buf, 0, Math.min(buf.length, size - done), done);
      if (bytesRead === 0) throw new TarError(`${name} became shorter while it was being archived.`);
      const chunk = buf.subarray(0, bytesRead);
      onChunk(chunk);
      await this.write(chunk);
      done += bytesRead;
    }
    const { bytesRead: extra } = await source.read(Buffer.alloc(1), 0, 1, size);
    if (extra) throw new TarError(`${name} became longer while it was being archived.`);
    await this.pad(size);
  }

  private async pad(size: number): Promise<void> {
    const rest = size % BLOCK;
    if (rest) await this.write(Buffer.alloc(BLOCK - rest));
  }

  async finish(): Promise<void> {
    await this.write(Buffer.alloc(BLOCK * 2));
  }
}

export interface TarEntry {
  name: string;
  size: number;
  /** The entry's content in chunks; entries must be read (or skipped) in order. */
  chunks(): AsyncIterable<Buffer>;
}

function parseOctal(field: Buffer): number {
  const text = field.toString('ascii').replace(/[\0 ]+$/, '').replace(/^ +/, '');
  if (!/^[0-7]+$/.test(text)) return NaN;
  return parseInt(text, 8);
}

/**
 * The entries of a tar file, in order. Throws TarError for a block that is not a valid header (a
 * foreign or damaged file), for entries other than regular files, and for an archive that ends
 * before its end-of-archive marker or in the middle of an entry.
 */
export async function* readTar(fh: FileHandle): AsyncGenerator<TarEntry> {
  const fileSize = (await fh.stat()).size;
  let pos = 0;
  const h = Buffer.alloc(BLOCK);
  for (;;) {
    const { bytesRead } = await fh.read(h, 0, BLOCK, pos);
    if (bytesRead < BLOCK) throw new TarError('The archive ends early: it has no end-of-archive marker (cut short?).');
    if (h.every((b) => b === 0)) return;
    const stored = parseOctal(h.subarray(148, 156));
    if (stored !== checksum(h)) throw new TarError(`Not a valid tar header at byte ${pos}.`);
    const size = parseOctal(h.subarray(124, 136));
    const type = String.fromCharCode(h[156]);
    const name = h.subarray(0, 100).toString('utf8').replace(/\0.*$/s, '');
    if (!Number.isFinite(size)) throw new TarError(`Not a valid tar header at byte ${pos}.`);
    if (type !== '0' && type !== '\0') throw new TarError(`The archive holds ${name}, which is not a regular file.`);
    const start = pos + BLOCK;
    if (start + size > fileSize) throw new TarError(`The archive ends in the middle of ${name} (cut short?).`);
    yield {
      name,
      size,
      async *chunks() {
        const buf = Buffer.allocUnsafe(Math.min(CHUNK, Math.max(size, 1)));
        let done = 0;
        while (done < size) {
          const { bytesRead: n } = await fh.read(buf, 0, Math.min(buf.length, size - done), start + done);
          if (n === 0) throw new TarError(`The archive ends in the middle of ${name} (cut short?).`);
          // A copy: the buffer is reused for the next chunk.
          yield Buffer.from(buf.subarray(0, n));
          done += n;
        }
      },
    };
    pos = start + Math.ceil(size / BLOCK) * BLOCK;
  }
}
