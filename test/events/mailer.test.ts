// The mailer against a real SMTP server (smtp-server) on loopback: delivery with authentication,
// retries of transient failures, 'failed' when the server is down or refuses for good, 'kept' without
// SMTP; and the FOLIO_SMTP_URL checks made at start-up.
import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../main/config.ts';
import { openCore, type Core } from '../../main/core.ts';
import { loadSmtpSettings, Mailer, parseSmtpUrl, type Mail } from '../../main/events/mailer.ts';
import { trainingCompleted, uploadNotification } from '../../main/events/messages.ts';
import { tempDir } from '../helpers/testServer.ts';
import { closedPort } from '../helpers/callbackReceiver.ts';

interface Delivered {
  from: string;
  to: string[];
  user: string | undefined;
  raw: string;
}

/** A real SMTP server on 127.0.0.1:0 that keeps what it receives. */
async function startSmtp(extra: Partial<SMTPServerOptions> = {}) {
  const delivered: Delivered[] = [];
  const server = new SMTPServer({
    // Plain SMTP on loopback: no STARTTLS (its self-signed certificate would be refused), login allowed anyway.
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, cb) {
      if (auth.username === 'folio' && auth.password === 'p@ss:word') return cb(null, { user: auth.username });
      cb(new Error('Invalid username or password'));
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        delivered.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          user: session.user as string | undefined,
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        cb();
      });
    },
    ...extra,
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return { port, delivered, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const qp = (s: string) => Buffer.from(s.replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))), 'latin1').toString('utf8');

/** A header's value, unfolded, with RFC 2047 encoded words (how non-ASCII subjects travel) decoded. */
function header(raw: string, name: string): string | undefined {
  const head = raw.split(/\r?\n\r?\n/)[0].replace(/\r?\n[ \t]+/g, ' ');
  const line = head.split(/\r?\n/).find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  return line
    ?.slice(name.length + 1)
    .trim()
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?UTF-8\?([QB])\?([^?]*)\?=/gi, (_, enc: string, text: string) =>
      enc.toUpperCase() === 'B' ? Buffer.from(text, 'base64').toString('utf8') : qp(text.replace(/_/g, ' ')),
    );
}

/** The body of a text/plain part, quoted-printable decoded (long lines are soft-wrapped on the wire). */
function plainText(raw: string): string {
  const part = raw.split(/Content-Type: text\/plain[^\n]*\n/i)[1] ?? '';
  const body = part.split(/\r?\n\r?\n/).slice(1).join('\n\n').split(/\r?\n--/)[0];
  return qp(body.replace(/=\r?\n/g, '')).replace(/\r\n/g, '\n');
}

let core: Core;
beforeAll(async () => {
  core = await openCore(loadConfig({}, { dataDir: tempDir(), port: 0 }));
});
afterAll(() => core.close());

const fast = { timeoutMs: 2_000 };
/** The tries of a delivery job, one after another (the queue's own retries: test/events/deliveryLane.test.ts). */
const tries = (key: string, n = 3) => Array.from({ length: n }, (_, i) => ({ key, attempt: i + 1, last: i + 1 === n }));
const message = (extra: Partial<Mail> = {}): Mail => ({
  to: 'reviewer@example.test',
  kind: 'upload',
  ...uploadNotification({ baseUrl: 'http://127.0.0.1:8427', documentId: 42, fileName: 'Rechnung März.pdf', projectName: 'Payroll', uploadedBy: 'admin@example.test' }),
  ...extra,
});

