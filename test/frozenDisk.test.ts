// A disk that stops answering (issue 28, item 6): the data folder on a real ext4 file system that the kernel
// freezes (helpers/frozenDisk.ts), so every write to it blocks in the kernel until it thaws. SQLite's writes
// run on the store's writer thread (store/sqliteDriver.ts), so while the disk is frozen:
// - reads keep answering at once (they were answered only after the thaw when commits ran on the main thread);
// - a write that waits for the stuck writer answers 503 with Retry-After once the writer has been stuck
//   FOLIO_DISK_STALL_MS, and stores nothing;
// - the write the disk froze under finishes when it thaws, and everything works again.
// The reads' "at once" is measured against the thaw: the freeze lasts 8 s and the read must answer in its first half.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/testServer.ts';
import { mountFreezableDisk, type FreezableDisk } from './helpers/frozenDisk.ts';

const disk: FreezableDisk | undefined = mountFreezableDisk();
const FREEZE_MS = 8000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(!disk)('the data folder on a disk that stops answering', () => {
  let s: TestServer;
  const stallBefore = process.env.FOLIO_DISK_STALL_MS;
  beforeAll(async () => {
    process.env.FOLIO_DISK_STALL_MS = '1500';
    s = await startTestServer({ dataDir: path.join(disk!.dir, 'data') });
  }, 60_000);
  afterAll(async () => {
    disk?.thaw();
    await s?.close();
    disk?.unmount();
    if (stallBefore === undefined) delete process.env.FOLIO_DISK_STALL_MS;
    else process.env.FOLIO_DISK_STALL_MS = stallBefore;
  });

  it('answers reads while a write waits for the disk, refuses further writes with 503, and loses nothing', async () => {
    const before = await s.admin.post('/api/v3/projects/', { name: 'Before the freeze' });
    expect(before.status, before.text).toBe(201);
    const names = async () => ((await s.admin.get('/api/v3/projects/')).body.results as { name: string }[]).map((p) => p.name).sort();

    const { thawsAt, thawed } = disk!.freeze(FREEZE_MS);
    // This write reaches SQLite and blocks in the kernel until the thaw.
    const stuck = s.admin.post('/api/v3/projects/', { name: 'Written under the freeze' });
    await sleep(300);

    const list = await s.admin.get('/api/v3/projects/');
    const readAt = Date.now();
    expect(list.status).toBe(200);
    expect(list.body.results.map((p: { name: string }) => p.name)).toEqual(['Before the freeze']);
    expect(thawsAt - readAt, 'the list answered while the disk was still frozen').toBeGreaterThan(FREEZE_MS / 2);
    expect((await s.admin.get(`/api/v3/projects/${before.body.id}/`)).status).toBe(200);

    // Once the writer has been stuck past the stall limit, a write is refused at once, not left hanging.
    await sleep(1500);
    const refused = await s.admin.post('/api/v3/projects/', { name: 'Refused under the freeze' });
    expect(Date.now(), 'the refusal came before the thaw').toBeLessThan(thawsAt);
    expect(refused.status, refused.text).toBe(503);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.body).toMatchObject({ code: 'storage_unavailable' });
    expect(refused.body.detail).toMatch(/has not taken a write/);

    await thawed;
    const finished = await stuck;
    expect(finished.status, finished.text).toBe(201);
    const after = await s.admin.post('/api/v3/projects/', { name: 'After the thaw' });
    expect(after.status, after.text).toBe(201);
    expect(await names()).toEqual(['After the thaw', 'Before the freeze', 'Written under the freeze']);
  }, 60_000);
});
