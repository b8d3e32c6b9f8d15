// Emails (spec 6 rule 5): every message goes into the outbox; with FOLIO_SMTP_URL set it is also sent
// through that SMTP server, otherwise it is kept there for the API to list. Nothing else leaves the machine.
// One try per call: the delivery jobs that send mail (events/eventJobs.ts, ai/trainingJob.ts) are retried by
// the durable queue, on a worker of their own, so an SMTP server that never answers holds up no document.
import nodemailer, { type Transporter } from 'nodemailer';
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
  findMessageByDeliveryKey(key: string): Promise<OutboxRow | undefined>;
  updateMessage(id: number, changes: OutboxUpdate): Promise<OutboxRow>;
  listOutbox(params: ListParams, toAddress?: string): Promise<Page<OutboxRow>>;
}

export interface MailerOptions {
  /** Connection, greeting and socket time-outs of one try. Default 15 s. */
  timeoutMs?: number;
}

/**
 * Which try of a message this is, when a delivery job of the durable queue sends it (events/eventJobs.ts):
 * one try per run of the job, the queue's back-off between them, so no try waits for another and a restart
 * resumes the count. Without it a message gets one try.
 */
export interface MailAttempt {
  /** The job's dedupe key: the message's outbox row is found again by it at the next try. */
  key: string;
  /** 1-based. */
  attempt: number;
  /** No try follows this one: a failure is final. */
  last: boolean;
}

/** SMTP replies 5xx are final (unknown mailbox, refused login); no reply or 4xx may pass. */
function worthRetrying(err: unknown): boolean {
  const code = (err as { responseCode?: unknown }).responseCode;
  return typeof code !== 'number' || code < 500;
}

const describe = (err: unknown) => (err instanceof Error ? err.message : String(err));

export class Mailer {
  private readonly transport: Transporter | undefined;
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(private readonly outbox: OutboxStore, readonly smtp: SmtpSettings | undefined, opts: MailerOptions = {}) {
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
   * Writes the message to the outbox (once per `attempt.key`) and, with SMTP configured, makes one try at
   * delivering it. Resolves with the row as it stands: 'sent', 'queued' (the try failed and a later one may
   * pass: last_error says why), 'failed' (final) or 'kept' (no SMTP). A message already sent is not sent
   * again. Delivery failures never reject; only a failing database does.
   */
  send(mail: Mail, attempt?: MailAttempt): Promise<OutboxRow> {
    const job = this.deliver(mail, attempt ?? { key: '', attempt: 1, last: true });
    this.inFlight.add(job);
    return job.finally(() => this.inFlight.delete(job));
  }

  private async deliver(mail: Mail, attempt: MailAttempt): Promise<OutboxRow> {
    const to = mail.to.trim();
    if (!ADDRESS.test(to)) throw new Error(`Not an email address: "${mail.to}"`);
    const earlier = attempt.key ? await this.outbox.findMessageByDeliveryKey(attempt.key) : undefined;
    if (earlier && earlier.state !== 'queued') return earlier;
    const row =
      earlier ??
      (await this.outbox.insertMessage({
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
        delivery_key: attempt.key || null,
      }));
    if (!this.transport || !this.smtp) return row.state === 'queued' ? this.outbox.updateMessage(row.id, { state: 'kept' }) : row;
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
      return await this.outbox.updateMessage(row.id, { state: 'sent', attempts: attempt.attempt, sent_at: now() });
    } catch (err) {
      const final = attempt.last || !worthRetrying(err);
      return this.outbox.updateMessage(row.id, { attempts: attempt.attempt, last_error: describe(err), state: final ? 'failed' : 'queued' });
    }
  }

  /** The outbox, or one recipient's part of it. */
  list(params: ListParams, toAddress?: string): Promise<Page<OutboxRow>> {
    return this.outbox.listOutbox(params, toAddress);
  }

  /** Waits for sends under way (each ends within its time-outs); later tries are the queue's. */
  async close(): Promise<void> {
    await Promise.allSettled([...this.inFlight]);
    this.transport?.close();
  }
}
