// The completion callback (spec 6) against real HTTP receivers on loopback, one attempt at a time: another
// attempt asked for on 5xx, 429 and network errors, none on other 4xx or redirects, every attempt recorded, and the receiver-side
// `hash` check of rule 4.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pkg from '../../package.json' with { type: 'json' };
import { attemptCallback, type CallbackOptions, type CallbackOutcome, type CallbackRequest } from '../../main/events/callbacks.ts';
import { callbackPolicy } from '../../main/events/callbackTargets.ts';
import { startTestServer, type TestServer } from '../helpers/testServer.ts';
import { closedPort, startReceiver, type ReceivedCallback } from '../helpers/callbackReceiver.ts';
import { created, pdfWithText, upload } from '../helpers/documentFixtures.ts';
import { sql } from 'kysely';

let s: TestServer;
let project: number;
beforeAll(async () => {
  s = await startTestServer();
  project = (await created(s.admin.post('/api/v3/projects/', { name: 'Callbacks' }))).id;
});
afterAll(() => s.close());

/** A document as the API shows it: the body a callback carries. */
async function documentJson(fileName = 'invoice.pdf', callbackUrl = ''): Promise<any> {
  const doc = await created(upload(s.admin, { project, callback_url: callbackUrl }, { name: fileName, data: await pdfWithText(fileName) }));
  return (await s.admin.get(`/api/v3/documents/${doc.id}/`)).body;
}

/** As the test server (on loopback) is configured: its receivers here are local scripts. */
const fast = (): CallbackOptions => ({ log: s.core.repos.events, timeoutMs: 2_000, policy: callbackPolicy({ listensOnLoopback: true }) });

/**
 * The attempts a delivery job makes, one per run, here one after another without the queue's back-off
 * (the queue's retries, Retry-After and restarts: test/events/deliveryLane.test.ts).
 */
async function deliver(request: CallbackRequest, opts: CallbackOptions, attempts = 3): Promise<CallbackOutcome> {
  let outcome!: CallbackOutcome;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    outcome = await attemptCallback(request, { ...opts, attempt });
    if (!outcome.retry) break;
  }
  return outcome;
}

async function attemptsOf(documentId: number) {
  const r = await sql<{ attempt: number; url: string; status_code: number | null; error: string | null; duration_ms: number; created_at: string }>`
    select attempt, url, status_code, error, duration_ms, created_at from callback_attempts where document_id = ${documentId} order by id`.execute(s.core.store.db);
  return r.rows;
}

