// An annotation whose value a reviewer typed because nothing could be read in its box (not even when
// the region was read again at a higher resolution): it keeps the box and the typed text, without
// offsets, and says it was typed rather than read.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('annotations').addColumn('is_typed', 'integer', (c) => c.notNull().defaultTo(0)).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('annotations').dropColumn('is_typed').execute();
}
