// Projects in and out in the SDK's project-folder layout (main/projectFolder, docs/project-folders.md):
// import as a new project (any signed-in user, who becomes its owner, as for POST projects/; the command
// line names the owner), export for the project's members. The rules of the layout live in main/projectFolder.
import fsp from 'node:fs/promises';
import type { Repos, UnitOfWork } from '../store/repositories/index.ts';
import type { BlobStore } from '../blobs/blobStore.ts';
import type { UserRow } from '../store/schema.ts';
import { NotFoundError, ValidationError } from '../domain/errors.ts';
import type { UploadedFile } from './documentService.ts';
import { projectForMember } from './access.ts';
import { folderInZip, folderOnDisk, writeFolderOnDisk } from '../projectFolder/files.ts';
import { importProjectFolder, type AfterDocumentHook, type ImportReport } from '../projectFolder/importProject.ts';
import { projectFolderEntries, projectFolderZip, type ExportCounts } from '../projectFolder/exportProject.ts';

export class ProjectFolderService {
  constructor(
    private readonly repos: Repos,
    private readonly uow: UnitOfWork,
    private readonly blobs: BlobStore,
  ) {}

  /** POST projects/import/: a ZIP of a project folder (multipart part "file"). */
  async importZip(user: UserRow, file: UploadedFile | undefined, name?: string): Promise<ImportReport> {
    if (!file) throw ValidationError.of('file', 'No file was submitted: send the project folder as a ZIP in the part "file".');
    try {
      const bytes = await fsp.readFile(file.path);
      return await importProjectFolder(this.deps(), folderInZip(bytes, file.originalname || 'project.zip'), user, { name });
    } finally {
      await fsp.rm(file.path, { force: true });
    }
  }

  /** `folio import-project <folder>`: owned by `ownerEmail`, or the first administrator. */
  async adminImport(dir: string, opts: { ownerEmail?: string; name?: string; afterDocument?: AfterDocumentHook } = {}): Promise<ImportReport> {
    const owner = opts.ownerEmail ? await this.repos.users.findByEmail(opts.ownerEmail) : (await this.repos.users.list()).find((u) => u.is_admin);
    if (!owner) throw new NotFoundError(opts.ownerEmail ? `No user with the email ${opts.ownerEmail}.` : 'There is no administrator to own the project: name its owner with --owner EMAIL.');
    return importProjectFolder(this.deps(), folderOnDisk(dir), owner, { name: opts.name, afterDocument: opts.afterDocument });
  }

  /** GET projects/<id>/export/project-folder.zip: the folder as a ZIP, for members. */
  async exportZip(user: UserRow, projectId: number): Promise<{ zip: Buffer; counts: ExportCounts }> {
    const project = await projectForMember(this.repos, user, projectId);
    const { entries, counts } = await projectFolderEntries(this.repos, this.blobs, project.id);
    return { zip: projectFolderZip(entries, `project-${project.id}`), counts };
  }

  /** `folio export-project <project-id> <folder>`. */
  async adminExport(projectId: number, dir: string): Promise<{ dir: string; counts: ExportCounts }> {
    if (!(await this.repos.projects.findById(projectId))) throw new NotFoundError(`No project with id ${projectId}.`);
    const { entries, counts } = await projectFolderEntries(this.repos, this.blobs, projectId);
    return { dir: writeFolderOnDisk(dir, entries), counts };
  }

  private deps() {
    return { repos: this.repos, uow: this.uow, blobs: this.blobs };
  }
}
