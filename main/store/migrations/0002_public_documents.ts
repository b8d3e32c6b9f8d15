// Public documents (spec 1 and 5.1: their detail needs no authentication) and a place for an
// annotation's normalized value (spec 2.14), filled by the normalization rules when they run.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('documents').addColumn('is_public', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  // JSON text of the normalized value (number, string or boolean); null when not normalized (yet).
  await db.schema.alterTable('annotations').addColumn('normalized', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('annotations').dropColumn('normalized').execute();
  await db.schema.alterTable('documents').dropColumn('is_public').execute();
}
