// Which job queue a core runs on, by its store: on SQLite the queue of the data folder (jobQueue.ts), on a
// team server's PostgreSQL pg-boss between every process on the database (pgBossQueue.ts), ready for the
// services to send through before any worker starts.
import type { Store } from '../store/db.ts';
import type { Repos, UnitOfWork } from '../store/repositories/index.ts';
import type { JobQueue } from './queue.ts';
import { SqliteJobQueue } from './jobQueue.ts';
import { JOB_KINDS } from './registry.ts';

export interface OpenJobQueueOptions {
  store: Pick<Store, 'dialect'>;
  /** The PostgreSQL database (FOLIO_DATABASE_URL), when the store is there. */
  databaseUrl?: string;
  repos: Repos;
  uow: UnitOfWork;
  log: (message: string, error?: unknown) => void;
}

export async function openJobQueue({ store, databaseUrl, repos, uow, log }: OpenJobQueueOptions): Promise<JobQueue> {
  if (store.dialect !== 'postgres') return new SqliteJobQueue({ repos, uow, log });
  if (!databaseUrl) throw new Error('The PostgreSQL job queue needs the database URL the store was opened with.');
  // Loaded only on a team server: pg-boss is not needed by a desktop's start.
  const { PgBossJobQueue } = await import('./pgBossQueue.ts');
  const queue = new PgBossJobQueue({ url: databaseUrl, repos, uow, log });
  try {
    // pg-boss's schema and a queue per kind; from here on a sync upload hears of job ends from every process.
    await queue.start(JOB_KINDS);
  } catch (err) {
    await queue.close().catch(() => {});
    throw err;
  }
  return queue;
}
