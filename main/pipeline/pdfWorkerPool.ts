// The PDF worker threads (pdf.worker.ts; the messages are in pdfWorkerProtocol.ts): rendering, text
// extraction and the upload check all run pdf.js there, never on the main thread, so API answers never
// wait for a PDF. Workers stay warm between documents (one started for the upload check serves the text
// and the pictures next); a document's pages are spread over several workers and streamed back in order,
// with a bounded look-ahead.
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { PDF_WORKER_ROLE, type OpenAs, type PdfReply, type PdfRequest, type PdfResults, type PdfWorkerData } from './pdfWorkerProtocol.ts';
import { workerEntry } from '../paths.ts';
import { unpackPageText } from './packedText.ts';
import type { PdfPageText } from './types.ts';

const WORKER_URL = workerEntry('pdfWorker');
/** Measured on a 100-page 95 MB scan rendered for OCR: a worker takes about 250 MB (V8, pdf.js, one 300 dpi
 * page and its PNGs, allocator slack) plus its own copy of the PDF. Process peak RSS, the caller holding the
 * PDF twice (250 MB): 710 MB with one worker, 1060 MB with two. */
const WORKER_BYTES = 250 * 2 ** 20;
/** What the workers of one document may take by default, so that OCR and the rest fit the pipeline's 1.5 GB. */
const MEMORY_BUDGET = 640 * 2 ** 20;
/**
 * Busy workers of the whole process at most (FOLIO_PDF_WORKERS): each takes 90-250 MB, and 50 uploads at
 * once each started its own for the upload check (2.2 GB measured). Requests beyond it wait their turn.
 * One more than the cores (at least 3, at most 6): a document's pages and a couple of upload checks at once.
 */
export const MAX_BUSY_WORKERS = (() => {
  const raw = process.env.FOLIO_PDF_WORKERS;
  if (raw && /^\d+$/.test(raw) && Number(raw) >= 1) return Number(raw);
  return Math.max(3, Math.min(os.availableParallelism() + 1, 6));
})();
/** Finished workers stay warm this long for the next document: starting one costs about half a second. */
export const IDLE_WORKER_MS = 15_000;
/** A request (opening a PDF, one page, a check) that takes longer fails and its worker is stopped: a
 * pathological file must not hold the pipeline forever. */
export const DEFAULT_TIMEOUT_MS = 120_000;

export interface PageWork<T> {
  open: OpenAs;
  /** 1-based page numbers, in the order wanted (default all pages). */
  pages?: number[];
  /** Worker threads (default: one per CPU but one, at most 4, as many as MEMORY_BUDGET allows, at least 1;
   * never more than pages). Workers on every core gain nothing: pdf.js and sharp only take turns. */
  workers?: number;
  timeoutMs?: number;
  /** Pages asked of each worker at once (default 1, for big results like page images). Small results want 2:
   * the worker reads the next page while the last one travels and is taken in, instead of waiting for it. */
  queueDepth?: number;
  /** Prefixes for failure messages ("cannot open the PDF: ..."); the error's name is kept either way. */
  context?: { open: string; page: (number: number) => string };
  /** One page's work, on a worker that has the document open. */
  work: (worker: PdfWorker, page: number) => Promise<T>;
}

/** Yields each page's result in the order asked for. Each worker does one page at a time and at most
 * queueDepth finished pages per worker wait for the consumer, so memory is bounded by the worker count, not
 * the page count. Stopping the iteration early stops the workers. */
