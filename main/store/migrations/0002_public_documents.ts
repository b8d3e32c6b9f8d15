// Public documents (spec 1 and 5.1: their detail needs no authentication) and a place for an
// annotation's normalized value (spec 2.14), filled by the normalization rules when they run.
import type { Kysely } from 'kysely';
import { columnTypes } from './columns.ts';

export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  await db.schema.alterTable('documents').addColumn('is_public', t.bool, (c) => c.notNull().defaultTo(t.flag(false))).execute();
  // JSON text of the normalized value (number, string or boolean); null when not normalized (yet).
  await db.schema.alterTable('annotations').addColumn('normalized', t.json).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('annotations').dropColumn('normalized').execute();
  await db.schema.alterTable('documents').dropColumn('is_public').execute();
}
