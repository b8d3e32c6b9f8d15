// Jobs of the durable queue: insert with de-duplication, the atomic claim, and the state changes a
// runner makes. Every change to a running job names its owner, so that a runner that lost a job
// (deleted with its document, or re-queued after its process was presumed dead) changes nothing.
import { sql, type UpdateObject } from 'kysely';
import type { Db } from '../db.ts';
import { now } from '../db.ts';
import type { Database, JobRow } from '../schema.ts';
import { isPostgres } from '../dialect.ts';

export interface NewJob {
  kind: string;
  documentId: number | null;
  /** JSON text. */
  payload: string;
  dedupeKey: string | null;
  maxAttempts: number;
  /** Whose work it is: jobs of one key keep their order, keys take turns (see placeInQueue). */
  fairKey?: string | null;
  /** Ahead of every batch (URGENT_PRIORITY). */
  urgent?: boolean;
  /**
   * Its place, when the caller worked it out (placeInQueue) outside this transaction: PostgreSQL's
   * serializable transactions would otherwise fail each other, every send reading the queue the others add to.
   */
  priority?: number;
  /** Due at this ISO time rather than at once. */
  runAfter?: string;
}

/**
 * Added to the priority of a job someone waits for (a sync upload, a document a reviewer opened): above
 * every batch's place, whatever its virtual time. Fits PostgreSQL's integer beside any virtual time a
 * queue reaches (it falls by one a job of a backlog, and starts again at 0 when its kind's queue is empty).
 */
export const URGENT_PRIORITY = 1_000_000_000;
/** Urgent jobs' priorities lie above this (their virtual time below 0 is added to URGENT_PRIORITY). */
export const URGENT_FLOOR = URGENT_PRIORITY / 2;
/**
 * A new job's place from its key's last waiting place (`own`) and the queue's head (placeInQueue), both
 * among the non-urgent waiting jobs of its kind; null when there is none.
 */
export function placeAfter(own: number | string | null, head: number | string | null): number {
  if (own !== null) return Number(own) - 1;
  return head === null ? 0 : Math.min(0, Number(head));
}

/** The statement placeInQueue runs, for a queue that reads it on a connection of its own (pgBossQueue.ts). */
export const PLACE_SQL =
  `select (select min(priority) from jobs where kind = $1 and state = 'queued' and priority < $3 and fair_key = $2) as own, ` +
  `(select max(priority) from jobs where kind = $1 and state = 'queued' and priority < $3) as head`;

export const isUrgent = (job: Pick<JobRow, 'priority'>) => job.priority >= URGENT_FLOOR;

/** Keeps error texts (stacks of deep failures) from bloating the table. */
const MAX_ERROR_CHARS = 4000;
const errorText = (error: string) => error.slice(0, MAX_ERROR_CHARS);

export class JobRepository {
  private readonly postgres: boolean;

  /**
   * Where its statements go: the database, or a unit of work's transaction. The PostgreSQL queue
   * (main/jobs/pgBossQueue.ts) writes a job's pg-boss message there, so that both commit together.
   */
  constructor(readonly db: Db) {
    this.postgres = isPostgres(db);
  }

  /** Inserts the job, or returns the one already enqueued under the same dedupe key (`created: false`). */
  async insert(job: NewJob): Promise<{ job: JobRow; created: boolean }> {
    const t = now();
    const priority = job.priority ?? (await this.placeInQueue(job.kind, job.fairKey ?? null)) + (job.urgent ? URGENT_PRIORITY : 0);
    const inserted = await this.db
      .insertInto('jobs')
      .values({
        kind: job.kind,
        document_id: job.documentId,
        payload: job.payload,
        state: 'queued',
        dedupe_key: job.dedupeKey,
        attempts: 0,
        max_attempts: job.maxAttempts,
        priority,
        fair_key: job.fairKey ?? null,
        run_after: job.runAfter ?? t,
        created_at: t,
        updated_at: t,
      })
      .onConflict((oc) => oc.column('dedupe_key').doNothing())
      .returningAll()
      .executeTakeFirst();
    if (inserted) return { job: inserted, created: true };
    const existing = await this.db.selectFrom('jobs').selectAll().where('dedupe_key', '=', job.dedupeKey).executeTakeFirstOrThrow();
    return { job: existing, created: false };
  }

