// The job queue as the rest of Folio sees it: a few verbs, so that the team server's PostgreSQL queue
// (pgBossQueue.ts) stands in for the desktop's SQLite one (jobQueue.ts) without a caller changing; which one
// a core runs on: openQueue.ts. What a worker does with a job it holds is shared by both: runJob.ts.
//   send     a job, in the caller's transaction: it commits (or rolls back) with the rows it is about
//   handle   the kinds a worker runs, with their handlers (main/jobs/registry.ts registers Folio's)
//   start    a worker: resume what a dead process left, then take jobs
//   stop     a worker: take nothing more, let running handlers reach a safe point
//   settled  hear of each job's end, done or failed, after its commit (a worker's own jobs)
//   ended    the same for every job on the queue, whichever process ran it (what a waiting upload hears)
// The kinds Folio sends and their requests are listed in main/jobs/kinds.ts.
//
// THE HANDLER CONTRACT (read before writing a handler):
// - A job may run more than once. A crash, SIGKILL or power cut between a handler's start and the
//   commit of its last write runs it again from the start on the next start-up. So a handler is
//   idempotent: what it writes is keyed by document and page (or replaces what is there), so that a
//   second run yields the same rows, never a second copy.
// - The usual shape: do the slow work first (OCR, rendering: nothing written), then write every result
//   AND mark the job done in ONE transaction with `ctx.completeWith(repos => ...)`. A crash before that
//   commit redoes the work; after it the job is done and never runs again. Jobs sent inside
//   completeWith (the next step) commit with it. Keep that callback to database writes: the database
//   connection is held for its duration (SQLite has one).
// - A handler with many steps commits each step keyed (a page row per page) and skips steps already
//   stored, calling `await ctx.heartbeat()` between them: a safe point that throws when the worker
//   stops (the job goes back to the queue, the attempt not counted) or when the job is gone (its
//   document was deleted). Pass `ctx.signal` to whatever can be cancelled.
// - Throwing fails the attempt: a retry after exponential backoff with jitter, up to max_attempts
//   starts; then the job is 'failed' and `onFailed` runs in the transaction that marks it so. Throw a
//   `PermanentJobError` for a failure no retry can cure (a damaged file): the job fails at once; a
//   `RetryLaterError` to say when a retry may help (a receiver's Retry-After). A handler never sleeps
//   between attempts itself: the queue's retry survives a restart, and the worker's slot is free meanwhile.
// - A start cut short by the process's death (kill -9, power cut, a closed laptop) does not count as an
//   attempt: that is not the job's fault. The heartbeats tell how far it got; a job interrupted
//   MAX_INTERRUPTIONS times in a row at the same heartbeat (MAX_EARLY_INTERRUPTIONS before its first) is a
//   suspect: it waits while other jobs go first, and only when it ends the process SUSPECT_RUNS more times
//   at the same step is it failed with a `JobSetAsideError` (runJob.ts resumeAbandoned). So call
//   heartbeat() early and between steps: it is how far a job got.
//
// WHAT AN IMPLEMENTATION KEEPS (the SQLite queue does; a PostgreSQL one must):
// - send writes through the caller's transaction (`tx`: the repositories of its unit of work), never a
//   connection of its own, so that a rolled-back upload leaves no job and a committed one never lacks it.
// - send with a dedupe key that exists already, in any state, changes nothing and returns that job:
//   senders rely on it to be idempotent (kinds.ts gives every kind its key).
// - A job runs in one worker at a time; a worker claims only the kinds it handles. Jobs left running by
//   a process that died are taken up again at start(), under the interruption rule above; a worker
//   never takes over the running jobs of a live one.
// - completeWith's writes and the done mark commit together; a job whose holder lost it (deleted with
//   its document, or given to another worker) writes nothing.
// - onFailed runs in the transaction that marks the job failed; settled listeners run after commit.
import type { Repos } from '../store/repositories/index.ts';
import type { JobRepository } from '../store/repositories/jobRepository.ts';
import type { JobRow } from '../store/schema.ts';

/** What the queue needs of the repositories: the app's Repos, or a test's extension of them. */
export interface JobRepos {
  jobs: JobRepository;
}
/** A unit of work over repositories of type R (main/store/repositories: UnitOfWork for Repos). */
export type UnitOfWorkOf<R> = <T>(fn: (repos: R) => Promise<T>) => Promise<T>;

/** Thrown by a handler: retrying cannot help (the job fails at once, with this message). */
export class PermanentJobError extends Error {}

