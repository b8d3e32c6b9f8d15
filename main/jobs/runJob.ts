// What every worker does with a job it holds, whichever queue handed it over (jobQueue.ts on SQLite,
// pgBossQueue.ts on PostgreSQL): the handler's context (heartbeat, completeWith), and the end of the run
// by the handler contract of queue.ts: done, a retry after backoff, back to the queue when the worker
// stops, or failed with onFailed in the same transaction. The queues differ only in their `JobLedger`:
// how a job's end is written (SQLite: the row; pg-boss: the row and its message, in one transaction).
import type { JobRow } from '../store/schema.ts';
import { JobSetAsideError, NotNowError, PermanentJobError, RetryLaterError, type JobContext, type JobHandler, type JobOutcome, type JobRepos, type UnitOfWorkOf } from './queue.ts';

export interface BackoffOptions {
  /** Delay after the first failed attempt; it doubles with every further one. */
  baseMs: number;
  maxMs: number;
}
export const DEFAULT_BACKOFF: BackoffOptions = { baseMs: 2_000, maxMs: 10 * 60_000 };

/**
 * The wait after `attempts` failed starts: exponential and capped, with "equal jitter" (half fixed,
 * half random) so that jobs failing together do not retry in lockstep, yet never less than half the step.
 */
export function backoffDelay(attempts: number, backoff: BackoffOptions, random: () => number = Math.random): number {
  const step = Math.min(backoff.maxMs, backoff.baseMs * 2 ** Math.max(0, attempts - 1));
  return Math.round(step / 2 + (random() * step) / 2);
}

/** The job is no longer this runner's: deleted with its document, or re-queued as abandoned. */
export class JobLostError extends Error {
  constructor(job: JobRow) {
    super(`Job ${job.id} (${job.kind}) is no longer held by this runner.`);
  }
}

export const errorMessage = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * How a queue writes the end of a run, each through `tx` (the repositories of a transaction the executor
 * opened) and only while `owner` holds the job: false when it does not (the job changes nothing).
 */
export interface JobLedger<R extends JobRepos> {
  done(tx: R, job: JobRow, owner: string): Promise<boolean>;
  failed(tx: R, job: JobRow, owner: string, error: string): Promise<boolean>;
  /** Back to the queue, due at `runAfter` (ISO time), after a failed attempt. */
  retry(tx: R, job: JobRow, owner: string, runAfter: string, error: string): Promise<boolean>;
  /** Back to the queue at once, the attempt not counted: the worker stopped it at a safe point. */
  release(tx: R, job: JobRow, owner: string): Promise<boolean>;
  /** Back to the queue, due at `runAfter`, the attempt not counted: the handler gave its turn back (NotNowError). */
  defer(tx: R, job: JobRow, owner: string, runAfter: string, reason: string): Promise<boolean>;
}

/** The row alone: SQLite's ledger (and the first half of pg-boss's). */
export const rowLedger: JobLedger<JobRepos> = {
  done: (tx, job, owner) => tx.jobs.markDone(job.id, owner),
  failed: (tx, job, owner, error) => tx.jobs.markFailed(job.id, owner, error),
  retry: (tx, job, owner, runAfter, error) => tx.jobs.requeue(job.id, owner, runAfter, error),
  release: (tx, job, owner) => tx.jobs.release(job.id, owner),
  defer: (tx, job, owner, runAfter, reason) => tx.jobs.defer(job.id, owner, runAfter, reason),
};

/** What a worker gives the executor. */
export interface Holder<R extends JobRepos> {
  /** Who holds the job (locked_by). */
  owner: string;
  repos: R;
  uow: UnitOfWorkOf<R>;
  ledger: JobLedger<R>;
  handlers: Record<string, JobHandler<any, R>>;
  backoff: BackoffOptions;
  /** Aborted when the worker stops. */
  signal: AbortSignal;
  onFailed?: (job: JobRow, error: unknown, repos: R) => Promise<void>;
  /** Tells the worker's settled listeners (after commit). */
  announce(job: JobRow, outcome: JobOutcome): void;
  log: (message: string, error?: unknown) => void;
  /** Also called at each of the handler's safe points (pg-boss: keeps the message's lease). */
  onHeartbeat?: (job: JobRow) => Promise<void>;
}

