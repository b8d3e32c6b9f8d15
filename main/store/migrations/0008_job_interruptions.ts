// A job cut short by the death of its process no longer spends one of its attempts (killing or closing
// Folio is not the document's fault); instead the queue remembers how far the job had got (its
// heartbeats in the current run) and how often in a row it was interrupted at that same point, so that a
// document that itself brings the process down, again and again at the same step, is set aside.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  // Safe points passed in the current run (heartbeats); 0 at each claim.
  await db.schema.alterTable('jobs').addColumn('progress', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  // Interruptions in a row at the same progress, and that progress (null: never interrupted).
  await db.schema.alterTable('jobs').addColumn('interruptions', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('jobs').addColumn('interrupted_at', 'integer').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const column of ['interrupted_at', 'interruptions', 'progress']) await db.schema.alterTable('jobs').dropColumn(column).execute();
}
