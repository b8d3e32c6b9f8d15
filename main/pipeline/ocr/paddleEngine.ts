// The photo readers: PaddleOCR's PP-OCRv4 models in ONNX Runtime (paddle/), made for photographed text.
// - `paddle`: its detector finds the lines, its recognizer reads them; word breaks, which the recognizer
//   mostly leaves out between English words, come back from the characters' positions and the ink.
// - `hybrid`: its detector finds the lines, tesseract (the native program, else tesseract.js) reads them,
//   cut out and stacked into one strip image: tesseract's spaces and languages, Paddle's line finding.
// Both tell a page's orientation with Paddle's detector (lines across or down the page) and direction
// classifier (upright or upside down). The models run in a worker thread per pool slot (paddle/paddle.worker.ts).
import { Worker } from 'node:worker_threads';
import { workerEntry } from '../../paths.ts';
import { OcrError, deadline } from './errors.ts';
import type { OcrEngine, OcrSession, OsdResult, RecognizeOptions } from './engineTypes.ts';
import type { TessBlock } from './ocrText.ts';
import { mapStrip } from './paddle/blocks.ts';
import { PADDLE_VERSION } from './paddle/models.ts';
import type { ReaderOptions } from './paddle/reader.ts';
import type { PaddleReply, PaddleRequest, PaddleWorkerData, StripResult } from './paddle/paddle.worker.ts';

const WORKER_URL = workerEntry('paddleWorker');
/** Height of a line in the hybrid engine's strip: about 30 px letters, where tesseract's LSTM reads best. */
export const HYBRID_ROW_HEIGHT = 56;

type Body<T extends PaddleRequest['type']> = Omit<Extract<PaddleRequest, { type: T }>, 'id'>;

/** One worker thread holding one Paddle reader; requests answered in order, each by id. */
class PaddleThread {
  private readonly thread: Worker;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private nextId = 1;
  readonly ready: Promise<void>;
  readonly lost: Promise<never>;

  constructor(options: Partial<ReaderOptions>) {
    this.thread = new Worker(WORKER_URL, { workerData: { role: 'folio-paddle', options } satisfies PaddleWorkerData });
    let ready: () => void = () => {};
    let failed: (e: Error) => void = () => {};
    this.ready = new Promise<void>((resolve, reject) => ((ready = resolve), (failed = reject)));
    let lose: (e: Error) => void = () => {};
    this.lost = new Promise<never>((_, reject) => (lose = reject));
    this.lost.catch(() => {});
    this.ready.catch(() => {});
    const fail = (err: Error) => {
      failed(err);
      lose(err);
      for (const p of this.pending.values()) p.reject(err);
      this.pending.clear();
    };
    this.thread.on('message', (reply: PaddleReply) => {
      if ('ready' in reply) return ready();
      if ('failed' in reply) return fail(new OcrError(`Could not start the PaddleOCR models: ${reply.failed}`));
      const waiter = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      if (reply.ok) waiter?.resolve(reply.result);
      else waiter?.reject(new OcrError(`PaddleOCR failed: ${reply.message}`));
    });
    this.thread.on('error', (err) => fail(new OcrError(`The PaddleOCR worker failed: ${err.message}`)));
    this.thread.on('exit', (code) => fail(new OcrError(`The PaddleOCR worker ended unexpectedly (exit code ${code}).`)));
  }

  request<T extends PaddleRequest['type']>(body: Body<T>): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      // A copy the worker can own: the caller keeps its page image.
      const png = new Uint8Array(body.png);
      this.thread.postMessage({ ...body, png, id }, [png.buffer]);
    });
  }

  async close(): Promise<void> {
    await this.thread.terminate();
  }
}

async function startThread(options: Partial<ReaderOptions>, startTimeoutMs: number): Promise<PaddleThread> {
  const thread = new PaddleThread(options);
  try {
    await deadline(thread.ready, startTimeoutMs, `Starting the PaddleOCR models took longer than ${startTimeoutMs / 1000} s`);
  } catch (err) {
    await thread.close();
    throw err;
  }
  return thread;
}

const orientation = (thread: PaddleThread) => async (png: Uint8Array): Promise<OsdResult | undefined> => (await thread.request<'orient'>({ type: 'orient', png })) as OsdResult | undefined;

/** FOLIO_OCR_ENGINE=paddle. Reads every language's pages with its Chinese-and-English models. */
export function paddleEngine(options: Partial<ReaderOptions> = {}): OcrEngine {
  return {
    name: 'paddle',
    version: async () => PADDLE_VERSION,
    open: async (_codes, _modelDir, { startTimeoutMs }) => {
      const thread = await startThread(options, startTimeoutMs);
      const session: OcrSession = {
        lost: thread.lost,
        recognize: async (png: Uint8Array) => (await thread.request<'read'>({ type: 'read', png })) as TessBlock[],
        detectOrientation: orientation(thread),
        close: () => thread.close(),
      };
      return session;
    },
  };
}

/** FOLIO_OCR_ENGINE=hybrid: Paddle's line detection, `reader` (a tesseract engine) reading the lines. */
export function hybridEngine(reader: OcrEngine, options: Partial<ReaderOptions> & { rowHeight?: number } = {}): OcrEngine {
  const rowHeight = options.rowHeight ?? HYBRID_ROW_HEIGHT;
  return {
    name: 'hybrid',
    version: async () => `${PADDLE_VERSION} detection, ${await reader.version()} reading`,
    open: async (codes, modelDir, openOptions) => {
      const thread = await startThread(options, openOptions.startTimeoutMs);
      let lines: OcrSession;
      try {
        lines = await reader.open(codes, modelDir, openOptions);
      } catch (err) {
        await thread.close();
        throw err;
      }
      const session: OcrSession = {
        lost: Promise.race([thread.lost, lines.lost]),
        recognize: async (png: Uint8Array, recognizeOptions: RecognizeOptions) => {
          const strip = (await thread.request<'strip'>({ type: 'strip', png, rowHeight })) as StripResult;
          if (strip.rows.length === 0) return [];
          // One uniform block: the strip is lines on white, one under the other.
          const blocks = await lines.recognize(strip.png, { dpi: Math.max(70, recognizeOptions.dpi * strip.scale), psm: 6 });
          return mapStrip(blocks, strip.rows);
        },
        detectOrientation: orientation(thread),
        close: async () => {
          await Promise.all([thread.close(), lines.close()]);
        },
      };
      return session;
    },
  };
}
