// Public links by an unguessable token (issue 29 item 4): a public document was read by its sequential id,
// so anyone could walk the ids, and a link never ended. Now a document made public gets a random token
// (24 random bytes, 192 bits, base64url: domain/publicLinks.ts) and an optional expiry; anonymous readers
// reach it only through /api/v3/public/<token>/. Making it public again issues a new token, making it
// private clears it. The token is kept as it is (not hashed): the project's members see and copy the link
// again from the document's detail, the way its URL is shown in the review toolbar. Documents that were
// public before this migration get a token here, so they stay public (by their new link).
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { columnTypes } from './columns.ts';

export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  await db.schema.alterTable('documents').addColumn('public_token', 'text').execute();
  await db.schema.alterTable('documents').addColumn('public_expires_at', 'text').execute();
  await db.schema.createIndex('documents_public_token').unique().on('documents').column('public_token').execute();
  const rows = await db.selectFrom('documents').select('id').where('is_public', '=', t.flag(true)).execute();
  for (const r of rows) {
    await db.updateTable('documents').set({ public_token: randomBytes(24).toString('base64url') }).where('id', '=', r.id).execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('documents_public_token').execute();
  await db.schema.alterTable('documents').dropColumn('public_expires_at').execute();
  await db.schema.alterTable('documents').dropColumn('public_token').execute();
}
