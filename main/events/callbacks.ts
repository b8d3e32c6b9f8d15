// The completion callback (spec 6): POST the document details to the callback_url given at upload,
// one attempt at a time (the delivery job's queue retries while the receiver may still recover), and record
// every attempt so the API can show them.
import type dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import pkg from '../../package.json' with { type: 'json' };
import { now } from '../store/db.ts';
import type { NewCallbackAttempt } from '../store/schema.ts';
import { CallbackRefusedError, guardedLookup, urlRefusal, type CallbackPolicy, type Resolver } from './callbackTargets.ts';

export const USER_AGENT = `Folio/${pkg.version}`;

/** Where attempts are written (the event repository; a transaction-bound one works too). */
export interface CallbackAttemptLog {
  insertCallbackAttempt(values: NewCallbackAttempt): Promise<unknown>;
}

export interface CallbackRequest {
  /** Used as given: the receiver's own query parameters (its `hash`, spec 6 rule 4) stay. */
  url: string;
  /** The document details; sent as JSON. */
  body: unknown;
  documentId: number;
}

export interface CallbackOptions {
  log: CallbackAttemptLog;
  /** Which receivers may be reached (callbackTargets.ts); checked before connecting, on every address. */
  policy: CallbackPolicy;
  /** Which attempt this is, 1-based (the delivery job's attempt): recorded with it. Default 1. */
  attempt?: number;
  /** Resolves the receiver's name (default: the system's resolver; tests give their own). */
  resolve?: Resolver;
  /** From connecting to the end of the answer. Default 10 s. */
  timeoutMs?: number;
  /** Longest wait a receiver's Retry-After may ask for before the next attempt. Default 10 min. */
  maxRetryAfterMs?: number;
  /** Ends the attempt early (shutdown): the request is cut off. */
  signal?: AbortSignal;
}

export interface CallbackOutcome {
  delivered: boolean;
  /** Which attempt this was (as recorded). */
  attempt: number;
  /** Status of the answer, null when none came. */
  statusCode: number | null;
  /** Why the attempt failed; null when delivered. */
  error: string | null;
  /** Worth another attempt: no answer, 5xx or 429 (never a refusal, a redirect or a stopped attempt). */
  retry: boolean;
  /** What the receiver's Retry-After asked for, capped; undefined when it said nothing. */
  retryAfterMs?: number;
}

/**
 * Why `url` cannot be a callback target, or null when it can as far as the URL tells: with a policy,
 * an address literal or a name that is refused whatever it resolves to is a problem too.
 */
export function callbackUrlProblem(url: string, policy?: CallbackPolicy): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'The callback URL is not a valid URL.';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return `Only http and https callback URLs are allowed, not ${parsed.protocol}`;
  return policy ? urlRefusal(parsed, policy) : null;
}

interface Answer {
  status: number;
  retryAfter: string | undefined;
  location: string | undefined;
  /** The start of the body, kept to explain a refusal. */
  snippet: string;
}

const SNIPPET_BYTES = 300;

/** One POST. node:http rather than fetch: no redirects are followed and user:pass@ in the URL becomes Basic auth. */
function post(url: URL, payload: Buffer, timeoutMs: number, signal: AbortSignal | undefined, lookup: ReturnType<typeof guardedLookup>): Promise<Answer> {
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<Answer>((resolve, reject) => {
    const req = client.request(url, {
      method: 'POST',
      // A callback per document needs no pooled sockets that would outlive it.
      agent: false,
      // The connection's own lookup checks the addresses it connects to (address literals, which node
      // does not look up, were checked before: callbackUrlProblem).
      lookup: lookup as unknown as typeof dns.lookup,
      signal,
      headers: {
        'Content-Type': 'application/json',
        'Content-Length': payload.length,
        'User-Agent': USER_AGENT,
      },
    });
    const timer = setTimeout(() => req.destroy(new Error(`No answer within ${timeoutMs} ms.`)), timeoutMs);
    const settle = (fn: () => void) => {
      clearTimeout(timer);
      fn();
    };
    req.on('error', (err) => settle(() => reject(err)));
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const done = () =>
        settle(() =>
          resolve({
            status: res.statusCode ?? 0,
            retryAfter: res.headers['retry-after'],
            location: res.headers.location,
            snippet: Buffer.concat(chunks).toString('utf8').slice(0, SNIPPET_BYTES).trim(),
          }),
        );
      res.on('data', (chunk: Buffer) => {
        if (size < SNIPPET_BYTES) chunks.push(chunk);
        size += chunk.length;
        // The status is what counts; a receiver that streams a long answer is not waited for.
        if (size > 64 * 1024) {
          res.destroy();
          done();
        }
      });
      res.on('end', done);
      res.on('error', (err) => settle(() => reject(err)));
    });
    req.end(payload);
  });
}

