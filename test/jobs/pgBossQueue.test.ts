// The PostgreSQL queue (main/jobs/pgBossQueue.ts) on a real PostgreSQL (a throwaway cluster, a database per
// test) and real pg-boss: send in the caller's transaction (a rollback sends nothing), a committed job
// handled once even with two queues (two processes' worth) fetching, retries by the handler contract,
// a stop at a safe point, ends heard by another queue through the database, and a worker process killed
// with SIGKILL in the middle of a job whose job another worker then finishes, exactly once.
import { spawn, type ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { migratePgStore, openPgStore, type PgStore } from '../../main/store/pgStore.ts';
import { makeRepos, unitOfWork } from '../../main/store/repositories/index.ts';
import { PgBossJobQueue } from '../../main/jobs/pgBossQueue.ts';
import { NotNowError, PermanentJobError, type EndedJob, type JobHandler, type JobOutcome, type JobWorker } from '../../main/jobs/queue.ts';
import { createTestDatabase, postgresAvailable } from '../helpers/postgres.ts';
import { repoRoot } from '../helpers/processes.ts';
import { createRunsTable, messagesOf, recordRun, runsOf } from './fixtures/pgPlan.ts';

const cleanups: (() => Promise<unknown>)[] = [];
const children = new Set<ChildProcess>();
afterEach(async () => {
  for (const child of children) child.kill('SIGKILL');
  children.clear();
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
});

async function openDatabase(): Promise<{ url: string; store: PgStore }> {
  const url = await createTestDatabase('folio_jobs');
  const store = openPgStore(url);
  cleanups.push(() => store.close());
  await migratePgStore(store);
  await createRunsTable(store.db);
  return { url, store };
}

/** A queue as one process has it: its own pg-boss, its own listening connection. */
function openQueue(url: string, store: PgStore, opts: { heartbeatSeconds?: number } = {}) {
  const repos = makeRepos(store.db);
  const uow = unitOfWork(store.db);
  const queue = new PgBossJobQueue({ url, repos, uow, pollMs: 100, monitorSeconds: 1, backoff: { baseMs: 20, maxMs: 50 }, log: () => {}, ...opts });
  cleanups.push(() => queue.close());
  return { repos, uow, queue };
}

function started<W extends JobWorker>(worker: W): W {
  cleanups.push(() => worker.stop({ timeoutMs: 2_000 }));
  return worker;
}

async function until<T>(what: string, check: () => T | Promise<T>, timeoutMs = 20_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await sleep(25);
  }
}

