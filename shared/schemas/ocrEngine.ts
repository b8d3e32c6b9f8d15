// The OCR engine in use and the engines this machine has (README, Processing).
import { z } from 'zod';

export const OcrEngineStatus = z.object({
  name: z.string().describe('as FOLIO_OCR_ENGINE names it: "wasm", "native"...'),
  available: z.boolean().describe('this machine can run it'),
  version: z.string().nullable().describe('its program and version, e.g. "tesseract 5.3.0"; null when not available'),
  reason: z.string().nullable().describe('why it is not available'),
});

export const OcrEngineInfo = z.object({
  setting: z.string().describe('FOLIO_OCR_ENGINE: auto (the default), or the engine it forces'),
  engine: z.string().describe('the engine that reads pages now'),
  version: z.string(),
  engines: z.array(OcrEngineStatus),
});
export type OcrEngineInfo = z.infer<typeof OcrEngineInfo>;