describe('Mailer with SMTP', () => {
  it('delivers through a real SMTP server with login, and records the message as sent', async () => {
    const smtp = await startSmtp();
    const mailer = new Mailer(core.repos.events, parseSmtpUrl(`smtp://folio:${encodeURIComponent('p@ss:word')}@127.0.0.1:${smtp.port}?from=folio@office.test`), fast);
    try {
      const mail = message();
      const row = await mailer.send(mail);
      expect(row).toMatchObject({ state: 'sent', attempts: 1, last_error: null, to_address: 'reviewer@example.test', kind: 'upload', document_id: null });
      expect(row.sent_at).not.toBeNull();

      expect(smtp.delivered).toHaveLength(1);
      const got = smtp.delivered[0];
      expect(got.to).toEqual(['reviewer@example.test']);
      expect(got.from).toBe('folio@office.test');
      expect(got.user).toBe('folio');
      expect(header(got.raw, 'Subject')).toBe(mail.subject);
      expect(mail.subject).toBe('New document for you: Rechnung März.pdf (Payroll)');
      expect(header(got.raw, 'To')).toBe('reviewer@example.test');
      const text = plainText(got.raw);
      expect(text).toContain('admin@example.test uploaded "Rechnung März.pdf" to the project "Payroll" and assigned it to you.');
      expect(text).toContain('Open the document: http://127.0.0.1:8427/documents/42');
      expect(got.raw).toMatch(/Content-Type: text\/html/i);
    } finally {
      await mailer.close();
      await smtp.close();
    }
  });

  it('keeps a temporary refusal (451) queued for the next try, which delivers it into the same outbox row', async () => {
    let refusals = 0;
    const smtp = await startSmtp({
      authOptional: true,
      onRcptTo(_address, _session, cb) {
        if (refusals++ === 0) return cb(Object.assign(new Error('Greylisted, try again later'), { responseCode: 451 }));
        cb();
      },
    });
    const mailer = new Mailer(core.repos.events, parseSmtpUrl(`smtp://127.0.0.1:${smtp.port}`), fast);
    try {
      const mail = message({ kind: 'training', ...trainingCompleted({ baseUrl: 'http://127.0.0.1:1', aiId: 3, categoryName: 'Invoice', projectName: 'Payroll', succeeded: true }) });
      const [first, second] = tries('notify-trained:3');
      const refused = await mailer.send(mail, first);
      expect(refused).toMatchObject({ state: 'queued', attempts: 1, kind: 'training', sent_at: null });
      const row = await mailer.send(mail, second);
      expect(row).toMatchObject({ id: refused.id, state: 'sent', attempts: 2, kind: 'training' });
      expect(row.last_error).toMatch(/Greylisted/);
      expect(smtp.delivered).toHaveLength(1);
      expect(smtp.delivered[0].from).toBe('folio@localhost');
      expect(header(smtp.delivered[0].raw, 'Subject')).toBe('Extraction AI ready: Invoice (Payroll)');
      expect(plainText(smtp.delivered[0].raw)).toContain('Open the extraction AI: http://127.0.0.1:1/extraction-ais/3');
    } finally {
      await mailer.close();
      await smtp.close();
    }
  });

  it('does not retry a final refusal (wrong password) and records it as failed', async () => {
    const smtp = await startSmtp();
    const mailer = new Mailer(core.repos.events, parseSmtpUrl(`smtp://folio:wrong@127.0.0.1:${smtp.port}`), fast);
    try {
      const row = await mailer.send(message());
      expect(row).toMatchObject({ state: 'failed', attempts: 1, sent_at: null });
      expect(row.last_error).toMatch(/Invalid username or password/);
      expect(smtp.delivered).toHaveLength(0);
    } finally {
      await mailer.close();
      await smtp.close();
    }
  });

  it('keeps a message queued while the SMTP server is down, and marks it failed with the error at the last try', async () => {
    const port = await closedPort();
    const mailer = new Mailer(core.repos.events, parseSmtpUrl(`smtp://127.0.0.1:${port}`), fast);
    try {
      const [a, b, c] = tries('notify:down');
      expect(await mailer.send(message(), a)).toMatchObject({ state: 'queued', attempts: 1 });
      expect(await mailer.send(message(), b)).toMatchObject({ state: 'queued', attempts: 2 });
      const row = await mailer.send(message(), c);
      expect(row).toMatchObject({ state: 'failed', attempts: 3, sent_at: null });
      expect(row.last_error).toMatch(/ECONNREFUSED|connect/i);
      expect(await core.repos.events.findMessage(row.id)).toEqual(row);
    } finally {
      await mailer.close();
    }
  });

  it('never sends a message twice under the same key: a try after it was sent changes nothing', async () => {
    const smtp = await startSmtp({ authOptional: true });
    const mailer = new Mailer(core.repos.events, parseSmtpUrl(`smtp://127.0.0.1:${smtp.port}`), fast);
    try {
      const [first, second] = tries('notify:twice');
      const sent = await mailer.send(message(), first);
      expect(sent).toMatchObject({ state: 'sent', attempts: 1 });
      // The job ran again (its process died after the send, before the job was marked done).
      expect(await mailer.send(message(), second)).toEqual(sent);
      expect(smtp.delivered).toHaveLength(1);
    } finally {
      await mailer.close();
      await smtp.close();
    }
  });
});

