// Offline OCR of page images: a fixed number of slots, each holding one tesseract.js worker (whose engine
// already runs in its own worker thread), created on first use for a language combination and reused.
// Every page's characters, words and lines come back in PDF points, origin bottom left.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import Tesseract from 'tesseract.js';
import { ConfigError } from '../../config.ts';
import { installedLanguages, resolveLanguages, type TraineddataFile } from '../languages.ts';
import { pngSize, toPageText, type OcrPageText, type TessBlock } from './ocrText.ts';

export type { OcrChar, OcrLine, OcrPageText, OcrWord } from './ocrText.ts';

export interface OcrPageRequest {
  /** Spec 2.16 names or tesseract codes ("German", "deu", ["eng", "deu"], "eng+deu"). */
  langs: string | readonly string[];
  /** Resolution the page was rendered at. */
  dpi: number;
  /** Size of the page as rendered (after its rotation), in points. */
  pageWidthPt: number;
  pageHeightPt: number;
}

export interface OcrPoolOptions {
  /** The data folder: extra models are read from <dataDir>/tessdata, uncompressed copies of the models in
   * use are kept in <dataDir>/cache/ocr-models. */
  dataDir: string;
  /** Worker count (default: FOLIO_OCR_WORKERS, else defaultOcrWorkerCount()). */
  size?: number;
  /** Pages waiting for a worker before waitForRoom() holds producers back (default 2 per worker). */
  maxQueue?: number;
  /** A page that takes longer fails and its worker is replaced (default 5 minutes). */
  pageTimeoutMs?: number;
  /** Creating a worker (engine start, model load) that takes longer fails (default 2 minutes). */
  startTimeoutMs?: number;
}

/** A page could not be read (engine failure, time-out, pool closed); the message says which. */
export class OcrError extends Error {}

/** Most workers the default picks: one worker peaks at about 200-250 MB on a 300 dpi A4 page. */
export const MAX_DEFAULT_OCR_WORKERS = 6;

/**
 * FOLIO_OCR_WORKERS when set; otherwise one worker per core but one, at least one, at most
 * MAX_DEFAULT_OCR_WORKERS. OCR is pure CPU with no waiting, so a worker per core would starve the rest of the
 * app: the spare core keeps the HTTP API and the window responsive and runs the page rendering that feeds
 * OCR. The cap keeps a many-core machine's OCR memory around 1.5 GB.
 */
export function defaultOcrWorkerCount(env: NodeJS.ProcessEnv = process.env, cores = os.availableParallelism()): number {
  const raw = env.FOLIO_OCR_WORKERS;
  if (raw !== undefined && raw !== '') {
    if (!/^\d+$/.test(raw) || Number(raw) < 1) throw new ConfigError(`FOLIO_OCR_WORKERS must be a whole number of at least 1, got "${raw}"`);
    return Number(raw);
  }
  return Math.max(1, Math.min(cores - 1, MAX_DEFAULT_OCR_WORKERS));
}

const require = createRequire(import.meta.url);
/** Our worker-thread entry (offline, no hangs) around tesseract.js's Node worker script. */
export const OCR_WORKER_SCRIPT = fileURLToPath(new URL('./tesseractWorker.cjs', import.meta.url));
/** tesseract.js in Node loads its engine with require('tesseract.js-core/...'); set anyway, so that no
 * option of this pool names anything but a local folder. */
const CORE_DIR = path.dirname(require.resolve('tesseract.js-core/package.json'));
const gunzip = promisify(zlib.gunzip);

interface Job {
  codes: string[];
  key: string;
  image: Uint8Array;
  dpi: number;
  frame: { sx: number; sy: number; heightPt: number };
  resolve: (text: OcrPageText) => void;
  reject: (err: unknown) => void;
}

interface Slot {
  worker?: Tesseract.Worker;
  /** Rejects when the worker's thread ends unexpectedly. */
  lost?: Promise<never>;
  key?: string;
  job?: Job;
  lastUsed: number;
  pages: number;
}

