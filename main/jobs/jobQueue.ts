// The durable job queue: jobs are rows enqueued in the transaction of the data they belong to, run by
// a JobRunner, retried with backoff, and resumed after a crash. Four verbs (send = `enqueue`,
// work = `JobRunner`, complete = `completeWith` or returning, fail = throwing) so that a distributed
// queue can stand in for it in server mode.
//
// THE HANDLER CONTRACT (read before writing a handler):
// - A job may run more than once. A crash, SIGKILL or power cut between a handler's start and the
//   commit of its last write runs it again from the start on the next start-up. So a handler is
//   idempotent: what it writes is keyed by document and page (or replaces what is there), so that a
//   second run yields the same rows, never a second copy.
// - The usual shape: do the slow work first (OCR, rendering: nothing written), then write every result
//   AND mark the job done in ONE transaction with `ctx.completeWith(repos => ...)`. A crash before that
//   commit redoes the work; after it the job is done and never runs again. Jobs enqueued inside
//   completeWith (the next step) commit with it. Keep that callback to database writes: the SQLite
//   connection is held for its duration.
// - A handler with many steps commits each step keyed (a page row per page) and skips steps already
//   stored, calling `await ctx.heartbeat()` between them: a safe point that throws when the runner
//   stops (the job goes back to the queue, the attempt not counted) or when the job is gone (its
//   document was deleted). Pass `ctx.signal` to whatever can be cancelled.
// - Throwing fails the attempt: a retry after exponential backoff with jitter, up to max_attempts
//   starts; then the job is 'failed' and `onFailed` runs in the transaction that marks it so. Throw a
//   `PermanentJobError` for a failure no retry can cure (a damaged file): the job fails at once.
// - A start cut short by the process's death (kill -9, power cut, a closed laptop) does not count as an
//   attempt: that is not the job's fault. The heartbeats tell how far it got; a job interrupted
//   MAX_INTERRUPTIONS times in a row at the same heartbeat (MAX_EARLY_INTERRUPTIONS before its first) is
//   taken to be what kills the process, and is failed with a `JobSetAsideError` instead of being started
//   again. So call heartbeat() early and between steps: it is how far a job got.
import { EventEmitter } from 'node:events';
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { Repos } from '../store/repositories/index.ts';
import type { JobRepository } from '../store/repositories/jobRepository.ts';
import type { JobRow } from '../store/schema.ts';

/** What the queue needs of the repositories: the app's Repos, or a test's extension of them. */
export interface JobRepos {
  jobs: JobRepository;
}
/** A unit of work over repositories of type R (main/store/repositories: UnitOfWork for Repos). */
export type UnitOfWorkOf<R> = <T>(fn: (repos: R) => Promise<T>) => Promise<T>;

export const DEFAULT_MAX_ATTEMPTS = 5;
/** Deaths of the process in a row at the same safe point of one job that set the job aside. */
export const MAX_INTERRUPTIONS = 3;
/**
 * The same before the job's first safe point. Weaker evidence, so more of it: a machine under heavy load
 * (or a user who starts and quits Folio quickly) can end the process again and again before a job gets that
 * far, whatever the job is (measured with npm run test:chaos at a load average of 20: 5 of 39 documents were
 * set aside at 3). A file that kills the process while it is being opened still ends set aside.
 */
export const MAX_EARLY_INTERRUPTIONS = 8;

/** Thrown by a handler: retrying cannot help (the job fails at once, with this message). */
export class PermanentJobError extends Error {}

/** Why a job that kept bringing the process down was given up: onFailed receives it. */
export class JobSetAsideError extends Error {}

export interface EnqueueOptions {
  kind: string;
  documentId?: number | null;
  /** Anything JSON can carry; handed to the handler parsed. */
  payload?: unknown;
  /** A job with this key exists already (in any state): enqueue changes nothing and returns it. */
  dedupeKey?: string;
  maxAttempts?: number;
}

/** Wakes this process's runners when a job is enqueued, instead of waiting for their next poll. */
const enqueued = new EventEmitter().setMaxListeners(0);

/**
 * Adds a job. Pass the repos of the caller's unit of work, so that the job commits (or rolls back)
 * with the rows it is about. Returns the job, or the existing one with the same dedupe key.
 */
export async function enqueue(repos: JobRepos, opts: EnqueueOptions): Promise<JobRow> {
  const { job, created } = await repos.jobs.insert({
    kind: opts.kind,
    documentId: opts.documentId ?? null,
    payload: JSON.stringify(opts.payload ?? {}),
    dedupeKey: opts.dedupeKey ?? null,
    maxAttempts: opts.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
  });
  // Sent before the caller commits: a woken runner's claim goes through the same SQLite connection,
  // which is busy until the transaction ends, so it finds the job once committed (and nothing if it
  // rolled back). A runner on another connection finds it on its next poll.
  if (created) enqueued.emit('job', job.kind);
  return job;
}

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

