// The job queue of a team server: the JobQueue of queue.ts on PostgreSQL, with pg-boss carrying the jobs
// between any number of processes on any machines. Each kind is a pg-boss queue; each job is two things
// written together:
// - its row in `jobs`, as on SQLite: the record and the rules (dedupe key in any state, attempts, safe
//   points and interruptions, who holds it, gone with its document), shared with jobQueue.ts through
//   runJob.ts;
// - one pg-boss message (its data: the job's id, kind, document, dedupe key and payload) that hands the row
//   to one worker at a time. A worker's process keeps the message's heartbeat while it holds it; when the
//   process dies (SIGKILL, a lost machine) the heartbeat stops, pg-boss's monitor puts the message back,
//   and the worker that fetches it next takes the row over under the interruption rule (runJob.ts
//   resumeAbandoned). A holder that lost its row that way (or to the document's deletion) writes nothing.
// An unsettled row has exactly one live message: send writes both in the caller's transaction (fromKysely),
// and every end of a run changes the row and completes the message in one transaction, a retry or a
// release sending the next message (due when the row is) in it too. The ends are told to every process
// through NOTIFY (committed with them): `ended`, which a sync upload waits on in an API-only process.
import { EventEmitter } from 'node:events';
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import pg from 'pg';
import { sql } from 'kysely';
import { PgBoss, fromKysely, type Job } from 'pg-boss';
import type { Repos } from '../store/repositories/index.ts';
import { PLACE_SQL, placeAfter, URGENT_FLOOR, URGENT_PRIORITY } from '../store/repositories/jobRepository.ts';
import type { Db } from '../store/db.ts';
import type { JobRow } from '../store/schema.ts';
import type { EndedJob, JobHandler, JobOutcome, JobQueue, JobRepos, JobRequest, JobWorker, UnitOfWorkOf, WorkerOptions } from './queue.ts';
import { DEFAULT_BACKOFF, executeJob, resumeAbandoned, rowLedger, tellListeners, type BackoffOptions, type Holder, type JobLedger } from './runJob.ts';
import { endedWithin, Rounds } from './rounds.ts';
import { logProblem } from '../log.ts';

const DEFAULT_MAX_ATTEMPTS = 5;
/** NOTIFY channels: a job was sent (payload: its kind), a job ended (payload: EndedNotice as JSON). */
const SENT = 'folio_job_sent';
const ENDED = 'folio_job_ended';

/** What a message carries: what the job's row carries, the row being the record. */
export interface JobMessage {
  jobId: number;
  kind: string;
  documentId: number | null;
  dedupeKey: string | null;
  payload: string;
}
type EndedNotice = EndedJob & { outcome: JobOutcome };

export interface PgBossQueueOptions<R extends JobRepos = Repos> {
  /** The database (postgres://...): pg-boss keeps its tables in the schema `pgboss` there. */
  url: string;
  /** Repositories outside any transaction, and the unit of work over them (the store's, on the same database). */
  repos: R;
  uow: UnitOfWorkOf<R>;
  /** Seconds without a heartbeat from the process holding a job before another may take it up (pg-boss: >= 10). */
  heartbeatSeconds?: number;
  /** How often pg-boss's monitor looks for jobs without heartbeat (seconds; one process does it per interval). */
  monitorSeconds?: number;
  /** Fallback poll of idle workers, for sends whose notice was missed (ms). */
  pollMs?: number;
  backoff?: BackoffOptions;
  /** Connections of pg-boss's own pool in this process (the listening connection comes on top). */
  maxConnections?: number;
  log?: (message: string, error?: unknown) => void;
}

/** The executor of a unit of work's repositories: where the messages go, beside the rows. */
const executorOf = (repos: JobRepos): Db => repos.jobs.db;

