// Renders a PDF's pages to PNG images (viewer image, thumbnail, grayscale OCR image) in worker threads,
// streaming the pages in order with a bounded look-ahead so a long document never sits in memory at once.
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import type { RenderedPage, RenderReply, RenderRequest, RenderSettings } from './renderWorker.ts';

export type { RenderedImage, RenderedPage } from './renderWorker.ts';

export interface RenderOptions {
  /** Colour page image for the viewer (default true). */
  image?: boolean;
  /** Thumbnail (default true). */
  thumbnail?: boolean;
  /** Grayscale image for OCR (default false). */
  ocr?: boolean;
  /** Long side of the page image (default 2000 px, like the dataset's [1414, 2000] for A4). */
  imageLongSidePx?: number;
  /** Small pages are not blown up beyond this (default 300 dpi). */
  maxImageDpi?: number;
  /** Thumbnail width (default 200 px). */
  thumbnailWidthPx?: number;
  /** OCR resolution (default 300 dpi). */
  ocrDpi?: number;
  /** Pixel budget of one OCR image (default 25 million: A2 and larger pages get a lower dpi). */
  maxOcrPixels?: number;
  /** 1-based page numbers to render, in the order wanted (default all pages). */
  pages?: number[];
  /** A page (or opening the PDF) that takes longer fails and its worker is stopped (default 120 s): a
   * pathological page must not hold the pipeline forever. */
  pageTimeoutMs?: number;
  /** Worker threads (default: one per CPU but one, at most 4, as many as RENDER_MEMORY_BUDGET allows, at
   * least 1; never more than pages). Workers on every core gain nothing: pdf.js and sharp only take turns. */
  workers?: number;
}

const WORKER_URL = new URL('./renderWorker.mjs', import.meta.url);
/** Measured on a 100-page 95 MB scan rendered for OCR: a worker takes about 250 MB (V8, pdf.js, one 300 dpi
 * page and its PNGs, allocator slack) plus its own copy of the PDF. Process peak RSS, the caller holding the
 * PDF twice (250 MB): 710 MB with one worker, 1060 MB with two. */
const WORKER_BYTES = 250 * 2 ** 20;
/** What rendering may take by default, so that OCR and the rest fit the pipeline's 1.5 GB with it. */
const RENDER_MEMORY_BUDGET = 640 * 2 ** 20;
/** Finished workers stay warm this long for the next document: starting one costs about a second. */
const IDLE_WORKER_MS = 15_000;

/** Yields the pages in the order asked for. Each worker renders one page at a time and at most one
 * finished page per worker waits for the consumer, so memory is bounded by the worker count, not the
 * page count. Stopping the iteration early stops the workers. */
