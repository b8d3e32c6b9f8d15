// Import folders of a project: which folders the import watcher (main/imports/importWatcher.ts) polls,
// with which category, as whom. A folder reads files with Folio's own rights on the machine, so only
// administrators add, change or remove one (owners see them). A folder must be usable when it is named:
// absolute, an existing directory Folio can read and write in (it moves each file to done/ or failed/),
// under the operator's FOLIO_IMPORT_ROOTS (imports/importRoots.ts), and outside the data folder, whose
// files are Folio's own.
import fs from 'node:fs';
import path from 'node:path';
import type { Repos } from '../store/repositories/index.ts';
import type { ImportFolderRow, UserRow } from '../store/schema.ts';
import { PermissionError, NotFoundError, ValidationError } from '../domain/errors.ts';
import { outsideRoots } from '../imports/importRoots.ts';
import { isAdministrator, isMember, projectForOwner, projectForViewer } from './access.ts';

export interface ImportFolderInput {
  path?: string;
  category?: number | null;
  enabled?: boolean;
}

const MANAGE = "change the project's import folders";

/** Adding, changing and removing a folder: administrators only, whatever their role in the project (a stranger
 * gets projectForViewer's 404, which tells nothing of the project). */
async function forAdministrator(repos: Repos, user: UserRow, projectId: number): Promise<void> {
  await projectForViewer(repos, user, projectId);
  if (!isAdministrator(user)) {
    throw new PermissionError("Only an administrator can add, change or remove import folders: a folder reads files with Folio's own rights on this machine.");
  }
}

/**
 * The folder `raw` names, resolved (symbolic links followed), or a 400 on `path` saying what is wrong.
 * `dataDir` is Folio's data folder, which an import folder may not be in.
 */
export function checkImportPath(raw: string, dataDir: string, roots: readonly string[]): string {
  const bad = (message: string) => ValidationError.of('path', message);
  if (!path.isAbsolute(raw)) throw bad(`Give the folder's absolute path (such as /home/ada/Scans or C:\\Scans); "${raw}" is relative.`);
  let real: string;
  try {
    real = fs.realpathSync.native(raw);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') throw bad(`The folder ${raw} does not exist on the machine Folio runs on.`);
    throw bad(`Folio cannot reach ${raw} (${code ?? (err as Error).message}).`);
  }
  if (!fs.statSync(real).isDirectory()) throw bad(`${raw} is a file, not a folder.`);
  const outside = outsideRoots(real, roots);
  if (outside) throw bad(outside);
  try {
    // X: list the folder and reach its files; W: move them into done/ and failed/.
    fs.accessSync(real, fs.constants.R_OK | fs.constants.W_OK | fs.constants.X_OK);
  } catch {
    throw bad(`Folio may not read and write in ${raw}: it needs both, to move each imported file into the done or failed subfolder.`);
  }
  let data: string;
  try {
    data = fs.realpathSync.native(dataDir);
  } catch {
    data = path.resolve(dataDir);
  }
  const rel = path.relative(data, real);
  if (rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel))) {
    throw bad(`${raw} is inside Folio's data folder (${dataDir}), whose files are Folio's own; choose a folder outside it.`);
  }
  return real;
}

export class ImportFolderService {
  constructor(
    private readonly repos: Repos,
    private readonly dataDir: string,
    private readonly roots: readonly string[],
  ) {}

  async list(user: UserRow, projectId: number): Promise<ImportFolderRow[]> {
    await projectForOwner(this.repos, user, projectId, MANAGE);
    return this.repos.importFolders.listByProject(projectId);
  }

  async get(user: UserRow, projectId: number, id: number): Promise<ImportFolderRow> {
    await projectForOwner(this.repos, user, projectId, MANAGE);
    return this.folderOf(projectId, id);
  }

  async create(user: UserRow, projectId: number, input: ImportFolderInput & { path: string }): Promise<ImportFolderRow> {
    await forAdministrator(this.repos, user, projectId);
    // The imports are this user's uploads, and uploading needs membership (an administrator manages a
    // project without being a member).
    if (!(await isMember(this.repos, user, projectId))) {
      throw ValidationError.of(
        'non_field_errors',
        `Files of an import folder are uploaded as the user who adds it, who must be a member of the project; add yourself as a member first (POST /api/v3/projects/${projectId}/members/).`,
      );
    }
    const real = await this.usablePath(projectId, input.path);
    const categoryId = input.category == null ? null : await this.categoryOf(projectId, input.category);
    return this.repos.importFolders.insert({ project_id: projectId, category_id: categoryId, path: real, enabled: input.enabled ?? true, created_by: user.id });
  }

  async update(user: UserRow, projectId: number, id: number, input: ImportFolderInput): Promise<ImportFolderRow> {
    await forAdministrator(this.repos, user, projectId);
    const folder = await this.folderOf(projectId, id);
    const changes: { path?: string; category_id?: number | null; enabled?: boolean; last_error?: null; last_error_at?: null } = {};
    if (input.path !== undefined) {
      const real = await this.usablePath(projectId, input.path, folder.id);
      if (real !== folder.path) Object.assign(changes, { path: real, last_error: null, last_error_at: null });
    }
    if (input.category !== undefined) changes.category_id = input.category === null ? null : await this.categoryOf(projectId, input.category);
    if (input.enabled !== undefined) changes.enabled = input.enabled;
    await this.repos.importFolders.update(id, changes);
    return (await this.repos.importFolders.findById(id))!;
  }

  async remove(user: UserRow, projectId: number, id: number): Promise<void> {
    await forAdministrator(this.repos, user, projectId);
    await this.folderOf(projectId, id);
    await this.repos.importFolders.remove(id);
  }

  private async folderOf(projectId: number, id: number): Promise<ImportFolderRow> {
    const folder = await this.repos.importFolders.findById(id);
    if (!folder || folder.project_id !== projectId) throw new NotFoundError('Import folder not found.');
    return folder;
  }

  /** Checks the path and that no other import folder (of any project) watches it: two would race for each file. */
  private async usablePath(projectId: number, raw: string, self?: number): Promise<string> {
    const real = checkImportPath(raw, this.dataDir, this.roots);
    const other = await this.repos.importFolders.findByPath(real);
    if (other && other.id !== self) {
      // Another project's folder is not named: the caller may not be a member there.
      const whose = other.project_id === projectId ? 'of this project' : 'of another project';
      throw ValidationError.of('path', `${raw} is already an import folder ${whose}; a folder feeds one project.`);
    }
    return real;
  }

  private async categoryOf(projectId: number, categoryId: number): Promise<number> {
    const c = await this.repos.categories.findById(categoryId);
    if (!c || c.project_id !== projectId) throw ValidationError.of('category', `Invalid pk "${categoryId}" - object does not exist.`);
    return c.id;
  }
}