export class PgBossJobQueue<R extends JobRepos = Repos> implements JobQueue<R> {
  readonly boss: PgBoss;
  private readonly opts: Required<Omit<PgBossQueueOptions<R>, 'repos' | 'uow'>> & Pick<PgBossQueueOptions<R>, 'repos' | 'uow'>;
  private readonly queues = new Map<string, Promise<void>>();
  private readonly notices = new EventEmitter().setMaxListeners(0);
  private listener: pg.Client | undefined;
  private started: Promise<void> | undefined;
  private closed = false;

  constructor(options: PgBossQueueOptions<R>) {
    this.opts = {
      heartbeatSeconds: 30,
      monitorSeconds: 10,
      pollMs: 2_000,
      backoff: DEFAULT_BACKOFF,
      maxConnections: 4,
      log: logProblem,
      ...options,
    };
    this.boss = new PgBoss({
      connectionString: this.opts.url,
      max: this.opts.maxConnections,
      application_name: 'folio-jobs',
      // The monitor that fails (and so hands back) messages whose holder stopped beating; one process a round.
      superviseIntervalSeconds: this.opts.monitorSeconds,
      monitorIntervalSeconds: this.opts.monitorSeconds,
      schedule: false,
    });
    this.boss.on('error', (err) => this.opts.log('pg-boss reported an error; it carries on.', err));
  }

  /** Installs (or updates) pg-boss's schema, makes the kinds' queues and starts listening for notices. Once; later calls wait for it. */
  start(kinds: string[] = []): Promise<void> {
    this.started ??= (async () => {
      await this.boss.start();
      await this.listen();
    })();
    return this.started.then(() => Promise.all(kinds.map((k) => this.ensureQueue(k)))).then(() => undefined);
  }

  /** Stops pg-boss and the listening connection (after the workers' stop()). */
  async close(): Promise<void> {
    this.closed = true;
    if (!this.started) return;
    await this.started.catch(() => {});
    await this.listener?.end().catch(() => {});
    await this.boss.stop({ graceful: false, close: true });
  }

  async send(tx: R, request: JobRequest): Promise<JobRow> {
    await this.start([request.kind]);
    const { job, created } = await tx.jobs.insert({
      kind: request.kind,
      documentId: request.documentId ?? null,
      payload: JSON.stringify(request.payload ?? {}),
      dedupeKey: request.dedupeKey ?? null,
      maxAttempts: request.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
      fairKey: request.fairKey ?? null,
      urgent: request.urgent ?? false,
      runAfter: request.delayMs ? new Date(Date.now() + request.delayMs).toISOString() : undefined,
      // Read outside the caller's serializable transaction, on pg-boss's connections (not the store's pool,
      // which the senders' transactions hold): a place one send early or late costs nothing, while a read of
      // the queue inside every upload made concurrent uploads fail each other.
      priority: (await this.placeInQueue(request.kind, request.fairKey ?? null)) + (request.urgent ? URGENT_PRIORITY : 0),
    });
    if (created) await this.sendMessage(tx, job, request.delayMs ? job.run_after : undefined);
    return job;
  }

  /** jobRepository.placeInQueue, on pg-boss's own pool. */
  private async placeInQueue(kind: string, fairKey: string | null): Promise<number> {
    if (fairKey === null) return 0;
    const { rows } = await this.boss.getDb().executeSql(PLACE_SQL, [kind, fairKey, URGENT_FLOOR]);
    const row = rows[0] as { own: number | string | null; head: number | string | null } | undefined;
    return placeAfter(row?.own ?? null, row?.head ?? null);
  }

  handle(handlers: Record<string, JobHandler<any, R>>, options: WorkerOptions<R> = {}): PgBossWorker<R> {
    return new PgBossWorker<R>(this, handlers, { ...options, log: options.log ?? this.opts.log });
  }

  ended(listener: (job: EndedJob, outcome: JobOutcome) => void): void {
    this.notices.on(ENDED, (notice: EndedNotice) => {
      const { outcome, ...job } = notice;
      tellListeners([listener], job, outcome, this.opts.log);
    });
  }