  /**
   * The place of a new job of `fairKey` in its kind's queue (higher runs first): fair queueing by virtual
   * time. A key with jobs waiting goes one place after its last one, so its jobs keep the order they were
   * sent in; a key with none starts at the place of the queue's head (the highest waiting), so it takes
   * its turn beside a backlog instead of behind it, and a backlog sent while others wait is interleaved
   * with theirs one job each. Jobs without a key queue at 0 (their age decides among them).
   */
  async placeInQueue(kind: string, fairKey: string | null): Promise<number> {
    if (fairKey === null) return 0;
    const waiting = this.db.selectFrom('jobs').where('kind', '=', kind).where('state', '=', 'queued').where('priority', '<', URGENT_FLOOR);
    const own = await waiting.where('fair_key', '=', fairKey).select(sql<number | null>`min(priority)`.as('p')).executeTakeFirst();
    const head = await waiting.select(sql<number | null>`max(priority)`.as('p')).executeTakeFirst();
    return placeAfter(own?.p ?? null, head?.p ?? null);
  }

  /** Raises the queued jobs of a document above every batch (URGENT_PRIORITY); returns them as they are now. */
  expedite(documentId: number): Promise<JobRow[]> {
    return this.db
      .updateTable('jobs')
      .set((eb) => ({ priority: eb('priority', '+', URGENT_PRIORITY), updated_at: now() }))
      .where('document_id', '=', documentId)
      .where('state', '=', 'queued')
      .where('priority', '<', URGENT_FLOOR)
      .returningAll()
      .execute();
  }

  findById(id: number): Promise<JobRow | undefined> {
    return this.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst();
  }

  listByDocument(documentId: number): Promise<JobRow[]> {
    return this.db.selectFrom('jobs').selectAll().where('document_id', '=', documentId).orderBy('id').execute();
  }

  /** Jobs not finished yet (queued or running), of one document or of all. */
  async countOpen(documentId?: number): Promise<number> {
    let q = this.db.selectFrom('jobs').select(sql<number>`count(*)`.as('n')).where('state', 'in', ['queued', 'running']);
    if (documentId !== undefined) q = q.where('document_id', '=', documentId);
    return Number((await q.executeTakeFirstOrThrow()).n);
  }

  /**
   * Takes up to `limit` due jobs of these kinds for `owner`, and counts the attempt: jobs never tried first,
   * by their place (priority: urgent ones, then each key's turn, see placeInQueue) and then age, then
   * retries, so that files failing again and again never hold back a new upload.
   * One UPDATE ... RETURNING: SQLite runs a statement as one transaction, so two runners can never
   * claim the same row. On PostgreSQL the subquery locks the rows it picks (FOR UPDATE SKIP LOCKED): two
   * runners claiming at once take different jobs instead of the same one twice.
   */
  async claim(owner: string, kinds: string[], limit: number): Promise<JobRow[]> {
    if (!kinds.length || limit <= 0) return [];
    const t = now();
    const rows = await this.db
      .updateTable('jobs')
      .set((eb) => ({ state: 'running', attempts: eb('attempts', '+', 1), progress: 0, locked_by: owner, locked_at: t, updated_at: t }))
      .where('id', 'in', (eb) =>
        eb
          .selectFrom('jobs')
          .select('id')
          .where('state', '=', 'queued')
          .where('run_after', '<=', t)
          .where('kind', 'in', kinds)
          .orderBy(sql`attempts > 0`)
          .orderBy('priority', 'desc')
          .orderBy('id')
          .limit(limit)
          .$if(this.postgres, (q) => q.forUpdate().skipLocked()),
      )
      .returningAll()
      .execute();
    // RETURNING gives no order guarantee.
    return rows.sort((a, b) => a.id - b.id);
  }

  /**
   * Takes this one job for `owner` if it is queued (due or not), and counts the attempt: the PostgreSQL
   * queue, whose messages say which job a worker runs. Undefined when it is not queued (any more).
   */
  claimById(id: number, owner: string): Promise<JobRow | undefined> {
    const t = now();
    return this.db
      .updateTable('jobs')
      .set((eb) => ({ state: 'running', attempts: eb('attempts', '+', 1), progress: 0, locked_by: owner, locked_at: t, updated_at: t }))
      .where('id', '=', id)
      .where('state', '=', 'queued')
      .returningAll()
      .executeTakeFirst();
  }

  /** When the next queued job of these kinds becomes due (it may be due already). */
  async nextDue(kinds: string[]): Promise<string | undefined> {
    if (!kinds.length) return undefined;
    const r = await this.db
      .selectFrom('jobs')
      .select(sql<string | null>`min(run_after)`.as('t'))
      .where('state', '=', 'queued')
      .where('kind', 'in', kinds)
      .executeTakeFirst();
    return r?.t ?? undefined;
  }

