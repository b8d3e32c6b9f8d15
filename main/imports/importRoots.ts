// Where import folders may be: under the folders the operator lists in FOLIO_IMPORT_ROOTS (config.ts; on the
// desktop the user's home folder when unset, on a team server none, which turns import folders off), never in
// a hidden folder below them (~/.ssh, ~/.gnupg, ~/.config ...). Checked on the folder's real path (symbolic
// links resolved) when an administrator names it (services/importFolderService.ts) and again at every poll
// (importWatcher.ts), so a folder later replaced by a link elsewhere, or a root taken off the list, stops.
import fs from 'node:fs';
import path from 'node:path';

/** `p` resolved with realpath where it exists, else as written (a root that is gone holds nothing). */
function real(p: string): string {
  try {
    return fs.realpathSync.native(p);
  } catch {
    return path.resolve(p);
  }
}

/** Why the folder at real path `folder` may not be an import folder under `roots`, or undefined. */
export function outsideRoots(folder: string, roots: readonly string[]): string | undefined {
  if (roots.length === 0) {
    return 'Import folders are turned off on this installation: its operator lists the folders they may be in with FOLIO_IMPORT_ROOTS.';
  }
  for (const root of roots.map(real)) {
    const rel = path.relative(root, folder);
    if (rel.startsWith('..') || path.isAbsolute(rel)) continue;
    const hidden = rel.split(path.sep).find((part) => part.startsWith('.'));
    if (hidden) return `${folder} is in the hidden folder ${hidden}, which holds a program's files, not documents to import.`;
    return undefined;
  }
  return `${folder} is outside the folders import folders may be in (FOLIO_IMPORT_ROOTS: ${roots.join(path.delimiter)}).`;
}
