// Idempotency keys of uploads (issue 28, item 10): a client that sends `Idempotency-Key` with a document
// upload and retries it (the answer was cut off by a crash or the network) gets the first document back
// instead of a second copy. A key is its user's (two users may send the same key), written in the same
// transaction as the document, so a key never exists without its document or the reverse; the document's
// deletion removes it. `fingerprint` says what was uploaded under the key (the file's SHA-256 and the
// project), so a key reused for another file is refused. Keys are kept 24 hours (documentRepository.ts).
import type { Kysely } from 'kysely';
import { columnTypes } from './columns.ts';

export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable('upload_keys')
    .addColumn('id', 'integer', t.id)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('document_id', 'integer', (c) => c.notNull().references('documents.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('upload_keys_user_key', ['user_id', 'key'])
    .execute();
  await db.schema.createIndex('upload_keys_created').on('upload_keys').column('created_at').execute();
  await db.schema.createIndex('upload_keys_document').on('upload_keys').column('document_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('upload_keys').execute();
}