  /** The rows first, then each one's waiting message, in `tx`: a worker fetching meanwhile takes it either way. */
  async expedite(tx: R, documentId: number): Promise<number> {
    const moved = await tx.jobs.expedite(documentId);
    const db = fromKysely(executorOf(tx));
    for (const job of moved) {
      await this.ensureQueue(job.kind);
      const waiting = await this.boss.findJobs<JobMessage>(job.kind, { data: { jobId: job.id }, queued: true, db });
      // Its priority alone: the store reads jsonb back as text, so the data read here must not be written back.
      for (const message of waiting) await this.boss.update(job.kind, undefined, { id: message.id, priority: job.priority, db });
    }
    return moved.length;
  }

  /** Calls `wake` when a job of one of these kinds is sent, from any process; returns the unsubscribe. */
  onSent(kinds: string[], wake: () => void): () => void {
    const listener = (kind: string) => {
      if (kinds.includes(kind)) wake();
    };
    this.notices.on(SENT, listener);
    return () => this.notices.off(SENT, listener);
  }

  get options() {
    return this.opts;
  }

  /** The message of a row that is (again) waiting, in `tx`; due when the row is, and a notice for idle workers. */
  async sendMessage(tx: R, job: JobRow, runAfter?: string): Promise<void> {
    await this.ensureQueue(job.kind);
    const data: JobMessage = { jobId: job.id, kind: job.kind, documentId: job.document_id, dedupeKey: job.dedupe_key, payload: job.payload };
    const db = executorOf(tx);
    // pg-boss fetches by priority, then age: the row's place (its fair turn, or urgent) decides here too.
    await this.boss.send(job.kind, data, { db: fromKysely(db), priority: job.priority, ...(runAfter ? { startAfter: new Date(runAfter) } : {}) });
    await sql`select pg_notify(${SENT}, ${job.kind})`.execute(db);
  }

  /** Completes a message in `tx` (a no-op for one that is no longer active). */
  async completeMessage(tx: R, kind: string, messageId: string): Promise<void> {
    await this.boss.complete(kind, messageId, null, { db: fromKysely(executorOf(tx)) });
  }

  /** Tells every process, once `tx` commits, that a job ended. */
  async noticeEnded(tx: R, job: JobRow, outcome: JobOutcome): Promise<void> {
    const notice: EndedNotice = { id: job.id, kind: job.kind, document_id: job.document_id, outcome };
    await sql`select pg_notify(${ENDED}, ${JSON.stringify(notice)})`.execute(executorOf(tx));
  }

  /**
   * The kind's pg-boss queue, made once per process (createQueue changes nothing when it exists). Its
   * messages never run out of retries or expire while waiting: the row's rules decide when a job fails,
   * and a message's retry is only a hand-over after its holder died.
   */
  private ensureQueue(kind: string): Promise<void> {
    let made = this.queues.get(kind);
    if (!made) {
      made = this.boss.createQueue(kind, {
        heartbeatSeconds: this.opts.heartbeatSeconds,
        expireInSeconds: 24 * 60 * 60,
        retryLimit: 1_000_000,
        retryDelay: 0,
        retentionSeconds: 5 * 365 * 24 * 60 * 60,
      });
      made.catch(() => this.queues.delete(kind));
      this.queues.set(kind, made);
    }
    return made;
  }

  /** One connection LISTENs for the notices; it comes back after a failure, the workers' polls covering the gap. */
  private async listen(): Promise<void> {
    if (this.closed) return;
    const client = new pg.Client({ connectionString: this.opts.url, application_name: 'folio-jobs-listen' });
    this.listener = client;
    const again = () => {
      if (this.listener !== client || this.closed) return;
      this.listener = undefined;
      client.end().catch(() => {});
      setTimeout(() => void this.listen().catch((err) => this.opts.log('Listening for job notices failed; retrying.', err)), 1_000).unref();
    };
    client.on('error', again);
    client.on('end', again);
    client.on('notification', (n) => {
      if (n.channel === SENT) this.notices.emit(SENT, n.payload);
      else if (n.channel === ENDED && n.payload) this.notices.emit(ENDED, JSON.parse(n.payload));
    });
    await client.connect();
    await client.query(`listen ${SENT}; listen ${ENDED}`);
  }
}