export async function* eachPage<T>(pdf: Uint8Array, job: PageWork<T>): AsyncGenerator<T> {
  const timeoutMs = job.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const open = (worker: PdfWorker) => withContext(worker.open(pdf, job.open), job.context?.open);
  const work = (worker: PdfWorker, n: number) => withContext(job.work(worker, n), job.context?.page(n));
  const workers: PdfWorker[] = [];
  let finished = false;
  try {
    workers.push(await acquireWorker(timeoutMs));
    const numPages = await open(workers[0]);
    const wanted = job.pages ?? Array.from({ length: numPages }, (_, i) => i + 1);
    for (const n of wanted) {
      if (!Number.isInteger(n) || n < 1 || n > numPages) throw new RangeError(`page ${n} does not exist (the PDF has ${numPages} pages)`);
    }
    const affordable = Math.floor(MEMORY_BUDGET / (WORKER_BYTES + pdf.length));
    const count = Math.max(1, Math.min(wanted.length, job.workers ?? Math.min(os.availableParallelism() - 1, 4, affordable)));
    while (workers.length < count) {
      // More workers only while the process has them to spare: the first one always does the job.
      const worker = tryAcquireWorker(timeoutMs);
      if (!worker) break;
      workers.push(worker);
      // Its pages queue behind the open and fail with it if it fails.
      open(worker).catch(() => undefined);
    }

    // A worker is in `idle` once per page it may take on now.
    const idle = Array.from({ length: job.queueDepth ?? 1 }, () => workers).flat();
    const slots = idle.length;
    const results: (Promise<T> | undefined)[] = [];
    let dispatched = 0;
    let consumed = 0;
    const dispatch = () => {
      while (idle.length > 0 && dispatched < wanted.length && dispatched < consumed + slots) {
        const worker = idle.pop()!;
        const result = work(worker, wanted[dispatched]);
        results[dispatched++] = result;
        result.then(
          () => {
            idle.push(worker);
            dispatch();
          },
          () => undefined, // reported when the consumer reaches this page
        );
      }
    };
    for (let i = 0; i < wanted.length; i++) {
      dispatch();
      const result = await results[i]!;
      results[i] = undefined;
      consumed = i + 1;
      yield result;
    }
    finished = true;
  } finally {
    // Workers still busy (the consumer stopped early, or another page failed) are stopped; the others close
    // the document and wait for the next one (a PDF pdf.js refused leaves its worker fine).
    await Promise.all(workers.map((w) => (finished || w.idle ? w.close().then(() => releaseWorker(w), () => discardWorker(w)) : discardWorker(w))));
  }
}

/** Runs requests that need no open document (the upload check's) on a pooled worker. */
export async function withPdfWorker<T>(fn: (worker: PdfWorker) => Promise<T>, timeoutMs = DEFAULT_TIMEOUT_MS, opts: { fresh?: boolean } = {}): Promise<T> {
  const worker = await acquireWorker(timeoutMs, opts.fresh);
  try {
    return await fn(worker);
  } finally {
    releaseWorker(worker);
  }
}

async function withContext<T>(promise: Promise<T>, prefix: string | undefined): Promise<T> {
  if (prefix === undefined) return promise;
  try {
    return await promise;
  } catch (err) {
    const e = err as Error & { fromReader?: boolean };
    throw Object.assign(new Error(`${prefix}: ${e.message}`), { name: e.name, fromReader: e.fromReader, context: prefix });
  }
}

/**
 * An error pdf.js itself answered with while reading the file (not a worker that died or timed out): the
 * file is what it is, so reading it again fails again. `context` says what was being done ("cannot render
 * page 3"). Running out of memory is the exception: that depends on what else was running.
 */
export function readerErrorContext(err: unknown): string | undefined {
  const e = err as Error & { fromReader?: boolean; context?: string };
  if (!e?.fromReader || /allocation failed|out of memory/i.test(e.message ?? '')) return undefined;
  return e.context ?? 'cannot read the PDF';
}

const idleWorkers: { worker: PdfWorker; timer: NodeJS.Timeout; armedAt: number }[] = [];
/** Workers handed out and not given back yet, and who waits for one (first come, first served). */
let busyWorkers = 0;
/** Counts every worker taken or given back: an idle worker whose time is up tells by it whether the pool was
 * used meanwhile (a count, not a clock, so that it means the same under fake timers). */
let poolActivity = 0;
/** The most workers busy at once since the pool was last left unused for IDLE_WORKER_MS. */
let recentPeakBusy = 0;
/** Worker threads started since the process began (each costs about half a second of CPU). */
let workersStarted = 0;
const waitingForWorker: (() => void)[] = [];

/** A worker for this request, waiting while MAX_BUSY_WORKERS are busy. Give it back with releaseWorker or
 * discardWorker. */
