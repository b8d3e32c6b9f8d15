// `folio backup` and `folio restore`: one tar file holding a consistent copy of a data folder, taken
// while Folio runs.
//
// The database is copied with SQLite's online backup (better-sqlite3's db.backup()) in a single step,
// which reads one snapshot; the blobs are then copied by the list that snapshot refers to. Blobs added
// after the snapshot are left out (their documents are not in it); a blob the snapshot refers to but
// that was deleted meanwhile (its document deleted after the snapshot) makes the attempt start again
// from a new snapshot, so every file the copied database names is in the archive.
//
// Layout: `folio-backup.json` first (format, version, time of the snapshot, the size and SHA-256 of
// every other entry), then `folio.db`, `secret.key` (API tokens stay valid), `tessdata/*` (extra OCR
// languages) and `blobs/<xx>/<key>`. The archive is written to a temporary name beside the target,
// synced and renamed, so an interrupted backup never leaves a half archive under the name. It holds
// what the data folder holds (documents, password hashes, the token key): it is made 600, like them.
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp, { type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { appliedMigrations, openStore } from '../store/db.ts';
import { makeRepos } from '../store/repositories/index.ts';
import { migrations as knownMigrations } from '../store/migrations/index.ts';
import { referencedBlobKeys } from '../blobs/referenced.ts';
import { readTar, TarError, TarWriter } from './tar.ts';
import { PRIVATE_DIR, PRIVATE_FILE } from '../dataPermissions.ts';

export const MANIFEST = 'folio-backup.json';
const FORMAT = 'folio-backup';
const VERSION = 1;
/** Where `folio backup` records its last success, in the data folder (read by GET /api/v3/backup/). */
export const LAST_BACKUP_FILE = 'last-backup.json';
/** A deletion racing every attempt is not plausible; after this many, the cause is something else. */
const ATTEMPTS = 5;

/** A backup or restore that cannot be done, with a message for the person who asked. */
export class BackupError extends Error {}

interface ManifestEntry {
  path: string;
  size: number;
  sha256: string;
}

interface Manifest {
  format: typeof FORMAT;
  version: number;
  /** When the database snapshot was taken: the backup holds what was committed before it. */
  created_at: string;
  migrations: string[];
  entries: ManifestEntry[];
}

export interface BackupResult {
  file: string;
  createdAt: string;
  size: number;
  blobs: number;
}

export interface LastBackup {
  created_at: string;
  size: number;
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** Entries other than the database and the blobs: the instance key and extra OCR languages. */
const EXTRA = /^(secret\.key|tessdata\/[A-Za-z0-9_.-]{1,80})$/;
const BLOB = /^blobs\/([0-9a-f]{2})\/\1[0-9a-f]{62}$/;

async function extraFiles(dataDir: string): Promise<string[]> {
  const out: string[] = [];
  if (fs.existsSync(path.join(dataDir, 'secret.key'))) out.push('secret.key');
  const tess = path.join(dataDir, 'tessdata');
  if (fs.existsSync(tess)) {
    for (const f of (await fsp.readdir(tess, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name))) {
      if (f.isFile() && EXTRA.test(`tessdata/${f.name}`)) out.push(`tessdata/${f.name}`);
    }
  }
  return out;
}

async function hashFile(file: string): Promise<{ size: number; sha256: string }> {
  const data = await fsp.readFile(file);
  return { size: data.length, sha256: sha256(data) };
}

/** Copies the database with the online backup API, in one step: one consistent snapshot. */
async function snapshotDatabase(dbFile: string, target: string): Promise<void> {
  const source = new BetterSqlite3(dbFile, { fileMustExist: true });
  try {
    source.pragma('busy_timeout = 5000');
    // The default copies 100 pages per step and starts over whenever the running Folio commits between
    // steps; all pages in one step read a single snapshot and cannot be restarted by a busy server.
    await source.backup(target, { progress: () => 0x7fffffff });
  } finally {
    source.close();
  }
}

async function snapshotFacts(file: string): Promise<{ keys: string[]; migrations: string[] }> {
  const store = openStore(file);
  try {
    const keys = [...(await referencedBlobKeys(makeRepos(store.db)))].sort();
    return { keys, migrations: await appliedMigrations(store.db) };
  } finally {
    await store.close();
  }
}

/** A blob was deleted after the snapshot named it: this attempt cannot be completed. */
class BlobGone extends Error {}

async function openBlob(dataDir: string, key: string): Promise<FileHandle> {
  try {
    return await fsp.open(path.join(dataDir, 'blobs', key.slice(0, 2), key), 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new BlobGone(key);
    throw err;
  }
}

async function writeArchive(dataDir: string, stageDb: string, tmpFile: string, createdAt: string): Promise<{ blobs: number }> {
  const { keys, migrations } = await snapshotFacts(stageDb);
  const entries: ManifestEntry[] = [{ path: 'folio.db', ...(await hashFile(stageDb)) }];
  for (const rel of await extraFiles(dataDir)) entries.push({ path: rel, ...(await hashFile(path.join(dataDir, rel))) });
  for (const key of keys) {
    let size: number;
    try {
      size = (await fsp.stat(path.join(dataDir, 'blobs', key.slice(0, 2), key))).size;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new BlobGone(key);
      throw err;
    }
    // A blob's name is its SHA-256: the name is its checksum.
    entries.push({ path: `blobs/${key.slice(0, 2)}/${key}`, size, sha256: key });
  }
  const manifest: Manifest = { format: FORMAT, version: VERSION, created_at: createdAt, migrations, entries };

  const out = await fsp.open(tmpFile, 'w', PRIVATE_FILE);
  try {
    const tar = new TarWriter(out);
    await tar.add(MANIFEST, Buffer.from(JSON.stringify(manifest, null, 1)));
    for (const entry of entries) {
      const source = entry.path.startsWith('blobs/') ? await openBlob(dataDir, entry.sha256) : await fsp.open(entry.path === 'folio.db' ? stageDb : path.join(dataDir, entry.path), 'r');
      try {
        const hash = createHash('sha256');
        await tar.addFrom(entry.path, entry.size, source, (chunk) => hash.update(chunk));
        if (hash.digest('hex') !== entry.sha256) {
          throw new BackupError(`${path.join(dataDir, entry.path)} is damaged (its content does not match its checksum); the backup was not written.`);
        }
      } finally {
        await source.close();
      }
    }
    await tar.finish();
    await out.sync();
  } finally {
    await out.close();
  }
  return { blobs: keys.length };
}

async function syncDir(dir: string): Promise<void> {
  // Makes the rename durable; some platforms cannot open a folder for syncing, which is fine there.
  try {
    const fh = await fsp.open(dir, 'r');
    try {
      await fh.sync();
    } finally {
      await fh.close();
    }
  } catch {
    /* best effort */
  }
}

/** Writes a backup of `dataDir` to `outFile` (replacing an older backup there only once complete). */
export async function createBackup(dataDir: string, outFile: string): Promise<BackupResult> {
  const dbFile = path.join(dataDir, 'folio.db');
  if (!fs.existsSync(dbFile)) throw new BackupError(`There is no Folio data in ${dataDir} (no folio.db).`);
  const target = path.resolve(outFile);
  const dir = path.dirname(target);
  if (!fs.existsSync(dir)) throw new BackupError(`The folder ${dir} does not exist.`);
  if (fs.existsSync(target) && !fs.statSync(target).isFile()) throw new BackupError(`${target} exists and is not a file.`);
  const tag = `${process.pid}-${randomBytes(4).toString('hex')}`;
  const stage = path.join(dir, `.folio-backup-${tag}`);
  const tmpFile = `${target}.${tag}.tmp`;
  await fsp.mkdir(stage, { mode: PRIVATE_DIR });
  try {
    for (let attempt = 1; ; attempt++) {
      const stageDb = path.join(stage, `folio-${attempt}.db`);
      const createdAt = new Date().toISOString();
      await snapshotDatabase(dbFile, stageDb);
      try {
        const { blobs } = await writeArchive(dataDir, stageDb, tmpFile, createdAt);
        await fsp.rename(tmpFile, target);
        await syncDir(dir);
        const size = (await fsp.stat(target)).size;
        await recordLastBackup(dataDir, { created_at: createdAt, size });
        return { file: target, createdAt, size, blobs };
      } catch (err) {
        await fsp.rm(tmpFile, { force: true });
        if (!(err instanceof BlobGone)) throw err;
        if (attempt >= ATTEMPTS) throw new BackupError(`The file of blob ${err.message} disappeared during each of ${ATTEMPTS} attempts; the backup was not written.`);
      } finally {
        await fsp.rm(stageDb, { force: true });
      }
    }
  } finally {
    await fsp.rm(stage, { recursive: true, force: true });
  }
}

async function recordLastBackup(dataDir: string, last: LastBackup): Promise<void> {
  const file = path.join(dataDir, LAST_BACKUP_FILE);
  const tmp = `${file}.${process.pid}.tmp`;
  await fsp.writeFile(tmp, JSON.stringify(last), { mode: PRIVATE_FILE });
  await fsp.rename(tmp, file);
}

/** The last backup `folio backup` made of this data folder, or null (none, or an unreadable record). */
export function lastBackup(dataDir: string): LastBackup | null {
  try {
    const v = JSON.parse(fs.readFileSync(path.join(dataDir, LAST_BACKUP_FILE), 'utf8')) as Partial<LastBackup>;
    if (typeof v.created_at !== 'string' || Number.isNaN(Date.parse(v.created_at)) || typeof v.size !== 'number') return null;
    return { created_at: v.created_at, size: v.size };
  } catch {
    return null;
  }
}

// --- restore -------------------------------------------------------------------------------------

export interface RestoreResult {
  dataDir: string;
  createdAt: string;
  blobs: number;
}

function parseManifest(data: Buffer, archive: string): Manifest {
  let m: Partial<Manifest>;
  try {
    m = JSON.parse(data.toString('utf8'));
  } catch {
    throw new BackupError(`${archive} is damaged: its manifest is not readable.`);
  }
  if (m.format !== FORMAT) throw new BackupError(`${archive} is not a Folio backup.`);
  if (typeof m.version !== 'number' || m.version > VERSION) throw new BackupError(`${archive} was made by a newer Folio (backup format ${m.version}); this one reads format ${VERSION}.`);
  const valid =
    typeof m.created_at === 'string' &&
    Array.isArray(m.migrations) &&
    Array.isArray(m.entries) &&
    m.entries.every((e) => e && typeof e.path === 'string' && Number.isSafeInteger(e.size) && e.size >= 0 && /^[0-9a-f]{64}$/.test(e.sha256)) &&
    m.entries.some((e) => e.path === 'folio.db');
  if (!valid) throw new BackupError(`${archive} is damaged: its manifest is incomplete.`);
  for (const e of m.entries!) {
    if (e.path !== 'folio.db' && !EXTRA.test(e.path) && !BLOB.test(e.path)) throw new BackupError(`${archive} is damaged: it names an unexpected file ${JSON.stringify(e.path)}.`);
    if (BLOB.test(e.path) && !e.path.endsWith(e.sha256)) throw new BackupError(`${archive} is damaged: ${e.path} has another checksum than its name.`);
  }
  const unknown = m.migrations!.filter((name) => !knownMigrations.some((k) => k.name === name));
  if (unknown.length) throw new BackupError(`${archive} was made by a newer Folio (its database has migrations ${unknown.join(', ')}); restore it with that version.`);
  return m as Manifest;
}

async function isEmptyDir(dir: string): Promise<boolean> {
  try {
    return (await fsp.readdir(dir)).length === 0;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw err;
  }
}

/**
 * Restores `archive` into `dataDir`, which must be empty or not exist yet. Everything is unpacked and
 * checked in a folder beside it first; the data folder appears only once every checksum matched and
 * the database passed SQLite's integrity check, so a refused archive leaves nothing behind.
 */
export async function restoreBackup(archive: string, dataDir: string): Promise<RestoreResult> {
  const source = path.resolve(archive);
  const target = path.resolve(dataDir);
  if (!fs.existsSync(source) || !fs.statSync(source).isFile()) throw new BackupError(`There is no backup file ${source}.`);
  if (fs.existsSync(target) && !fs.statSync(target).isDirectory()) throw new BackupError(`${target} exists and is not a folder.`);
  if (!(await isEmptyDir(target))) throw new BackupError(`The data folder ${target} is not empty: restore into an empty or new folder.`);
  await fsp.mkdir(path.dirname(target), { recursive: true });
  const stage = path.join(path.dirname(target), `.folio-restore-${process.pid}-${randomBytes(4).toString('hex')}`);
  // Private from the start, as a data folder is (main/dataPermissions.ts): it becomes one.
  await fsp.mkdir(stage, { mode: PRIVATE_DIR });
  const fh = await fsp.open(source, 'r');
  try {
    const manifest = await unpack(fh, source, stage);
    checkDatabase(path.join(stage, 'folio.db'), source);
    // Checked again: something may have been put there while the archive was being unpacked.
    if (!(await isEmptyDir(target))) throw new BackupError(`The data folder ${target} is not empty: restore into an empty or new folder.`);
    await fsp.rm(target, { recursive: true, force: true });
    await fsp.rename(stage, target);
    await syncDir(path.dirname(target));
    return { dataDir: target, createdAt: manifest.created_at, blobs: manifest.entries.filter((e) => BLOB.test(e.path)).length };
  } finally {
    await fh.close();
    await fsp.rm(stage, { recursive: true, force: true });
  }
}

async function unpack(fh: FileHandle, source: string, stage: string): Promise<Manifest> {
  let manifest: Manifest | undefined;
  const expected = new Map<string, ManifestEntry>();
  try {
    for await (const entry of readTar(fh)) {
      if (!manifest) {
        if (entry.name !== MANIFEST || entry.size > 256 * 1024 * 1024) throw new BackupError(`${source} is not a Folio backup.`);
        const parts: Buffer[] = [];
        for await (const c of entry.chunks()) parts.push(c);
        manifest = parseManifest(Buffer.concat(parts), source);
        for (const e of manifest.entries) expected.set(e.path, e);
        continue;
      }
      const want = expected.get(entry.name);
      if (!want) throw new BackupError(`${source} is damaged: it holds ${JSON.stringify(entry.name)}, which its manifest does not list.`);
      expected.delete(entry.name);
      if (want.size !== entry.size) throw new BackupError(`${source} is damaged: ${entry.name} has ${entry.size} bytes, its manifest says ${want.size}.`);
      const file = path.join(stage, ...entry.name.split('/'));
      await fsp.mkdir(path.dirname(file), { recursive: true, mode: PRIVATE_DIR });
      const out = await fsp.open(file, 'wx', PRIVATE_FILE);
      const hash = createHash('sha256');
      try {
        for await (const c of entry.chunks()) {
          hash.update(c);
          await out.write(c);
        }
        await out.sync();
      } finally {
        await out.close();
      }
      if (hash.digest('hex') !== want.sha256) throw new BackupError(`${source} is damaged: ${entry.name} does not match its checksum.`);
    }
  } catch (err) {
    if (err instanceof TarError) throw new BackupError(manifest ? `${source} is damaged: ${err.message}` : `${source} is not a Folio backup (${err.message})`);
    throw err;
  }
  if (!manifest) throw new BackupError(`${source} is not a Folio backup (it is empty).`);
  if (expected.size) throw new BackupError(`${source} is damaged: ${expected.size} of its files are missing (${[...expected.keys()].slice(0, 3).join(', ')}${expected.size > 3 ? ', ...' : ''}).`);
  return manifest;
}

function checkDatabase(file: string, source: string): void {
  let db: BetterSqlite3.Database | undefined;
  try {
    db = new BetterSqlite3(file, { fileMustExist: true });
    const result = db.pragma('integrity_check', { simple: true });
    if (result !== 'ok') throw new BackupError(`${source} is damaged: its database fails SQLite's integrity check (${String(result)}).`);
  } catch (err) {
    if (err instanceof BackupError) throw err;
    throw new BackupError(`${source} is damaged: its database cannot be opened (${(err as Error).message}).`);
  } finally {
    db?.close();
  }
}
