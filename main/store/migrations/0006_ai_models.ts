// The AI models (extraction per category; categorization and splitting per project), the documents a
// split derives from one original (document sets), the project's splitting switch, and what the
// analysis after OCR records on a document (the proposed split, the extraction AI that read it).
import { sql, type Kysely } from 'kysely';
import { columnTypes } from './columns.ts';

export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable('ai_models')
    .addColumn('id', 'integer', t.id)
    .addColumn('kind', 'text', (c) => c.notNull().check(sqlIn(['extraction', 'categorization', 'splitting'])))
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    // Extraction AIs belong to a category; the other two kinds to the whole project.
    .addColumn('category_id', 'integer', (c) => c.references('categories.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('progress', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('stage', 'text')
    .addColumn('error', 'text')
    .addColumn('active', t.bool, (c) => c.notNull().defaultTo(t.flag(false)))
    .addColumn('origin', 'text', (c) => c.notNull().defaultTo('trained'))
    .addColumn('name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    /** JSON: the evaluation on the test documents when training ended (see main/ai/evaluation). */
    .addColumn('evaluation', t.json)
    /** JSON: what the model was trained from (documents, tokens, seconds). */
    .addColumn('training', t.json)
    .addColumn('model_blob', 'text')
    .addColumn('model_size', t.bytes)
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('started_at', 'text')
    .addColumn('finished_at', 'text')
    .execute();
  await db.schema.createIndex('ai_models_project').on('ai_models').columns(['project_id', 'kind']).execute();

  await db.schema
    .createTable('document_sets')
    .addColumn('id', 'integer', t.id)
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('original_blob_key', 'text', (c) => c.notNull())
    .addColumn('original_file_name', 'text', (c) => c.notNull())
    .addColumn('original_number_of_pages', 'integer', (c) => c.notNull())
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema.alterTable('projects').addColumn('splitting_enabled', t.bool, (c) => c.notNull().defaultTo(t.flag(false))).execute();
  await db.schema.alterTable('documents').addColumn('proposed_split', t.json).execute();
  await db.schema.alterTable('documents').addColumn('extraction_ai_id', 'integer').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('documents').dropColumn('extraction_ai_id').execute();
  await db.schema.alterTable('documents').dropColumn('proposed_split').execute();
  await db.schema.alterTable('projects').dropColumn('splitting_enabled').execute();
  await db.schema.dropTable('document_sets').execute();
  await db.schema.dropTable('ai_models').execute();
}

function sqlIn(values: string[]) {
  // A CHECK keeps a typo in a kind out of the table; the values are constants, never input.
  return sql.raw(`kind in (${values.map((v) => `'${v}'`).join(', ')})`);
}
