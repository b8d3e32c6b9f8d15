// The import watcher: polls every enabled import folder (importFolderService.ts) and uploads each new,
// complete file through the same DocumentService.upload as an HTTP upload, as the user who added the
// folder and with its category; then moves the file to done/, or to failed/ with a <name>.error.txt
// when the upload refuses it.
//
// Polling, not fs.watch: change events do not arrive from network shares, and a scanner writing a file
// sends many. A file counts as complete when two polls in a row see the same size and modification time
// and it can be read; the bytes uploaded are a copy, checked unchanged against the file afterwards.
//
// Only regular files are read, and nothing leaves the folder's tree: symbolic links and special files (FIFOs,
// sockets, devices) are left where they are and reported, never followed or moved; a file is opened without
// following links; done/ and failed/ must be real subfolders; the folder itself must still be its real path
// under FOLIO_IMPORT_ROOTS (importRoots.ts) at every poll, and its user an administrator.
//
// Never twice: the upload is recorded (folder, file name, SHA-256) in the document's own transaction and
// marked once the file is in done/. A file found again with the same name and bytes and an unmarked
// record (Folio stopped, or the move failed, between the two) is moved without uploading it again.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Repos } from '../store/repositories/index.ts';
import type { ImportFolderRow, UserRow } from '../store/schema.ts';
import type { BlobStore } from '../blobs/blobStore.ts';
import type { DocumentService } from '../services/documentService.ts';
import type { DocumentUpload } from '../../shared/schemas/documents.ts';
import { HttpError, ValidationError } from '../domain/errors.ts';
import { FileRejectedError, FILE_FIELD } from '../pipeline/errors.ts';
import { outsideRoots } from './importRoots.ts';
import { logProblem } from '../log.ts';

export const DONE_DIR = 'done';
export const FAILED_DIR = 'failed';
export const ERROR_SUFFIX = '.error.txt';

/** Files still being written by a browser, an editor or a copy, which will be renamed when complete. */
const TEMP_SUFFIXES = ['.part', '.partial', '.tmp', '.temp', '.crdownload', '.download', '.swp'];
/** Files the operating system puts into folders. */
const SYSTEM_FILES = new Set(['thumbs.db', 'desktop.ini', 'icon\r']);
/** An empty file may be a scanner's placeholder it fills later: it waits this long before it counts. */
const EMPTY_FILE_GRACE_MS = 60_000;
/** last_scan_at is written at most this often (and after a scan that moved a file): a write per poll
 * would keep the store busy for nothing. */
const SCAN_STAMP_EVERY_MS = 60_000;

/** Whether a file name is never imported: hidden, an Office lock file, a temporary or system file. */
export function isIgnoredName(name: string): boolean {
  const lower = name.toLowerCase();
  return name.startsWith('.') || name.startsWith('~$') || name.endsWith('~') || SYSTEM_FILES.has(lower) || TEMP_SUFFIXES.some((s) => lower.endsWith(s));
}

/** `dir/name`, or `dir/stem (1).ext`, `(2)`... : a name free in `dir` (and, with `besides`, free with that suffix too). */
export async function freePath(dir: string, name: string, besides = ''): Promise<string> {
  const ext = path.extname(name);
  const stem = name.slice(0, name.length - ext.length);
  for (let i = 0; ; i++) {
    const candidate = path.join(dir, i === 0 ? name : `${stem} (${i})${ext}`);
    if (!(await exists(candidate)) && !(besides && (await exists(candidate + besides)))) return candidate;
  }
}

async function exists(p: string): Promise<boolean> {
  try {
    await fsp.lstat(p);
    return true;
  } catch {
    return false;
  }
}

async function sha256(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(fs.createReadStream(file), hash);
  return hash.digest('hex');
}

/** `folder/name`, made when missing; a link or file of that name is refused, so nothing is moved out of the folder. */
async function subfolder(folder: string, name: string): Promise<string> {
  const dir = path.join(folder, name);
  await fsp.mkdir(dir).catch((err: NodeJS.ErrnoException) => {
    if (err.code !== 'EEXIST') throw err;
  });
  if (!(await fsp.lstat(dir)).isDirectory()) throw new Error(`${name} in the folder is not a folder (a link or a file), and nothing is moved into it`);
  return dir;
}

/** O_NOFOLLOW where the platform has it (not Windows); O_NONBLOCK so that a FIFO put in a file's place never blocks the open. */
const NO_FOLLOW = (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0);

