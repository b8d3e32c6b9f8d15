// Content-addressed file storage: the BlobStore interface the rest of Folio depends on, with the contract
// every store keeps (test/blobs/blobStore.contract.ts runs it against each), and DiskBlobStore, the
// desktop's store under <data>/blobs: a file's key is its SHA-256, written to a temporary name and renamed
// into place, so a crash never leaves a half-written blob under a key. The team server's object store is
// S3BlobStore (s3BlobStore.ts); openBlobStore.ts picks one from the configuration.
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

// Documents are private: folders 700, files 600 (see dataPermissions.ts), also for files made by others
// (multer writes uploads with the default mode) before they take their place in the store.
const DIR_MODE = 0o700;
const FILE_MODE = 0o600;

/** A stored blob: its key (the SHA-256 of its bytes, 64 hex digits) and its size in bytes. */
export interface StoredBlob {
  key: string;
  size: number;
}

/** A blob with the file name it is downloaded under (the HTTP layer streams it from the store). */
export interface NamedBlob {
  key: string;
  name: string;
}

/** Bytes start to end of a blob, both included (an HTTP byte range). */
export interface ByteRange {
  start: number;
  end: number;
}

/** Throws on anything but a blob key: 64 lower-case hex digits (keys become file names and object names). */
export function checkBlobKey(key: string): void {
  if (!/^[0-9a-f]{64}$/.test(key)) throw new Error(`Invalid blob key ${key}`);
}

/** A fresh file name in a local folder of files on their way into a store. */
export function tempFileIn(dir: string, suffix = ''): string {
  return path.join(dir, `${Date.now()}-${randomBytes(6).toString('hex')}${suffix}`);
}

/** Empties a store's temporary folder (leftovers of interrupted writes and uploads). */
export async function emptyTempDir(dir: string): Promise<void> {
  await fsp.rm(dir, { recursive: true, force: true });
  await fsp.mkdir(dir, { recursive: true, mode: DIR_MODE });
}

/** The error of reading a key that is not stored: code ENOENT, whichever the store, as a missing file's. */
export function blobMissing(key: string, cause?: unknown): NodeJS.ErrnoException {
  return Object.assign(new Error(`There is no blob ${key} in the store.`, { cause }), { code: 'ENOENT' });
}

/**
 * Where the files live: uploads, page images, searchable PDFs, model files. THE CONTRACT:
 * - Content addressing: a blob's key is the lower-case hex SHA-256 of its bytes, nothing else (no name,
 *   no owner). Rows refer to blobs by key; identical bytes are one blob, shared by every row that names it.
 * - Idempotence: put/adopt of bytes already stored return the same key and change nothing; remove of a
 *   key that is not there succeeds. So a job that runs twice (main/jobs/queue.ts) stores nothing twice.
 * - Crash rules: a key is readable only once all its bytes are durable (write elsewhere, then publish
 *   under the key: rename here, a completed upload in S3). A crash may leave a blob no row names (stored,
 *   then the row's transaction did not commit): keys() lets the lock holder's start-up sweep remove them
 *   (core.ts), so callers store first and commit the row after, never the other way round; they remove a
 *   blob only after the last row naming it is gone. A store shared by several processes (S3) leaves the
 *   blobs of its last hours out of keys(): another process may be between storing one and committing the
 *   row that names it, and one process's start-up must not sweep it away.
 * - Temporary files: uploads arrive in `tmpDir`, a local folder (multer, the import watcher), and enter
 *   the store with adopt(), which takes the file away. clearTemp() at start-up empties it, in the
 *   instance that holds the data folder's lock only.
 * - pathOf and exists are asynchronous: a remote store asks its server, and pathOf of an object store
 *   hands out a copy in a bounded local cache it fills (the figure finder reads page images by path). A
 *   path from pathOf is for reading only, at once (a cache may evict it later). The HTTP layer streams
 *   downloads with size and stream, without a local copy.
 * - Reading a key that is not stored (read, stream, pathOf) rejects with an error whose code is ENOENT.
 */