describe('attemptCallback', () => {
  it('retries a receiver that fails twice with 500, then delivers; all three attempts are recorded', async () => {
    const receiver = await startReceiver([{ status: 500, body: 'database locked' }, { status: 500 }, { status: 200, body: 'thanks' }]);
    try {
      const doc = await documentJson();
      const url = `${receiver.origin}/hooks/folio?source=folio&n=1`;
      const outcome = await deliver({ url, body: doc, documentId: doc.id }, fast());
      expect(outcome).toMatchObject({ delivered: true, attempt: 3, statusCode: 200, error: null });

      expect(receiver.received).toHaveLength(3);
      for (const r of receiver.received) {
        expect(r.method).toBe('POST');
        expect(r.url).toBe('/hooks/folio?source=folio&n=1');
        expect(r.headers['content-type']).toBe('application/json');
        expect(r.headers['user-agent']).toBe(`Folio/${pkg.version}`);
        expect(JSON.parse(r.body)).toEqual(doc);
      }
      const rows = await attemptsOf(doc.id);
      expect(rows.map((r) => [r.attempt, r.status_code])).toEqual([[1, 500], [2, 500], [3, 200]]);
      expect(rows[0].error).toBe('HTTP 500: database locked');
      expect(rows[2].error).toBeNull();
      for (const r of rows) {
        expect(r.url).toBe(url);
        expect(r.duration_ms).toBeGreaterThanOrEqual(0);
        expect(r.created_at).toMatch(/^\d{4}-\d\d-\d\dT.*Z$/);
      }
    } finally {
      await receiver.close();
    }
  });

  it('does not retry a 400 and records why the receiver refused', async () => {
    const receiver = await startReceiver([{ status: 400, body: 'unknown document' }]);
    try {
      const doc = await documentJson();
      const outcome = await deliver({ url: `${receiver.origin}/cb`, body: doc, documentId: doc.id }, fast());
      expect(outcome).toMatchObject({ delivered: false, attempt: 1, statusCode: 400, error: 'HTTP 400: unknown document' });
      expect(receiver.received).toHaveLength(1);
      expect((await attemptsOf(doc.id)).map((r) => r.status_code)).toEqual([400]);
    } finally {
      await receiver.close();
    }
  });

  it('retries 429 (too many requests) like a server error', async () => {
    const receiver = await startReceiver([{ status: 429, headers: { 'Retry-After': '0' } }, { status: 204 }]);
    try {
      const doc = await documentJson();
      const outcome = await deliver({ url: `${receiver.origin}/cb`, body: doc, documentId: doc.id }, fast());
      expect(outcome).toMatchObject({ delivered: true, attempt: 2, statusCode: 204 });
      expect((await attemptsOf(doc.id)).map((r) => r.status_code)).toEqual([429, 204]);
    } finally {
      await receiver.close();
    }
  });

  it('records an unreachable receiver as errors on every attempt', async () => {
    const doc = await documentJson();
    const port = await closedPort();
    const outcome = await deliver({ url: `http://127.0.0.1:${port}/cb`, body: doc, documentId: doc.id }, fast());
    expect(outcome.delivered).toBe(false);
    expect(outcome.attempt).toBe(3);
    expect(outcome.retry).toBe(true);
    expect(outcome.statusCode).toBeNull();
    expect(outcome.error).toMatch(/ECONNREFUSED/);
    const rows = await attemptsOf(doc.id);
    expect(rows.map((r) => r.attempt)).toEqual([1, 2, 3]);
    for (const r of rows) {
      expect(r.status_code).toBeNull();
      expect(r.error).toContain(`127.0.0.1:${port}`);
    }
  });

  it('gives up on an attempt that gets no answer within the time-out, and retries', async () => {
    const receiver = await startReceiver([{ status: 0, hang: true }, { status: 200 }]);
    try {
      const doc = await documentJson();
      const outcome = await deliver({ url: `${receiver.origin}/slow`, body: doc, documentId: doc.id }, { ...fast(), timeoutMs: 150 });
      expect(outcome).toMatchObject({ delivered: true, attempt: 2 });
      const [first] = await attemptsOf(doc.id);
      expect(first).toMatchObject({ status_code: null, error: 'No answer within 150 ms.' });
      expect(first.duration_ms).toBeGreaterThanOrEqual(140);
    } finally {
      await receiver.close();
    }
  });

  it('does not follow redirects: the document goes only where the user said', async () => {
    const elsewhere = await startReceiver([{ status: 200 }]);
    const receiver = await startReceiver([{ status: 302, headers: { Location: `${elsewhere.origin}/stolen` } }]);
    try {
      const doc = await documentJson();
      const outcome = await deliver({ url: `${receiver.origin}/cb`, body: doc, documentId: doc.id }, fast());
      expect(outcome).toMatchObject({ delivered: false, attempt: 1, statusCode: 302 });
      expect(outcome.error).toMatch(/redirects are not followed/);
      expect(elsewhere.received).toHaveLength(0);
    } finally {
      await receiver.close();
      await elsewhere.close();
    }
  });

  it('sends user:password from the URL as Basic authentication', async () => {
    const receiver = await startReceiver([{ status: 200 }]);
    try {
      const doc = await documentJson();
      const url = `${receiver.origin.replace('http://', 'http://hook:s%3Acret@')}/cb`;
      expect((await deliver({ url, body: doc, documentId: doc.id }, fast())).delivered).toBe(true);
      expect(receiver.received[0].headers.authorization).toBe(`Basic ${Buffer.from('hook:s:cret').toString('base64')}`);
    } finally {
      await receiver.close();
    }
  });

  it('refuses other schemes without sending, and records why', async () => {
    const doc = await documentJson();
    const outcome = await deliver({ url: 'file:///etc/passwd', body: doc, documentId: doc.id }, fast());
    expect(outcome).toMatchObject({ delivered: false, attempt: 1, statusCode: null });
    expect((await attemptsOf(doc.id))[0].error).toMatch(/Only http and https/);
  });

  it('cuts off an attempt when its signal aborts (shutdown), says so, and asks for no retry of its own', async () => {
    const receiver = await startReceiver([{ status: 0, hang: true }]);
    try {
      const doc = await documentJson();
      const stop = new AbortController();
      const pending = attemptCallback({ url: `${receiver.origin}/cb`, body: doc, documentId: doc.id }, { ...fast(), signal: stop.signal });
      while (receiver.received.length === 0) await new Promise((r) => setTimeout(r, 5));
      stop.abort();
      // The queue releases the job when its worker stops, the attempt not counted.
      expect(await pending).toMatchObject({ delivered: false, attempt: 1, statusCode: null, error: 'Delivery stopped: Folio is shutting down.', retry: false });
    } finally {
      await receiver.close();
    }
  });
});