/** Copies the regular file `from` (as `st` saw it) to `to`, opened without following a link: one swapped in since the
 * listing fails (ELOOP), another kind of file or another file is refused. */
async function copyRegularFile(from: string, to: string, st: fs.Stats): Promise<void> {
  const handle = await fsp.open(from, fs.constants.O_RDONLY | NO_FOLLOW);
  try {
    const opened = await handle.stat();
    if (!opened.isFile() || opened.ino !== st.ino || opened.dev !== st.dev) throw Object.assign(new Error(`${from} changed since it was listed`), { code: 'ENOENT' });
    await pipeline(handle.createReadStream({ autoClose: false }), fs.createWriteStream(to, { flags: 'wx' }));
  } finally {
    await handle.close();
  }
}

const describe = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** Why the upload refused the file itself (it goes to failed/), or undefined for any other error (the file waits). */
export function refusalOf(err: unknown): string | undefined {
  if (err instanceof FileRejectedError) return err.message;
  if (err instanceof ValidationError && err.fields[FILE_FIELD]) return err.fields[FILE_FIELD].join(' ');
  if (err instanceof HttpError && (err.status === 413 || err.status === 415)) return err.message;
  return undefined;
}

export interface ImportWatcherDeps {
  repos: Repos;
  documents: DocumentService;
  blobs: BlobStore;
  pollMs: number;
  /** The HTTP upload's limit (FOLIO_MAX_UPLOAD_MB), which imports keep too. */
  maxUploadBytes: number;
  /** Where import folders may be (FOLIO_IMPORT_ROOTS): a folder outside them is not read. */
  roots: readonly string[];
  log?(message: string, error?: unknown): void;
}

interface Seen {
  size: number;
  mtimeMs: number;
}

/** What happened to one complete file. 'wait': it stays and is tried again at a later poll. */
type Outcome = 'done' | 'failed' | 'wait';

export class ImportWatcher {
  private timer: NodeJS.Timeout | undefined;
  private current: Promise<void> | undefined;
  private stopped = true;
  /** Per folder: its path and what the previous poll saw of each file (name -> size, mtime). */
  private readonly seen = new Map<number, { path: string; files: Map<string, Seen> }>();
  /** Folders whose unmarked upload records were checked against their files since the start. */
  private readonly tidied = new Set<string>();
  /** Per folder: the links and special files already reported (each once while it stays). */
  private readonly leftAlone = new Map<number, Set<string>>();
  /** Waiting for the end of the next scan (nextScan). */
  private waiters: (() => void)[] = [];

  constructor(private readonly deps: ImportWatcherDeps) {}

  get running(): boolean {
    return !this.stopped;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.schedule(0);
  }

  /**
   * Resolves when the next scan to start has ended (tests align with the polls through it: a file
   * changed right after one scan has changed before the next).
   */
  nextScan(): Promise<void> {
    return new Promise((resolve) => {
      const pending = this.current;
      // A scan under way started before this call: wait for the one after it.
      if (pending) void pending.then(() => this.waiters.push(resolve));
      else this.waiters.push(resolve);
    });
  }

  /** Stops polling; resolves once a scan under way has finished the file it was at. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.current;
  }

  private schedule(ms: number): void {
    this.timer = setTimeout(() => {
      this.current = this.scan()
        .catch((err) => this.log('scanning the import folders failed', err))
        .finally(() => {
          this.current = undefined;
          for (const resolve of this.waiters.splice(0)) resolve();
          if (!this.stopped) this.schedule(this.deps.pollMs);
        });
    }, ms);
  }

  private log(message: string, err?: unknown): void {
    (this.deps.log ?? ((m, e) => logProblem(`[folio] ${m}`, e)))(message, err);
  }

  /** One poll of every enabled folder. */
  private async scan(): Promise<void> {
    const folders = await this.deps.repos.importFolders.listEnabled();
    const ids = new Set(folders.map((f) => f.id));
    for (const id of this.seen.keys()) if (!ids.has(id)) this.seen.delete(id);
    for (const folder of folders) {
      if (this.stopped) return;
      try {
        await this.scanFolder(folder);
      } catch (err) {
        await this.problem(folder, `The folder could not be imported from: ${describe(err)}`, err);
      }
    }
  }

