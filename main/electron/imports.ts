// Files handed to Folio from outside the window: chosen in the open dialog, or named on the command line
// of a second launch ("Open with Folio"). They are read here and passed to the renderer, which uploads
// them into the open project as it does files dropped on the window.
import fs from 'node:fs';
import path from 'node:path';
import type { ImportedFile } from '../../shared/desktopBridge.ts';

/**
 * The files a command line names: existing files only, not switches (Chromium's and Electron's start
 * with "-") and nothing of the app itself (in development argv holds the app's folder or entry file).
 */
export function filesFromArgv(argv: string[], cwd: string, appRoot: string): string[] {
  const root = path.resolve(appRoot);
  const files: string[] = [];
  for (const arg of argv.slice(1)) {
    if (!arg || arg.startsWith('-')) continue;
    const file = path.resolve(cwd, arg);
    if (file === root || file.startsWith(root + path.sep) || files.includes(file)) continue;
    try {
      if (fs.statSync(file).isFile()) files.push(file);
    } catch {
      /* not a file: an argument of something else */
    }
  }
  return files;
}

export interface ReadImports {
  files: ImportedFile[];
  /** Files that were not read, with why (shown to the user). */
  skipped: { file: string; reason: string }[];
}

/** Reads the files to hand over; one over the upload limit is skipped here rather than refused later. */
export async function readImports(paths: string[], maxBytes: number): Promise<ReadImports> {
  const out: ReadImports = { files: [], skipped: [] };
  for (const file of paths) {
    try {
      const stat = await fs.promises.stat(file);
      if (!stat.isFile()) {
        out.skipped.push({ file, reason: 'not a file' });
        continue;
      }
      if (stat.size > maxBytes) {
        out.skipped.push({ file, reason: `larger than the upload limit of ${Math.round(maxBytes / 1024 / 1024)} MB (FOLIO_MAX_UPLOAD_MB)` });
        continue;
      }
      const data = await fs.promises.readFile(file);
      // Its own ArrayBuffer: a Buffer may be a view into a shared pool, which IPC would copy whole.
      out.files.push({ name: path.basename(file), data: data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) as ArrayBuffer });
    } catch (err) {
      out.skipped.push({ file, reason: (err as Error).message });
    }
  }
  return out;
}