export interface JobContext<P = any, R extends JobRepos = Repos> {
  job: JobRow;
  payload: P;
  /** Aborted when the runner stops: stop at the next safe point by throwing. */
  signal: AbortSignal;
  /** A safe point between steps: records that the job is alive; throws when stopping or when the job is gone. */
  heartbeat(): Promise<void>;
  /** Runs `write` and marks the job done in one transaction (see the contract above). Call it last. */
  completeWith<T>(write: (repos: R) => Promise<T>): Promise<T>;
}
export type JobHandler<P = any, R extends JobRepos = Repos> = (ctx: JobContext<P, R>) => Promise<void>;

export interface JobRunnerOptions<R extends JobRepos = Repos> {
  /** Repositories outside any transaction (claims, state changes), and the unit of work over them. */
  repos: R;
  uow: UnitOfWorkOf<R>;
  /** Handlers by job kind; this runner claims only these kinds. */
  handlers: Record<string, JobHandler<any, R>>;
  /** Handlers running at once (default 1). */
  concurrency?: number;
  /** Fallback poll for jobs enqueued by other connections and for retries coming due (default 1000). */
  pollMs?: number;
  backoff?: BackoffOptions;
  /** After the last attempt failed, in the transaction that marks the job 'failed'. */
  onFailed?: (job: JobRow, error: unknown, repos: R) => Promise<void>;
  /** Once a job ended, done or failed (after commit). */
  onSettled?: (job: JobRow, outcome: 'done' | 'failed') => void;
  log?: (message: string, error?: unknown) => void;
}

/**
 * Owners of the runners alive in this process. At start-up, running jobs of any other owner were
 * left by a process that died: the instance lock allows one Folio process per data folder.
 */
const liveOwners = new Set<string>();

const errorMessage = (error: unknown) => (error instanceof Error ? error.message : String(error));

