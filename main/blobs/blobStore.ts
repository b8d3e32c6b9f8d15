// Content-addressed file storage under <data>/blobs: a file's key is its SHA-256, written to a
// temporary name and renamed into place, so a crash never leaves a half-written blob under a key.
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';

// Documents are private: folders 700, files 600 (see dataPermissions.ts), also for files made by others
// (multer writes uploads with the default mode) before they take their place in the store.
const DIR_MODE = 0o700;
const FILE_MODE = 0o600;

export class BlobStore {
  readonly tmpDir: string;

  constructor(readonly root: string) {
    this.tmpDir = path.join(root, 'tmp');
    fs.mkdirSync(this.tmpDir, { recursive: true, mode: DIR_MODE });
  }

  pathOf(key: string): string {
    if (!/^[0-9a-f]{64}$/.test(key)) throw new Error(`Invalid blob key ${key}`);
    return path.join(this.root, key.slice(0, 2), key);
  }

  /** A fresh temporary path inside the store (same file system, so the final rename is atomic). */
  tempPath(suffix = ''): string {
    return path.join(this.tmpDir, `${Date.now()}-${randomBytes(6).toString('hex')}${suffix}`);
  }

  /** Moves a file that is already on disk (an upload) into the store; returns its key and size. */
  async adopt(file: string): Promise<{ key: string; size: number }> {
    const hash = createHash('sha256');
    await pipeline(fs.createReadStream(file), hash);
    const key = hash.digest('hex');
    const target = this.pathOf(key);
    await fsp.mkdir(path.dirname(target), { recursive: true, mode: DIR_MODE });
    const size = (await fsp.stat(file)).size;
    if (fs.existsSync(target)) await fsp.rm(file, { force: true });
    else {
      await fsp.chmod(file, FILE_MODE);
      await fsp.rename(file, target);
    }
    return { key, size };
  }

  async put(data: Buffer): Promise<{ key: string; size: number }> {
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

  read(key: string): Promise<Buffer> {
    return fsp.readFile(this.pathOf(key));
  }

  exists(key: string): boolean {
    return fs.existsSync(this.pathOf(key));
  }

  async remove(key: string): Promise<void> {
    await fsp.rm(this.pathOf(key), { force: true });
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
  async clearTemp(): Promise<void> {
    await fsp.rm(this.tmpDir, { recursive: true, force: true });
    await fsp.mkdir(this.tmpDir, { recursive: true, mode: DIR_MODE });
  }
}