export interface BlobStore {
  /** A local folder for files on their way into the store (same file system as the store on disk). */
  readonly tmpDir: string;
  /** A fresh file name inside tmpDir. */
  tempPath(suffix?: string): string;
  /** Takes a local file (an upload) into the store, removing it from where it was. */
  adopt(file: string): Promise<StoredBlob>;
  put(data: Buffer): Promise<StoredBlob>;
  read(key: string): Promise<Buffer>;
  /** The blob's bytes as a local file, for reading (throws on a key that is not 64 hex digits). */
  pathOf(key: string): Promise<string>;
  exists(key: string): Promise<boolean>;
  /** The blob's size in bytes, or null when the key is not stored. */
  size(key: string): Promise<number | null>;
  /** The blob's bytes (or a range of them) as a stream, opened: a missing key rejects here, not later. */
  stream(key: string, range?: ByteRange): Promise<Readable>;
  remove(key: string): Promise<void>;
  /** Every stored key, but a shared store's youngest (the start-up sweep's candidates; see the crash rules). */
  keys(): Promise<string[]>;
  /** Removes leftovers of interrupted writes and uploads. */
  clearTemp(): Promise<void>;
}

/** The blob store on the local disk: <root>/<first two hex digits>/<key>, files 600 in folders 700. */
export class DiskBlobStore implements BlobStore {
  readonly tmpDir: string;

  constructor(readonly root: string) {
    this.tmpDir = path.join(root, 'tmp');
    fs.mkdirSync(this.tmpDir, { recursive: true, mode: DIR_MODE });
  }

  async pathOf(key: string): Promise<string> {
    const file = this.fileOf(key);
    await fsp.access(file);
    return file;
  }

  private fileOf(key: string): string {
    checkBlobKey(key);
    return path.join(this.root, key.slice(0, 2), key);
  }

  /** A fresh temporary path inside the store (same file system, so the final rename is atomic). */
  tempPath(suffix = ''): string {
    return tempFileIn(this.tmpDir, suffix);
  }

  /** Moves a file that is already on disk (an upload) into the store; returns its key and size. */
  async adopt(file: string): Promise<StoredBlob> {
    const hash = createHash('sha256');
    await pipeline(fs.createReadStream(file), hash);
    const key = hash.digest('hex');
    const target = this.fileOf(key);
    await fsp.mkdir(path.dirname(target), { recursive: true, mode: DIR_MODE });
    const size = (await fsp.stat(file)).size;
    if (fs.existsSync(target)) await fsp.rm(file, { force: true });
    else {
      await fsp.chmod(file, FILE_MODE);
      await fsp.rename(file, target);
    }
    return { key, size };
  }

  async put(data: Buffer): Promise<StoredBlob> {
    const tmp = this.tempPath();
    const fh = await fsp.open(tmp, 'w', FILE_MODE);
    try {
      await fh.writeFile(data);
      await fh.sync();
    } finally {
      await fh.close();
    }
    return this.adopt(tmp);
  }

  async read(key: string): Promise<Buffer> {
    return fsp.readFile(this.fileOf(key));
  }

  async exists(key: string): Promise<boolean> {
    return fs.existsSync(this.fileOf(key));
  }

  async size(key: string): Promise<number | null> {
    try {
      return (await fsp.stat(this.fileOf(key))).size;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async stream(key: string, range?: ByteRange): Promise<Readable> {
    const fh = await fsp.open(this.fileOf(key), 'r');
    return fh.createReadStream(range ? { start: range.start, end: range.end } : {});
  }

  async remove(key: string): Promise<void> {
    await fsp.rm(this.fileOf(key), { force: true });
  }

  /** Every stored key (for the start-up sweep of unreferenced blobs). */
  async keys(): Promise<string[]> {
    const out: string[] = [];
    for (const dir of await fsp.readdir(this.root)) {
      if (!/^[0-9a-f]{2}$/.test(dir)) continue;
      for (const f of await fsp.readdir(path.join(this.root, dir))) if (/^[0-9a-f]{64}$/.test(f)) out.push(f);
    }
    return out;
  }

  /** Removes leftovers of interrupted writes and uploads. */
  clearTemp(): Promise<void> {
    return emptyTempDir(this.tmpDir);
  }
}