async function acquireWorker(timeoutMs: number, fresh = false): Promise<PdfWorker> {
  if (busyWorkers < MAX_BUSY_WORKERS && waitingForWorker.length === 0) busyWorkers++;
  // freeSlot hands its slot straight to the first in line, so nobody arriving later takes it first.
  else await new Promise<void>((resolve) => waitingForWorker.push(resolve));
  slotTaken();
  return fresh ? new PdfWorker(timeoutMs) : takeWorker(timeoutMs);
}

/** A worker if one may be busy now, else undefined (for the extra workers of a document). */
function tryAcquireWorker(timeoutMs: number): PdfWorker | undefined {
  if (busyWorkers >= MAX_BUSY_WORKERS || waitingForWorker.length > 0) return undefined;
  busyWorkers++;
  slotTaken();
  return takeWorker(timeoutMs);
}

function slotTaken(): void {
  poolActivity++;
  recentPeakBusy = Math.max(recentPeakBusy, busyWorkers);
}

/** Workers busy, kept warm, and requests waiting for one. */
export function pdfWorkerStats(): { busy: number; idle: number; waiting: number; started: number } {
  return { busy: busyWorkers, idle: idleWorkers.length, waiting: waitingForWorker.length, started: workersStarted };
}

function freeSlot(): void {
  poolActivity++;
  const next = waitingForWorker.shift();
  if (next) next();
  else busyWorkers--;
}

/** A worker that must not be reused (it is busy with an abandoned page, or broken): stopped, its slot freed. */
async function discardWorker(worker: PdfWorker): Promise<void> {
  freeSlot();
  await worker.terminate();
}

/** The worker for a slot already taken: a warm one if there is one, else a new one. */
function takeWorker(timeoutMs: number): PdfWorker {
  try {
    for (let warm = idleWorkers.pop(); warm; warm = idleWorkers.pop()) {
      clearTimeout(warm.timer);
      if (!warm.worker.usable) continue; // died while idle
      warm.worker.setBusy(true);
      warm.worker.timeoutMs = timeoutMs;
      return warm.worker;
    }
    return new PdfWorker(timeoutMs);
  } finally {
    // One worker starts in reserve whenever the last idle one is taken: what comes while the others are busy
    // (an upload check while a document renders) finds it ready instead of waiting ~0.5 s (more under load,
    // about 90 MB) for a new one. Unused, it goes after IDLE_WORKER_MS like any idle worker.
    if (idleWorkers.length === 0) parkWorker(new PdfWorker(DEFAULT_TIMEOUT_MS));
  }
}

function releaseWorker(worker: PdfWorker): void {
  freeSlot();
  parkWorker(worker);
}

/** Keeps a usable worker warm for the next request (not counted as busy), else ends it. */
function parkWorker(worker: PdfWorker): void {
  if (!worker.usable) {
    void worker.terminate();
    return;
  }
  worker.setBusy(false);
  const entry = { worker, armedAt: poolActivity, timer: setTimeout(() => expire(entry), IDLE_WORKER_MS).unref() };
  idleWorkers.push(entry);
}

/**
 * An idle worker's time is up. While the pool is in use (a worker busy, or one taken or given back since this
 * one's time started) it stays warm for another IDLE_WORKER_MS, as long as the idle ones are no more than the
 * pool recently had busy at once plus the reserve; otherwise it ends. A batch of documents goes through the
 * pool in steps with short gaps (a document's pages all rendered while its last ones are read, the next job
 * fetched): ending a worker in such a gap only had the next document start one again, about half a second
 * of CPU a document (0.1 s a page of bench:scale's four-page scans, beside 0.4 s of other work). Once no
 * worker was taken or given back for IDLE_WORKER_MS, idle workers end one by one.
 */
function expire(entry: (typeof idleWorkers)[number]): void {
  const at = idleWorkers.indexOf(entry);
  if (at < 0) return;
  const inUse = busyWorkers > 0 || entry.armedAt !== poolActivity;
  if (inUse && idleWorkers.length <= recentPeakBusy + 1) {
    entry.armedAt = poolActivity;
    entry.timer = setTimeout(() => expire(entry), IDLE_WORKER_MS).unref();
    return;
  }
  if (!inUse) recentPeakBusy = busyWorkers;
  idleWorkers.splice(at, 1);
  void entry.worker.terminate();
}

