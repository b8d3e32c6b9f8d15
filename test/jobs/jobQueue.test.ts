// The durable job queue on a real SQLite file: jobs commit with their transaction, dedupe, claim order
// and concurrency, retries with backoff ending in the failure hook, stop() draining, resuming jobs a
// dead process left running, and handlers whose job was deleted with its document.
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { migrateUp, openStore, type OpenedStore } from '../../main/store/db.ts';
import { makeRepos, unitOfWork, type Repos, type UnitOfWork } from '../../main/store/repositories/index.ts';
import { backoffDelay, enqueue, JobLostError, JobRunner, JobSetAsideError, MAX_EARLY_INTERRUPTIONS, MAX_INTERRUPTIONS, PermanentJobError, SUSPECT_RUNS, type JobRunnerOptions } from '../../main/jobs/jobQueue.ts';
import type { JobRow } from '../../main/store/schema.ts';
import { DocumentStatus } from '../../main/domain/documentStatus.ts';
import { tempDir } from '../helpers/testServer.ts';

interface Queue {
  store: OpenedStore;
  repos: Repos;
  uow: UnitOfWork;
  logs: string[];
  runner(opts: Partial<JobRunnerOptions> & Pick<JobRunnerOptions, 'handlers'>): JobRunner;
}

const opened: Queue[] = [];
const runners: JobRunner[] = [];
afterEach(async () => {
  for (const r of runners.splice(0)) await r.stop({ timeoutMs: 2_000 });
  for (const q of opened.splice(0)) await q.store.close();
});

async function openQueue(): Promise<Queue> {
  const store = openStore(path.join(tempDir('folio-jobs-'), 'folio.db'));
  await migrateUp(store.db);
  const logs: string[] = [];
  const q: Queue = {
    store,
    repos: makeRepos(store.db),
    uow: unitOfWork(store.db),
    logs,
    runner(opts) {
      const r = new JobRunner({
        repos: q.repos,
        uow: q.uow,
        pollMs: 50,
        backoff: { baseMs: 20, maxMs: 200 },
        log: (message, error) => logs.push(`${message} ${error ?? ''}`),
        ...opts,
      });
      runners.push(r);
      return r;
    },
  };
  opened.push(q);
  return q;
}

/** Polls `check` until it returns something other than undefined/false (bounded). */
async function until<T>(what: string, check: () => Promise<T | undefined | false> | T | undefined | false, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await sleep(5);
  }
}

async function insertDocument(repos: Repos, name = 'scan.pdf') {
  const user = (await repos.users.findByEmail('owner@test.local')) ?? (await repos.users.create({ email: 'owner@test.local', passwordHash: 'x' }));
  const project = await repos.projects.create('Jobs', user.id);
  const t = new Date().toISOString();
  return repos.documents.insert({
    project_id: project.id, category_id: null, data_file_name: name, blob_key: '0'.repeat(64), file_size: 3,
    status: DocumentStatus.QUEUING_FOR_OCR, dataset_status: 0, is_reviewed: false, number_of_pages: 0,
    category_is_revised: false, created_by: user.id, created_at: t, updated_at: t,
  });
}

const job = (q: Queue, id: number) => q.repos.jobs.findById(id);
const countJobs = (q: Queue) => q.store.sqlite.prepare('select count(*) from jobs').pluck().get() as number;