/** Runs the handler of a job `h.owner` has claimed, and writes how the run ended. */
export async function executeJob<R extends JobRepos>(job: JobRow, h: Holder<R>): Promise<void> {
  const { repos, uow, ledger, owner, signal } = h;
  let completed = false;
  try {
    const ctx: JobContext<any, R> = {
      job,
      payload: JSON.parse(job.payload),
      signal,
      heartbeat: async () => {
        signal.throwIfAborted();
        if (!(await repos.jobs.touch(job.id, owner))) throw new JobLostError(job);
        await h.onHeartbeat?.(job);
      },
      completeWith: async (write) => {
        const result = await uow(async (trx) => {
          // The mark first: a job that is no longer ours writes nothing at all.
          if (!(await ledger.done(trx, job, owner))) throw new JobLostError(job);
          return write(trx);
        });
        completed = true;
        return result;
      },
    };
    await h.handlers[job.kind](ctx);
    if (!completed && !(await uow((trx) => ledger.done(trx, job, owner)))) return;
    h.announce(job, 'done');
  } catch (error) {
    if (error instanceof JobLostError) return;
    if (completed) {
      h.log(`Job ${job.id} (${job.kind}) threw after it completed; it stays done.`, error);
      h.announce(job, 'done');
    } else if (signal.aborted) {
      await uow((trx) => ledger.release(trx, job, owner));
    } else if (error instanceof NotNowError) {
      const runAfter = new Date(Date.now() + error.afterMs).toISOString();
      await uow((trx) => ledger.defer(trx, job, owner, runAfter, error.message));
    } else if (job.attempts >= job.max_attempts || error instanceof PermanentJobError) {
      await failJob(job, owner, error, h);
    } else {
      // The receiver's Retry-After, when it asked for more than the back-off gives.
      const asked = error instanceof RetryLaterError ? error.afterMs ?? 0 : 0;
      const runAfter = new Date(Date.now() + Math.max(asked, backoffDelay(job.attempts, h.backoff))).toISOString();
      await uow((trx) => ledger.retry(trx, job, owner, runAfter, errorMessage(error)));
    }
  }
}

/** Marks the job failed, with onFailed's writes in the same transaction. False when it was not `owner`'s. */
export async function failJob<R extends JobRepos>(job: JobRow, owner: string, error: unknown, h: Omit<Holder<R>, 'owner' | 'signal' | 'handlers' | 'backoff'>): Promise<boolean> {
  const message = errorMessage(error);
  let marked: boolean;
  try {
    marked = await h.uow(async (trx) => {
      if (!(await h.ledger.failed(trx, job, owner, message))) return false;
      await h.onFailed?.({ ...job, state: 'failed', last_error: message }, error, trx);
      return true;
    });
  } catch (hookError) {
    // A broken hook must not leave the job running for ever: fail it without the hook's writes.
    h.log(`onFailed of job ${job.id} (${job.kind}) threw; the job is marked failed without it.`, hookError);
    marked = await h.uow((trx) => h.ledger.failed(trx, job, owner, message));
  }
  if (marked) h.announce(job, 'failed');
  return marked;
}

/** Deaths of the process in a row at the same safe point of one job that make the job a suspect. */
export const MAX_INTERRUPTIONS = 3;
/**
 * The same before the job's first safe point. Weaker evidence, so more of it: a machine under heavy load
 * (or a user who starts and quits Folio quickly) can end the process again and again before a job gets that
 * far, whatever the job is (measured with npm run test:chaos at a load average of 20: 5 of 39 documents were
 * suspects at 3).
 */
export const MAX_EARLY_INTERRUPTIONS = 8;
/**
 * A suspect is not failed: interruptions are no fault of a valid file, and a kill -9, a power cut or a
 * restart loop cannot tell a valid file from one that kills the process. It waits instead (DEFERRAL_BASE_MS,
 * doubling, at most DEFERRAL_MAX_MS) while every other job goes first, so the process does not crash-loop on
 * it; and only when it brought the process down SUSPECT_RUNS more times in a row at the same step, each time
 * it was tried after such a wait, is it set aside (JobSetAsideError): a file that truly kills Folio ends there
 * after about five minutes, a valid one never gets so far by chance.
 */
