// GET /api/v3/outbox/ and GET /api/v3/documents/<id>/callbacks/: who sees which messages and attempts,
// the list conventions on both, and what happens to them when their document is deleted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Mailer } from '../../main/events/mailer.ts';
import { uploadNotification, trainingCompleted } from '../../main/events/messages.ts';
import { attemptCallback } from '../../main/events/callbacks.ts';
import { callbackPolicy } from '../../main/events/callbackTargets.ts';
import { startTestServer, type Client, type TestServer } from '../helpers/testServer.ts';
import { created, upload, pdfWithText } from '../helpers/documentFixtures.ts';
import { startReceiver } from '../helpers/callbackReceiver.ts';
import { sql } from 'kysely';

let s: TestServer;
let alice: Client;
let bob: Client;
let project: number;
let doc: { id: number; data_file_name: string };

beforeAll(async () => {
  s = await startTestServer();
  alice = await s.userClient('alice@example.test');
  bob = await s.userClient('bob@example.test');
  project = (await created(alice.post('/api/v3/projects/', { name: 'Payroll' }))).id;
  doc = await created(upload(alice, { project }, { name: 'payslip.pdf', data: await pdfWithText('payslip') }));

  // No FOLIO_SMTP_URL in tests: every message is kept in the outbox.
  const mailer = new Mailer(s.core.repos.events, undefined);
  const notice = uploadNotification({ baseUrl: s.url, documentId: doc.id, fileName: doc.data_file_name, projectName: 'Payroll', uploadedBy: 'alice@example.test' });
  // The address as someone typed it: matched to the account case-insensitively.
  await mailer.send({ to: 'Alice@Example.test', kind: 'upload', documentId: doc.id, ...notice });
  await mailer.send({ to: 'alice@example.test', kind: 'training', ...trainingCompleted({ baseUrl: s.url, aiId: 1, categoryName: 'Invoice', projectName: 'Payroll', succeeded: false, reason: 'no training documents' }) });
  await mailer.send({ to: 'bob@example.test', kind: 'upload', documentId: doc.id, ...notice });
});
afterAll(() => s.close());

describe('GET /api/v3/outbox/', () => {
  it("lists the caller's own messages, newest first, kept because no SMTP server is configured", async () => {
    const r = await alice.get('/api/v3/outbox/');
    expect(r.status).toBe(200);
    expect(r.body.count).toBe(2);
    expect(r.body.results.map((m: any) => m.kind)).toEqual(['training', 'upload']);
    const upload = r.body.results[1];
    expect(upload).toMatchObject({
      to: 'Alice@Example.test',
      subject: 'New document for you: payslip.pdf (Payroll)',
      kind: 'upload',
      document: doc.id,
      state: 'kept',
      attempts: 0,
      last_error: null,
      sent_at: null,
      created_at: expect.stringMatching(/\+00:00$/),
    });
    expect(upload.text).toContain(`Open the document: ${s.url}/documents/${doc.id}`);
    expect(upload.html).toContain(`<a href="${s.url}/documents/${doc.id}">`);
    expect(r.body.results[0].text).toContain('Reason: no training documents');
  });

  it('shows an administrator every message, and narrows by kind, state, document and recipient', async () => {
    expect((await s.admin.get('/api/v3/outbox/')).body.count).toBe(3);
    const count = async (query: string) => (await s.admin.get(`/api/v3/outbox/?${query}`)).body.count;
    expect(await count('kind=upload')).toBe(2);
    expect(await count('kind=training')).toBe(1);
    expect(await count('kind=upload,training')).toBe(3);
    expect(await count('state=kept')).toBe(3);
    expect(await count('state=sent,failed')).toBe(0);
    expect(await count(`document=${doc.id}`)).toBe(2);
    expect(await count(`document_id=${doc.id}`)).toBe(2);
    expect(await count('document=null')).toBe(1);
    expect(await count('to=BOB@example.test')).toBe(1);
    expect((await s.admin.get('/api/v3/outbox/?document=x')).status).toBe(400);
  });

  it('pages with absolute links and orders by the documented fields only', async () => {
    const first = await s.admin.get('/api/v3/outbox/?limit=2&ordering=id');
    expect(first.body.results).toHaveLength(2);
    expect(first.body.next).toBe(`${s.url}/api/v3/outbox/?limit=2&ordering=id&offset=2`);
    const second = await s.admin.get(first.body.next);
    expect(second.body.results).toHaveLength(1);
    expect(second.body.results[0].to).toBe('bob@example.test');
    const bad = await s.admin.get('/api/v3/outbox/?ordering=text');
    expect(bad.status).toBe(400);
    expect(bad.body.ordering[0]).toMatch(/Cannot order by "text"/);
    const sparse = await bob.get('/api/v3/outbox/?fields=id,state');
    expect(Object.keys(sparse.body.results[0]).sort()).toEqual(['id', 'state']);
  });

  it('needs authentication', async () => {
    expect((await s.anonymous().get('/api/v3/outbox/')).status).toBe(401);
  });
});