describe('enqueue', () => {
  it('commits the job with the document, leaves none when that transaction rolls back, and cascades on delete', async () => {
    const q = await openQueue();
    await expect(
      q.uow(async (r) => {
        const doc = await insertDocument(r);
        await enqueue(r, { kind: 'ocr', documentId: doc.id, payload: { pages: 2 }, dedupeKey: `ocr:${doc.id}` });
        throw new Error('the upload failed');
      }),
    ).rejects.toThrow('the upload failed');
    expect(countJobs(q)).toBe(0);
    expect(q.store.sqlite.prepare('select count(*) from documents').pluck().get()).toBe(0);

    const { doc, queued } = await q.uow(async (r) => {
      const d = await insertDocument(r);
      return { doc: d, queued: await enqueue(r, { kind: 'ocr', documentId: d.id, payload: { pages: 2 }, dedupeKey: `ocr:${d.id}` }) };
    });
    expect(await q.repos.jobs.listByDocument(doc.id)).toEqual([queued]);
    expect(queued).toMatchObject({ kind: 'ocr', document_id: doc.id, state: 'queued', attempts: 0, max_attempts: 5, locked_by: null, finished_at: null });
    expect(JSON.parse(queued.payload)).toEqual({ pages: 2 });

    await q.repos.documents.remove(doc.id);
    expect(countJobs(q)).toBe(0);
  });

  it('makes a second enqueue under the same dedupe key a no-op, even once the job is done', async () => {
    const q = await openQueue();
    const first = await enqueue(q.repos, { kind: 'thumb', payload: { v: 1 }, dedupeKey: 'thumb:1' });
    const again = await q.uow((r) => enqueue(r, { kind: 'thumb', payload: { v: 2 }, dedupeKey: 'thumb:1' }));
    expect(again).toEqual(first);
    // Jobs without a key never clash.
    await enqueue(q.repos, { kind: 'thumb' });
    await enqueue(q.repos, { kind: 'thumb' });
    expect(countJobs(q)).toBe(3);

    const seen: unknown[] = [];
    await q.runner({ handlers: { thumb: async ({ payload }) => void seen.push(payload) } }).start();
    await until('all done', async () => (await q.repos.jobs.countOpen()) === 0);
    const done = await enqueue(q.repos, { kind: 'thumb', payload: { v: 3 }, dedupeKey: 'thumb:1' });
    expect(done).toMatchObject({ id: first.id, state: 'done', attempts: 1 });
    expect(seen).toEqual([{ v: 1 }, {}, {}]);
    expect(countJobs(q)).toBe(3);
  });
});

