// Failed documents (issue 28, item 9) through the real server: POST documents/<id>/retry/ processes a
// document in status 111 again (a valid file that was set aside ends Done), refuses any other status with
// 409, and answers 404 outside the caller's projects; a PDF Folio may not rewrite fails at once (one
// attempt, no retries) with a reason a reviewer understands.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/testServer.ts';
import { pdfWithText, upload } from '../helpers/documentFixtures.ts';
import { encryptedPdf } from '../fixtures/pdfSamples.ts';
import { DocumentStatus } from '../../main/domain/documentStatus.ts';

let s: TestServer;
let project: number;

beforeAll(async () => {
  s = await startTestServer();
  project = (await s.admin.post('/api/v3/projects/', { name: 'Retry' })).body.id;
});
afterAll(async () => {
  await s.close();
});

/** Polls the document until its status is one of `statuses` (bounded). */
async function settled(id: number, statuses: number[] = [2, 41, 111], timeoutMs = 90_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const d = (await s.admin.get(`/api/v3/documents/${id}/`)).body;
    if (statuses.includes(d.status_data)) return d;
    if (Date.now() > deadline) throw new Error(`document ${id} still in status ${d.status_data}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('POST /api/v3/documents/<id>/retry/', () => {
  it('processes a failed document again: a valid file set aside earlier ends Done', async () => {
    const up = await upload(s.admin, { project }, { name: 'valid.pdf', data: await pdfWithText('Retried invoice 42') });
    expect(up.status).toBe(201);
    await settled(up.body.id, [2]);
    // As the interruption rule once left valid documents (issue 28): failed, the pages still there.
    await s.core.repos.documents.update(up.body.id, { status: DocumentStatus.COULD_NOT_BE_PROCESSED, status_reason: 'Set aside: Folio stopped 8 times in a row.' });

    const r = await s.admin.post(`/api/v3/documents/${up.body.id}/retry/`);
    expect(r.status, r.text).toBe(202);
    expect(r.body.id).toBe(up.body.id);
    expect([0, 10, 2]).toContain(r.body.status_data);
    const done = await settled(up.body.id);
    expect(done).toMatchObject({ status_data: 2, status_reason: null });
    expect(done.text).toContain('Retried invoice 42');
    const pages = (await s.admin.get(`/api/v3/documents/${up.body.id}/pages/`)).body;
    expect(pages.results ?? pages).toHaveLength(1);
  });

  it('refuses a document that did not fail with 409, and a document of another project with 404', async () => {
    const up = await upload(s.admin, { project }, { name: 'fine.pdf', data: await pdfWithText('Nothing wrong here') });
    await settled(up.body.id, [2]);
    const r = await s.admin.post(`/api/v3/documents/${up.body.id}/retry/`);
    expect(r.status).toBe(409);
    expect(r.body.detail).toMatch(/Only a document that could not be processed \(status 111\) can be retried/);
    const stranger = await s.userClient('stranger.retry@test.local');
    expect((await stranger.post(`/api/v3/documents/${up.body.id}/retry/`)).status).toBe(404);
    expect((await s.admin.post('/api/v3/documents/999999/retry/')).status).toBe(404);
  });
});

describe('a PDF Folio cannot write its searchable copy of', () => {
  it('fails at once, after one attempt, with a reason for people (no retries, no library messages)', async () => {
    // Opens without a password but forbids changes, and has no text: it needs OCR and a rewritten file.
    const restricted = encryptedPdf({ userPassword: '', ownerPassword: 'owner', text: '' });
    const up = await upload(s.admin, { project }, { name: 'restricted.pdf', data: new Uint8Array(restricted) });
    expect(up.status, up.text).toBe(201);
    const failed = await settled(up.body.id);
    expect(failed.status_data).toBe(111);
    expect(failed.status_reason).toBe('This PDF forbids changes, and it has pages without text that need OCR; upload an unrestricted copy.');
    const jobs = await s.core.repos.jobs.listByDocument(up.body.id);
    const processing = jobs.find((j) => j.kind === 'process-document')!;
    expect(processing).toMatchObject({ attempts: 1 });
    // Retrying it fails the same way: the file is what it is.
    expect((await s.admin.post(`/api/v3/documents/${up.body.id}/retry/`)).status).toBe(202);
    expect((await settled(up.body.id)).status_reason).toMatch(/forbids changes/);
  }, 120_000);
});