  private async scanFolder(folder: ImportFolderRow): Promise<void> {
    const { repos } = this.deps;
    const user = folder.created_by === null ? undefined : await repos.users.findById(folder.created_by);
    if (!user) {
      return this.problem(folder, 'The account that added this folder was removed, and imports are uploaded as that account: remove the folder and add it again.');
    }
    if (!user.is_admin) {
      return this.problem(folder, `${user.email}, who added this folder, is no longer an administrator, and only administrators' folders are read: an administrator removes the folder or adds it again.`);
    }
    if (!(await repos.projects.roleOf(folder.project_id, user.id))) {
      return this.problem(folder, `${user.email}, who added this folder, is no longer a member of the project, and imports are uploaded as them: add them again, or remove the folder and add it again as a member.`);
    }
    // The stored path is the folder's real path: a link put in its place, or a root taken off the list, stops it.
    const real = await fsp.realpath(folder.path).catch(() => folder.path);
    const outside = real === folder.path ? outsideRoots(real, this.deps.roots) : `${folder.path} has been replaced by a link to ${real}, which is not read.`;
    if (outside) return this.problem(folder, outside);
    let entries: fs.Dirent[];
    try {
      entries = await fsp.readdir(folder.path, { withFileTypes: true });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      return this.problem(folder, code === 'ENOENT' ? `The folder ${folder.path} does not exist (any more).` : `The folder ${folder.path} cannot be read: ${describe(err)}`);
    }
    const candidates = entries.filter((e) => !e.isDirectory() && !isIgnoredName(e.name));
    await this.reportLeftAlone(folder, candidates.filter((e) => !e.isFile()));
    const names = candidates.filter((e) => e.isFile()).map((e) => e.name);
    await this.tidy(folder, names);

    const previous = this.seen.get(folder.id);
    const before = previous?.path === folder.path ? previous.files : new Map<string, Seen>();
    const now = new Map<string, Seen>();
    let handled = false;
    for (const name of names) {
      if (this.stopped) break;
      const full = path.join(folder.path, name);
      let st: fs.Stats;
      try {
        st = await fsp.lstat(full);
      } catch {
        continue; // gone since the listing
      }
      if (!st.isFile()) continue; // replaced by a link or special file since the listing: reported at the next poll
      const seen = { size: st.size, mtimeMs: st.mtimeMs };
      const last = before.get(name);
      const settled = last !== undefined && last.size === st.size && last.mtimeMs === st.mtimeMs;
      if (!settled || (st.size === 0 && Date.now() - st.mtimeMs < EMPTY_FILE_GRACE_MS)) {
        now.set(name, seen);
        continue;
      }
      let outcome: Outcome;
      try {
        outcome = await this.importFile(folder, user, name, full, st);
      } catch (err) {
        await this.problem(folder, `${name} could not be imported and stays in the folder: ${describe(err)}`, err);
        outcome = 'wait';
      }
      if (outcome === 'wait') now.set(name, seen);
      else handled = true;
    }
    this.seen.set(folder.id, { path: folder.path, files: now });
    // Also after an import: the scan time shown beside it is not older than the import.
    if (handled || !folder.last_scan_at || Date.now() - Date.parse(folder.last_scan_at) >= SCAN_STAMP_EVERY_MS) {
      await repos.importFolders.update(folder.id, { last_scan_at: new Date().toISOString() }, false);
    }
  }

  /** Reports each symbolic link and special file once (while it stays): they are never read or moved. */
  private async reportLeftAlone(folder: ImportFolderRow, entries: fs.Dirent[]): Promise<void> {
    const before = this.leftAlone.get(folder.id) ?? new Set<string>();
    const now = new Set(entries.map((e) => e.name));
    this.leftAlone.set(folder.id, now);
    for (const e of entries) {
      if (before.has(e.name)) continue;
      const kind = e.isSymbolicLink() ? 'a symbolic link' : e.isFIFO() ? 'a named pipe (FIFO)' : e.isSocket() ? 'a socket' : 'a device file';
      await this.problem(folder, `${e.name} is ${kind}, not a file: Folio imports only regular files and leaves it where it is.`, undefined, true);
    }
  }

  /**
   * Once per folder and start: an unmarked upload record whose file is no longer in the folder was moved
   * (or taken away) before the mark was written; marking it keeps a later file of the same name and bytes
   * from being taken for it.
   */
  private async tidy(folder: ImportFolderRow, names: string[]): Promise<void> {
    const key = `${folder.id}:${folder.path}`;
    if (this.tidied.has(key)) return;
    const present = new Set(names);
    for (const rec of await this.deps.repos.importFolders.listUnmoved(folder.id)) {
      if (!present.has(rec.file_name)) await this.deps.repos.importFolders.markMoved(rec.id);
    }
    this.tidied.add(key);
  }