type RequestBody<K extends PdfRequest['type']> = Omit<Extract<PdfRequest, { type: K }>, 'id'>;

/** One worker thread; requests are answered in order, each by id. */
export class PdfWorker {
  private readonly thread = new Worker(WORKER_URL, { workerData: { role: PDF_WORKER_ROLE } satisfies PdfWorkerData });
  private readonly pending = new Map<number, { resolve: (result: unknown) => void; reject: (err: Error) => void }>();
  private nextId = 1;
  private failure: Error | undefined;

  constructor(public timeoutMs: number) {
    workersStarted++;
    this.thread.on('message', (reply: PdfReply) => {
      const waiter = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      if (reply.ok) waiter?.resolve(reply.result);
      else waiter?.reject(Object.assign(new Error(reply.message), { name: reply.name, fromReader: true }));
    });
    this.thread.on('error', (err) => this.fail(err));
    this.thread.on('exit', (code) => this.fail(new Error(`PDF worker exited with code ${code}`)));
  }

  /** Opens a document for the page requests that follow; answers its page count. */
  open(pdf: Uint8Array, as: OpenAs): Promise<number> {
    const copy = movableCopy(pdf);
    return this.request({ type: 'open', pdf: copy, as }, [copy.buffer]);
  }

  render(number: number): Promise<PdfResults['render']> {
    return this.request({ type: 'render', number });
  }

  async text(number: number): Promise<PdfPageText> {
    return unpackPageText(await this.request({ type: 'text', number }));
  }

  async close(): Promise<void> {
    await this.request({ type: 'close' });
  }

  /** Whether pdf.js reads the PDF: page count, password, owner restrictions, an image over maxImagePixels. */
  probe(pdf: Uint8Array, maxImagePixels: number): Promise<PdfResults['probe']> {
    const copy = movableCopy(pdf);
    return this.request({ type: 'probe', pdf: copy, maxImagePixels }, [copy.buffer]);
  }

  /** pdf-lib's rebuild of a damaged PDF. */
  rewrite(pdf: Uint8Array): Promise<PdfResults['rewrite']> {
    const copy = movableCopy(pdf);
    return this.request({ type: 'rewrite', pdf: copy }, [copy.buffer]);
  }

  get usable(): boolean {
    return this.failure === undefined;
  }

  /** Nothing asked of it is unanswered. */
  get idle(): boolean {
    return this.pending.size === 0;
  }

  /** An idle worker must not keep the process alive. */
  setBusy(busy: boolean): void {
    if (busy) this.thread.ref();
    else this.thread.unref();
  }

  async terminate(): Promise<void> {
    this.fail(new Error('PDF worker stopped'));
    await this.thread.terminate();
  }

  private request<K extends PdfRequest['type']>(body: RequestBody<K> & { type: K }, transfer: ArrayBuffer[] = []): Promise<PdfResults[K]> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise<PdfResults[K]>((resolve, reject) => {
      // Requests run one after another: the clock starts when this one is sent, so a request queued behind
      // another gets its own time plus the wait.
      const timer = setTimeout(() => {
        this.fail(new Error(`no answer after ${this.timeoutMs / 1000} s`));
        void this.thread.terminate();
      }, this.timeoutMs * (this.pending.size + 1));
      const settle = () => clearTimeout(timer);
      this.pending.set(id, {
        resolve: (result) => (settle(), resolve(result as PdfResults[K])),
        reject: (err) => (settle(), reject(err)),
      });
      this.thread.postMessage({ ...body, id }, transfer);
    });
  }

  private fail(err: Error): void {
    this.failure ??= err;
    for (const waiter of this.pending.values()) waiter.reject(this.failure);
    this.pending.clear();
  }
}

/** A copy of just the bytes, to move to a worker (a view's whole backing buffer would be cloned). Not
 * pdf.slice(): on a Buffer that is a view, and moving it would empty the caller's bytes. */
function movableCopy(pdf: Uint8Array): Uint8Array<ArrayBuffer> {
  return new Uint8Array(pdf);
}