describe('GET /api/v3/documents/<id>/callbacks/', () => {
  it('lists every delivery attempt to members of the document project', async () => {
    const receiver = await startReceiver([{ status: 502, body: 'bad gateway' }, { status: 200 }]);
    try {
      const body = (await alice.get(`/api/v3/documents/${doc.id}/`)).body;
      // Two attempts, as the delivery job's two runs make them.
      const request = { url: `${receiver.origin}/cb?hash=abc%2B%2F%3D`, body, documentId: doc.id };
      const opts = { log: s.core.repos.events, policy: callbackPolicy({ listensOnLoopback: true }) };
      expect(await attemptCallback(request, { ...opts, attempt: 1 })).toMatchObject({ delivered: false, retry: true, statusCode: 502 });
      expect((await attemptCallback(request, { ...opts, attempt: 2 })).delivered).toBe(true);
    } finally {
      await receiver.close();
    }
    const r = await alice.get(`/api/v3/documents/${doc.id}/callbacks/`);
    expect(r.status).toBe(200);
    expect(r.body.count).toBe(2);
    const [failed, ok] = r.body.results;
    expect(failed).toMatchObject({ document: doc.id, attempt: 1, status_code: 502, ok: false, error: 'HTTP 502: bad gateway' });
    expect(ok).toMatchObject({ attempt: 2, status_code: 200, ok: true, error: null });
    expect(ok.url).toMatch(/\/cb\?hash=abc%2B%2F%3D$/);
    expect(ok.created_at).toMatch(/\+00:00$/);
    expect(Number.isInteger(ok.duration_ms)).toBe(true);

    expect((await alice.get(`/api/v3/documents/${doc.id}/callbacks/?ordering=-attempt&limit=1`)).body.results[0].attempt).toBe(2);
    expect((await alice.get(`/api/v3/documents/${doc.id}/callbacks/?status_code=502`)).body.count).toBe(1);
  });

  it('answers 404 for a document the caller cannot see, or that does not exist', async () => {
    expect((await bob.get(`/api/v3/documents/${doc.id}/callbacks/`)).status).toBe(404);
    expect((await alice.get('/api/v3/documents/999999/callbacks/')).status).toBe(404);
    expect((await alice.get('/api/v3/documents/abc/callbacks/')).status).toBe(404);
    expect((await s.anonymous().get(`/api/v3/documents/${doc.id}/callbacks/`)).status).toBe(401);
  });

  it('deleting the document removes its attempts and keeps its emails, unlinked', async () => {
    expect((await alice.delete(`/api/v3/documents/${doc.id}/`)).status).toBe(204);
    const [{ n: attempts }] = (await sql<{ n: number }>`select count(*) as n from callback_attempts where document_id = ${doc.id}`.execute(s.core.store.db)).rows;
    expect(attempts).toBe(0);
    const mine = (await alice.get('/api/v3/outbox/?kind=upload')).body.results;
    expect(mine).toHaveLength(1);
    expect(mine[0].document).toBeNull();
  });
});
