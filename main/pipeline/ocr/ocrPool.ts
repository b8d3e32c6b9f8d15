// Offline OCR of page images: a fixed number of slots, each holding an engine session (tesseract.js's
// worker thread, the native program, PP-OCRv4's thread) created on first use for a language combination
// and reused. With a photo engine beside the main one (FOLIO_OCR_ENGINE=auto), a slot opens a session of
// each as pages need them, and routing.ts tells which reads a page. Every page's characters, words and
// lines come back in PDF points, origin bottom left, with the engine that read them.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { ConfigError } from '../../config.ts';
import { installedLanguages, resolveLanguages, type TraineddataFile } from '../languages.ts';
import { selectEngine, selectPhotoEngine, type OcrEngine, type OcrSession, type OsdResult } from './engine.ts';
import { OcrError, deadline } from './errors.ts';
import { pngSize, type OcrPageText } from './ocrText.ts';
import { DEFAULT_PREPROCESS, type PreprocessOptions } from './preprocess.ts';
import { readPage } from './readPage.ts';
import { looksPhotographed, type PageSource } from './routing.ts';

export type { OcrChar, OcrLine, OcrPageText, OcrWord } from './ocrText.ts';
export { OcrError } from './errors.ts';
export { OCR_WORKER_SCRIPT } from './wasmEngine.ts';

/** A page's text (upright page, PDF points) and how it was read. */
export interface OcrPageResult extends OcrPageText {
  /** The engine that read it ("wasm", "native") and its program and version. */
  engine: string;
  engineVersion: string;
  /** Clockwise turn (0, 90, 180, 270) applied to read the page upright: the text is in the points of the
   * turned page (width and height swapped for 90 and 270). */
  rotation: 0 | 90 | 180 | 270;
  /** What orientation detection said, when it ran and could tell. */
  osd?: OsdResult;
}

export interface OcrPageRequest {
  /** Spec 2.16 names or tesseract codes ("German", "deu", ["eng", "deu"], "eng+deu"). */
  langs: string | readonly string[];
  /** Resolution the page was rendered at. */
  dpi: number;
  /** Size of the page as rendered (after its rotation), in points. */
  pageWidthPt: number;
  pageHeightPt: number;
  /** Detect the orientation and turn the page upright (default: the pool's setting, on). Off for images
   * whose orientation is known. */
  orientation?: boolean;
  /** The page is a whole uploaded image, not a page of a PDF: it may be a photograph (routing.ts). */
  source?: PageSource;
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
  /** The engine (default: FOLIO_OCR_ENGINE through selectEngine()). */
  engine?: OcrEngine;
  /** The engine photographed images are read with (routing.ts); default selectPhotoEngine() when `engine` is
   * not given either, else none: every page is read by `engine`. */
  photoEngine?: OcrEngine;
  /** Preprocessing steps (default DEFAULT_PREPROCESS); the benchmark switches them one by one. */
  preprocess?: Partial<PreprocessOptions>;
}

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
const gunzip = promisify(zlib.gunzip);
/** Tesseract's orientation model, staged beside the language models for both engines. */
const OSD_MODEL: TraineddataFile = {
  code: 'osd',
  file: path.join(path.dirname(require.resolve('@tesseract.js-data/osd/package.json')), '4.0.0', 'osd.traineddata.gz'),
  gzip: true,
  source: 'bundled',
};

interface Job {
  codes: string[];
  key: string;
  image: Uint8Array;
  dpi: number;
  widthPt: number;
  heightPt: number;
  orientation: boolean;
  source?: PageSource;
  resolve: (text: OcrPageResult) => void;
  reject: (err: unknown) => void;
}

interface Slot {
  /** A session of each engine this slot has needed, for the languages of `key`. */
  sessions: Map<OcrEngine, OcrSession>;
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
  readonly engine: OcrEngine;
  readonly photoEngine: OcrEngine | undefined;
  readonly preprocess: Readonly<PreprocessOptions>;

  constructor(options: OcrPoolOptions) {
    this.dataDir = options.dataDir;
    this.size = options.size ?? defaultOcrWorkerCount();
    if (!Number.isInteger(this.size) || this.size < 1) throw new RangeError(`OCR pool size must be a whole number of at least 1, got ${this.size}`);
    this.maxQueue = options.maxQueue ?? 2 * this.size;
    this.pageTimeoutMs = options.pageTimeoutMs ?? 5 * 60_000;
    this.startTimeoutMs = options.startTimeoutMs ?? 2 * 60_000;
    this.slots = Array.from({ length: this.size }, () => ({ sessions: new Map(), lastUsed: 0, pages: 0 }));
    this.engine = options.engine ?? selectEngine();
    this.photoEngine = options.photoEngine ?? (options.engine ? undefined : selectPhotoEngine());
    this.preprocess = Object.freeze({ ...DEFAULT_PREPROCESS, ...options.preprocess });
  }

  /** The engine this pool reads pages with and its version ("native", "tesseract 5.3.0"); photographed
   * images may be read by `photoEngine`, and each page's result names the engine that read it. */
  async engineInfo(): Promise<{ engine: string; version: string }> {
    return { engine: this.engine.name, version: await this.engine.version() };
  }