/**
 * Thrown by a handler whose attempt failed for a reason that may pass (a receiver that answered 503): the
 * queue retries it as any failed attempt, but no sooner than `afterMs` (the receiver's Retry-After).
 */
export class RetryLaterError extends Error {
  constructor(message: string, readonly afterMs?: number) {
    super(message);
  }
}

/**
 * Thrown by a handler that must not run now (a training while a sync upload is being extracted): the job
 * gives its turn back, the attempt not counted, and is due again in `afterMs`. Both queues keep it durable
 * (the row's run_after; on pg-boss a new message due then), so a restart meanwhile changes nothing.
 */
export class NotNowError extends Error {
  constructor(message: string, readonly afterMs: number) {
    super(message);
  }
}

/** Why a job that kept bringing the process down was given up: onFailed receives it. */
export class JobSetAsideError extends Error {}

/** A job to send (kinds.ts builds Folio's). */
export interface JobRequest {
  kind: string;
  documentId?: number | null;
  /** Anything JSON can carry; handed to the handler parsed. */
  payload?: unknown;
  /** A job with this key exists already (in any state): send changes nothing and returns it. */
  dedupeKey?: string;
  maxAttempts?: number;
  /**
   * Whose work it is (project and uploader, kinds.ts): jobs of one key run in the order sent, and keys take
   * turns, so that one batch never holds up another's upload. Without it the job queues by age alone.
   */
  fairKey?: string;
  /** Ahead of every batch: someone waits for it (a sync upload, a document a reviewer opened). */
  urgent?: boolean;
  /** Not before this many milliseconds from now (a debounce: the continuous learning's wait for more reviews). */
  delayMs?: number;
}

export interface JobContext<P = any, R extends JobRepos = Repos> {
  job: JobRow;
  payload: P;
  /** Aborted when the worker stops: stop at the next safe point by throwing. */
  signal: AbortSignal;
  /** A safe point between steps: records that the job is alive; throws when stopping or when the job is gone. */
  heartbeat(): Promise<void>;
  /** Runs `write` and marks the job done in one transaction (see the contract above). Call it last. */
  completeWith<T>(write: (repos: R) => Promise<T>): Promise<T>;
}
export type JobHandler<P = any, R extends JobRepos = Repos> = (ctx: JobContext<P, R>) => Promise<void>;

export type JobOutcome = 'done' | 'failed';

export interface WorkerOptions<R extends JobRepos = Repos> {
  /** Handlers running at once (default 1). */
  concurrency?: number;
  /** After the last attempt failed, in the transaction that marks the job 'failed'. */
  onFailed?: (job: JobRow, error: unknown, repos: R) => Promise<void>;
  log?: (message: string, error?: unknown) => void;
}

export interface JobQueue<R extends JobRepos = Repos> {
  /** Adds a job through `tx`, the repositories of the caller's unit of work. Returns it, or the job with the same dedupe key. */
  send(tx: R, job: JobRequest): Promise<JobRow>;
  /** A worker for these kinds (their handlers by kind); it takes no job before start(). */
  handle(handlers: Record<string, JobHandler<any, R>>, options?: WorkerOptions<R>): JobWorker;
  /**
   * Calls `listener` after each job ended, done or failed, whichever worker ran it: on SQLite the workers of
   * this process (the only ones), on PostgreSQL those of every process on the database (told through it).
   */
  ended(listener: (job: EndedJob, outcome: JobOutcome) => void): void;
  /**
   * Moves the queued jobs of a document ahead of every batch (a reviewer opened it), through `tx`.
   * Returns how many were moved; running and finished jobs are left as they are.
   */
  expedite(tx: R, documentId: number): Promise<number>;
  /** Lets go of what the queue holds (pg-boss's connections; nothing on SQLite), after its workers stopped. */
  close(): Promise<void>;
}

/** What `ended` tells of a job. */
export type EndedJob = Pick<JobRow, 'id' | 'kind' | 'document_id'>;

export interface JobWorker {
  /** Takes up what a dead process left running (see the interruption rule), then starts taking jobs. Once. */
  start(): Promise<unknown>;
  /**
   * Takes nothing more, aborts the handlers' signal and waits up to `timeoutMs` for them to finish or
   * stop at a safe point. False when some were still running: their jobs are resumed at the next start.
   */
  stop(options?: { timeoutMs?: number }): Promise<boolean>;
  /** Calls `listener` once each job of this worker ended, done or failed (after commit). */
  settled(listener: (job: JobRow, outcome: JobOutcome) => void): void;
}