/** A worker of a PgBossJobQueue: fetches the messages of its kinds, up to `concurrency` held at once. */
export class PgBossWorker<R extends JobRepos = Repos> implements JobWorker {
  /** Written to locked_by: which process (and worker in it) holds a running job. */
  readonly owner = `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private readonly kinds: string[];
  private readonly concurrency: number;
  private readonly log: (message: string, error?: unknown) => void;
  private readonly running = new Map<string, Promise<void>>();
  private readonly listeners: ((job: JobRow, outcome: JobOutcome) => void)[] = [];
  private readonly stopping = new AbortController();
  private phase: 'new' | 'started' | 'stopped' = 'new';
  /** Fetch rounds (pump), one at a time. */
  private readonly rounds = new Rounds(() => this.pump(), () => this.phase === 'started');
  private timer: NodeJS.Timeout | undefined;
  /** Where the next round of fetches begins, so that no kind waits behind another for ever. */
  private nextKind = 0;
  private unsubscribe: (() => void) | undefined;

  constructor(
    private readonly queue: PgBossJobQueue<R>,
    private readonly handlers: Record<string, JobHandler<any, R>>,
    private readonly options: WorkerOptions<R>,
  ) {
    this.kinds = Object.keys(handlers);
    this.concurrency = Math.max(1, options.concurrency ?? 1);
    this.log = options.log ?? queue.options.log;
  }

  /** Starts fetching. What a dead process held comes back by itself (pg-boss's monitor), to whichever worker fetches it. */
  async start(): Promise<void> {
    if (this.phase !== 'new') throw new Error('A worker starts once.');
    this.phase = 'started';
    await this.queue.start(this.kinds);
    this.unsubscribe = this.queue.onSent(this.kinds, () => this.wake());
    this.wake();
  }

  async stop({ timeoutMs = 10_000 } = {}): Promise<boolean> {
    if (this.phase !== 'started') {
      this.phase = 'stopped';
      return true;
    }
    this.phase = 'stopped';
    this.unsubscribe?.();
    clearTimeout(this.timer);
    this.stopping.abort(new Error('The worker is stopping.'));
    await this.rounds.idle();
    return endedWithin(this.running.values(), timeoutMs);
  }

  settled(listener: (job: JobRow, outcome: JobOutcome) => void): void {
    this.listeners.push(listener);
  }

  private wake(): void {
    this.rounds.wake();
  }

  /** Fetches while a slot is free, one message at a time, going round the kinds. */
  private async pump(): Promise<void> {
    clearTimeout(this.timer);
    try {
      let found = true;
      while (found && this.phase === 'started' && this.running.size < this.concurrency) {
        found = false;
        for (let i = 0; i < this.kinds.length && this.running.size < this.concurrency; i++) {
          const kind = this.kinds[(this.nextKind + i) % this.kinds.length];
          const [message] = await this.queue.boss.fetch<JobMessage>(kind, { batchSize: 1 });
          if (!message) continue;
          found = true;
          this.nextKind = (this.nextKind + i + 1) % this.kinds.length;
          this.launch(kind, message);
        }
      }
    } catch (err) {
      this.log('The worker could not fetch jobs; it tries again at the next poll.', err);
    }
    if (this.phase !== 'started') return;
    this.timer = setTimeout(() => this.wake(), this.queue.options.pollMs);
    this.timer.unref();
  }

  private launch(kind: string, message: Job<JobMessage>): void {
    // The lease: while this process lives, the message stays ours; when it dies, the beat stops.
    const beat = setInterval(
      () => void this.queue.boss.touch(kind, message.id).catch((err) => this.log(`Could not renew the lease of job ${message.data.jobId}.`, err)),
      (this.queue.options.heartbeatSeconds * 1000) / 3,
    );
    beat.unref();
    const run = this.take(kind, message)
      .catch((err) => this.log(`Job ${message.data.jobId} (${kind}) could not be settled; another worker takes it up once its lease lapses.`, err))
      .finally(() => {
        clearInterval(beat);
        this.running.delete(message.id);
        this.wake();
      });
    this.running.set(message.id, run);
  }

  /** Takes the message's row (over from a dead holder if need be) and runs it. */
  private async take(kind: string, message: Job<JobMessage>): Promise<void> {
    const { repos, uow } = this.queue.options;
    const holder = this.holder(kind, message.id);
    let row = await repos.jobs.findById(message.data.jobId);
    if (row?.state === 'running') {
      // Handed to us while held: the holder's process stopped beating, so it died.
      if ((await resumeAbandoned(row, holder)) !== 'requeued') return;
      row = await repos.jobs.findById(row.id);
      // A suspect waits (runJob.ts): its message is sent again, due when the row is.
      if (row?.state === 'queued' && Date.parse(row.run_after) > Date.now()) {
        const waiting = row;
        await uow(async (tx) => {
          await this.queue.completeMessage(tx, kind, message.id);
          await this.queue.sendMessage(tx, waiting, waiting.run_after);
        });
        return;
      }
    }
    const claimed = row?.state === 'queued' ? await repos.jobs.claimById(row.id, this.owner) : undefined;
    if (!claimed) {
      // Gone with its document, or ended: the message has nothing left to carry.
      await uow((tx) => this.queue.completeMessage(tx, kind, message.id));
      return;
    }
    if (this.phase !== 'started') {
      await uow((tx) => holder.ledger.release(tx, claimed, this.owner));
      return;
    }
    await executeJob(claimed, holder);
  }

  /** The executor's view of one held message: the ledger writes the row and the message together. */
  private holder(kind: string, messageId: string): Holder<R> {
    const q = this.queue;
    // Each end changes the row first: a job no longer ours leaves the message to its new holder.
    const ledger: JobLedger<R> = {
      done: async (tx, job, owner) => {
        if (!(await rowLedger.done(tx, job, owner))) return false;
        await q.completeMessage(tx, kind, messageId);
        await q.noticeEnded(tx, job, 'done');
        return true;
      },
      failed: async (tx, job, owner, error) => {
        if (!(await rowLedger.failed(tx, job, owner, error))) return false;
        await q.completeMessage(tx, kind, messageId);
        await q.noticeEnded(tx, job, 'failed');
        return true;
      },
      retry: async (tx, job, owner, runAfter, error) => {
        if (!(await rowLedger.retry(tx, job, owner, runAfter, error))) return false;
        await q.completeMessage(tx, kind, messageId);
        await q.sendMessage(tx, job, runAfter);
        return true;
      },
      release: async (tx, job, owner) => {
        if (!(await rowLedger.release(tx, job, owner))) return false;
        await q.completeMessage(tx, kind, messageId);
        await q.sendMessage(tx, job);
        return true;
      },
      defer: async (tx, job, owner, runAfter, reason) => {
        if (!(await rowLedger.defer(tx, job, owner, runAfter, reason))) return false;
        await q.completeMessage(tx, kind, messageId);
        await q.sendMessage(tx, job, runAfter);
        return true;
      },
    };
    return {
      owner: this.owner,
      repos: q.options.repos,
      uow: q.options.uow,
      ledger,
      handlers: this.handlers,
      backoff: q.options.backoff,
      signal: this.stopping.signal,
      onFailed: this.options.onFailed,
      announce: (job, outcome) => tellListeners(this.listeners, job, outcome, this.log),
      log: this.log,
    };
  }
}
