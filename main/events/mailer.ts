// Emails (spec 6 rule 5): every message goes into the outbox; with FOLIO_SMTP_URL set it is also sent
// through that SMTP server, otherwise it is kept there for the API to list. Nothing else leaves the machine.
import nodemailer, { type Transporter } from 'nodemailer';
import { setTimeout as sleep } from 'node:timers/promises';
import { ConfigError } from '../config.ts';
import { now } from '../store/db.ts';
import type { NewOutboxMessage, OutboxRow, OutboxUpdate } from '../store/schema.ts';
import type { ListParams, Page } from '../../shared/listParams.ts';

/** What a message is about; a new kind of email adds its name here. */
export const MAIL_KINDS = ['upload', 'training'] as const;
export type MailKind = (typeof MAIL_KINDS)[number];

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  kind: MailKind;
  documentId?: number | null;
}

export interface SmtpSettings {
  host: string;
  port: number;
  /** smtps: TLS from the first byte; smtp: plain, upgraded with STARTTLS when the server offers it. */
  secure: boolean;
  auth?: { user: string; pass: string };
  from: string;
  /** The URL with the password hidden, for messages and logs. */
  display: string;
}

const EXAMPLE = 'smtp://user:password@mail.example.com:587 (or smtps://... for TLS from the start; ?from=folio@example.com sets the sender)';
const ADDRESS = /^[^\s@<>(),;:"]+@[^\s@<>(),;:"]+$/;

/** FOLIO_SMTP_URL as transport settings; a ConfigError that says what is wrong (never echoing the password). */
export function parseSmtpUrl(raw: string, name = 'FOLIO_SMTP_URL'): SmtpSettings {
  const fail = (problem: string, shown?: string): never => {
    throw new ConfigError(`${name} ${problem}${shown ? ` (got "${shown}")` : ''}. It must look like ${EXAMPLE}.`);
  };
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return fail('is not a URL');
  }
  const shown = `${url.protocol}//${url.username ? `${url.username}${url.password ? ':***' : ''}@` : ''}${url.host}${url.pathname}${url.search}`;
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') fail(`must start with smtp:// or smtps://`, shown);
  if (!url.hostname) fail('names no server', shown);
  if (url.pathname !== '' && url.pathname !== '/') fail('must not have a path', shown);
  if (url.hash) fail('must not have a #fragment', shown);
  const unknown = [...url.searchParams.keys()].filter((k) => k !== 'from');
  if (unknown.length) fail(`has unknown parameters ${unknown.join(', ')} (only "from" is understood)`, shown);
  const secure = url.protocol === 'smtps:';
  const port = url.port ? Number(url.port) : secure ? 465 : 587;
  if (port === 0) fail('must name a port from 1 to 65535', shown);
  let user: string;
  let pass: string;
  try {
    user = decodeURIComponent(url.username);
    pass = decodeURIComponent(url.password);
  } catch {
    return fail('has a user or password with a broken %-escape', shown);
  }
  if (pass && !user) fail('has a password but no user', shown);
  const from = url.searchParams.get('from') ?? (ADDRESS.test(user) ? user : 'folio@localhost');
  if (!ADDRESS.test(from)) fail(`has a "from" that is not an email address`, shown);
  // IPv6 literals keep their brackets in URL.hostname; sockets want the bare address.
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return { host, port, secure, auth: user ? { user, pass } : undefined, from, display: shown };
}

/** The SMTP settings of this start-up, or undefined when mail is only kept in the outbox. */
export function loadSmtpSettings(env: NodeJS.ProcessEnv = process.env): SmtpSettings | undefined {
  const raw = env.FOLIO_SMTP_URL?.trim();
  return raw ? parseSmtpUrl(raw) : undefined;
}

/** Where messages are written (the event repository). */
export interface OutboxStore {
  insertMessage(values: NewOutboxMessage): Promise<OutboxRow>;
  updateMessage(id: number, changes: OutboxUpdate): Promise<OutboxRow>;
  listOutbox(params: ListParams, toAddress?: string): Promise<Page<OutboxRow>>;
}

