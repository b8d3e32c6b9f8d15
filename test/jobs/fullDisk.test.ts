// A job whose end cannot be written because the disk is full (issue 28, item 6) on a real SQLite file on a
// real full file system (a small tmpfs, helpers/smallDisk.ts): it is not left 'running' until a restart but
// goes back to the queue once the disk has room, and the log names the cause (SQLITE_FULL), not the
// rollback that could not run after it ("cannot rollback - no transaction is active").
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { migrateUp, openStore, type OpenedStore } from '../../main/store/db.ts';
import { makeRepos, unitOfWork } from '../../main/store/repositories/index.ts';
import { enqueue, JobRunner } from '../../main/jobs/jobQueue.ts';
import { canMount, mountSmallDisk, type SmallDisk } from '../helpers/smallDisk.ts';

const mountable = canMount();
let disk: SmallDisk | undefined;
let store: OpenedStore | undefined;
let runner: JobRunner | undefined;
afterEach(async () => {
  await runner?.stop({ timeoutMs: 2_000 });
  await store?.close();
  disk?.unmount();
  runner = store = disk = undefined;
});

async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.skipIf(!mountable)('a full disk while a job ends', () => {
  it('releases the job once the disk has room again, and logs SQLITE_FULL', async () => {
    disk = mountSmallDisk(8);
    store = openStore(path.join(disk.dir, 'folio.db'));
    await migrateUp(store.db);
    const repos = makeRepos(store.db);
    const uow = unitOfWork(store.db);
    const logs: string[] = [];
    let runs = 0;
    const job = await enqueue(repos, { kind: 'fill', payload: {} });
    runner = new JobRunner({
      repos,
      uow,
      pollMs: 50,
      backoff: { baseMs: 20, maxMs: 200 },
      log: (message, error) => logs.push(`${message} ${error instanceof Error ? `${error.message} ${(error.cause as Error | undefined)?.message ?? ''}` : ''}`),
      handlers: {
        // The first run fills the disk after the WAL was emptied: every write after it needs new space.
        fill: async () => {
          if (runs++ > 0) return;
          store!.sqlite.pragma('wal_checkpoint(TRUNCATE)');
          disk!.fill();
        },
      },
    });
    await runner.start();
    await until('the first run to end', () => logs.some((l) => /could not be settled/.test(l)));
    expect((await repos.jobs.findById(job.id))!.state).toBe('running');
    const log = logs.join('\n');
    expect(log).toMatch(/disk is full/);
    expect(log).toMatch(/database or disk is full/); // SQLite's words, the cause
    expect(log).not.toMatch(/cannot rollback/);

    disk.free();
    await until('the job to be done', async () => (await repos.jobs.findById(job.id))!.state === 'done');
    const done = (await repos.jobs.findById(job.id))!;
    expect(runs).toBe(2);
    // The run whose end was lost is not counted as an attempt.
    expect(done.attempts).toBe(1);
  }, 30_000);
});