describe.skipIf(!postgresAvailable())('PgBossJobQueue (PostgreSQL, pg-boss)', () => {
  it('sends in the caller transaction: a rollback leaves neither row nor message; a dedupe key gives the same job and one message', async () => {
    const { url, store } = await openDatabase();
    const { repos, uow, queue } = openQueue(url, store);
    await queue.start(['mail']);
    await expect(
      uow(async (tx) => {
        await queue.send(tx, { kind: 'mail', payload: { n: 1 }, dedupeKey: 'mail:1' });
        throw new Error('the caller fails after sending');
      }),
    ).rejects.toThrow('the caller fails');
    expect(await repos.jobs.countOpen()).toBe(0);
    expect(await messagesOf(store.db, 'mail')).toEqual({});

    const first = await uow((tx) => queue.send(tx, { kind: 'mail', payload: { n: 1 }, dedupeKey: 'mail:1', maxAttempts: 2 }));
    const again = await uow((tx) => queue.send(tx, { kind: 'mail', payload: { n: 2 }, dedupeKey: 'mail:1' }));
    expect(again.id).toBe(first.id);
    expect(first).toMatchObject({ kind: 'mail', state: 'queued', max_attempts: 2, payload: JSON.stringify({ n: 1 }) });
    expect(await messagesOf(store.db, 'mail')).toEqual({ created: 1 });
    const [message] = (await sql<{ data: string }>`select data from pgboss.job where name = 'mail'`.execute(store.db)).rows;
    expect(JSON.parse(message.data)).toEqual({ jobId: first.id, kind: 'mail', documentId: null, dedupeKey: 'mail:1', payload: JSON.stringify({ n: 1 }) });
  });

  it('hands each committed job to one worker once, with two queues fetching, and tells a third queue of every end', async () => {
    const { url, store } = await openDatabase();
    const a = openQueue(url, store);
    const b = openQueue(url, store);
    const watcher = openQueue(url, store);
    const heard: [number, JobOutcome][] = [];
    watcher.queue.ended((job: EndedJob, outcome) => heard.push([job.id, outcome]));
    await watcher.queue.start();
    const ran: number[] = [];
    const work: JobHandler = async ({ job, completeWith }) => {
      ran.push(job.id);
      await sleep(10);
      await completeWith((tx) => recordRun(tx, job.id));
    };
    const handlers = { work };
    const workers = [started(a.queue.handle(handlers, { concurrency: 2 })), started(b.queue.handle(handlers, { concurrency: 2 }))];
    await Promise.all(workers.map((w) => w.start()));
    const sent = await a.uow(async (tx) => {
      const jobs = [];
      for (let i = 0; i < 12; i++) jobs.push(await a.queue.send(tx, { kind: 'work', payload: { i } }));
      return jobs;
    });
    await until('every job done', async () => (await a.repos.jobs.countOpen()) === 0);
    for (const job of sent) {
      expect(await runsOf(store.db, job.id)).toBe(1);
      expect(await a.repos.jobs.findById(job.id)).toMatchObject({ state: 'done', attempts: 1, locked_by: null });
    }
    expect(ran.sort((x, y) => x - y)).toEqual(sent.map((j) => j.id));
    expect(await messagesOf(store.db, 'work')).toEqual({ completed: 12 });
    await until('the watcher to hear every end', () => heard.length === 12);
    expect(heard.map(([id]) => id).sort((x, y) => x - y)).toEqual(sent.map((j) => j.id));
    expect(heard.every(([, outcome]) => outcome === 'done')).toBe(true);
  });

  it('retries a failing handler after backoff up to max_attempts, then fails it with onFailed in that transaction; a PermanentJobError at once', async () => {
    const { url, store } = await openDatabase();
    const { repos, uow, queue } = openQueue(url, store);
    let flakyStarts = 0;
    const failedWith: string[] = [];
    const worker = started(
      queue.handle(
        {
          flaky: async ({ job, completeWith }) => {
            if (++flakyStarts < 3) throw new Error(`not yet (${flakyStarts})`);
            await completeWith((tx) => recordRun(tx, job.id));
          },
          broken: async () => {
            throw new Error('never works');
          },
          damaged: async () => {
            throw new PermanentJobError('the file is damaged');
          },
        },
        {
          onFailed: async (job, error, tx) => {
            failedWith.push(`${job.kind}: ${(error as Error).message}`);
            await recordRun(tx, job.id);
          },
        },
      ),
    );
    const outcomes: [string, JobOutcome][] = [];
    worker.settled((job, outcome) => outcomes.push([job.kind, outcome]));
    await worker.start();
    const [flaky, broken, damaged] = await uow(async (tx) => [
      await queue.send(tx, { kind: 'flaky', maxAttempts: 5 }),
      await queue.send(tx, { kind: 'broken', maxAttempts: 3 }),
      await queue.send(tx, { kind: 'damaged', maxAttempts: 5 }),
    ]);
    await until('all three ended', () => outcomes.length === 3);
    expect(await repos.jobs.findById(flaky.id)).toMatchObject({ state: 'done', attempts: 3, last_error: 'not yet (2)' });
    expect(await repos.jobs.findById(broken.id)).toMatchObject({ state: 'failed', attempts: 3, last_error: 'never works' });
    expect(await repos.jobs.findById(damaged.id)).toMatchObject({ state: 'failed', attempts: 1, last_error: 'the file is damaged' });
    expect(failedWith.sort()).toEqual(['broken: never works', 'damaged: the file is damaged']);
    // onFailed's row committed with the mark, once; the done job's once.
    for (const job of [flaky, broken, damaged]) expect(await runsOf(store.db, job.id)).toBe(1);
    // One message per start, each completed: nothing left to fetch.
    expect(await messagesOf(store.db, 'flaky')).toEqual({ completed: 3 });
    expect(await messagesOf(store.db, 'broken')).toEqual({ completed: 3 });
    expect(await messagesOf(store.db, 'damaged')).toEqual({ completed: 1 });
  });

  it('a stop at a safe point puts the job back at once, attempt not counted, for the next worker', async () => {
    const { url, store } = await openDatabase();
    const first = openQueue(url, store);
    const reached: number[] = [];
    const worker = first.queue.handle({
      long: async ({ heartbeat, signal }) => {
        await heartbeat();
        reached.push(1);
        await sleep(30_000, undefined, { signal }).catch(() => {});
        await heartbeat(); // throws: the worker is stopping
      },
    });
    await worker.start();
    const job = await first.uow((tx) => first.queue.send(tx, { kind: 'long' }));
    await until('the handler to run', () => reached.length === 1);
    expect(await worker.stop({ timeoutMs: 5_000 })).toBe(true);
    expect(await first.repos.jobs.findById(job.id)).toMatchObject({ state: 'queued', attempts: 0, locked_by: null });

    const second = openQueue(url, store);
    const next = started(second.queue.handle({ long: async ({ completeWith }) => completeWith((tx) => recordRun(tx, job.id)) }));
    await next.start();
    await until('the job done by the next worker', async () => (await second.repos.jobs.findById(job.id))?.state === 'done');
    expect(await runsOf(store.db, job.id)).toBe(1);
    expect(await messagesOf(store.db, 'long')).toEqual({ completed: 2 });
  });

  it('a delayed send waits, a NotNowError gives the turn back (attempt not counted) and the job comes again when due; a freed dedupe key makes a new job', async () => {
    const { url, store } = await openDatabase();
    const { repos, uow, queue } = openQueue(url, store);
    const order: string[] = [];
    let refusals = 1;
    const worker = started(
      queue.handle({
        later: async ({ job, completeWith }) => {
          if (refusals-- > 0) {
            order.push(`not now ${job.id}`);
            throw new NotNowError('something urgent is open', 300);
          }
          await completeWith(async (tx) => void order.push(`done ${job.id} ${(await tx.jobs.findById(job.id))!.attempts}`));
        },
      }),
    );
    await worker.start();
    const job = await uow((tx) => queue.send(tx, { kind: 'later', dedupeKey: 'later:1', delayMs: 400, maxAttempts: 1 }));
    expect(Date.parse(job.run_after) - Date.parse(job.created_at)).toBeGreaterThanOrEqual(400);
    await sleep(200);
    expect(order).toEqual([]);
    await until('the deferred job done', async () => (await repos.jobs.findById(job.id))?.state === 'done');
    // One attempt allowed, yet done: the turn given back did not count.
    expect(order).toEqual([`not now ${job.id}`, `done ${job.id} 1`]);
    expect((await uow((tx) => queue.send(tx, { kind: 'later', dedupeKey: 'later:1' }))).id).toBe(job.id);
    await repos.jobs.releaseDedupeKey(job.id);
    expect((await uow((tx) => queue.send(tx, { kind: 'later', dedupeKey: 'later:1' }))).id).not.toBe(job.id);
  });

  it('a live holder keeps its job past the heartbeat interval: the other worker never takes it over', async () => {
    const { url, store } = await openDatabase();
    const a = openQueue(url, store, { heartbeatSeconds: 10 });
    const b = openQueue(url, store, { heartbeatSeconds: 10 });
    const runners: string[] = [];
    const handler = (who: string): JobHandler => async ({ job, heartbeat, completeWith }) => {
      runners.push(who);
      // Longer than the heartbeat interval, with pg-boss's monitor looking every second.
      for (let i = 0; i < 15; i++) {
        await sleep(1_000);
        await heartbeat();
      }
      await completeWith((tx) => recordRun(tx, job.id));
    };
    const first = started(a.queue.handle({ long: handler('a') }));
    await first.start();
    const job = await a.uow((tx) => a.queue.send(tx, { kind: 'long' }));
    await until('a to hold the job', () => runners.length === 1);
    await started(b.queue.handle({ long: handler('b') })).start();
    await until('the job done', async () => (await a.repos.jobs.findById(job.id))?.state === 'done', 40_000);
    expect(runners).toEqual(['a']);
    expect(await a.repos.jobs.findById(job.id)).toMatchObject({ attempts: 1, interruptions: 0, progress: 15 });
    expect(await runsOf(store.db, job.id)).toBe(1);
  }, 60_000);

  it('a job whose worker process was SIGKILLed in the middle is taken up by another worker and done exactly once', async () => {
    const { url, store } = await openDatabase();
    const { repos, uow, queue } = openQueue(url, store, { heartbeatSeconds: 10 });
    await queue.start(['slow']);
    const job = await uow((tx) => queue.send(tx, { kind: 'slow' }));

    const child = spawn(process.execPath, ['bin/run-ts.mjs', 'test/jobs/fixtures/pgWorker.ts', url], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(child);
    let out = '';
    child.stdout!.on('data', (d) => (out += d));
    child.stderr!.on('data', (d) => (out += d));
    await until(`the worker process to hold the job (output: ${out})`, () => out.includes(`holding ${job.id}`), 30_000);
    const held = await repos.jobs.findById(job.id);
    expect(held).toMatchObject({ state: 'running', attempts: 1, progress: 1 });
    expect(held!.locked_by).toContain(`:${child.pid}:`);
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('close', resolve));

    const survivor = started(queue.handle({ slow: async ({ job: j, completeWith }) => completeWith((tx) => recordRun(tx, j.id)) }));
    const t0 = Date.now();
    await survivor.start();
    const done = await until('the job done by the surviving worker', async () => {
      const row = await repos.jobs.findById(job.id);
      return row?.state === 'done' ? row : undefined;
    }, 40_000);
    // Taken up once the dead holder's heartbeat lapsed (10 s), its interrupted start given back.
    expect(Date.now() - t0).toBeLessThan(30_000);
    expect(done).toMatchObject({ attempts: 1, interruptions: 1, interrupted_at: 1 });
    expect(await runsOf(store.db, job.id)).toBe(1);
    expect(await messagesOf(store.db, 'slow')).toEqual({ completed: 1 });
  }, 90_000);
});
