// Pages of processed documents with their character boxes (stored compactly, one row per page), the
// searchable PDF of a document, and each project's OCR languages.
import { sql, type Kysely } from 'kysely';
import { columnTypes } from './columns.ts';

export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable('pages')
    .addColumn('id', 'integer', t.id)
    .addColumn('document_id', 'integer', (c) => c.notNull().references('documents.id').onDelete('cascade'))
    .addColumn('number', 'integer', (c) => c.notNull())
    .addColumn('width_pt', t.double, (c) => c.notNull())
    .addColumn('height_pt', t.double, (c) => c.notNull())
    .addColumn('rotation', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('image_blob', 'text')
    .addColumn('image_width', 'integer')
    .addColumn('image_height', 'integer')
    .addColumn('thumbnail_blob', 'text')
    .addColumn('has_text_layer', t.bool, (c) => c.notNull().defaultTo(t.flag(false)))
    .addColumn('ocr', t.bool, (c) => c.notNull().defaultTo(t.flag(false)))
    // [[offset, text, x0, x1, y0, y1, line_index], ...] in text order; top/bottom follow from height_pt.
    .addColumn('chars', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('pages_document_number', ['document_id', 'number'])
    .execute();
  await db.schema.alterTable('documents').addColumn('searchable_blob_key', 'text').execute();
  await db.schema
    .alterTable('projects')
    .addColumn('ocr_languages', t.json, (c) => c.notNull().defaultTo(sql`'["deu","eng"]'`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('projects').dropColumn('ocr_languages').execute();
  await db.schema.alterTable('documents').dropColumn('searchable_blob_key').execute();
  await db.schema.dropTable('pages').execute();
}