export class OcrPool {
  readonly size: number;
  readonly maxQueue: number;
  private readonly dataDir: string;
  private readonly pageTimeoutMs: number;
  private readonly startTimeoutMs: number;
  private readonly slots: Slot[];
  private readonly queue: Job[] = [];
  private readonly roomWaiters: (() => void)[] = [];
  private readonly staged = new Map<string, Promise<void>>();
  private closed = false;

  constructor(options: OcrPoolOptions) {
    this.dataDir = options.dataDir;
    this.size = options.size ?? defaultOcrWorkerCount();
    if (!Number.isInteger(this.size) || this.size < 1) throw new RangeError(`OCR pool size must be a whole number of at least 1, got ${this.size}`);
    this.maxQueue = options.maxQueue ?? 2 * this.size;
    this.pageTimeoutMs = options.pageTimeoutMs ?? 5 * 60_000;
    this.startTimeoutMs = options.startTimeoutMs ?? 2 * 60_000;
    this.slots = Array.from({ length: this.size }, () => ({ lastUsed: 0, pages: 0 }));
  }

  /** Reads one page image (PNG, grayscale is fastest). Rejects with a ValidationError for languages that
   * are unknown or not installed, a RangeError for an image that does not match the page size, an OcrError
   * when the engine fails. Pages are taken in the order they come. */
  async recognize(image: Uint8Array, request: OcrPageRequest): Promise<OcrPageText> {
    if (this.closed) throw new OcrError('The OCR pool is closed.');
    const codes = resolveLanguages(request.langs, this.dataDir, 'langs');
    const frame = pageFrame(image, request);
    return new Promise<OcrPageText>((resolve, reject) => {
      this.queue.push({ codes, key: codes.join('+'), image, dpi: request.dpi, frame, resolve, reject });
      this.pump();
    });
  }

  /** Resolves once fewer than maxQueue pages wait: a producer awaits this before rendering its next page,
   * so pages are not rendered (and held in memory) faster than they are read. */
  waitForRoom(): Promise<void> {
    if (this.closed || this.queue.length < this.maxQueue) return Promise.resolve();
    return new Promise((resolve) => this.roomWaiters.push(resolve));
  }

  /** Pages waiting for a worker, pages being read, and the languages each worker holds. */
  stats(): { queued: number; busy: number; workers: { langs: string | null; pages: number }[] } {
    return {
      queued: this.queue.length,
      busy: this.slots.filter((s) => s.job).length,
      workers: this.slots.map((s) => ({ langs: s.worker ? (s.key ?? null) : null, pages: s.pages })),
    };
  }

  /** Fails waiting and running pages and ends every worker thread. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const err = new OcrError('The OCR pool was closed.');
    for (const job of this.queue.splice(0)) job.reject(err);
    for (const slot of this.slots) {
      slot.job?.reject(err);
      slot.job = undefined;
    }
    await Promise.all(this.slots.map((s) => this.retire(s)));
    this.wakeWaiters();
  }

  private pump(): void {
    while (!this.closed && this.queue.length > 0) {
      const slot = this.pickSlot(this.queue[0].key);
      if (!slot) return;
      const job = this.queue.shift() as Job;
      slot.job = job;
      this.wakeWaiters();
      void this.run(slot, job);
    }
  }

  /** An idle worker that already holds the languages, else an empty slot, else the idle worker used longest ago. */
  private pickSlot(key: string): Slot | undefined {
    const idle = this.slots.filter((s) => !s.job);
    return idle.find((s) => s.worker && s.key === key) ?? idle.find((s) => !s.worker) ?? idle.sort((a, b) => a.lastUsed - b.lastUsed)[0];
  }

  private wakeWaiters(): void {
    while (this.roomWaiters.length > 0 && (this.closed || this.queue.length < this.maxQueue)) this.roomWaiters.shift()?.();
  }