export class JobRunner<R extends JobRepos = Repos> {
  /** Written to locked_by: which process (and runner in it) holds a running job. */
  readonly owner = `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private readonly kinds: string[];
  private readonly concurrency: number;
  private readonly pollMs: number;
  private readonly backoff: BackoffOptions;
  private readonly log: (message: string, error?: unknown) => void;
  private readonly running = new Map<number, Promise<void>>();
  private readonly stopping = new AbortController();
  private phase: 'new' | 'started' | 'stopped' = 'new';
  private pumping: Promise<void> | undefined;
  private pumpAgain = false;
  private timer: NodeJS.Timeout | undefined;
  private readonly onEnqueued = (kind: string) => {
    if (Object.hasOwn(this.opts.handlers, kind)) this.wake();
  };

  constructor(private readonly opts: JobRunnerOptions<R>) {
    this.kinds = Object.keys(opts.handlers);
    this.concurrency = Math.max(1, opts.concurrency ?? 1);
    this.pollMs = opts.pollMs ?? 1_000;
    this.backoff = opts.backoff ?? DEFAULT_BACKOFF;
    this.log = opts.log ?? ((message, error) => console.error(message, error ?? ''));
  }

  /** Re-queues (or fails, past max_attempts) the jobs a dead process left running, then starts claiming. */
  async start(): Promise<{ requeued: number; failed: number }> {
    if (this.phase !== 'new') throw new Error('A JobRunner starts once.');
    this.phase = 'started';
    liveOwners.add(this.owner);
    const recovered = { requeued: 0, failed: 0 };
    for (const job of await this.opts.repos.jobs.listAbandoned([...liveOwners], this.kinds)) {
      // The same safe point as at the last interruption: one more in a row; anywhere else: the first.
      const inARow = job.interrupted_at === job.progress ? job.interruptions + 1 : 1;
      if (inARow >= (job.progress > 0 ? MAX_INTERRUPTIONS : MAX_EARLY_INTERRUPTIONS)) {
        const error = new JobSetAsideError(
          `Set aside: Folio stopped ${inARow} times in a row while working on this at the same step, so it is taken to be what stops it. ` +
          'If the file is damaged, upload a repaired copy (for example printed again to PDF).',
        );
        if (await this.fail(job, job.locked_by!, error)) recovered.failed++;
        continue;
      }
      const message = `Interrupted: the process running it (${job.locked_by}) ended before it finished; started again (not counted as an attempt).`;
      if (await this.opts.repos.jobs.requeueInterrupted(job.id, job.locked_by!, inARow, job.progress, message)) recovered.requeued++;
    }
    enqueued.on('job', this.onEnqueued);
    this.wake();
    return recovered;
  }

  /**
   * Claims nothing more, aborts `signal`, and waits up to `timeoutMs` for running handlers to finish
   * or stop at a safe point. False when some were still running: their jobs stay 'running' and are
   * resumed at the next start-up.
   */
  async stop({ timeoutMs = 10_000 } = {}): Promise<boolean> {
    if (this.phase !== 'started') {
      this.phase = 'stopped';
      return true;
    }
    this.phase = 'stopped';
    enqueued.off('job', this.onEnqueued);
    clearTimeout(this.timer);
    this.stopping.abort(new Error('The job runner is stopping.'));
    await this.pumping;
    const all = Promise.allSettled(this.running.values()).then(() => {
      liveOwners.delete(this.owner);
      return true;
    });
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
    const drained = await Promise.race([all, timeout]);
    clearTimeout(timer);
    return drained;
  }

  /** Starts a claim round now, or right after the one in progress. */
  private wake(): void {
    if (this.phase !== 'started') return;
    if (this.pumping) {
      this.pumpAgain = true;
      return;
    }
    this.pumping = this.pump().finally(() => {
      this.pumping = undefined;
      if (this.pumpAgain) {
        this.pumpAgain = false;
        this.wake();
      }
    });
  }

  private async pump(): Promise<void> {
    clearTimeout(this.timer);
    let delay = this.pollMs;
    try {
      while (this.phase === 'started' && this.running.size < this.concurrency) {
        const jobs = await this.opts.repos.jobs.claim(this.owner, this.kinds, this.concurrency - this.running.size);
        for (const job of jobs) {
          if (this.phase === 'started') this.launch(job);
          else await this.opts.repos.jobs.release(job.id, this.owner); // stop() came during the claim
        }
        if (!jobs.length) break;
      }
      // With a free slot, wake when the next retry comes due rather than at the next poll.
      if (this.running.size < this.concurrency) {
        const next = await this.opts.repos.jobs.nextDue(this.kinds);
        if (next) delay = Math.min(delay, Math.max(0, Date.parse(next) - Date.now()));
      }
    } catch (err) {
      this.log('The job runner could not read the queue; it tries again at the next poll.', err);
    }
    if (this.phase !== 'started') return;
    this.timer = setTimeout(() => this.wake(), delay);
    // A runner alone does not keep the process alive (the server or the caller does).
    this.timer.unref();
  }

  private launch(job: JobRow): void {
    const run = this.execute(job)
      .catch((err) => this.log(`Job ${job.id} (${job.kind}) could not be settled; it is resumed at the next start-up.`, err))
      .finally(() => {
        this.running.delete(job.id);
        this.wake();
      });
    this.running.set(job.id, run);
  }

  private async execute(job: JobRow): Promise<void> {
    const { repos, uow } = this.opts;
    const signal = this.stopping.signal;
    let completed = false;
    try {
      const ctx: JobContext<any, R> = {
        job,
        payload: JSON.parse(job.payload),
        signal,
        heartbeat: async () => {
          signal.throwIfAborted();
          if (!(await repos.jobs.touch(job.id, this.owner))) throw new JobLostError(job);
        },
        completeWith: async (write) => {
          const result = await uow(async (trx) => {
            // The mark first: a job that is no longer ours writes nothing at all.
            if (!(await trx.jobs.markDone(job.id, this.owner))) throw new JobLostError(job);
            return write(trx);
          });
          completed = true;
          return result;
        },
      };
      await this.opts.handlers[job.kind](ctx);
      if (!completed && !(await repos.jobs.markDone(job.id, this.owner))) return;
      this.settled(job, 'done');
    } catch (error) {
      if (error instanceof JobLostError) return;
      if (completed) {
        this.log(`Job ${job.id} (${job.kind}) threw after it completed; it stays done.`, error);
        this.settled(job, 'done');
      } else if (signal.aborted) {
        await repos.jobs.release(job.id, this.owner);
      } else if (job.attempts >= job.max_attempts || error instanceof PermanentJobError) {
        await this.fail(job, this.owner, error);
      } else {
        const runAfter = new Date(Date.now() + backoffDelay(job.attempts, this.backoff)).toISOString();
        await repos.jobs.requeue(job.id, this.owner, runAfter, errorMessage(error));
      }
    }
  }

  /** Marks the job failed, with onFailed's writes in the same transaction. False when it was not `owner`'s. */
  private async fail(job: JobRow, owner: string, error: unknown): Promise<boolean> {
    const message = errorMessage(error);
    let marked: boolean;
    try {
      marked = await this.opts.uow(async (repos) => {
        if (!(await repos.jobs.markFailed(job.id, owner, message))) return false;
        await this.opts.onFailed?.({ ...job, state: 'failed', last_error: message }, error, repos);
        return true;
      });
    } catch (hookError) {
      // A broken hook must not leave the job running for ever: fail it without the hook's writes.
      this.log(`onFailed of job ${job.id} (${job.kind}) threw; the job is marked failed without it.`, hookError);
      marked = await this.opts.repos.jobs.markFailed(job.id, owner, message);
    }
    if (marked) this.settled(job, 'failed');
    return marked;
  }

  private settled(job: JobRow, outcome: 'done' | 'failed'): void {
    try {
      this.opts.onSettled?.(job, outcome);
    } catch (err) {
      this.log(`onSettled of job ${job.id} threw.`, err);
    }
  }
}
