// Import folders and the record of what their watcher uploaded (migration 0011).
import type { Db } from '../db.ts';
import { now } from '../db.ts';
import { codecs, type ImportFolderFileRow, type ImportFolderRow, type ImportFolderUpdate } from '../schema.ts';

const folders = codecs.importFolders;

export interface NewImportFolder {
  project_id: number;
  category_id: number | null;
  path: string;
  enabled: boolean;
  created_by: number;
}

export class ImportFolderRepository {
  constructor(private readonly db: Db) {}

  async insert(v: NewImportFolder): Promise<ImportFolderRow> {
    const t = now();
    const row = await this.db
      .insertInto('import_folders')
      .values(folders.write({ ...v, created_at: t, updated_at: t }))
      .returningAll()
      .executeTakeFirstOrThrow();
    return folders.read(row);
  }

  findById(id: number): Promise<ImportFolderRow | undefined> {
    return this.db.selectFrom('import_folders').selectAll().where('id', '=', id).executeTakeFirst().then(folders.read);
  }

  findByPath(p: string): Promise<ImportFolderRow | undefined> {
    return this.db.selectFrom('import_folders').selectAll().where('path', '=', p).executeTakeFirst().then(folders.read);
  }

  listByProject(projectId: number): Promise<ImportFolderRow[]> {
    return this.db.selectFrom('import_folders').selectAll().where('project_id', '=', projectId).orderBy('id').execute().then(folders.readAll);
  }

  /** What the watcher scans. */
  listEnabled(): Promise<ImportFolderRow[]> {
    return this.db.selectFrom('import_folders').selectAll().where('enabled', '=', 1).orderBy('id').execute().then(folders.readAll);
  }

  /** Settings changes (path, category, enabled) and the watcher's status columns. */
  async update(id: number, changes: Omit<ImportFolderUpdate, 'id' | 'project_id' | 'created_at' | 'updated_at'>, touch = true): Promise<void> {
    // The watcher's status writes leave updated_at alone: it tells when someone changed the settings.
    await this.db
      .updateTable('import_folders')
      .set(folders.write(touch ? { ...changes, updated_at: now() } : changes))
      .where('id', '=', id)
      .execute();
  }

  async remove(id: number): Promise<void> {
    await this.db.deleteFrom('import_folders').where('id', '=', id).execute();
  }

  /** Records an upload; call in the upload's own transaction (DocumentService.upload's `inTransaction`). */
  async recordUpload(folderId: number, fileName: string, contentHash: string, documentId: number): Promise<number> {
    const t = now();
    const { id } = await this.db
      .insertInto('import_folder_files')
      .values({ folder_id: folderId, file_name: fileName, content_hash: contentHash, document_id: documentId, moved_at: null, created_at: t })
      .returning('id')
      .executeTakeFirstOrThrow();
    await this.db
      .updateTable('import_folders')
      .set({ last_import_at: t, last_import_file: fileName, last_import_document_id: documentId })
      .where('id', '=', folderId)
      .execute();
    return id;
  }

  /** An upload of this file (name and bytes) that was made but whose file was not moved to done/ yet. */
  findUnmoved(folderId: number, fileName: string, contentHash: string): Promise<ImportFolderFileRow | undefined> {
    return this.db
      .selectFrom('import_folder_files')
      .selectAll()
      .where('folder_id', '=', folderId)
      .where('file_name', '=', fileName)
      .where('content_hash', '=', contentHash)
      .where('moved_at', 'is', null)
      .orderBy('id')
      .executeTakeFirst();
  }

  /** Every upload of a folder still waiting to be moved (the watcher's start-up tidying). */
  listUnmoved(folderId: number): Promise<ImportFolderFileRow[]> {
    return this.db.selectFrom('import_folder_files').selectAll().where('folder_id', '=', folderId).where('moved_at', 'is', null).orderBy('id').execute();
  }

  async markMoved(id: number): Promise<void> {
    await this.db.updateTable('import_folder_files').set({ moved_at: now() }).where('id', '=', id).execute();
  }
}