export async function* renderPages(pdf: Uint8Array, options: RenderOptions = {}): AsyncGenerator<RenderedPage> {
  const settings: RenderSettings = {
    image: options.image ?? true,
    thumbnail: options.thumbnail ?? true,
    ocr: options.ocr ?? false,
    imageLongSidePx: options.imageLongSidePx ?? 2000,
    maxImageDpi: options.maxImageDpi ?? 300,
    thumbnailWidthPx: options.thumbnailWidthPx ?? 200,
    ocrDpi: options.ocrDpi ?? 300,
    maxOcrPixels: options.maxOcrPixels ?? 25_000_000,
  };
  const timeoutMs = options.pageTimeoutMs ?? 120_000;
  const workers: RenderWorker[] = [];
  let finished = false;
  try {
    workers.push(acquireWorker(timeoutMs));
    const numPages = await workers[0].open(pdf, settings);
    const wanted = options.pages ?? Array.from({ length: numPages }, (_, i) => i + 1);
    for (const n of wanted) {
      if (!Number.isInteger(n) || n < 1 || n > numPages) throw new RangeError(`page ${n} does not exist (the PDF has ${numPages} pages)`);
    }
    const affordable = Math.floor(RENDER_MEMORY_BUDGET / (WORKER_BYTES + pdf.length));
    const count = Math.max(1, Math.min(wanted.length, options.workers ?? Math.min(os.availableParallelism() - 1, 4, affordable)));
    while (workers.length < count) {
      const worker = acquireWorker(timeoutMs);
      workers.push(worker);
      // Its renders queue behind the open and fail with it if it fails.
      worker.open(pdf, settings).catch(() => undefined);
    }

    const idle = [...workers];
    const results: (Promise<RenderedPage> | undefined)[] = [];
    let dispatched = 0;
    let consumed = 0;
    const dispatch = () => {
      while (idle.length > 0 && dispatched < wanted.length && dispatched < consumed + workers.length) {
        const worker = idle.pop()!;
        const result = worker.render(wanted[dispatched]);
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
      const page = await results[i]!;
      results[i] = undefined;
      consumed = i + 1;
      yield page;
    }
    finished = true;
  } finally {
    // Workers still busy (the consumer stopped early, or a page failed) are stopped; the others close the
    // document and wait for the next one.
    await Promise.all(workers.map((w) => (finished ? w.close().then(() => releaseWorker(w), () => w.terminate()) : w.terminate())));
  }
}

const idleWorkers: { worker: RenderWorker; timer: NodeJS.Timeout }[] = [];

function acquireWorker(timeoutMs: number): RenderWorker {
  for (let warm = idleWorkers.pop(); warm; warm = idleWorkers.pop()) {
    clearTimeout(warm.timer);
    if (!warm.worker.usable) continue; // died while idle
    warm.worker.setBusy(true);
    warm.worker.timeoutMs = timeoutMs;
    return warm.worker;
  }
  return new RenderWorker(timeoutMs);
}

function releaseWorker(worker: RenderWorker): void {
  worker.setBusy(false);
  const timer = setTimeout(() => {
    const at = idleWorkers.findIndex((w) => w.worker === worker);
    if (at >= 0) idleWorkers.splice(at, 1);
    void worker.terminate();
  }, IDLE_WORKER_MS);
  timer.unref();
  idleWorkers.push({ worker, timer });
}

type Reply = Extract<RenderReply, { ok: true }>;

/** One worker thread; requests are answered in order, each by id. */
class RenderWorker {
  private readonly thread = new Worker(WORKER_URL, { workerData: { role: 'folio-render' } });
  private readonly pending = new Map<number, { resolve: (reply: Reply) => void; reject: (err: Error) => void }>();
  private nextId = 1;
  private failure: Error | undefined;

  constructor(public timeoutMs: number) {
    this.thread.on('message', (reply: RenderReply) => {
      const waiter = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      if (reply.ok) waiter?.resolve(reply);
      else waiter?.reject(new Error(reply.message));
    });
    this.thread.on('error', (err) => this.fail(err));
    this.thread.on('exit', (code) => this.fail(new Error(`render worker exited with code ${code}`)));
  }

  async open(pdf: Uint8Array, settings: RenderSettings): Promise<number> {
    try {
      // A copy of just the bytes, moved to the worker (a view's whole backing buffer would be cloned). Not
      // pdf.slice(): on a Buffer that is a view, and moving it would empty the caller's bytes.
      const copy = new Uint8Array(pdf);
      return (await this.request({ type: 'open', pdf: copy, settings }, [copy.buffer])).numPages!;
    } catch (err) {
      throw new Error(`cannot open the PDF: ${(err as Error).message}`);
    }
  }

  async render(number: number): Promise<RenderedPage> {
    try {
      return (await this.request({ type: 'render', number })).page!;
    } catch (err) {
      throw new Error(`cannot render page ${number}: ${(err as Error).message}`);
    }
  }

  async close(): Promise<void> {
    await this.request({ type: 'close' });
  }

  get usable(): boolean {
    return this.failure === undefined;
  }

  /** An idle worker must not keep the process alive. */
  setBusy(busy: boolean): void {
    if (busy) this.thread.ref();
    else this.thread.unref();
  }

  async terminate(): Promise<void> {
    this.fail(new Error('render worker stopped'));
    await this.thread.terminate();
  }

  private request(body: DistributiveOmit<RenderRequest, 'id'>, transfer: ArrayBuffer[] = []): Promise<Reply> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise<Reply>((resolve, reject) => {
      // Requests run one after another: the clock starts when this one is sent, so a request queued behind
      // another gets its own time plus the wait.
      const timer = setTimeout(() => {
        this.fail(new Error(`no answer after ${this.timeoutMs / 1000} s`));
        void this.thread.terminate();
      }, this.timeoutMs * (this.pending.size + 1));
      const settle = () => clearTimeout(timer);
      this.pending.set(id, {
        resolve: (reply) => (settle(), resolve(reply)),
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

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
