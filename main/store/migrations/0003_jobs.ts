// The durable job queue (main/jobs/): one row per unit of background work, written in the same
// transaction as the document it belongs to, so that a crash or restart resumes it.
import { sql, type Kysely } from 'kysely';
import { columnTypes } from './columns.ts';

export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable('jobs')
    .addColumn('id', 'integer', t.id)
    .addColumn('kind', 'text', (c) => c.notNull())
    // Null for jobs that belong to no document; a deleted document takes its jobs with it.
    .addColumn('document_id', 'integer', (c) => c.references('documents.id').onDelete('cascade'))
    .addColumn('payload', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('queued'))
    // Enqueueing the same logical job twice is a no-op (NULLs are distinct: jobs without a key never clash).
    .addColumn('dedupe_key', 'text', (c) => c.unique())
    // How many times a runner started the job (a start cut short by a crash counts too).
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max_attempts', 'integer', (c) => c.notNull().defaultTo(5))
    // ISO 8601 UTC like every timestamp here, so that text comparison is time order.
    .addColumn('run_after', 'text', (c) => c.notNull())
    .addColumn('locked_by', 'text')
    .addColumn('locked_at', 'text')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text')
    .addCheckConstraint('jobs_state', sql`state in ('queued', 'running', 'done', 'failed')`)
    .execute();
  // The claim query: queued jobs that are due, oldest first.
  await db.schema.createIndex('jobs_due').on('jobs').columns(['state', 'run_after', 'id']).execute();
  await db.schema.createIndex('jobs_document').on('jobs').column('document_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('jobs').execute();
}