export const SUSPECT_RUNS = 5;
export const DEFERRAL_BASE_MS = 10_000;
export const DEFERRAL_MAX_MS = 5 * 60_000;

/** How long a suspect waits before its `deferral`-th deferred run (1-based). */
export const deferral = (n: number) => Math.min(DEFERRAL_MAX_MS, DEFERRAL_BASE_MS * 2 ** Math.max(0, n - 1));

/**
 * A job left running by a process that died (`job.locked_by`): back to the queue, the attempt given back;
 * a suspect (interrupted too often in a row at the same safe point) deferred, and failed with a
 * JobSetAsideError only after SUSPECT_RUNS deferred runs that ended the same way.
 * 'lost' when it changed meanwhile (another worker took it up first).
 */
export async function resumeAbandoned<R extends JobRepos>(job: JobRow, h: Omit<Holder<R>, 'owner' | 'signal' | 'handlers' | 'backoff'>): Promise<'requeued' | 'failed' | 'lost'> {
  // The same safe point as at the last interruption: one more in a row; anywhere else: the first.
  const inARow = job.interrupted_at === job.progress ? job.interruptions + 1 : 1;
  const suspectAt = job.progress > 0 ? MAX_INTERRUPTIONS : MAX_EARLY_INTERRUPTIONS;
  if (inARow >= suspectAt + SUSPECT_RUNS) {
    const error = new JobSetAsideError(
      `Set aside: Folio stopped ${inARow} times in a row while working on this at the same step, also when it was tried alone after a wait, so it is taken to be what stops it. ` +
      'If the file is damaged, upload a repaired copy (for example printed again to PDF); otherwise retry it.',
    );
    return (await failJob(job, job.locked_by!, error, h)) ? 'failed' : 'lost';
  }
  let message = `Interrupted: the process running it (${job.locked_by}) ended before it finished; started again (not counted as an attempt).`;
  let runAfter: string | undefined;
  if (inARow >= suspectAt) {
    const wait = deferral(inARow - suspectAt + 1);
    runAfter = new Date(Date.now() + wait).toISOString();
    message = `Interrupted ${inARow} times in a row at the same step (the last time in ${job.locked_by}): tried again in ${Math.round(wait / 1000)} s, after the other work (not counted as an attempt).`;
  }
  return (await h.repos.jobs.requeueInterrupted(job.id, job.locked_by!, inARow, job.progress, message, runAfter)) ? 'requeued' : 'lost';
}

/** Calls each listener, so that one that throws neither stops the others nor the worker. */
export function tellListeners<J extends Pick<JobRow, 'id'>>(
  listeners: ((job: J, outcome: JobOutcome) => void)[],
  job: J,
  outcome: JobOutcome,
  log: (message: string, error?: unknown) => void,
): void {
  for (const listener of listeners) {
    try {
      listener(job, outcome);
    } catch (err) {
      log(`onSettled of job ${job.id} threw.`, err);
    }
  }
}

/**
 * A run whose end could not be written (the database or the disk was out when executeJob wrote it): the
 * job is given back to the queue, the attempt not counted, as soon as the store takes the write, asking
 * every `everyMs`, instead of staying 'running' until the next start-up. Stops asking when `signal`
 * aborts (the worker stops; the next start-up resumes the job) or when the job is no longer `h.owner`'s.
 */
export async function releaseWhenStorageBack<R extends JobRepos>(job: JobRow, h: Pick<Holder<R>, 'owner' | 'uow' | 'ledger' | 'signal' | 'log'>, everyMs = 2_000): Promise<void> {
  for (;;) {
    try {
      const released = await h.uow((trx) => h.ledger.release(trx, job, h.owner));
      if (released) h.log(`Job ${job.id} (${job.kind}) went back to the queue once its end could be written.`);
      return;
    } catch {
      if (h.signal.aborted) return;
      await new Promise<void>((resolve) => setTimeout(resolve, everyMs).unref());
      if (h.signal.aborted) return;
    }
  }
}
