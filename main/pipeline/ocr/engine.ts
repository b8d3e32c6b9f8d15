// The OCR engines behind one interface. An engine reads a page image into tesseract's result tree
// (blocks > paragraphs > lines > words > symbols, pixels of that image) and detects a page's orientation;
// the pool does everything else (preprocessing, turning, geometry) the same way for every engine, so two
// engines given the same image give the same kind of page text. Another engine is one more file that
// implements OcrEngine (engineTypes.ts) and one more case in selectEngine and knownEngines below.
import { ConfigError } from '../../config.ts';
import type { OcrEngine } from './engineTypes.ts';
import { nativeEngine, findNativeTesseract } from './nativeEngine.ts';
import { hybridEngine, paddleEngine } from './paddleEngine.ts';
import { paddleMissing } from './paddle/models.ts';
import { wasmEngine } from './wasmEngine.ts';

// The interface lives in engineTypes.ts (the engines import it); those who choose an engine find it here too.
export type { OcrEngine, OcrSession, OsdResult, RecognizeOptions } from './engineTypes.ts';

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

/** The engine that reads photographed images (routing.ts) beside selectEngine's: PP-OCRv4 when the setting
 * is auto and this machine can run it; with any other setting one engine reads every page. */
export function selectPhotoEngine(env: NodeJS.ProcessEnv = process.env): OcrEngine | undefined {
  return engineSetting(env) === 'auto' && !paddleMissing() ? paddleEngine() : undefined;
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
