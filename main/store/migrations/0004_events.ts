// Events (spec 6): every attempt to deliver a completion callback, and the outbox of emails
// (sent through SMTP when one is configured, otherwise kept here for the API to list).
import type { Kysely } from 'kysely';
import { columnTypes } from './columns.ts';

export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable('callback_attempts')
    .addColumn('id', 'integer', t.id)
    .addColumn('document_id', 'integer', (c) => c.notNull().references('documents.id').onDelete('cascade'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('attempt', 'integer', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('error', 'text')
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('callback_attempts_document').on('callback_attempts').columns(['document_id', 'id']).execute();

  await db.schema
    .createTable('outbox')
    .addColumn('id', 'integer', t.id)
    // Compared with users.email (collate nocase) when a user lists their own messages.
    .addColumn('to_address', t.caselessText, (c) => t.caseless(c.notNull()))
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('html', 'text')
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('document_id', 'integer', (c) => c.references('documents.id').onDelete('set null'))
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('queued'))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('sent_at', 'text')
    .execute();
  await db.schema.createIndex('outbox_to_address').on('outbox').columns(['to_address', 'id']).execute();
  // Without it, deleting a document would scan the outbox to null its references.
  await db.schema.createIndex('outbox_document').on('outbox').column('document_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('outbox').execute();
  await db.schema.dropTable('callback_attempts').execute();
}
