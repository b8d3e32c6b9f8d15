// The OCR engines behind one interface. An engine reads a page image into tesseract's result tree
// (blocks > paragraphs > lines > words > symbols, pixels of that image) and detects a page's orientation;
// the pool does everything else (preprocessing, turning, geometry) the same way for every engine, so two
// engines given the same image give the same kind of page text. Another engine is one more file that
// implements OcrEngine and one more entry in ENGINES.
import { ConfigError } from '../../config.ts';
import type { TessBlock } from './ocrText.ts';
import { nativeEngine, findNativeTesseract } from './nativeEngine.ts';
import { hybridEngine, paddleEngine } from './paddleEngine.ts';
import { paddleMissing } from './paddle/models.ts';
import { wasmEngine } from './wasmEngine.ts';

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

export type EngineSetting = 'auto' | 'wasm' | 'native' | 'paddle' | 'hybrid';
const SETTINGS: readonly EngineSetting[] = ['auto', 'wasm', 'native', 'paddle', 'hybrid'];

/** FOLIO_OCR_ENGINE: auto (the default), wasm, native, paddle (PP-OCRv4, paddleEngine.ts) or hybrid
 * (PP-OCRv4's line detection, tesseract reading the lines). */
export function engineSetting(env: NodeJS.ProcessEnv = process.env): EngineSetting {
  const raw = (env.FOLIO_OCR_ENGINE ?? '').trim().toLowerCase();
  if (raw === '') return 'auto';
  if ((SETTINGS as string[]).includes(raw)) return raw as EngineSetting;
  throw new ConfigError(`FOLIO_OCR_ENGINE must be auto, wasm, native, paddle or hybrid, got "${env.FOLIO_OCR_ENGINE}"`);
}

/** The engine a setting picks: native when asked for (a ConfigError when the program is missing), auto
 * takes native when a working `tesseract` 4 or later is found (FOLIO_TESSERACT or PATH), else wasm, which
 * works everywhere. The models come from Folio's own staged copies either way, so both read alike. */
export function selectEngine(env: NodeJS.ProcessEnv = process.env): OcrEngine {
  const setting = engineSetting(env);
  if (setting === 'wasm') return wasmEngine();
  const program = findNativeTesseract(env);
  if (setting === 'paddle' || setting === 'hybrid') {
    const missing = paddleMissing();
    if (missing) throw new ConfigError(`FOLIO_OCR_ENGINE=${setting} cannot run here: ${missing}`);
    // The hybrid's line reader: the native program when there is one, like auto.
    return setting === 'paddle' ? paddleEngine() : hybridEngine(program ? nativeEngine(program) : wasmEngine());
  }
  if (program) return nativeEngine(program);
  if (setting === 'native') {
    throw new ConfigError(`FOLIO_OCR_ENGINE=native needs the tesseract program (4 or later): install tesseract-ocr or set FOLIO_TESSERACT to it${env.FOLIO_TESSERACT ? ` (FOLIO_TESSERACT=${env.FOLIO_TESSERACT} does not run)` : ''}`);
  }
  return wasmEngine();
}

/** Every engine Folio has, each with the engine when this machine can run it, or why not. The setting
 * picks one of these (selectEngine); the benchmark reads with each. */
export function knownEngines(env: NodeJS.ProcessEnv = process.env): { name: string; engine?: OcrEngine; missing?: string }[] {
  const program = findNativeTesseract(env);
  return [
    { name: 'wasm', engine: wasmEngine() },
    program ? { name: 'native', engine: nativeEngine(program) } : { name: 'native', missing: 'the tesseract program (4 or later) is not installed (tesseract-ocr, or FOLIO_TESSERACT)' },
    ...(['paddle', 'hybrid'] as const).map((name) => {
      const missing = paddleMissing();
      if (missing) return { name, missing };
      return { name, engine: name === 'paddle' ? paddleEngine() : hybridEngine(program ? nativeEngine(program) : wasmEngine()) };
    }),
  ];
}
