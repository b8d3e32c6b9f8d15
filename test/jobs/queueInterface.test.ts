// The JobQueue interface (main/jobs/queue.ts) through its SQLite implementation, the way core.ts and the
// services use it: send in the caller's transaction (gone with a rollback, once per dedupe key), a
// worker from handle() that takes only its kinds, settled and ended listeners, and stop.
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { migrateUp, openStore, type OpenedStore } from '../../main/store/db.ts';
import { makeRepos, unitOfWork } from '../../main/store/repositories/index.ts';
import { SqliteJobQueue } from '../../main/jobs/jobQueue.ts';
import { NotNowError, type JobOutcome, type JobQueue, type JobWorker } from '../../main/jobs/queue.ts';
import { tempDir } from '../helpers/testServer.ts';

const stores: OpenedStore[] = [];
const workers: JobWorker[] = [];
afterEach(async () => {
  for (const w of workers.splice(0)) await w.stop({ timeoutMs: 2_000 });
  for (const s of stores.splice(0)) await s.close();
});

async function open() {
  const store = openStore(path.join(tempDir('folio-queue-'), 'folio.db'));
  stores.push(store);
  await migrateUp(store.db);
  const repos = makeRepos(store.db);
  const uow = unitOfWork(store.db);
  const queue: JobQueue = new SqliteJobQueue({ repos, uow, pollMs: 50, log: () => {} });
  return { repos, uow, queue };
}

async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await sleep(5);
  }
}

describe('JobQueue (SQLite)', () => {
  it('sends in the caller transaction: a rollback leaves no job, a dedupe key gives the same job', async () => {
    const { repos, uow, queue } = await open();
    await expect(
      uow(async (tx) => {
        await queue.send(tx, { kind: 'mail', payload: { n: 1 }, dedupeKey: 'mail:1' });
        throw new Error('the caller fails after sending');
      }),
    ).rejects.toThrow('the caller fails');
    expect(await repos.jobs.countOpen()).toBe(0);

    const first = await uow((tx) => queue.send(tx, { kind: 'mail', payload: { n: 1 }, dedupeKey: 'mail:1', maxAttempts: 2 }));
    const again = await uow((tx) => queue.send(tx, { kind: 'mail', payload: { n: 2 }, dedupeKey: 'mail:1' }));
    expect(again.id).toBe(first.id);
    expect(first).toMatchObject({ kind: 'mail', state: 'queued', max_attempts: 2, payload: JSON.stringify({ n: 1 }) });
  });

  it('a delayed send waits, a NotNowError gives the turn back (attempt not counted) and the job comes again when due; a freed dedupe key makes a new job', async () => {
    const { repos, uow, queue } = await open();
    const order: string[] = [];
    let refusals = 1;
    const worker = queue.handle({
      later: async ({ job, completeWith }) => {
        if (refusals-- > 0) {
          order.push(`not now ${job.id}`);
          throw new NotNowError('something urgent is open', 300);
        }
        await completeWith(async (tx) => void order.push(`done ${job.id} ${(await tx.jobs.findById(job.id))!.attempts}`));
      },
    });
    workers.push(worker);
    await worker.start();
    const job = await uow((tx) => queue.send(tx, { kind: 'later', dedupeKey: 'later:1', delayMs: 400, maxAttempts: 1 }));
    expect(Date.parse(job.run_after) - Date.parse(job.created_at)).toBeGreaterThanOrEqual(400);
    await sleep(200);
    expect(order).toEqual([]);
    await until('the deferred job done', async () => (await repos.jobs.findById(job.id))?.state === 'done');
    expect(order).toEqual([`not now ${job.id}`, `done ${job.id} 1`]);
    expect((await repos.jobs.findById(job.id))!.last_error).toBe('something urgent is open');
    expect((await uow((tx) => queue.send(tx, { kind: 'later', dedupeKey: 'later:1' }))).id).toBe(job.id);
    await repos.jobs.releaseDedupeKey(job.id);
    expect((await uow((tx) => queue.send(tx, { kind: 'later', dedupeKey: 'later:1' }))).id).not.toBe(job.id);
  });

  it('runs the kinds a worker handles, tells settled listeners, and leaves other kinds queued', async () => {
    const { repos, uow, queue } = await open();
    const seen: string[] = [];
    const ended: [string, JobOutcome][] = [];
    const worker = queue.handle({
      ok: async ({ payload, completeWith }) => {
        await completeWith(async () => void seen.push(payload.name));
      },
      broken: async () => {
        throw new Error('never works');
      },
    });
    workers.push(worker);
    worker.settled((job, outcome) => ended.push([job.kind, outcome]));
    // The queue hears the same ends (on SQLite its runners are every worker there is).
    const heard: [string, JobOutcome][] = [];
    queue.ended((job, outcome) => heard.push([job.kind, outcome]));
    const elsewhere = await uow(async (tx) => {
      await queue.send(tx, { kind: 'ok', payload: { name: 'a' } });
      await queue.send(tx, { kind: 'broken', maxAttempts: 1 });
      return queue.send(tx, { kind: 'elsewhere' });
    });
    await worker.start();
    await until('both handled kinds to end', () => ended.length === 2);
    expect(seen).toEqual(['a']);
    expect(ended.sort()).toEqual([['broken', 'failed'], ['ok', 'done']]);
    expect(heard.sort()).toEqual(ended);
    expect((await repos.jobs.findById(elsewhere.id))?.state).toBe('queued');
    expect(await worker.stop()).toBe(true);
  });

  it('takes fair turns: a backlog keeps its order, a key sent later starts at the head, urgent jobs and expedited documents first', async () => {
    const { repos, uow, queue } = await open();
    const send = (name: string, fairKey: string, extra: { urgent?: boolean; documentId?: number } = {}) =>
      uow((tx) => queue.send(tx, { kind: 'work', payload: { name }, fairKey, ...extra }));
    for (const n of [1, 2, 3, 4]) await send(`a${n}`, 'A');
    await send('b1', 'B');
    await send('b2', 'B');
    await send('c1', 'C');
    await send('sync', 'A', { urgent: true });
    const opened = await uow(async (tx) => {
      const user = await tx.users.create({ email: 'owner@test.local', passwordHash: 'x' });
      const project = await tx.projects.create('Fair turns', user.id);
      const t = new Date().toISOString();
      const doc = await tx.documents.insert({
        project_id: project.id, category_id: null, data_file_name: 'opened.pdf', blob_key: '0'.repeat(64), file_size: 3,
        status: 0, dataset_status: 0, is_reviewed: false, number_of_pages: 0, category_is_revised: false, created_by: user.id, created_at: t, updated_at: t,
      });
      return doc.id;
    });
    await send('a5-opened', 'A', { documentId: opened });
    expect(await uow((tx) => queue.expedite(tx, opened))).toBe(1);
    // Expediting again changes nothing: it is ahead already.
    expect(await uow((tx) => queue.expedite(tx, opened))).toBe(0);
    const order: string[] = [];
    for (;;) {
      const [job] = await repos.jobs.claim('test', ['work'], 1);
      if (!job) break;
      order.push(JSON.parse(job.payload).name);
    }
    expect(order).toEqual(['sync', 'a5-opened', 'a1', 'b1', 'c1', 'a2', 'b2', 'a3', 'a4']);
  });
});