/**
 * What a receiver does to trust a callback (spec 6 rule 4): it registers a callback URL per document
 * carrying `hash` = base64(HMAC-SHA256(secret, file name)), and on receipt recomputes the hash from the
 * file name in the body and compares in constant time.
 */
function hashCheckingReceiver(secret: string) {
  const sign = (fileName: string) => createHmac('sha256', secret).update(fileName, 'utf8').digest('base64');
  return {
    sign,
    /** The URL to give Folio at upload. Base64 has + / =, so the value is percent-encoded like any query value. */
    callbackUrl: (origin: string, fileName: string) => `${origin}/folio/done?hash=${encodeURIComponent(sign(fileName))}`,
    accepts(req: ReceivedCallback): boolean {
      const given = new URL(req.url, 'http://receiver').searchParams.get('hash') ?? '';
      let fileName: unknown;
      try {
        fileName = JSON.parse(req.body).data_file_name;
      } catch {
        return false;
      }
      if (typeof fileName !== 'string') return false;
      const expected = Buffer.from(sign(fileName));
      const actual = Buffer.from(given);
      return actual.length === expected.length && timingSafeEqual(actual, expected);
    },
  };
}

describe('the receiver-side hash check (spec 6 rule 4)', () => {
  const secret = 'receiver-secret-never-shared';
  const check = hashCheckingReceiver(secret);
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    receiver = await startReceiver((req) => (check.accepts(req) ? { status: 200, body: 'ok' } : { status: 403, body: 'bad hash' }));
  });
  afterAll(() => receiver.close());

  it('accepts the genuine callback: the URL, hash included, arrives exactly as registered', async () => {
    // A name whose HMAC has + or / in base64, and non-ASCII text hashed as UTF-8.
    const fileName = 'Gehaltsabrechnung März 2024.pdf';
    expect(check.sign(fileName)).toMatch(/[+/=]/);
    const url = check.callbackUrl(receiver.origin, fileName);
    const doc = await documentJson(fileName, url);
    expect(doc.callback_url).toBe(url);

    const outcome = await deliver({ url: doc.callback_url, body: doc, documentId: doc.id }, fast());
    expect(outcome).toMatchObject({ delivered: true, statusCode: 200 });
    const got = receiver.received.at(-1)!;
    expect(`${receiver.origin}${got.url}`).toBe(url);
    expect(JSON.parse(got.body).data_file_name).toBe(fileName);
  });

  it('rejects a forged callback: another document posted to that URL, or a hash made without the secret', async () => {
    const url = check.callbackUrl(receiver.origin, 'payslip-alice.pdf');
    const other = await documentJson('payslip-mallory.pdf');
    const swapped = await deliver({ url, body: other, documentId: other.id }, fast());
    expect(swapped).toMatchObject({ delivered: false, attempt: 1, statusCode: 403 });

    const guessed = `${receiver.origin}/folio/done?hash=${encodeURIComponent(createHmac('sha256', 'guess').update('payslip-mallory.pdf').digest('base64'))}`;
    const forged = await deliver({ url: guessed, body: other, documentId: other.id }, fast());
    expect(forged).toMatchObject({ delivered: false, statusCode: 403 });

    const noHash = await deliver({ url: `${receiver.origin}/folio/done`, body: other, documentId: other.id }, fast());
    expect(noHash.statusCode).toBe(403);
  });
});