export interface MailerOptions {
  /** Tries in all for one message. Default 3. */
  attempts?: number;
  /** Wait before the second try, doubled before each later one. Default 5 s. */
  backoffMs?: number;
  /** Connection, greeting and socket time-outs of one try. Default 15 s. */
  timeoutMs?: number;
}

/** SMTP replies 5xx are final (unknown mailbox, refused login); no reply or 4xx may pass. */
function worthRetrying(err: unknown): boolean {
  const code = (err as { responseCode?: unknown }).responseCode;
  return typeof code !== 'number' || code < 500;
}

const describe = (err: unknown) => (err instanceof Error ? err.message : String(err));

export class Mailer {
  private readonly transport: Transporter | undefined;
  private readonly attempts: number;
  private readonly backoffMs: number;
  /** Stops back-off waits at close(), so shutdown does not wait out a retry schedule. */
  private readonly closing = new AbortController();
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(private readonly outbox: OutboxStore, readonly smtp: SmtpSettings | undefined, opts: MailerOptions = {}) {
    this.attempts = Math.max(1, opts.attempts ?? 3);
    this.backoffMs = opts.backoffMs ?? 5_000;
    const timeoutMs = opts.timeoutMs ?? 15_000;
    this.transport = smtp
      ? nodemailer.createTransport({
          host: smtp.host,
          port: smtp.port,
          secure: smtp.secure,
          auth: smtp.auth,
          connectionTimeout: timeoutMs,
          greetingTimeout: timeoutMs,
          socketTimeout: timeoutMs,
        })
      : undefined;
  }

  get sendsMail(): boolean {
    return this.transport !== undefined;
  }

  /**
   * Writes the message to the outbox and, with SMTP configured, delivers it (retrying transient
   * failures). Resolves with the row in its final state: 'sent', 'failed' (last_error says why) or
   * 'kept' (no SMTP). Delivery failures never reject; only a failing database does.
   */
  send(mail: Mail): Promise<OutboxRow> {
    const job = this.deliver(mail);
    this.inFlight.add(job);
    return job.finally(() => this.inFlight.delete(job));
  }

  private async deliver(mail: Mail): Promise<OutboxRow> {
    const to = mail.to.trim();
    if (!ADDRESS.test(to)) throw new Error(`Not an email address: "${mail.to}"`);
    let row = await this.outbox.insertMessage({
      to_address: to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html ?? null,
      kind: mail.kind,
      document_id: mail.documentId ?? null,
      state: this.transport ? 'queued' : 'kept',
      attempts: 0,
      last_error: null,
      created_at: now(),
      sent_at: null,
    });
    if (!this.transport || !this.smtp) return row;

    for (let attempt = 1; ; attempt++) {
      try {
        await this.transport.sendMail({
          from: this.smtp.from,
          to,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
          // Message parts are plain strings; never let a path or URL in them be read or fetched.
          disableFileAccess: true,
          disableUrlAccess: true,
        });
        return await this.outbox.updateMessage(row.id, { state: 'sent', attempts: attempt, sent_at: now() });
      } catch (err) {
        const last = attempt >= this.attempts || !worthRetrying(err) || this.closing.signal.aborted;
        row = await this.outbox.updateMessage(row.id, { attempts: attempt, last_error: describe(err), ...(last ? { state: 'failed' } : {}) });
        if (last) return row;
      }
      try {
        await sleep(this.backoffMs * 2 ** (attempt - 1), undefined, { signal: this.closing.signal });
      } catch {
        return this.outbox.updateMessage(row.id, { state: 'failed', last_error: `${row.last_error} (not retried: Folio was shutting down)` });
      }
    }
  }

  /** The outbox, or one recipient's part of it. */
  list(params: ListParams, toAddress?: string): Promise<Page<OutboxRow>> {
    return this.outbox.listOutbox(params, toAddress);
  }

  /** Ends pending retries (their messages become 'failed') and waits for sends under way. */
  async close(): Promise<void> {
    this.closing.abort();
    await Promise.allSettled([...this.inFlight]);
    this.transport?.close();
  }
}
