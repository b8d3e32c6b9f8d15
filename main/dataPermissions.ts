// The data folder is this user's alone: the database holds every document's text and every account's
// password hash, blobs/ the documents themselves, secret.key what API tokens are made from. Folders are
// 700 and files 600, so that other accounts on the same machine read nothing. Files made later are
// made that way where Folio makes them (the store, blobs); at start the whole folder is corrected, which
// also covers installs from before, and what other parts or other programs (the OCR cache, tessdata
// copied in by hand, Chromium's desktop/ profile) left with wider permissions.
// Windows has no such modes (its folders under %APPDATA% are per user already): nothing is done there.
import fs from 'node:fs';
import path from 'node:path';

export const PRIVATE_DIR = 0o700;
export const PRIVATE_FILE = 0o600;

const applies = (platform: NodeJS.Platform) => platform !== 'win32';

/** Creates `dir` (and its parents) if needed and makes it 700. */
export function ensurePrivateDir(dir: string, platform = process.platform): void {
  fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR });
  if (applies(platform)) fs.chmodSync(dir, PRIVATE_DIR);
}

/**
 * Creates an empty `file` with mode 600 if it does not exist. For the SQLite database before it is
 * opened: SQLite gives its -wal and -shm files the mode of the database file.
 */
export function ensurePrivateFile(file: string, platform = process.platform): void {
  fs.closeSync(fs.openSync(file, 'a', PRIVATE_FILE));
  if (applies(platform)) fs.chmodSync(file, PRIVATE_FILE);
}

/**
 * Makes `dataDir` 700 and everything in it 700 (folders) or 600 (files). Symbolic links are not
 * followed (what they point at is not Folio's to change); what vanishes meanwhile (a temporary file)
 * or cannot be changed (owned by someone else) is skipped. Answers how many entries it changed.
 */
export function securePermissions(dataDir: string, platform = process.platform): number {
  if (!applies(platform)) return 0;
  let changed = 0;
  /** Sets the mode `p` should have; true when it is a folder to go into. */
  const fix = (p: string): boolean => {
    let st: fs.Stats;
    try {
      st = fs.lstatSync(p);
    } catch {
      return false;
    }
    const isDir = st.isDirectory();
    if (!isDir && !st.isFile()) return false;
    const mode = isDir ? PRIVATE_DIR : PRIVATE_FILE;
    if ((st.mode & 0o777) !== mode) {
      try {
        fs.chmodSync(p, mode);
        changed++;
      } catch {
        // Not ours (another user's file in our folder) or gone: nothing a start-up can do about it.
      }
    }
    return isDir;
  };
  const walk = (dir: string) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (fix(p)) walk(p);
      } else if (e.isFile()) fix(p);
    }
  };
  if (fix(dataDir)) walk(dataDir);
  return changed;
}