describe('JobRunner', () => {
  it('runs jobs in the order they were enqueued, one at a time with concurrency 1', async () => {
    const q = await openQueue();
    for (let n = 1; n <= 5; n++) await enqueue(q.repos, { kind: 'step', payload: { n } });
    const order: number[] = [];
    await q.runner({ handlers: { step: async ({ payload, job }) => {
      expect(job.state).toBe('running');
      order.push(payload.n);
    } } }).start();
    await until('all done', async () => (await q.repos.jobs.countOpen()) === 0);
    expect(order).toEqual([1, 2, 3, 4, 5]);
    expect(q.logs).toEqual([]);
  });

  it('runs at most `concurrency` handlers at once, and claims more as they finish', async () => {
    const q = await openQueue();
    for (let n = 1; n <= 7; n++) await enqueue(q.repos, { kind: 'ocr', payload: { n } });
    let inFlight = 0;
    let maxInFlight = 0;
    const started: number[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    await q.runner({ concurrency: 3, handlers: { ocr: async ({ payload }) => {
      started.push(payload.n);
      maxInFlight = Math.max(maxInFlight, ++inFlight);
      await gate;
      inFlight--;
    } } }).start();

    await until('three started', () => started.length === 3);
    await sleep(150); // several polls: nothing more may start while three run
    expect(started).toEqual([1, 2, 3]);
    expect(q.store.sqlite.prepare("select state, count(*) as n from jobs group by state order by state").all()).toEqual([
      { state: 'queued', n: 4 },
      { state: 'running', n: 3 },
    ]);
    release();
    await until('all done', async () => (await q.repos.jobs.countOpen()) === 0);
    expect(started.sort()).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(maxInFlight).toBe(3);
  });

  it('wakes at once for a job enqueued in this process, without waiting for the poll', async () => {
    const q = await openQueue();
    const ran: number[] = [];
    await q.runner({ pollMs: 60_000, handlers: { ocr: async ({ job }) => void ran.push(job.id) } }).start();
    await sleep(20); // the first (empty) claim round is over; the next poll is a minute away
    const queued = await q.uow(async (r) => enqueue(r, { kind: 'ocr', documentId: (await insertDocument(r)).id }));
    await until('the job ran', () => ran.length === 1, 5_000);
    expect(ran).toEqual([queued.id]);
  });

  it('retries a failing job with growing backoff, then marks it failed and runs onFailed in that transaction', async () => {
    const q = await openQueue();
    const doc = await q.uow(async (r) => {
      const d = await insertDocument(r);
      await enqueue(r, { kind: 'ocr', documentId: d.id, maxAttempts: 3 });
      return d;
    });
    const flaky = await enqueue(q.repos, { kind: 'flaky' });
    const starts: number[] = [];
    const failures: { job: JobRow; error: unknown }[] = [];
    const settled: string[] = [];
    let flakyRuns = 0;
    const backoff = { baseMs: 40, maxMs: 1_000 };
    await q.runner({
      backoff,
      handlers: {
        ocr: async () => {
          starts.push(Date.now());
          throw new Error('page 2 is unreadable');
        },
        flaky: async () => {
          if (++flakyRuns === 1) throw new Error('not yet');
        },
      },
      onFailed: async (failedJob, error, repos) => {
        failures.push({ job: failedJob, error });
        await repos.documents.update(failedJob.document_id!, { status: DocumentStatus.COULD_NOT_BE_PROCESSED, status_reason: (error as Error).message });
      },
      onSettled: (j, outcome) => settled.push(`${j.kind}:${outcome}`),
    }).start();

    const failed = await until('the job failed', async () => (await q.repos.jobs.listByDocument(doc.id)).find((j) => j.state === 'failed'));
    expect(failed).toMatchObject({ attempts: 3, last_error: 'page 2 is unreadable', locked_by: null });
    expect(failed.finished_at).not.toBeNull();
    expect(starts).toHaveLength(3);
    // Each wait is at least half its exponential step (equal jitter): 20 ms, then 40 ms.
    expect(starts[1] - starts[0]).toBeGreaterThanOrEqual(backoffDelay(1, backoff, () => 0) - 2);
    expect(starts[2] - starts[1]).toBeGreaterThanOrEqual(backoffDelay(2, backoff, () => 0) - 2);
    expect(failures).toHaveLength(1);
    expect(failures[0].job).toMatchObject({ id: failed.id, state: 'failed', attempts: 3 });
    expect((failures[0].error as Error).message).toBe('page 2 is unreadable');
    expect(await q.repos.documents.findById(doc.id)).toMatchObject({ status: 111, status_reason: 'page 2 is unreadable' });

    await until('the flaky job is done', async () => (await job(q, flaky.id))?.state === 'done');
    expect(await job(q, flaky.id)).toMatchObject({ attempts: 2, last_error: 'not yet' });
    expect(settled.sort()).toEqual(['flaky:done', 'ocr:failed']);
    expect(q.logs).toEqual([]);
  });

  it('stop() waits for handlers to finish or reach a safe point; a job stopped at a safe point is queued again, its attempt not counted', async () => {
    const q = await openQueue();
    const stepping = await enqueue(q.repos, { kind: 'pages', payload: { pages: 100 } });
    const finishing = await enqueue(q.repos, { kind: 'finish' });
    const events: string[] = [];
    const runner = q.runner({
      concurrency: 2,
      handlers: {
        // Checks for a stop between pages.
        pages: async ({ payload, heartbeat }) => {
          events.push('pages started');
          for (let page = 1; page <= payload.pages; page++) {
            await sleep(10);
            await heartbeat();
          }
        },
        // Ignores the signal and completes a moment later.
        finish: async ({ completeWith }) => {
          events.push('finish started');
          await sleep(150);
          await completeWith(async () => events.push('finish committed'));
        },
      },
    });
    await runner.start();
    await until('both started', () => events.length === 2);
    expect(await runner.stop({ timeoutMs: 5_000 })).toBe(true);
    events.push('stopped');
    expect(events.slice(2)).toEqual(['finish committed', 'stopped']);
    expect(await job(q, finishing.id)).toMatchObject({ state: 'done', attempts: 1 });
    expect(await job(q, stepping.id)).toMatchObject({ state: 'queued', attempts: 0, locked_by: null });
    expect(q.logs).toEqual([]);
  });

  it('stop() gives up after its timeout, leaving the job running for the next start-up', async () => {
    const q = await openQueue();
    const stuck = await enqueue(q.repos, { kind: 'stuck' });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let started = false;
    const runner = q.runner({
      handlers: {
        stuck: () => {
          started = true;
          return gate;
        },
      },
    });
    await runner.start();
    // Its handler runs (the row says 'running' a moment earlier: the claim is committed before the runner hears back).
    await until('it runs', () => started);
    expect(await runner.stop({ timeoutMs: 50 })).toBe(false);
    expect(await job(q, stuck.id)).toMatchObject({ state: 'running', locked_by: runner.owner });
    // Its handler is still alive in this process: a second runner's start-up leaves the job alone.
    expect(await q.runner({ handlers: { stuck: async () => {} } }).start()).toEqual({ requeued: 0, failed: 0 });
    release();
    await until('the late handler completed it', async () => (await job(q, stuck.id))?.state === 'done');
  });

  it('on start, re-queues jobs a dead process left running without spending an attempt', async () => {
    const q = await openQueue();
    const resumed = await enqueue(q.repos, { kind: 'ocr', payload: { n: 1 } });
    // Its last attempt was running when the process died: the death is not its fault, so it runs again.
    const lastAttempt = await enqueue(q.repos, { kind: 'ocr', payload: { n: 2 }, maxAttempts: 2 });
    const otherKind = await enqueue(q.repos, { kind: 'train' });
    const markRunning = q.store.sqlite.prepare("update jobs set state = 'running', attempts = ?, progress = ?, locked_by = 'gone-host:4242:deadbeef', locked_at = ? where id = ?");
    markRunning.run(1, 4, new Date().toISOString(), resumed.id);
    markRunning.run(2, 0, new Date().toISOString(), lastAttempt.id);
    markRunning.run(1, 0, new Date().toISOString(), otherKind.id);

    const ran: number[] = [];
    const failed: number[] = [];
    const recovered = await q.runner({
      handlers: { ocr: async ({ payload }) => void ran.push(payload.n) },
      onFailed: async (j) => void failed.push(j.id),
    }).start();
    expect(recovered).toEqual({ requeued: 2, failed: 0 });
    await until('both resumed jobs are done', async () => (await job(q, resumed.id))?.state === 'done' && (await job(q, lastAttempt.id))?.state === 'done');
    expect(ran.sort()).toEqual([1, 2]);
    // The interrupted start was given back: one attempt each for the run that finished.
    expect(await job(q, resumed.id)).toMatchObject({ attempts: 1, locked_by: null, interruptions: 1, interrupted_at: 4 });
    expect(await job(q, lastAttempt.id)).toMatchObject({ attempts: 2, locked_by: null, interruptions: 1, interrupted_at: 0 });
    expect((await job(q, resumed.id))!.last_error).toContain('gone-host:4242:deadbeef');
    expect(failed).toEqual([]);
    // A kind this runner has no handler for is left to the runner that has one.
    expect(await job(q, otherKind.id)).toMatchObject({ state: 'running' });
  });

  it('defers a job the process died on three times in a row at the same heartbeat, and sets it aside only after SUSPECT_RUNS more', async () => {
    const q = await openQueue();
    const poison = await enqueue(q.repos, { kind: 'ocr', payload: { n: 1 } });
    const progressing = await enqueue(q.repos, { kind: 'ocr', payload: { n: 2 } });
    const die = q.store.sqlite.prepare("update jobs set state = 'running', attempts = attempts + 1, progress = ?, locked_by = ?, locked_at = ? where id = ?");
    const failures: { id: number; error: unknown }[] = [];
    const ran: number[] = [];
    /** Recovery only: stop before anything is claimed again. */
    const recoverOnly = async () => {
      const runner = q.runner({ handlers: { ocr: async () => { throw new Error('not reached'); } }, onFailed: async (j, error) => void failures.push({ id: j.id, error }) });
      const recovered = await runner.start();
      await runner.stop();
      return recovered;
    };
    // Two deaths in a row at heartbeat 3 for the poison; the other dies at 1, 2, 3: never twice at one point.
    for (const [round, progress] of [[1, 1], [2, 2]] as const) {
      die.run(3, `gone:${round}`, new Date().toISOString(), poison.id);
      die.run(progress, `gone:${round}`, new Date().toISOString(), progressing.id);
      await recoverOnly();
    }
    expect(await job(q, poison.id)).toMatchObject({ state: 'queued', attempts: 0, interruptions: 2, interrupted_at: 3 });
    expect(await job(q, progressing.id)).toMatchObject({ state: 'queued', attempts: 0, interruptions: 1, interrupted_at: 2 });

    // The third death at the same step: a suspect, which waits while the other job runs; nothing fails.
    die.run(3, 'gone:3', new Date().toISOString(), poison.id);
    die.run(3, 'gone:3', new Date().toISOString(), progressing.id);
    const runner = q.runner({ handlers: { ocr: async ({ payload }) => void ran.push(payload.n) } });
    expect(await runner.start()).toEqual({ requeued: 2, failed: 0 });
    const deferred = (await job(q, poison.id))!;
    expect(deferred).toMatchObject({ state: 'queued', attempts: 0, interruptions: MAX_INTERRUPTIONS });
    expect(Date.parse(deferred.run_after)).toBeGreaterThan(Date.now() + 5_000);
    expect(deferred.last_error).toMatch(/Interrupted 3 times in a row at the same step.*tried again in 10 s/);
    await until('the job that got further ran again', async () => (await job(q, progressing.id))?.state === 'done');
    expect(ran).toEqual([2]);
    await runner.stop();

    // Tried after each wait and dying at the same step every time: set aside after SUSPECT_RUNS of them.
    for (let k = 1; k < SUSPECT_RUNS; k++) {
      die.run(3, `gone:suspect-${k}`, new Date().toISOString(), poison.id);
      expect(await recoverOnly()).toEqual({ requeued: 1, failed: 0 });
    }
    die.run(3, 'gone:last', new Date().toISOString(), poison.id);
    expect(await recoverOnly()).toEqual({ requeued: 0, failed: 1 });
    expect(failures.map((f) => f.id)).toEqual([poison.id]);
    expect(failures[0].error).toBeInstanceOf(JobSetAsideError);
    expect(String((failures[0].error as Error).message)).toMatch(new RegExp(`stopped ${MAX_INTERRUPTIONS + SUSPECT_RUNS} times in a row .* at the same step`));
    expect(await job(q, poison.id)).toMatchObject({ state: 'failed' });
  });

  it('before its first heartbeat, a job is a suspect after MAX_EARLY_INTERRUPTIONS deaths in a row, set aside after SUSPECT_RUNS more', async () => {
    const q = await openQueue();
    const early = await enqueue(q.repos, { kind: 'ocr', payload: {} });
    const die = q.store.sqlite.prepare("update jobs set state = 'running', attempts = attempts + 1, progress = 0, locked_by = ?, locked_at = ? where id = ?");
    for (let round = 1; round < MAX_EARLY_INTERRUPTIONS + SUSPECT_RUNS; round++) {
      die.run(`gone:${round}`, new Date().toISOString(), early.id);
      const runner = q.runner({ handlers: { ocr: async () => { throw new Error('not reached'); } } });
      expect(await runner.start()).toEqual({ requeued: 1, failed: 0 });
      await runner.stop();
      const row = (await job(q, early.id))!;
      // Due at once until it is a suspect, then later each time.
      expect(Date.parse(row.run_after) > Date.now() + 1_000).toBe(round >= MAX_EARLY_INTERRUPTIONS);
    }
    expect(await job(q, early.id)).toMatchObject({ state: 'queued', interruptions: MAX_EARLY_INTERRUPTIONS + SUSPECT_RUNS - 1, interrupted_at: 0 });
    die.run('gone:last', new Date().toISOString(), early.id);
    const failures: unknown[] = [];
    expect(await q.runner({ handlers: { ocr: async () => {} }, onFailed: async (_j, e) => void failures.push(e) }).start()).toEqual({ requeued: 0, failed: 1 });
    expect(failures[0]).toBeInstanceOf(JobSetAsideError);
  });

  it('fails a PermanentJobError at once, without the retries a passing failure gets', async () => {
    const q = await openQueue();
    const broken = await enqueue(q.repos, { kind: 'ocr', payload: {}, maxAttempts: 5 });
    const failures: number[] = [];
    await q.runner({ handlers: { ocr: async () => { throw new PermanentJobError('the file is damaged'); } }, onFailed: async (j) => void failures.push(j.id) }).start();
    await until('the job failed', async () => (await job(q, broken.id))?.state === 'failed');
    expect(await job(q, broken.id)).toMatchObject({ attempts: 1, last_error: 'the file is damaged' });
    expect(failures).toEqual([broken.id]);
  });

  it('claims jobs never tried before retries, so that failing files never hold back a new one', async () => {
    const q = await openQueue();
    const retry = await enqueue(q.repos, { kind: 'ocr', payload: { n: 'retry' } });
    q.store.sqlite.prepare("update jobs set attempts = 2, run_after = ? where id = ?").run(new Date(0).toISOString(), retry.id);
    const fresh = await enqueue(q.repos, { kind: 'ocr', payload: { n: 'fresh' } });
    const order: string[] = [];
    await q.runner({ handlers: { ocr: async ({ payload }) => void order.push(payload.n) } }).start();
    await until('both ran', async () => (await job(q, retry.id))?.state === 'done' && (await job(q, fresh.id))?.state === 'done');
    expect(order).toEqual(['fresh', 'retry']);
  });

  it('drops a job deleted with its document while it ran: heartbeat throws, completeWith writes nothing', async () => {
    const q = await openQueue();
    const doc = await q.uow(async (r) => {
      const d = await insertDocument(r);
      await enqueue(r, { kind: 'ocr', documentId: d.id });
      return d;
    });
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    let proceed!: () => void;
    const deleted = new Promise<void>((resolve) => (proceed = resolve));
    const outcome: string[] = [];
    await q.runner({
      handlers: {
        ocr: async ({ heartbeat, completeWith }) => {
          started();
          await deleted;
          await heartbeat().catch((e) => outcome.push(e instanceof JobLostError ? 'heartbeat: lost' : String(e)));
          try {
            await completeWith(async () => outcome.push('wrote results'));
          } finally {
            outcome.push('ended');
          }
        },
      },
      onSettled: (_j, o) => outcome.push(o),
    }).start();
    await running;
    await q.repos.documents.remove(doc.id);
    proceed();
    await until('the handler ended', () => outcome.includes('ended'));
    await sleep(50); // it would settle (or log) right after
    expect(outcome).toEqual(['heartbeat: lost', 'ended']);
    expect(countJobs(q)).toBe(0);
    expect(q.logs).toEqual([]);
  });
});

describe('backoffDelay', () => {
  it.each([
    // attempts, random, expected ms (base 100, max 1000)
    [1, 0, 50],
    [1, 1, 100],
    [2, 0, 100],
    [3, 0.5, 300],
    [4, 1, 800],
    [5, 0, 500],
    [9, 1, 1000],
  ])('after %i failed attempts with random %f waits %i ms', (attempts, random, expected) => {
    expect(backoffDelay(attempts, { baseMs: 100, maxMs: 1000 }, () => random)).toBe(expected);
  });
});