describe('Mailer without SMTP', () => {
  it('keeps the message in the outbox and sends nothing', async () => {
    const mailer = new Mailer(core.repos.events, undefined, fast);
    expect(mailer.sendsMail).toBe(false);
    const row = await mailer.send(message({ to: '  kept@example.test ' }));
    expect(row).toMatchObject({ state: 'kept', attempts: 0, to_address: 'kept@example.test', sent_at: null });
    const mine = await mailer.list({ limit: 10, offset: 0, ordering: [], filters: {} }, 'KEPT@example.test');
    expect(mine.items.map((m) => m.id)).toEqual([row.id]);
    await expect(mailer.send(message({ to: 'not an address' }))).rejects.toThrow(/Not an email address/);
  });
});

describe('FOLIO_SMTP_URL', () => {
  it('reads server, port, TLS mode, login and sender', () => {
    expect(parseSmtpUrl('smtp://mail.office.test')).toMatchObject({ host: 'mail.office.test', port: 587, secure: false, auth: undefined, from: 'folio@localhost' });
    expect(parseSmtpUrl('smtps://scanner%40office.test:s%3Acret@mail.office.test')).toMatchObject({
      port: 465,
      secure: true,
      auth: { user: 'scanner@office.test', pass: 's:cret' },
      from: 'scanner@office.test',
    });
    expect(parseSmtpUrl('smtp://[::1]:2525?from=folio@office.test')).toMatchObject({ host: '::1', port: 2525, from: 'folio@office.test' });
    expect(loadSmtpSettings({})).toBeUndefined();
    expect(loadSmtpSettings({ FOLIO_SMTP_URL: '  ' })).toBeUndefined();
    expect(loadSmtpSettings({ FOLIO_SMTP_URL: 'smtp://127.0.0.1:25' })?.port).toBe(25);
  });

  it('refuses a bad value at start-up with a clear error that never shows the password', () => {
    const cases: [string, RegExp][] = [
      ['mail.office.test', /FOLIO_SMTP_URL is not a URL/],
      ['http://user:hunter2@mail.office.test', /must start with smtp:\/\/ or smtps:\/\//],
      ['smtp://', /names no server/],
      ['smtp://mail.office.test:0', /port/],
      ['smtp://mail.office.test:99999', /not a URL/],
      ['smtp://mail.office.test/inbox', /must not have a path/],
      ['smtp://user:hunter2@mail.office.test?tls=off', /unknown parameters tls/],
      ['smtp://mail.office.test?from=nobody', /"from" that is not an email address/],
      ['smtp://:hunter2@mail.office.test', /password but no user/],
    ];
    for (const [raw, why] of cases) {
      let error: unknown;
      try {
        loadSmtpSettings({ FOLIO_SMTP_URL: raw });
      } catch (err) {
        error = err;
      }
      expect(error, raw).toBeInstanceOf(ConfigError);
      const text = (error as Error).message;
      expect(text, raw).toMatch(why);
      expect(text, raw).toMatch(/It must look like smtp:\/\//);
      expect(text, raw).not.toContain('hunter2');
    }
  });
});
