// Imports of project folders (docs/project-folders.md): each imported folder's fingerprint (SHA-256 of its
// project files) and the project it became, written in the transaction that creates the project, so a
// second import of the same folder is told so instead of doubling the project. The project's deletion
// removes the record: the folder may then be imported again. `counts` (JSON) is what the import reported.
import type { Kysely } from 'kysely';
import { columnTypes } from './columns.ts';

export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable('project_imports')
    .addColumn('id', 'integer', t.id)
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('fingerprint', 'text', (c) => c.notNull().unique())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('counts', t.json, (c) => c.notNull())
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('project_imports_project').on('project_imports').column('project_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('project_imports').execute();
}