/**
 * Where callbacks may go (main/events/callbackTargets.ts). Nothing here leaves the machine: refused
 * targets are refused before any connection, and names resolve through the test's own resolver to
 * loopback receivers.
 */
describe('callback targets', () => {
  /** Folio listening beyond loopback: private receivers only when FOLIO_CALLBACK_ALLOW lists them. */
  const shared = (allow: string[] = []) => callbackPolicy({ listensOnLoopback: false, allow });
  /** A resolver from a fixed table that counts its calls. */
  const table = (names: Record<string, string[]>) => {
    const calls: string[] = [];
    const resolve = async (hostname: string) => {
      calls.push(hostname);
      const found = names[hostname];
      if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
      return found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    };
    return { calls, resolve };
  };

  it('refuses loopback and private receivers when Folio listens beyond loopback, records why, and never retries', async () => {
    const receiver = await startReceiver([{ status: 200 }]);
    try {
      const doc = await documentJson();
      const outcome = await deliver({ url: `${receiver.origin}/cb`, body: doc, documentId: doc.id }, { ...fast(), policy: shared() });
      expect(outcome).toMatchObject({ delivered: false, attempt: 1, statusCode: null });
      expect(outcome.error).toMatch(/127\.0\.0\.1 are refused: it is a loopback address.*FOLIO_CALLBACK_ALLOW/);
      expect(receiver.received).toHaveLength(0);
      const rows = await attemptsOf(doc.id);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ attempt: 1, status_code: null, error: outcome.error });

      for (const url of ['http://10.1.2.3/cb', 'http://192.168.0.10:8080/cb', 'http://172.16.5.5/', 'http://[fd12:3456::1]/', 'http://0.0.0.0:1/', 'http://[::1]/', 'http://localhost:1/', 'http://[::ffff:10.0.0.1]/']) {
        const other = await deliver({ url, body: doc, documentId: doc.id }, { ...fast(), policy: shared() });
        expect(other.error, url).toMatch(/are refused: it is a (loopback|private) address/);
        expect(other.retry, url).toBe(false);
      }
    } finally {
      await receiver.close();
    }
  });

  it('always refuses link-local addresses and cloud metadata services, whatever the settings', async () => {
    const doc = await documentJson();
    const everything = callbackPolicy({ listensOnLoopback: true, allow: ['0.0.0.0/0', '::/0', 'metadata.google.internal'] });
    const { calls, resolve } = table({});
    for (const url of [
      'http://169.254.169.254/latest/meta-data/iam/security-credentials/',
      'http://169.254.170.2/v2/credentials',
      'http://169.254.1.1/',
      'http://[fe80::1]/',
      'http://[fd00:ec2::254]/latest/',
      'http://100.100.100.200/latest/meta-data/',
      'http://[::ffff:169.254.169.254]/',
      'http://metadata.google.internal/computeMetadata/v1/',
      'http://METADATA.google.internal./',
      'http://224.0.0.1/',
    ]) {
      const outcome = await deliver({ url, body: doc, documentId: doc.id }, { ...fast(), policy: everything, resolve });
      expect(outcome, url).toMatchObject({ delivered: false, attempt: 1, statusCode: null });
      expect(outcome.error, url).toMatch(/refused: it is (a cloud metadata service|a link-local address|a multicast or reserved address), which no setting allows/);
    }
    // Metadata names are refused by name: not even resolved.
    expect(calls).toEqual([]);
    expect(await attemptsOf(doc.id)).toHaveLength(10);
  });

  it('judges a name by every address it resolves to, at connect time, with one resolution', async () => {
    const receiver = await startReceiver([{ status: 200 }]);
    try {
      const doc = await documentJson();
      const port = new URL(receiver.origin).port;
      const { calls, resolve } = table({ 'hooks.test': ['127.0.0.1'], 'mixed.test': ['127.0.0.1', '169.254.169.254'] });

      // Listed by name: its (loopback) address is allowed, and the connection goes to the address checked.
      const named = await deliver({ url: `http://hooks.test:${port}/cb`, body: doc, documentId: doc.id }, { ...fast(), policy: shared(['hooks.test']), resolve });
      expect(named).toMatchObject({ delivered: true, statusCode: 200 });
      expect(receiver.received).toHaveLength(1);
      expect(receiver.received[0].headers.host).toBe(`hooks.test:${port}`);
      expect(calls).toEqual(['hooks.test']);

      // Not listed: the same name is refused once resolved, and nothing connects.
      const unlisted = await deliver({ url: `http://hooks.test:${port}/cb`, body: doc, documentId: doc.id }, { ...fast(), policy: shared(), resolve });
      expect(unlisted).toMatchObject({ delivered: false, attempt: 1 });
      expect(unlisted.error).toMatch(/hooks\.test \(127\.0\.0\.1\) are refused/);

      // One metadata address among the answers refuses the name, even for a Folio on loopback.
      const mixed = await deliver({ url: `http://mixed.test:${port}/cb`, body: doc, documentId: doc.id }, { ...fast(), resolve });
      expect(mixed.error).toMatch(/mixed\.test \(169\.254\.169\.254\) are refused: it is a cloud metadata service/);

      expect(receiver.received).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });

  it('delivers to a private network listed in FOLIO_CALLBACK_ALLOW', async () => {
    const receiver = await startReceiver([{ status: 204 }]);
    try {
      const doc = await documentJson();
      const outcome = await deliver({ url: `${receiver.origin}/cb`, body: doc, documentId: doc.id }, { ...fast(), policy: shared(['127.0.0.0/8']) });
      expect(outcome).toMatchObject({ delivered: true, statusCode: 204 });
    } finally {
      await receiver.close();
    }
  });

  it('refuses settings that are not networks, addresses or names', () => {
    expect(() => callbackPolicy({ listensOnLoopback: false, allow: ['10.0.0.0/33'] })).toThrow(/FOLIO_CALLBACK_ALLOW/);
    expect(() => callbackPolicy({ listensOnLoopback: false, allow: ['http://hooks.internal/'] })).toThrow(/FOLIO_CALLBACK_ALLOW/);
    expect(() => callbackPolicy({ listensOnLoopback: false, allow: ['10.0.0.0/8', 'hooks.internal', '[fd00::]/8', '192.168.1.5'] })).not.toThrow();
  });

  it('answers an upload or a change naming a refused address with a 400 at once', async () => {
    const pdf = await pdfWithText('callback target');
    const refused = await upload(s.admin, { project, callback_url: 'http://169.254.169.254/latest/meta-data/' }, { name: 'meta.pdf', data: pdf });
    expect(refused.status).toBe(400);
    expect(refused.body.callback_url[0]).toMatch(/169\.254\.169\.254 are refused: it is a cloud metadata service/);
    const byName = await upload(s.admin, { project, callback_url: 'http://metadata.google.internal/' }, { name: 'meta.pdf', data: pdf });
    expect(byName.status).toBe(400);

    // This server listens on loopback: a local receiver, and a name (judged when it is called), are fine.
    const local = await created(upload(s.admin, { project, callback_url: 'http://127.0.0.1:9/hook' }, { name: 'local.pdf', data: pdf }));
    expect(local.callback_url).toBe('http://127.0.0.1:9/hook');
    const patched = await s.admin.patch(`/api/v3/documents/${local.id}/`, { callback_url: 'http://[fe80::1]/' });
    expect(patched.status).toBe(400);
    expect(patched.body.callback_url[0]).toMatch(/link-local/);
    expect((await s.admin.get(`/api/v3/documents/${local.id}/`)).body.callback_url).toBe('http://127.0.0.1:9/hook');
  });
});
