// Import folders (a Folio addition, not in the hosted spec): a folder on this machine that
// main/imports/importWatcher.ts polls, uploading each complete file into a project as the user who added
// the folder. `import_folder_files` records every upload the watcher made, written in the same
// transaction as the document, so a file uploaded but not yet moved to done/ when Folio stopped is moved,
// not uploaded again, on the next start.
import type { Kysely } from 'kysely';
import { columnTypes } from './columns.ts';

export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable('import_folders')
    .addColumn('id', 'integer', t.id)
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    // A removed category leaves the folder importing without one rather than removing the folder.
    .addColumn('category_id', 'integer', (c) => c.references('categories.id').onDelete('set null'))
    // Absolute and resolved (symbolic links followed): two records never name the same folder.
    .addColumn('path', 'text', (c) => c.notNull().unique())
    .addColumn('enabled', t.bool, (c) => c.notNull().defaultTo(t.flag(true)))
    // The uploader of every imported document; null once that account is removed (the watcher then
    // reports the folder instead of importing as nobody).
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    // The last scan that read the folder (written at most once a minute: see the watcher).
    .addColumn('last_scan_at', 'text')
    // The latest problem: the folder could not be read, or a file was refused (then moved to failed/).
    .addColumn('last_error', 'text')
    .addColumn('last_error_at', 'text')
    .addColumn('last_import_at', 'text')
    .addColumn('last_import_file', 'text')
    .addColumn('last_import_document_id', 'integer', (c) => c.references('documents.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('import_folders_project').on('import_folders').columns(['project_id', 'id']).execute();

  await db.schema
    .createTable('import_folder_files')
    .addColumn('id', 'integer', t.id)
    .addColumn('folder_id', 'integer', (c) => c.notNull().references('import_folders.id').onDelete('cascade'))
    .addColumn('file_name', 'text', (c) => c.notNull())
    /** SHA-256 of the bytes uploaded (the document's blob key). */
    .addColumn('content_hash', 'text', (c) => c.notNull())
    .addColumn('document_id', 'integer', (c) => c.references('documents.id').onDelete('set null'))
    /** Null while the file still waits in the folder to be moved to done/. */
    .addColumn('moved_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('import_folder_files_pending').on('import_folder_files').columns(['folder_id', 'file_name', 'content_hash']).execute();
  await db.schema.createIndex('import_folder_files_document').on('import_folder_files').column('document_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('import_folder_files').execute();
  await db.schema.dropTable('import_folders').execute();
}
