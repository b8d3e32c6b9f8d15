// First schema: accounts, projects with their categories, labels and label sets, documents and annotations.
import type { Kysely } from 'kysely';
import { columnTypes, createExtensions } from './columns.ts';

export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  await createExtensions(db, ['citext']);
  await db.schema
    .createTable('users')
    .addColumn('id', 'integer', t.id)
    .addColumn('email', t.caselessText, (c) => t.caseless(c.notNull().unique()))
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('is_admin', t.bool, (c) => c.notNull().defaultTo(t.flag(false)))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('auth_tokens')
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('nonce', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('projects')
    .addColumn('id', 'integer', t.id)
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('project_members')
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull().defaultTo('member'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('project_members_pk', ['project_id', 'user_id'])
    .execute();
  await db.schema.createIndex('project_members_user').on('project_members').column('user_id').execute();

  await db.schema
    .createTable('label_sets')
    .addColumn('id', 'integer', t.id)
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('has_multiple_sections', t.bool, (c) => c.notNull().defaultTo(t.flag(false)))
    .addColumn('is_default', t.bool, (c) => c.notNull().defaultTo(t.flag(false)))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('label_sets_project').on('label_sets').column('project_id').execute();

  // A category shares its id with its default label set: clients of this API address a category's
  // labels through that label set (`templates`), so both must be one id space.
  await db.schema
    .createTable('categories')
    .addColumn('id', 'integer', (c) => c.primaryKey().references('label_sets.id').onDelete('cascade'))
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('categories_project').on('categories').column('project_id').execute();

  await db.schema
    .createTable('label_set_categories')
    .addColumn('label_set_id', 'integer', (c) => c.notNull().references('label_sets.id').onDelete('cascade'))
    .addColumn('category_id', 'integer', (c) => c.notNull().references('categories.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('label_set_categories_pk', ['label_set_id', 'category_id'])
    .execute();
  await db.schema.createIndex('label_set_categories_category').on('label_set_categories').column('category_id').execute();

  await db.schema
    .createTable('labels')
    .addColumn('id', 'integer', t.id)
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('data_type', 'text', (c) => c.notNull().defaultTo('Text'))
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('threshold', t.double, (c) => c.notNull().defaultTo(0.1))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('labels_project').on('labels').column('project_id').execute();

  await db.schema
    .createTable('label_set_labels')
    .addColumn('label_set_id', 'integer', (c) => c.notNull().references('label_sets.id').onDelete('cascade'))
    .addColumn('label_id', 'integer', (c) => c.notNull().references('labels.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('label_set_labels_pk', ['label_set_id', 'label_id'])
    .execute();
  await db.schema.createIndex('label_set_labels_label').on('label_set_labels').column('label_id').execute();

  await db.schema
    .createTable('documents')
    .addColumn('id', 'integer', t.id)
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('category_id', 'integer', (c) => c.references('categories.id').onDelete('set null'))
    .addColumn('data_file_name', 'text', (c) => c.notNull())
    .addColumn('blob_key', 'text', (c) => c.notNull())
    .addColumn('file_size', t.bytes, (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('status_reason', 'text')
    .addColumn('dataset_status', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_reviewed', t.bool, (c) => c.notNull().defaultTo(t.flag(false)))
    .addColumn('assignee_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('callback_url', 'text')
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('category_confidence', t.double)
    .addColumn('category_is_revised', t.bool, (c) => c.notNull().defaultTo(t.flag(false)))
    .addColumn('number_of_pages', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('text', 'text')
    .addColumn('document_set_id', 'integer')
    .addColumn('ocr_time', t.double)
    .addColumn('extraction_time', t.double)
    .addColumn('processing_time', t.double)
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('documents_project').on('documents').columns(['project_id', 'created_at']).execute();
  await db.schema.createIndex('documents_category').on('documents').column('category_id').execute();
  await db.schema.createIndex('documents_blob').on('documents').column('blob_key').execute();

  await db.schema
    .createTable('annotation_sets')
    .addColumn('id', 'integer', t.id)
    .addColumn('document_id', 'integer', (c) => c.notNull().references('documents.id').onDelete('cascade'))
    .addColumn('label_set_id', 'integer', (c) => c.notNull().references('label_sets.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('annotation_sets_document').on('annotation_sets').columns(['document_id', 'label_set_id']).execute();

  await db.schema
    .createTable('annotations')
    .addColumn('id', 'integer', t.id)
    .addColumn('document_id', 'integer', (c) => c.notNull().references('documents.id').onDelete('cascade'))
    .addColumn('annotation_set_id', 'integer', (c) => c.notNull().references('annotation_sets.id').onDelete('cascade'))
    .addColumn('label_id', 'integer', (c) => c.notNull().references('labels.id').onDelete('cascade'))
    .addColumn('spans', t.json, (c) => c.notNull())
    .addColumn('offset_string', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('start_offset', 'integer')
    .addColumn('end_offset', 'integer')
    .addColumn('is_correct', t.bool, (c) => c.notNull().defaultTo(t.flag(false)))
    .addColumn('revised', t.bool, (c) => c.notNull().defaultTo(t.flag(false)))
    .addColumn('confidence', t.double)
    .addColumn('origin', 'text', (c) => c.notNull().defaultTo('human'))
    .addColumn('custom_offset_string', t.bool, (c) => c.notNull().defaultTo(t.flag(false)))
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('revised_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('annotations_document').on('annotations').columns(['document_id', 'id']).execute();
  await db.schema.createIndex('annotations_set').on('annotations').column('annotation_set_id').execute();
  await db.schema.createIndex('annotations_label').on('annotations').column('label_id').execute();

  await db.schema
    .createTable('missing_annotations')
    .addColumn('id', 'integer', t.id)
    .addColumn('document_id', 'integer', (c) => c.notNull().references('documents.id').onDelete('cascade'))
    .addColumn('label_id', 'integer', (c) => c.notNull().references('labels.id').onDelete('cascade'))
    .addColumn('label_set_id', 'integer', (c) => c.notNull().references('label_sets.id').onDelete('cascade'))
    .addColumn('annotation_set_id', 'integer', (c) => c.notNull().references('annotation_sets.id').onDelete('cascade'))
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('missing_annotations_once', ['annotation_set_id', 'label_id'])
    .execute();
  await db.schema.createIndex('missing_annotations_document').on('missing_annotations').column('document_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'missing_annotations', 'annotations', 'annotation_sets', 'documents', 'label_set_labels', 'labels',
    'label_set_categories', 'categories', 'label_sets', 'project_members', 'projects', 'auth_tokens', 'users',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