  /** Reads one page image (PNG, grayscale is fastest). Rejects with a ValidationError for languages that
   * are unknown or not installed, a RangeError for an image that does not match the page size, an OcrError
   * when the engine fails. Pages are taken in the order they come. */
  async recognize(image: Uint8Array, request: OcrPageRequest): Promise<OcrPageResult> {
    if (this.closed) throw new OcrError('The OCR pool is closed.');
    const codes = resolveLanguages(request.langs, this.dataDir, 'langs');
    checkFrame(image, request);
    const orientation = request.orientation ?? this.preprocess.orientation;
    return new Promise<OcrPageResult>((resolve, reject) => {
      this.queue.push({ codes, key: codes.join('+'), image, dpi: request.dpi, widthPt: request.pageWidthPt, heightPt: request.pageHeightPt, orientation, source: request.source, resolve, reject });
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
      workers: this.slots.map((s) => ({ langs: s.sessions.size ? (s.key ?? null) : null, pages: s.pages })),
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
    return idle.find((s) => s.sessions.size && s.key === key) ?? idle.find((s) => !s.sessions.size) ?? idle.sort((a, b) => a.lastUsed - b.lastUsed)[0];
  }

  private wakeWaiters(): void {
    while (this.roomWaiters.length > 0 && (this.closed || this.queue.length < this.maxQueue)) this.roomWaiters.shift()?.();
  }

  private async run(slot: Slot, job: Job): Promise<void> {
    try {
      if (slot.key !== job.key) {
        await this.retire(slot);
        slot.key = job.key;
      }
      // Photographed images to the photo engine, everything else to the main one.
      const engine = this.photoEngine && (await looksPhotographed(job.image, job.source)) ? this.photoEngine : this.engine;
      let session = slot.sessions.get(engine);
      if (!session) {
        const { dir } = await this.stageModels(job.codes);
        session = await engine.open(job.codes, dir, { startTimeoutMs: this.startTimeoutMs });
        if (this.closed) {
          await session.close();
          return;
        }
        slot.sessions.set(engine, session);
      }
      const reading = await deadline(
        Promise.race([
          readPage(session, { png: job.image, dpi: job.dpi, widthPt: job.widthPt, heightPt: job.heightPt }, { ...this.preprocess, orientation: job.orientation }),
          session.lost,
        ]),
        this.pageTimeoutMs,
        `OCR of one page took longer than ${this.pageTimeoutMs / 1000} s`,
      );
      slot.pages += 1;
      if (slot.job === job) {
        job.resolve({ ...reading.text, engine: engine.name, engineVersion: await engine.version(), rotation: reading.rotation, ...(reading.osd ? { osd: reading.osd } : {}) });
      }
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

  private async retire(slot: Slot): Promise<void> {
    const sessions = [...slot.sessions.values()];
    slot.sessions.clear();
    Object.assign(slot, { key: undefined, pages: 0 });
    await Promise.all(sessions.map((s) => s.close().catch(() => {})));
  }

  /** Puts `<code>.traineddata` for each code, uncompressed, into <dataDir>/cache/ocr-models: tesseract.js reads
   * all models of a worker from one folder, and bundled (gzipped) and user models live in different ones. */
  private async stageModels(codes: string[]): Promise<{ dir: string; files: string[] }> {
    const dir = ocrModelCacheDir(this.dataDir);
    await fs.promises.mkdir(dir, { recursive: true });
    const installed = installedLanguages(this.dataDir);
    const files = codes.map((code) => (installed.get(code) as TraineddataFile).file);
    const sources = [...codes.map((code) => installed.get(code) as TraineddataFile), OSD_MODEL];
    await Promise.all(sources.map(async (source) => {
      const code = source.code;
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

/** An image that is not the page at that dpi is the caller's mistake (the renderer rounds pixel sizes;
 * points per pixel come from the image's own size where the PNG header tells it). */
function checkFrame(image: Uint8Array, r: OcrPageRequest): void {
  for (const [name, v] of [['dpi', r.dpi], ['pageWidthPt', r.pageWidthPt], ['pageHeightPt', r.pageHeightPt]] as const) {
    if (!(Number.isFinite(v) && v > 0)) throw new RangeError(`${name} must be a positive number, got ${v}`);
  }
  const size = pngSize(image);
  if (!size) return;
  const expected = [(r.pageWidthPt * r.dpi) / 72, (r.pageHeightPt * r.dpi) / 72];
  const actual = [size.width, size.height];
  if (expected.some((e, i) => Math.abs(actual[i] - e) > Math.max(2, e * 0.01))) {
    throw new RangeError(`The image is ${size.width}x${size.height} px, but a ${r.pageWidthPt}x${r.pageHeightPt} pt page at ${r.dpi} dpi is ${Math.round(expected[0])}x${Math.round(expected[1])} px`);
  }
}

function asOcrError(err: unknown): OcrError {
  if (err instanceof OcrError) return err;
  return new OcrError(`OCR failed: ${err instanceof Error ? err.message : String(err)}`);
}
