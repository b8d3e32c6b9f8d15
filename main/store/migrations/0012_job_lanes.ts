// Per-document pipelining and fair queues (main/jobs/fairness.ts): a job's place in its kind's queue is its
// `priority` (higher first), computed when it is sent from the queue's "virtual time", so that a big batch of
// one project and uploader is interleaved with everyone else's work instead of holding it; a sync upload or a
// document a reviewer opens is raised above every batch. `fair_key` says whose work a job is (project and
// uploader). The outbox gets the key of the delivery job that writes each message, so that a mail retried by
// the queue (one attempt per job run) updates its row instead of adding a second one.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('jobs').addColumn('priority', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('jobs').addColumn('fair_key', 'text').execute();
  // The claim's order: queued jobs of a kind by priority (and the virtual-time look-ups of a send).
  await db.schema.createIndex('jobs_queue_order').on('jobs').columns(['state', 'kind', 'priority']).execute();
  await db.schema.alterTable('outbox').addColumn('delivery_key', 'text').execute();
  await db.schema.createIndex('outbox_delivery_key').on('outbox').column('delivery_key').unique().execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('outbox_delivery_key').execute();
  await db.schema.alterTable('outbox').dropColumn('delivery_key').execute();
  await db.schema.dropIndex('jobs_queue_order').execute();
  await db.schema.alterTable('jobs').dropColumn('fair_key').execute();
  await db.schema.alterTable('jobs').dropColumn('priority').execute();
}
