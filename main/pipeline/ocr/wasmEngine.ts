// The embedded engine: tesseract.js (tesseract compiled to WebAssembly) in worker threads. Works on every
// machine Folio runs on, offline: models come from a local folder and the worker cannot fetch.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Tesseract from 'tesseract.js';
import { OcrError, deadline } from './errors.ts';
import type { OcrEngine, OcrSession, OsdResult, RecognizeOptions } from './engineTypes.ts';
import type { TessBlock } from './ocrText.ts';

const require = createRequire(import.meta.url);
/** Our worker-thread entry (offline, no hangs) around tesseract.js's Node worker script. */
export const OCR_WORKER_SCRIPT = fileURLToPath(new URL('./tesseractWorker.cjs', import.meta.url));
/** tesseract.js in Node loads its engine with require('tesseract.js-core/...'); set anyway, so that no
 * option names anything but a local folder. */
const CORE_DIR = path.dirname(require.resolve('tesseract.js-core/package.json'));
const VERSION = `tesseract.js ${(require('tesseract.js/package.json') as { version: string }).version}`;

export function wasmEngine(): OcrEngine {
  return {
    name: 'wasm',
    version: async () => VERSION,
    open: async (codes, modelDir, { startTimeoutMs }) => {
      const { worker, lost } = await startWorker(codes, modelDir, false, startTimeoutMs);
      // The orientation model needs tesseract's legacy engine, a separate build: its own worker, started
      // on the first page that asks (≈ 50 ms a page once running).
      let osd: Promise<Tesseract.Worker> | undefined;
      const session: OcrSession = {
        lost,
        recognize: async (png: Uint8Array, options: RecognizeOptions): Promise<TessBlock[]> => {
          const result = await worker.recognize(
            Buffer.from(png.buffer, png.byteOffset, png.byteLength),
            { user_defined_dpi: String(Math.round(options.dpi)), tessedit_pageseg_mode: String(options.psm) } as never,
            { blocks: true, text: false },
          );
          return (result.data.blocks ?? []) as unknown as TessBlock[];
        },
        detectOrientation: async (png: Uint8Array): Promise<OsdResult | undefined> => {
          osd ??= startWorker(['osd'], modelDir, true, startTimeoutMs).then((s) => s.worker);
          osd.catch(() => (osd = undefined));
          try {
            const { data } = await (await osd).detect(Buffer.from(png.buffer, png.byteOffset, png.byteLength));
            if (data.orientation_degrees === null || data.orientation_confidence === null) return undefined;
            return { turn: turnFromOrientation(data.orientation_degrees), confidence: data.orientation_confidence };
          } catch (err) {
            // "Too few characters" and the like: no opinion, not a failure of the page.
            if (/few characters|detection failed/i.test(String((err as Error)?.message ?? err))) return undefined;
            throw err;
          }
        },
        close: async () => {
          const o = osd;
          osd = undefined;
          await Promise.all([worker.terminate().catch(() => {}), o?.then((w) => w.terminate()).catch(() => {})]);
        },
      };
      return session;
    },
  };
}

/** tesseract.js's orientation_degrees, measured on a page drawn upright and turned: a page turned 90°
 * clockwise reports 270, which is the clockwise turn that makes it upright again (the tesseract program
 * prints the same number as "Rotate"). */
export function turnFromOrientation(degrees: number): 0 | 90 | 180 | 270 {
  const d = (((Math.round(degrees / 90) * 90) % 360) + 360) % 360;
  return d as 0 | 90 | 180 | 270;
}

async function startWorker(codes: string[], dir: string, legacy: boolean, startTimeoutMs: number): Promise<{ worker: Tesseract.Worker; lost: Promise<never> }> {
  // tesseract.js reports a failed model load only to errorHandler and never settles createWorker;
  // our worker script ends its thread in that case (tesseractWorker.cjs).
  let setupFailed: (reason: unknown) => void = () => {};
  const failed = new Promise<never>((_, reject) => (setupFailed = reject));
  failed.catch(() => {});
  let ready = false;
  const creating = Tesseract.createWorker(codes, legacy ? Tesseract.OEM.TESSERACT_ONLY : Tesseract.OEM.LSTM_ONLY, {
    workerPath: OCR_WORKER_SCRIPT,
    corePath: CORE_DIR,
    langPath: dir,
    cachePath: dir,
    // The models are already local files: a cache would only copy them again.
    cacheMethod: 'none',
    gzip: false,
    legacyCore: legacy,
    legacyLang: legacy,
    workerBlobURL: false,
    logger: () => {},
    errorHandler: (e: unknown) => {
      if (ready) return;
      const hint = /initialization failed/.test(String(e)) ? `: are ${codes.map((c) => `${c}.traineddata`).join(', ')} tesseract 4 or later (LSTM) models?` : '';
      setupFailed(new OcrError(`Could not start OCR for ${codes.join('+')} (${String(e)})${hint}`));
    },
  });
  let worker: Tesseract.Worker;
  try {
    worker = await deadline(Promise.race([creating, failed]), startTimeoutMs, `Starting OCR for ${codes.join('+')} took longer than ${startTimeoutMs / 1000} s`);
  } catch (err) {
    // A worker that still comes up after we gave up on it must not live on unused.
    creating.then((late) => late.terminate(), () => {});
    throw err;
  }
  ready = true;
  try {
    // Whole-page layout analysis like the tesseract command line (tesseract.js defaults to one block).
    if (!legacy) await worker.setParameters({ tessedit_pageseg_mode: Tesseract.PSM.AUTO });
  } catch (err) {
    await worker.terminate();
    throw err;
  }
  const thread = (worker as unknown as { worker: NodeJS.EventEmitter }).worker;
  const lost = new Promise<never>((_, reject) => thread.once('exit', (code: number) => reject(new OcrError(`The OCR worker ended unexpectedly (exit code ${code}).`))));
  lost.catch(() => {});
  return { worker, lost };
}