  private async run(slot: Slot, job: Job): Promise<void> {
    try {
      if (!slot.worker || slot.key !== job.key) {
        await this.retire(slot);
        const started = await this.startWorker(job.codes);
        if (this.closed) {
          await started.worker.terminate();
          return;
        }
        Object.assign(slot, started, { key: job.key });
      }
      const worker = slot.worker as Tesseract.Worker;
      const result = await deadline(
        Promise.race([
          worker.recognize(Buffer.from(job.image.buffer, job.image.byteOffset, job.image.byteLength), { user_defined_dpi: String(Math.round(job.dpi)) } as never, { blocks: true, text: false }),
          slot.lost as Promise<never>,
        ]),
        this.pageTimeoutMs,
        `OCR of one page took longer than ${this.pageTimeoutMs / 1000} s`,
      );
      slot.pages += 1;
      if (slot.job === job) job.resolve(toPageText(result.data.blocks as unknown as TessBlock[], job.frame));
    } catch (err) {
      // The worker's state is unknown after a failure: a fresh one takes the next page.
      await this.retire(slot);
      if (slot.job === job) job.reject(asOcrError(err));
    } finally {
      if (slot.job === job) slot.job = undefined;
      slot.lastUsed = Date.now();
      this.pump();
    }
  }

  private async startWorker(codes: string[]): Promise<{ worker: Tesseract.Worker; lost: Promise<never> }> {
    const { dir, files } = await this.stageModels(codes);
    // tesseract.js reports a failed model load only to errorHandler and never settles createWorker;
    // our worker script ends its thread in that case (tesseractWorker.cjs).
    let setupFailed: (reason: unknown) => void = () => {};
    const failed = new Promise<never>((_, reject) => (setupFailed = reject));
    failed.catch(() => {});
    let ready = false;
    const creating = Tesseract.createWorker(codes, Tesseract.OEM.LSTM_ONLY, {
      workerPath: OCR_WORKER_SCRIPT,
      corePath: CORE_DIR,
      langPath: dir,
      cachePath: dir,
      // The models are already local files: a cache would only copy them again.
      cacheMethod: 'none',
      gzip: false,
      legacyCore: false,
      legacyLang: false,
      workerBlobURL: false,
      logger: () => {},
      errorHandler: (e: unknown) => {
        if (ready) return;
        const hint = /initialization failed/.test(String(e)) ? `: are ${files.join(', ')} tesseract 4 or later (LSTM) models?` : '';
        setupFailed(new OcrError(`Could not start OCR for ${codes.join('+')} (${String(e)})${hint}`));
      },
    });
    let worker: Tesseract.Worker;
    try {
      worker = await deadline(Promise.race([creating, failed]), this.startTimeoutMs, `Starting OCR for ${codes.join('+')} took longer than ${this.startTimeoutMs / 1000} s`);
    } catch (err) {
      // A worker that still comes up after we gave up on it must not live on unused.
      creating.then((late) => late.terminate(), () => {});
      throw err;
    }
    ready = true;
    try {
      // Whole-page layout analysis like the tesseract command line (tesseract.js defaults to one block).
      await worker.setParameters({ tessedit_pageseg_mode: Tesseract.PSM.AUTO });
    } catch (err) {
      await worker.terminate();
      throw err;
    }
    const thread = (worker as unknown as { worker: NodeJS.EventEmitter }).worker;
    const lost = new Promise<never>((_, reject) => thread.once('exit', (code: number) => reject(new OcrError(`The OCR worker ended unexpectedly (exit code ${code}).`))));
    lost.catch(() => {});
    return { worker, lost };
  }

  private async retire(slot: Slot): Promise<void> {
    const worker = slot.worker;
    Object.assign(slot, { worker: undefined, lost: undefined, key: undefined, pages: 0 });
    if (worker) await worker.terminate().catch(() => {});
  }

