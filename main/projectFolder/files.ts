// Where a project folder's files come from: a folder on disk (`folio import-project <folder>`) or a ZIP of
// it (POST /api/v3/projects/import/). Both answer the same relative paths ("documents/44823/bbox.zip"),
// forward slashes, so the reader (read.ts) does not care which.
import fs from 'node:fs';
import path from 'node:path';
import { readZip, ZipReadError } from '../domain/zip.ts';
import { FolderError } from './errors.ts';

export interface FolderFiles {
  /** What the folder is called in messages (its path, or the ZIP's file name). */
  readonly label: string;
  /** The folder's own name (the project's name when its files do not give one). */
  readonly baseName: string;
  /** Every file, relative, with forward slashes. */
  list(): string[];
  /** A file's bytes, or undefined when there is none. */
  read(relative: string): Buffer | undefined;
}

/** More than this in one file of a project folder is refused (a page image, an original file, a bbox). */
export const MAX_FILE_BYTES = 512 * 1024 * 1024;

export function folderOnDisk(dir: string): FolderFiles {
  const root = path.resolve(dir);
  let stat;
  try {
    stat = fs.statSync(root);
  } catch {
    throw new FolderError(`There is no folder ${root}.`);
  }
  if (!stat.isDirectory()) throw new FolderError(`${root} is not a folder. Name the project folder (the one holding documents_meta.json5).`);
  const files: string[] = [];
  const walk = (rel: string) => {
    for (const entry of fs.readdirSync(path.join(root, rel), { withFileTypes: true })) {
      const child = rel ? `${rel}/${entry.name}` : entry.name;
      // Symbolic links are not followed: a folder cannot reach outside itself.
      if (entry.isDirectory()) walk(child);
      else if (entry.isFile()) files.push(child);
    }
  };
  walk('');
  const set = new Set(files);
  return {
    label: root,
    baseName: path.basename(root),
    list: () => files,
    read: (relative) => (set.has(relative) ? fs.readFileSync(path.join(root, ...relative.split('/'))) : undefined),
  };
}

/**
 * A ZIP of a project folder. Its files may sit at the top or inside one folder (a zipped folder):
 * the folder holding documents_meta.json5 is the project folder.
 */
export function folderInZip(zip: Buffer, fileName: string): FolderFiles {
  let entries;
  try {
    entries = readZip(zip, { maxEntrySize: MAX_FILE_BYTES });
  } catch (err) {
    if (err instanceof ZipReadError) throw new FolderError(`${fileName}: ${err.message}`);
    throw err;
  }
  const meta = entries.map((e) => e.name).filter((n) => n === 'documents_meta.json5' || n.endsWith('/documents_meta.json5'));
  const prefix = meta.length ? meta.sort((a, b) => a.length - b.length)[0].slice(0, -'documents_meta.json5'.length) : '';
  for (const e of entries) {
    if (e.name.split('/').includes('..') || e.name.startsWith('/')) throw new FolderError(`${fileName}: the entry "${e.name}" points outside the folder.`);
  }
  const byName = new Map(entries.filter((e) => e.name.startsWith(prefix)).map((e) => [e.name.slice(prefix.length), e]));
  const readEntry = (relative: string) => {
    const entry = byName.get(relative);
    if (!entry) return undefined;
    try {
      return entry.read();
    } catch (err) {
      if (err instanceof ZipReadError) throw new FolderError(`${fileName}: ${err.message}`);
      throw err;
    }
  };
  const base = prefix ? prefix.replace(/\/$/, '').split('/').pop()! : fileName.replace(/\.zip$/i, '');
  return { label: fileName, baseName: base, list: () => [...byName.keys()], read: readEntry };
}

/**
 * Writes a project folder to `dir`, which must not exist or be empty: into a temporary folder beside it,
 * renamed into place once every file is written, so a failed export leaves no half folder.
 */
export function writeFolderOnDisk(dir: string, entries: readonly { name: string; data: Buffer }[]): string {
  const target = path.resolve(dir);
  if (fs.existsSync(target)) {
    if (!fs.statSync(target).isDirectory()) throw new FolderError(`${target} is a file; name a new or empty folder to export into.`);
    if (fs.readdirSync(target).length) throw new FolderError(`${target} is not empty; name a new or empty folder to export into.`);
  }
  const parent = path.dirname(target);
  fs.mkdirSync(parent, { recursive: true });
  const temp = fs.mkdtempSync(path.join(parent, `.${path.basename(target)}-`));
  try {
    for (const e of entries) {
      const file = path.join(temp, ...e.name.split('/'));
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, e.data);
    }
    if (fs.existsSync(target)) fs.rmdirSync(target);
    fs.renameSync(temp, target);
  } catch (err) {
    fs.rmSync(temp, { recursive: true, force: true });
    throw err;
  }
  return target;
}