  /** Running jobs of these kinds whose owner is none of `liveOwners`: their process died before finishing them. */
  listAbandoned(liveOwners: string[], kinds: string[]): Promise<JobRow[]> {
    if (!kinds.length) return Promise.resolve([]);
    let q = this.db.selectFrom('jobs').selectAll().where('state', '=', 'running').where('kind', 'in', kinds);
    if (liveOwners.length) q = q.where('locked_by', 'not in', liveOwners);
    return q.orderBy('id').execute();
  }

  /** Records that the owner is still at work, one safe point further; false when the job is no longer its own. */
  async touch(id: number, owner: string): Promise<boolean> {
    const t = now();
    return this.changeRunning(id, owner, { locked_at: t, updated_at: t, progress: sql<number>`progress + 1` });
  }

  async markDone(id: number, owner: string): Promise<boolean> {
    const t = now();
    return this.changeRunning(id, owner, { state: 'done', locked_by: null, locked_at: null, updated_at: t, finished_at: t });
  }

  async markFailed(id: number, owner: string, error: string): Promise<boolean> {
    const t = now();
    return this.changeRunning(id, owner, { state: 'failed', locked_by: null, locked_at: null, last_error: errorText(error), updated_at: t, finished_at: t });
  }

  /** Back to the queue, due at `runAfter` (a retry after a failure, or a job whose process died). */
  async requeue(id: number, owner: string, runAfter: string, error: string): Promise<boolean> {
    return this.changeRunning(id, owner, { state: 'queued', locked_by: null, locked_at: null, run_after: runAfter, last_error: errorText(error), updated_at: now() });
  }

  /**
   * Back to the queue after its process died, the attempt given back: `interruptions` in a row at
   * progress `at` (see JobRunner.start); due at once, or at `runAfter` (a suspect waits: runJob.ts).
   */
  async requeueInterrupted(id: number, owner: string, interruptions: number, at: number, error: string, runAfter?: string): Promise<boolean> {
    const t = now();
    return this.changeRunning(id, owner, {
      state: 'queued', attempts: sql<number>`case when attempts > 0 then attempts - 1 else 0 end`, progress: 0, interruptions, interrupted_at: at,
      locked_by: null, locked_at: null, run_after: runAfter ?? t, last_error: errorText(error), updated_at: t,
    });
  }

  /** Back to the queue, due at `runAfter`, without counting the attempt: the handler gave its turn back (NotNowError). */
  async defer(id: number, owner: string, runAfter: string, reason: string): Promise<boolean> {
    return this.changeRunning(id, owner, {
      state: 'queued', attempts: sql<number>`case when attempts > 0 then attempts - 1 else 0 end`, locked_by: null, locked_at: null,
      run_after: runAfter, last_error: errorText(reason), updated_at: now(),
    });
  }

  /**
   * Frees the job's dedupe key (the job itself goes on): a later send with the same key makes a new job.
   * The continuous learning's debounce: sends join the waiting job until it starts, then start the next.
   */
  async releaseDedupeKey(id: number): Promise<void> {
    await this.db.updateTable('jobs').set({ dedupe_key: null, updated_at: now() }).where('id', '=', id).execute();
  }

  /**
   * Open (queued or running) urgent jobs of these kinds: someone waits for them (a sync upload, a retry, a
   * document a reviewer opened). Trainings wait while there is any (main/ai/trainingJob.ts).
   */
  async countUrgentOpen(kinds: string[]): Promise<number> {
    if (!kinds.length) return 0;
    const r = await this.db
      .selectFrom('jobs')
      .select(sql<number>`count(*)`.as('n'))
      .where('state', 'in', ['queued', 'running'])
      .where('kind', 'in', kinds)
      .where('priority', '>=', URGENT_FLOOR)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  /** Back to the queue at once, without counting the attempt: the runner stopped it at a safe point. */
  async release(id: number, owner: string): Promise<boolean> {
    const t = now();
    const r = await this.db
      .updateTable('jobs')
      .set((eb) => ({ state: 'queued', attempts: eb('attempts', '-', 1), locked_by: null, locked_at: null, run_after: t, updated_at: t }))
      .where('id', '=', id)
      .where('state', '=', 'running')
      .where('locked_by', '=', owner)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  private async changeRunning(id: number, owner: string, changes: UpdateObject<Database, 'jobs'>): Promise<boolean> {
    const r = await this.db
      .updateTable('jobs')
      .set(changes)
      .where('id', '=', id)
      .where('state', '=', 'running')
      .where('locked_by', '=', owner)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }
}
