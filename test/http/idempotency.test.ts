// Idempotency-Key on uploads (issue 28, item 10): an upload retried under the same key by the same user
// answers the first document (same id, 201 as the first answer) and stores nothing twice, also when the
// retries race each other and when the first answer was cut off by a kill -9 of the server; a key reused
// for another file answers 422 with a clear body; keys are per user; a malformed key is a 400.
import { createHash } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, Client, startTestServer, tempDir, type TestServer } from '../helpers/testServer.ts';
import { pdfWithText } from '../helpers/documentFixtures.ts';
import { killAllFolios, startFolio } from '../helpers/processes.ts';
import { withTestStore } from '../helpers/testStore.ts';

function keyedUpload(c: Client, project: number, data: Uint8Array, key: string | undefined, name = 'invoice.pdf') {
  const form = new FormData();
  form.append('project', String(project));
  form.append('data_file', new Blob([data as BlobPart], { type: 'application/pdf' }), name);
  return c.request('POST', '/api/v3/documents/', { raw: { data: form }, headers: key === undefined ? {} : { 'Idempotency-Key': key } });
}

let s: TestServer;
let project: number;
const first = await pdfWithText('Idempotent invoice 1');
const second = await pdfWithText('Idempotent invoice 2');

beforeAll(async () => {
  s = await startTestServer();
  project = (await s.admin.post('/api/v3/projects/', { name: 'Keys' })).body.id;
});
afterAll(async () => {
  await s.close();
});
afterEach(killAllFolios);

const count = async (c: Client, p: number) => (await c.get(`/api/v3/documents/?project=${p}`)).body.count as number;

describe('Idempotency-Key on POST /api/v3/documents/', () => {
  it('answers a retry with the first document and stores it once', async () => {
    const a = await keyedUpload(s.admin, project, first, 'key-retry-1');
    expect(a.status, a.text).toBe(201);
    const b = await keyedUpload(s.admin, project, first, 'key-retry-1');
    expect(b.status, b.text).toBe(201);
    expect(b.body.id).toBe(a.body.id);
    expect(b.body.data_file_name).toBe('invoice.pdf');
    expect(await count(s.admin, project)).toBe(1);
    // Without a key the same file is a new upload, as before.
    const c = await keyedUpload(s.admin, project, first, undefined);
    expect(c.status).toBe(201);
    expect(c.body.id).not.toBe(a.body.id);
    expect(await count(s.admin, project)).toBe(2);
  });

  it('refuses the key reused for another file with 422, storing nothing', async () => {
    const a = await keyedUpload(s.admin, project, first, 'key-reused');
    expect(a.status).toBe(201);
    const before = await count(s.admin, project);
    const b = await keyedUpload(s.admin, project, second, 'key-reused');
    expect(b.status).toBe(422);
    expect(b.body).toMatchObject({ code: 'idempotency_key_reused', document: a.body.id });
    expect(b.body.detail).toMatch(/Idempotency-Key "key-reused" was used for another upload/);
    expect(await count(s.admin, project)).toBe(before);
    // The refused file is not kept (no document names it); the first one is.
    expect(await s.core.blobs.exists(createHash('sha256').update(second).digest('hex'))).toBe(false);
    expect(await s.core.blobs.exists((await s.core.repos.documents.findById(a.body.id))!.blob_key)).toBe(true);
  });

  it('answers concurrent retries with one document', async () => {
    const before = await count(s.admin, project);
    const answers = await Promise.all(Array.from({ length: 6 }, () => keyedUpload(s.admin, project, second, 'key-concurrent')));
    for (const r of answers) expect(r.status, r.text).toBe(201);
    expect(new Set(answers.map((r) => r.body.id)).size).toBe(1);
    expect(await count(s.admin, project)).toBe(before + 1);
  });

  it("keeps each user's keys apart", async () => {
    const ann = await s.userClient('ann.keys@test.local');
    const own = (await ann.post('/api/v3/projects/', { name: "Ann's" })).body.id;
    const a = await keyedUpload(s.admin, project, first, 'shared-key');
    const b = await keyedUpload(ann, own, first, 'shared-key');
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(b.body.id).not.toBe(a.body.id);
  });

  it('refuses a malformed key with 400', async () => {
    const r = await keyedUpload(s.admin, project, first, 'x'.repeat(256));
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 'idempotency_key_invalid' });
  });

  it('finds the first upload after a kill -9 right after it was answered', async () => {
    const dataDir = tempDir();
    const env = { FOLIO_ADMIN_EMAIL: ADMIN.email, FOLIO_ADMIN_PASSWORD: ADMIN.password, ...(await withTestStore(dataDir)) };
    let folio = await startFolio({ dataDir, env });
    let admin = new Client(folio.url);
    await admin.login(ADMIN.email, ADMIN.password);
    const p = (await admin.post('/api/v3/projects/', { name: 'Crash' })).body.id;
    const a = await keyedUpload(admin, p, first, 'key-crash');
    expect(a.status).toBe(201);
    await folio.kill();
    folio = await startFolio({ dataDir, env });
    admin = new Client(folio.url);
    await admin.login(ADMIN.email, ADMIN.password);
    const b = await keyedUpload(admin, p, first, 'key-crash');
    expect(b.status).toBe(201);
    expect(b.body.id).toBe(a.body.id);
    expect(await count(admin, p)).toBe(1);
  }, 60_000);
});
