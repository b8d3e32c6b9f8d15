// What an OCR engine is: the interface each engine implements (wasmEngine.ts, nativeEngine.ts,
// paddleEngine.ts) and the pool (ocrPool.ts) uses. A file of its own because engine.ts, which chooses among
// the engines, imports them all: the engines import this file and need nothing of engine.ts.
import type { TessBlock } from './ocrText.ts';

/** What tesseract's orientation detection (OSD) says. Confidence is tesseract's: 0 is a guess, clean
 * printed pages get 10 and more. */
export interface OsdResult {
  /** Clockwise turn that makes the page upright: 0, 90, 180 or 270. */
  turn: 0 | 90 | 180 | 270;
  confidence: number;
}

export interface RecognizeOptions {
  /** Resolution of the image, for tesseract's size-dependent heuristics. */
  dpi: number;
  /** Tesseract page segmentation mode (3: automatic layout, 6: one block, 11: sparse text...). */
  psm: number;
}

/** One engine ready to read one language combination; the pool keeps one per slot and reuses it. */
export interface OcrSession {
  recognize(png: Uint8Array, options: RecognizeOptions): Promise<TessBlock[]>;
  /** Undefined when there is too little text to tell. */
  detectOrientation(png: Uint8Array, dpi: number): Promise<OsdResult | undefined>;
  /** Rejects when the session's thread or process is lost for good. */
  readonly lost: Promise<never>;
  close(): Promise<void>;
}

export interface OcrEngine {
  /** `wasm`, `native`... as FOLIO_OCR_ENGINE names them. */
  readonly name: string;
  /** The engine's program and version, e.g. "tesseract 5.3.0", "tesseract.js 7.0.0 (tesseract 5.5.0)". */
  version(): Promise<string>;
  /** `modelDir` holds `<code>.traineddata` for each code and `osd.traineddata`, uncompressed. */
  open(codes: string[], modelDir: string, options: { startTimeoutMs: number }): Promise<OcrSession>;
}
