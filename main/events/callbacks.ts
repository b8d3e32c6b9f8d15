// The completion callback (spec 6): POST the document details to the callback_url given at upload,
// retry while the receiver may still recover, and record every attempt so the API can show them.
import type dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { setTimeout as sleep } from 'node:timers/promises';
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
  /** Resolves the receiver's name (default: the system's resolver; tests give their own). */
  resolve?: Resolver;
  /** Tries in all, the first included. Default 3. */
  attempts?: number;
  /** Per attempt, from connecting to the end of the answer. Default 10 s. */
  timeoutMs?: number;
  /** Wait before the second try, doubled before each later one. Default 2 s. */
  backoffMs?: number;
  /** Longest wait a receiver's Retry-After may ask for. Default 60 s. */
  maxRetryAfterMs?: number;
  /** Ends the delivery early (shutdown): the running attempt is cut off and no further one is made. */
  signal?: AbortSignal;
}

export interface CallbackOutcome {
  delivered: boolean;
  /** How many attempts were made (and recorded). */
  attempts: number;
  /** Status of the last answer, null when the last attempt got none. */
  statusCode: number | null;
  /** Why the last attempt failed; null when delivered. */
  error: string | null;
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
 * Delivers one callback: POSTs `body` as JSON to `url` until the receiver answers 2xx, a final refusal
 * (4xx other than 429, or a redirect) comes, or the attempts are used up. Never throws for delivery
 * failures; the outcome says what happened. Throws only when attempts cannot be recorded.
 */
export async function sendCallback(request: CallbackRequest, opts: CallbackOptions): Promise<CallbackOutcome> {
  const attempts = Math.max(1, opts.attempts ?? 3);
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const backoffMs = opts.backoffMs ?? 2_000;
  const maxRetryAfterMs = opts.maxRetryAfterMs ?? 60_000;
  const payload = Buffer.from(JSON.stringify(request.body ?? null), 'utf8');
  const record = (attempt: number, startedAt: string, started: number, result: AttemptResult) =>
    opts.log.insertCallbackAttempt({
      document_id: request.documentId,
      url: request.url,
      attempt,
      status_code: result.statusCode,
      error: result.error,
      duration_ms: Math.round(performance.now() - started),
      created_at: startedAt,
    });

  const problem = callbackUrlProblem(request.url, opts.policy);
  if (problem) {
    // Recorded all the same, so that the document's callback list says why nothing arrived.
    await record(1, now(), performance.now(), { statusCode: null, error: problem, retry: false });
    return { delivered: false, attempts: 1, statusCode: null, error: problem };
  }
  const url = new URL(request.url);
  const lookup = guardedLookup(opts.policy, opts.resolve);

  let result: AttemptResult = { statusCode: null, error: null, retry: false };
  let attempt = 0;
  while (attempt < attempts) {
    attempt++;
    const startedAt = now();
    const started = performance.now();
    try {
      result = judge(await post(url, payload, timeoutMs, opts.signal, lookup));
    } catch (err) {
      const stopped = opts.signal?.aborted === true;
      // A refused receiver stays refused: no retry asks again.
      const refused = refusal(err);
      result = { statusCode: null, error: stopped ? 'Delivery stopped: Folio is shutting down.' : refused ?? describeError(err), retry: !stopped && !refused };
    }
    await record(attempt, startedAt, started, result);
    if (!result.retry || attempt >= attempts) break;
    const backoff = backoffMs * 2 ** (attempt - 1);
    const wait = Math.min(Math.max(backoff, result.waitAtLeastMs ?? 0), Math.max(backoff, maxRetryAfterMs));
    try {
      await sleep(wait, undefined, { signal: opts.signal });
    } catch {
      break; // aborted while waiting
    }
  }
  const delivered = result.error === null;
  return { delivered, attempts: attempt, statusCode: result.statusCode, error: result.error };
}
