// The Paddle reader's worker thread: ONNX Runtime's run() holds the thread it is called on for the whole
// inference (hundreds of milliseconds a page), and so do the detector's post-processing and the line
// cropping, so all of it runs here and the main thread's event loop stays free. One reader (one session of
// each model, one thread apiece) per worker; the pool's slots each hold one worker.
import { parentPort, workerData } from 'node:worker_threads';
import sharp from 'sharp';
import { lowerThisWorkerThread } from '../../backgroundPriority.ts';
import { buildStrip, linesToBlocks, type StripRow } from './blocks.ts';
import { decodeRgb } from './raster.ts';
import { PaddleReader, type ReaderOptions } from './reader.ts';
import type { TessBlock } from '../ocrText.ts';

export type PaddleRequest =
  | { id: number; type: 'read'; png: Uint8Array }
  | { id: number; type: 'orient'; png: Uint8Array }
  | { id: number; type: 'strip'; png: Uint8Array; rowHeight: number };

export interface StripResult {
  png: Uint8Array;
  rows: StripRow[];
  scale: number;
}

export type PaddleReply =
  | { id: number; ok: true; result: TessBlock[] | { turn: 0 | 90 | 180 | 270; confidence: number } | StripResult | undefined }
  | { id: number; ok: false; message: string }
  | { id: 0; ready: true }
  | { id: 0; failed: string };

export interface PaddleWorkerData {
  role: 'folio-paddle';
  options: Partial<ReaderOptions>;
}

const port = parentPort!;
const data = workerData as PaddleWorkerData;
lowerThisWorkerThread();

async function handle(reader: PaddleReader, req: PaddleRequest): Promise<PaddleReply> {
  const img = await decodeRgb(req.png);
  if (req.type === 'read') return { id: req.id, ok: true, result: linesToBlocks(await reader.readPage(img)) };
  if (req.type === 'orient') return { id: req.id, ok: true, result: await reader.orientation(img) };
  const strip = buildStrip(img, await reader.detect(img), req.rowHeight);
  const png = await sharp(strip.gray, { raw: { width: strip.width, height: strip.height, channels: 1 } }).png({ compressionLevel: 1 }).toBuffer();
  return { id: req.id, ok: true, result: { png: new Uint8Array(png.buffer, png.byteOffset, png.byteLength), rows: strip.rows, scale: strip.scale } };
}

if (data?.role === 'folio-paddle') {
  try {
    const reader = await PaddleReader.open(data.options);
    // One request at a time, in order: the reader's sessions are single-threaded anyway.
    let queue = Promise.resolve();
    port.on('message', (req: PaddleRequest) => {
      queue = queue.then(async () => {
        try {
          port.postMessage(await handle(reader, req));
        } catch (err) {
          port.postMessage({ id: req.id, ok: false, message: err instanceof Error ? err.message : String(err) } satisfies PaddleReply);
        }
      });
    });
    port.postMessage({ id: 0, ready: true } satisfies PaddleReply);
  } catch (err) {
    port.postMessage({ id: 0, failed: err instanceof Error ? err.message : String(err) } satisfies PaddleReply);
  }
}
