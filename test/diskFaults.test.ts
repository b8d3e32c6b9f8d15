// A full or read-only disk (issue 28, item 6) on a real file system of a fixed size (a tmpfs,
// helpers/smallDisk.ts; the tests skip where mounting is not allowed):
// - with the data folder's disk full, an upload answers 503 with Retry-After (never 500) and stores
//   nothing, reads still answer, and uploads work again once there is room;
// - `folio serve` on a read-only data folder stops with one line saying so (no stack trace) and exit 1.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/testServer.ts';
import { canMount, mountSmallDisk, type SmallDisk } from './helpers/smallDisk.ts';
import { upload } from './helpers/documentFixtures.ts';
import { runFolio } from './helpers/processes.ts';
import { textPdf } from './fixtures/pdfSamples.ts';

const mountable = canMount();

describe.skipIf(!mountable)('the data folder on a full disk', () => {
  let disk: SmallDisk;
  let s: TestServer;
  let project: number;
  beforeAll(async () => {
    disk = mountSmallDisk(32);
    s = await startTestServer({ dataDir: path.join(disk.dir, 'data') });
    project = (await s.admin.post('/api/v3/projects/', { name: 'Full disk' })).body.id;
  }, 60_000);
  afterAll(async () => {
    disk.free();
    await s?.close();
    disk?.unmount();
  });

  it('answers an upload with 503 and Retry-After, keeps answering reads, and takes uploads again once there is room', async () => {
    const before = await upload(s.admin, { project }, { name: 'before.pdf', data: await textPdf([['Before the disk filled up']]) });
    expect(before.status).toBe(201);
    const pdf = await textPdf([['Written while the disk is full']]);
    if ('sqlite' in s.core.store) (s.core.store as { sqlite: { pragma(p: string): unknown } }).sqlite.pragma('wal_checkpoint(TRUNCATE)');
    disk.fill();
    const full = await upload(s.admin, { project }, { name: 'full.pdf', data: pdf });
    expect(full.status, full.text).toBe(503);
    expect(Number(full.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(full.body).toMatchObject({ code: 'storage_unavailable' });
    expect(full.body.detail).toMatch(/disk is not available \(the disk is full\)/);
    // Reading needs no new space.
    const list = await s.admin.get(`/api/v3/documents/?project=${project}`);
    expect(list.status).toBe(200);
    expect(list.body.results.map((d: { data_file_name: string }) => d.data_file_name)).toEqual(['before.pdf']);
    expect((await s.admin.get(`/api/v3/documents/${before.body.id}/`)).status).toBe(200);

    disk.free();
    const after = await upload(s.admin, { project }, { name: 'after.pdf', data: pdf });
    expect(after.status, after.text).toBe(201);
    const names = (await s.admin.get(`/api/v3/documents/?project=${project}`)).body.results.map((d: { data_file_name: string }) => d.data_file_name).sort();
    expect(names).toEqual(['after.pdf', 'before.pdf']);
    // Nothing of the refused upload stayed in the temporary folder.
    expect(fs.readdirSync(s.core.blobs.tmpDir)).toEqual([]);
  }, 60_000);
});

describe.skipIf(!mountable)('a read-only data folder at start-up', () => {
  let disk: SmallDisk | undefined;
  afterEach(() => {
    disk?.writable();
    disk?.unmount();
    disk = undefined;
  });

  it('stops with one line naming the problem and exit code 1', async () => {
    disk = mountSmallDisk(4);
    disk.readOnly();
    const r = await runFolio(['serve'], { dataDir: path.join(disk.dir, 'data'), env: { FOLIO_DATABASE_URL: undefined } });
    expect(r.code).toBe(1);
    const lines = r.stderr.trim().split('\n');
    expect(lines.at(-1)).toMatch(/^folio: Folio cannot write to its data folder.*read-only/);
    expect(r.stderr).not.toMatch(/^\s+at /m);
  }, 30_000);

  it('says so too when the data folder exists but is read-only', async () => {
    disk = mountSmallDisk(4);
    fs.mkdirSync(path.join(disk.dir, 'data'));
    disk.readOnly();
    const r = await runFolio(['serve'], { dataDir: path.join(disk.dir, 'data'), env: { FOLIO_DATABASE_URL: undefined } });
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toMatch(/^folio: Folio cannot write to its data folder.*read-only/);
    expect(r.stderr).not.toMatch(/^\s+at /m);
  }, 30_000);
});
