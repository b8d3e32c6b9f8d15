// The durable job queue on SQLite, the first implementation of JobQueue (queue.ts: the five verbs, the
// handler contract and what an implementation keeps): jobs are rows enqueued in the transaction of the
// data they belong to, run by a JobRunner, retried with backoff, and resumed after a crash. Beside the
// interface it keeps its own names for its tests: send = `enqueue`, a worker = `JobRunner`.
import { EventEmitter } from 'node:events';
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { Repos } from '../store/repositories/index.ts';
import type { JobRow } from '../store/schema.ts';
import {
  JobSetAsideError,
  PermanentJobError,
  type EndedJob,
  type JobContext,
  type JobHandler,
  type JobOutcome,
  type JobQueue,
  type JobRepos,
  type JobRequest,
  type JobWorker,
  type UnitOfWorkOf,
  type WorkerOptions,
} from './queue.ts';
import { DEFAULT_BACKOFF, executeJob, releaseWhenStorageBack, resumeAbandoned, rowLedger, tellListeners, type BackoffOptions, type Holder } from './runJob.ts';
import { endedWithin, Rounds } from './rounds.ts';
import { logProblem } from '../log.ts';

export { backoffDelay, DEFAULT_BACKOFF, JobLostError, MAX_EARLY_INTERRUPTIONS, MAX_INTERRUPTIONS, SUSPECT_RUNS, type BackoffOptions } from './runJob.ts';

export { JobSetAsideError, PermanentJobError };
export type { JobContext, JobHandler, JobRepos, UnitOfWorkOf };

export const DEFAULT_MAX_ATTEMPTS = 5;

export type EnqueueOptions = JobRequest;

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
    fairKey: opts.fairKey ?? null,
    urgent: opts.urgent ?? false,
    runAfter: opts.delayMs ? new Date(Date.now() + opts.delayMs).toISOString() : undefined,
  });
  // Sent before the caller commits: a woken runner's claim goes through the same SQLite connection,
  // which is busy until the transaction ends, so it finds the job once committed (and nothing if it
  // rolled back). A runner on another connection finds it on its next poll.
  if (created) enqueued.emit('job', job.kind);
  return job;
}

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
  /** Once a job ended, done or failed (after commit); more listeners with settled(). */
  onSettled?: (job: JobRow, outcome: JobOutcome) => void;
  log?: (message: string, error?: unknown) => void;
}

/**
 * Owners of the runners alive in this process. At start-up, running jobs of any other owner were
 * left by a process that died: the instance lock allows one Folio process per data folder.
 */
const liveOwners = new Set<string>();

export class JobRunner<R extends JobRepos = Repos> implements JobWorker {
  /** Written to locked_by: which process (and runner in it) holds a running job. */
  readonly owner = `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private readonly kinds: string[];
  private readonly concurrency: number;
  private readonly pollMs: number;
  private readonly backoff: BackoffOptions;
  private readonly log: (message: string, error?: unknown) => void;
  private readonly running = new Map<number, Promise<void>>();
  private readonly listeners: ((job: JobRow, outcome: JobOutcome) => void)[] = [];
  private readonly stopping = new AbortController();
  private phase: 'new' | 'started' | 'stopped' = 'new';
  /** Claim rounds (pump), one at a time. */
  private readonly rounds = new Rounds(() => this.pump(), () => this.phase === 'started');
  private timer: NodeJS.Timeout | undefined;
  private readonly onEnqueued = (kind: string) => {
    if (Object.hasOwn(this.opts.handlers, kind)) this.wake();
  };

  constructor(private readonly opts: JobRunnerOptions<R>) {
    this.kinds = Object.keys(opts.handlers);
    this.concurrency = Math.max(1, opts.concurrency ?? 1);
    this.pollMs = opts.pollMs ?? 1_000;
    this.backoff = opts.backoff ?? DEFAULT_BACKOFF;
    this.log = opts.log ?? logProblem;
  }

  /** Re-queues (or fails, past max_attempts) the jobs a dead process left running, then starts claiming. */
  async start(): Promise<{ requeued: number; failed: number }> {
    if (this.phase !== 'new') throw new Error('A JobRunner starts once.');
    this.phase = 'started';
    liveOwners.add(this.owner);
    const recovered = { requeued: 0, failed: 0 };
    for (const job of await this.opts.repos.jobs.listAbandoned([...liveOwners], this.kinds)) {
      const outcome = await resumeAbandoned(job, this.holder);
      if (outcome !== 'lost') recovered[outcome]++;
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
    await this.rounds.idle();
    // The owner is forgotten once its jobs have ended, even after the time given here ran out.
    void Promise.allSettled(this.running.values()).then(() => liveOwners.delete(this.owner));
    return endedWithin(this.running.values(), timeoutMs);
  }

  settled(listener: (job: JobRow, outcome: JobOutcome) => void): void {
    this.listeners.push(listener);
  }

  /** Starts a claim round now, or right after the one in progress. */
  private wake(): void {
    this.rounds.wake();
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
    const run = executeJob(job, this.holder)
      .catch((err) => {
        this.log(`Job ${job.id} (${job.kind}) could not be settled; it goes back to the queue once the store takes writes again.`, err);
        return releaseWhenStorageBack(job, this.holder);
      })
      .finally(() => {
        this.running.delete(job.id);
        this.wake();
      });
    this.running.set(job.id, run);
  }

  /** What the shared executor (runJob.ts) needs of this runner; the ledger is the row alone. */
  private get holder(): Holder<R> {
    return {
      owner: this.owner,
      repos: this.opts.repos,
      uow: this.opts.uow,
      ledger: rowLedger,
      handlers: this.opts.handlers,
      backoff: this.backoff,
      signal: this.stopping.signal,
      onFailed: this.opts.onFailed,
      announce: (job, outcome) => tellListeners(this.opts.onSettled ? [this.opts.onSettled, ...this.listeners] : this.listeners, job, outcome, this.log),
      log: this.log,
    };
  }
}

/** The SQLite JobQueue: `send` is enqueue, each `handle` a JobRunner over the same store. */
export class SqliteJobQueue<R extends JobRepos = Repos> implements JobQueue<R> {
  private readonly endedListeners: ((job: EndedJob, outcome: JobOutcome) => void)[] = [];

  constructor(private readonly opts: Pick<JobRunnerOptions<R>, 'repos' | 'uow' | 'pollMs' | 'backoff' | 'log'>) {}

  send(tx: R, job: JobRequest): Promise<JobRow> {
    return enqueue(tx, job);
  }

  handle(handlers: Record<string, JobHandler<any, R>>, options: WorkerOptions<R> = {}): JobRunner<R> {
    const log = options.log ?? this.opts.log ?? logProblem;
    // One data folder, one process: the runners made here are every worker there is.
    const onSettled = (job: JobRow, outcome: JobOutcome) => tellListeners(this.endedListeners, job, outcome, log);
    return new JobRunner<R>({ ...this.opts, ...options, log, handlers, onSettled });
  }

  ended(listener: (job: EndedJob, outcome: JobOutcome) => void): void {
    this.endedListeners.push(listener);
  }

  async expedite(tx: R, documentId: number): Promise<number> {
    const moved = await tx.jobs.expedite(documentId);
    for (const job of moved) enqueued.emit('job', job.kind);
    return moved.length;
  }

  /** The runners use the store's connection, which its owner closes. */
  async close(): Promise<void> {}
}
