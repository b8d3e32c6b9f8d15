// Section 6 end to end: an upload with callback_url gets the document details POSTed there after it
// is processed (never when processing fails), with the receiver's hash kept; an upload with an
// assignee leaves an email for them (kept in the outbox without SMTP).
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/testServer.ts';
import { created, pdfWithText, upload } from '../helpers/documentFixtures.ts';
import { startReceiver, type CallbackReceiver } from '../helpers/callbackReceiver.ts';
import { writeZip } from '../fixtures/ooxml.ts';

let s: TestServer;
let receiver: CallbackReceiver;
let project: number;
const SECRET = 'receiver-secret';

beforeAll(async () => {
  s = await startTestServer();
  receiver = await startReceiver([{ status: 200 }]);
  project = (await created(s.admin.post('/api/v3/projects/', { name: 'Callbacks' }))).id;
});
afterAll(async () => {
  await receiver.close();
  await s.close();
});

const hashOf = (fileName: string) => createHmac('sha256', SECRET).update(fileName).digest('base64');

async function eventually<T>(fn: () => T | undefined, timeoutMs = 15_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = fn();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('completion callback', () => {
  it('POSTs the processed document to callback_url, hash query kept, and records the attempt', async () => {
    const name = 'payslip-march.pdf';
    const url = `${receiver.origin}/hooks/folio?hash=${encodeURIComponent(hashOf(name))}`;
    const doc = await created(upload(s.admin, { project, callback_url: url }, { name, data: await pdfWithText('March') }));
    const got = await eventually(() => receiver.received.find((r) => JSON.parse(r.body).id === doc.id));
    expect(got.method).toBe('POST');
    const body = JSON.parse(got.body);
    expect(body.status).toEqual([2, 'Done']);
    expect(body.text).toContain('March');
    // The receiver verifies the hash from the file name in the body (spec 6, rule 4).
    const hash = new URL(got.url, receiver.origin).searchParams.get('hash');
    expect(hash).toBe(hashOf(body.data_file_name));
    const recorded = (await s.admin.get(`/api/v3/documents/${doc.id}/callbacks/`)).body.results;
    expect(recorded).toHaveLength(1);
    expect(recorded[0]).toMatchObject({ status_code: 200 });
  });

  it('sends nothing when processing fails', async () => {
    const before = receiver.received.length;
    const corrupt = writeZip([
      { name: '[Content_Types].xml', data: '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>' },
      { name: 'word/document.xml', data: '<w:document xmlns:w="broken <<< not xml' },
    ]);
    const doc = await created(upload(s.admin, { project, sync: 'true', callback_url: `${receiver.origin}/hooks/failed` }, { name: 'bad.docx', data: corrupt }));
    expect(doc.status[0]).toBe(111);
    await new Promise((r) => setTimeout(r, 500));
    expect(receiver.received.length).toBe(before);
    expect((await s.admin.get(`/api/v3/documents/${doc.id}/callbacks/`)).body.count).toBe(0);
  });
});

describe('assignee email', () => {
  it('leaves a message for the assignee in the outbox when no SMTP server is configured', async () => {
    await s.userClient('reviewer@test.local');
    await s.admin.post(`/api/v3/projects/${project}/members/`, { email: 'reviewer@test.local' });
    const doc = await created(upload(s.admin, { project, assignee: 'reviewer@test.local' }, { name: 'assigned.pdf', data: await pdfWithText('assigned') }));
    const message = await (async () => {
      const end = Date.now() + 15_000;
      for (;;) {
        const list = (await s.admin.get(`/api/v3/outbox/?document=${doc.id}`)).body.results;
        if (list.length) return list[0];
        if (Date.now() > end) throw new Error('no message in the outbox');
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    expect(message).toMatchObject({ to: 'reviewer@test.local', kind: 'upload', state: 'kept', document: doc.id });
    expect(message.subject).toContain('assigned.pdf');
  });
});