/** A network error as one line: node wraps some (several addresses tried) in an AggregateError. */
function describeError(err: unknown): string {
  if (err instanceof AggregateError && err.errors.length) return [...new Set(err.errors.map(describeError))].join('; ');
  if (err instanceof Error) return err.message || (err as NodeJS.ErrnoException).code || err.name;
  return String(err);
}

/** The refusal inside a connection error (node may wrap the lookup's error), or undefined. */
function refusal(err: unknown): string | undefined {
  if (err instanceof CallbackRefusedError) return err.message;
  if (err instanceof AggregateError) for (const e of err.errors) if (e instanceof CallbackRefusedError) return e.message;
  return undefined;
}

/** Milliseconds a Retry-After header asks for (seconds or an HTTP date), if it parses. */
function retryAfterMs(header: string | undefined): number | undefined {
  if (!header) return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

interface AttemptResult {
  statusCode: number | null;
  error: string | null;
  /** Worth another try: no answer, 5xx, 429. */
  retry: boolean;
  waitAtLeastMs?: number;
}

function judge(answer: Answer): AttemptResult {
  const { status } = answer;
  if (status >= 200 && status < 300) return { statusCode: status, error: null, retry: false };
  const said = answer.snippet ? `: ${answer.snippet}` : '';
  if (status >= 300 && status < 400) {
    // Following would send the document somewhere the user never named.
    return { statusCode: status, error: `HTTP ${status}: redirects are not followed${answer.location ? ` (Location: ${answer.location})` : ''}.`, retry: false };
  }
  const retry = status === 429 || status >= 500;
  return { statusCode: status, error: `HTTP ${status}${said}`, retry, waitAtLeastMs: retry ? retryAfterMs(answer.retryAfter) : undefined };
}

/**
 * One attempt at delivering a callback: POSTs `body` as JSON to `url` once and records the attempt. The
 * durable queue makes the next attempt (events/eventJobs.ts: the delivery job fails with the receiver's
 * Retry-After and the queue retries it after its back-off), so no attempt ever waits inside a job and a
 * restart resumes the count. Never throws for delivery failures; the outcome says what happened and whether
 * another attempt may help. Throws only when the attempt cannot be recorded.
 */
export async function attemptCallback(request: CallbackRequest, opts: CallbackOptions): Promise<CallbackOutcome> {
  const attempt = Math.max(1, opts.attempt ?? 1);
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const maxRetryAfterMs = opts.maxRetryAfterMs ?? 10 * 60_000;
  const payload = Buffer.from(JSON.stringify(request.body ?? null), 'utf8');
  const startedAt = now();
  const started = performance.now();
  const finish = async (result: AttemptResult): Promise<CallbackOutcome> => {
    await opts.log.insertCallbackAttempt({
      document_id: request.documentId,
      url: request.url,
      attempt,
      status_code: result.statusCode,
      error: result.error,
      duration_ms: Math.round(performance.now() - started),
      created_at: startedAt,
    });
    const retryAfterMs = result.waitAtLeastMs === undefined ? undefined : Math.min(result.waitAtLeastMs, maxRetryAfterMs);
    return { delivered: result.error === null, attempt, statusCode: result.statusCode, error: result.error, retry: result.retry, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) };
  };

  const problem = callbackUrlProblem(request.url, opts.policy);
  // Recorded all the same, so that the document's callback list says why nothing arrived.
  if (problem) return finish({ statusCode: null, error: problem, retry: false });
  let result: AttemptResult;
  try {
    result = judge(await post(new URL(request.url), payload, timeoutMs, opts.signal, guardedLookup(opts.policy, opts.resolve)));
  } catch (err) {
    const stopped = opts.signal?.aborted === true;
    // A refused receiver stays refused: no retry asks again.
    const refused = refusal(err);
    result = { statusCode: null, error: stopped ? 'Delivery stopped: Folio is shutting down.' : refused ?? describeError(err), retry: !stopped && !refused };
  }
  return finish(result);
}