  private async importFile(folder: ImportFolderRow, user: UserRow, name: string, full: string, st: fs.Stats): Promise<Outcome> {
    const { repos, blobs, documents, maxUploadBytes } = this.deps;
    if (st.size > maxUploadBytes) {
      const mb = Math.round((maxUploadBytes / 1024 / 1024) * 10) / 10;
      return this.fail(folder, name, full, `The file is larger than this installation accepts (${mb} MB, FOLIO_MAX_UPLOAD_MB).`);
    }
    // A copy in the blob store's temporary folder, which the upload moves into the store as it would
    // multer's file; the original stays until it can be moved to done/.
    const tmp = blobs.tempPath('.import');
    try {
      try {
        await copyRegularFile(full, tmp, st);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        // Still held by its writer (Windows), or gone: a later poll tries again.
        if (code === 'ENOENT' || code === 'ELOOP' || code === 'EBUSY' || code === 'EACCES' || code === 'EPERM') return 'wait';
        throw err;
      }
      const copied = await fsp.stat(tmp);
      const again = await fsp.stat(full).catch(() => undefined);
      if (!again || again.size !== st.size || again.mtimeMs !== st.mtimeMs || copied.size !== st.size) return 'wait';

      const earlier = await repos.importFolders.findUnmoved(folder.id, name, await sha256(tmp));
      if (earlier) return this.moveDone(folder, name, full, earlier.id, earlier.document_id);

      let recordId: number | undefined;
      const input: DocumentUpload = { project: folder.project_id, ...(folder.category_id === null ? {} : { category: folder.category_id }) };
      try {
        const doc = await documents.upload(user, input, { path: tmp, originalname: name, size: st.size }, {
          inTransaction: async (r, row) => {
            recordId = await r.importFolders.recordUpload(folder.id, name, row.blob_key, row.id);
          },
        });
        return this.moveDone(folder, name, full, recordId!, doc.id);
      } catch (err) {
        const why = refusalOf(err);
        if (why === undefined) throw err;
        return this.fail(folder, name, full, why);
      }
    } finally {
      await fsp.rm(tmp, { force: true });
    }
  }

  private async moveDone(folder: ImportFolderRow, name: string, full: string, recordId: number, documentId: number | null): Promise<Outcome> {
    try {
      const dir = await subfolder(folder.path, DONE_DIR);
      await fsp.rename(full, await freePath(dir, name));
    } catch (err) {
      // Uploaded and recorded: the next polls move it, without uploading it again.
      await this.problem(folder, `${name} was imported (document ${documentId}) but could not be moved to ${DONE_DIR}/: ${describe(err)}. It is not imported again.`, err);
      return 'wait';
    }
    await this.deps.repos.importFolders.markMoved(recordId);
    return 'done';
  }

  /** Moves a refused file to failed/ with `<name>.error.txt` beside it saying why. */
  private async fail(folder: ImportFolderRow, name: string, full: string, why: string): Promise<Outcome> {
    try {
      const dir = await subfolder(folder.path, FAILED_DIR);
      const target = await freePath(dir, name, ERROR_SUFFIX);
      await fsp.rename(full, target);
      const text = `Folio did not import ${name} (import folder ${folder.path}, project ${folder.project_id}) on ${new Date().toISOString()}:\n${why}\n`;
      // 'wx': never through a link put there meanwhile.
      await fsp.writeFile(target + ERROR_SUFFIX, text, { flag: 'wx' });
    } catch (err) {
      await this.problem(folder, `${name} was refused (${why}) but could not be moved to ${FAILED_DIR}/: ${describe(err)}`, err);
      return 'wait';
    }
    await this.problem(folder, `${name} was not imported and is in ${FAILED_DIR}/: ${why}`, undefined, true);
    return 'failed';
  }

  /**
   * Records the folder's latest problem: once while it lasts (a poll finding the same one writes nothing),
   * but each refused file (`each`) anew.
   */
  private async problem(folder: ImportFolderRow, message: string, err?: unknown, each = false): Promise<void> {
    if (folder.last_error === message && !each) return;
    folder.last_error = message;
    this.log(`import folder ${folder.path}: ${message}`, err instanceof FileRejectedError ? undefined : err);
    await this.deps.repos.importFolders.update(folder.id, { last_error: message, last_error_at: new Date().toISOString() }, false);
  }
}