  /** Puts `<code>.traineddata` for each code, uncompressed, into <dataDir>/cache/ocr-models: tesseract.js reads
   * all models of a worker from one folder, and bundled (gzipped) and user models live in different ones. */
  private async stageModels(codes: string[]): Promise<{ dir: string; files: string[] }> {
    const dir = ocrModelCacheDir(this.dataDir);
    await fs.promises.mkdir(dir, { recursive: true });
    const installed = installedLanguages(this.dataDir);
    const files = codes.map((code) => (installed.get(code) as TraineddataFile).file);
    await Promise.all(codes.map(async (code) => {
      const source = installed.get(code) as TraineddataFile;
      const stat = await fs.promises.stat(source.file);
      // Keyed by the file and its version, so a model replaced in tessdata is picked up by the next worker.
      const key = `${source.file}\n${stat.size}\n${stat.mtimeMs}`;
      let staging = this.staged.get(key);
      if (!staging) {
        staging = stageModel(source, path.join(dir, `${code}.traineddata`), key);
        this.staged.set(key, staging);
        staging.catch(() => this.staged.delete(key));
      }
      await staging;
    }));
    return { dir, files };
  }
}

/** Where the pool keeps its uncompressed copies of the models it reads with. */
export function ocrModelCacheDir(dataDir: string): string {
  return path.join(dataDir, 'cache', 'ocr-models');
}

/** Copies (gunzips) a model to `target` unless the copy there came from the same source version; a
 * `<target>.source` note records that version, written after the model so a crash in between only
 * means one more copy next time. */
async function stageModel(source: TraineddataFile, target: string, key: string): Promise<void> {
  const note = `${target}.source`;
  const current = await fs.promises.readFile(note, 'utf8').catch(() => undefined);
  if (current === key && fs.existsSync(target)) return;
  const raw = await fs.promises.readFile(source.file);
  await writeAtomically(target, source.gzip ? await gunzip(raw) : raw);
  await writeAtomically(note, key);
}

/** Written aside and renamed: a worker starting meanwhile reads either the old file or the new one. */
async function writeAtomically(file: string, data: Uint8Array | string): Promise<void> {
  const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  await fs.promises.writeFile(tmp, data);
  await fs.promises.rename(tmp, file);
}

/** Points per pixel of the image: from its pixel size where the PNG header tells it (the renderer rounds
 * pixel sizes), else from the dpi. An image that is not the page at that dpi is the caller's mistake. */
function pageFrame(image: Uint8Array, r: OcrPageRequest): { sx: number; sy: number; heightPt: number } {
  for (const [name, v] of [['dpi', r.dpi], ['pageWidthPt', r.pageWidthPt], ['pageHeightPt', r.pageHeightPt]] as const) {
    if (!(Number.isFinite(v) && v > 0)) throw new RangeError(`${name} must be a positive number, got ${v}`);
  }
  const size = pngSize(image);
  if (!size) return { sx: 72 / r.dpi, sy: 72 / r.dpi, heightPt: r.pageHeightPt };
  const expected = [(r.pageWidthPt * r.dpi) / 72, (r.pageHeightPt * r.dpi) / 72];
  const actual = [size.width, size.height];
  if (expected.some((e, i) => Math.abs(actual[i] - e) > Math.max(2, e * 0.01))) {
    throw new RangeError(`The image is ${size.width}x${size.height} px, but a ${r.pageWidthPt}x${r.pageHeightPt} pt page at ${r.dpi} dpi is ${Math.round(expected[0])}x${Math.round(expected[1])} px`);
  }
  return { sx: r.pageWidthPt / size.width, sy: r.pageHeightPt / size.height, heightPt: r.pageHeightPt };
}

function deadline<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new OcrError(`${message}.`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function asOcrError(err: unknown): OcrError {
  if (err instanceof OcrError) return err;
  return new OcrError(`OCR failed: ${err instanceof Error ? err.message : String(err)}`);
}
