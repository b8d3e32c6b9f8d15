// An annotation whose value a reviewer typed because nothing could be read in its box (not even when
// the region was read again at a higher resolution): it keeps the box and the typed text, without
// offsets, and says it was typed rather than read.
import type { Kysely } from 'kysely';
import { columnTypes } from './columns.ts';

export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  await db.schema.alterTable('annotations').addColumn('is_typed', t.bool, (c) => c.notNull().defaultTo(t.flag(false))).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('annotations').dropColumn('is_typed').execute();
}
