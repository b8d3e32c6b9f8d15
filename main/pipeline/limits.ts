// How large an upload may be beyond its byte size (multer enforces that): pages and image pixels.
// Read from the environment; call pipelineLimits() at start-up to fail early on a bad value.
import { ConfigError } from '../config.ts';
import { LimitError } from './errors.ts';

export interface PipelineLimits {
  /** Most pages of one PDF or multi-page TIFF (FOLIO_MAX_PAGES). */
  maxPages: number;
  /** Most pixels of one image page (FOLIO_MAX_IMAGE_PIXELS): bounds the memory a decode takes. */
  maxImagePixels: number;
  /** Most bytes one compressed stream of a PDF may inflate to (FOLIO_MAX_STREAM_MB): bounds what a
   * decompression bomb costs. The default holds an image of FOLIO_MAX_IMAGE_PIXELS in CMYK. */
  maxStreamBytes: number;
}

export const DEFAULT_LIMITS: PipelineLimits = { maxPages: 1000, maxImagePixels: 100_000_000, maxStreamBytes: 512 * 2 ** 20 };

function positiveInt(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < 1) throw new ConfigError(`${name} must be a positive whole number, got "${raw}"`);
  return Number(raw);
}

export function pipelineLimits(env: NodeJS.ProcessEnv = process.env): PipelineLimits {
  return {
    maxPages: positiveInt(env, 'FOLIO_MAX_PAGES', DEFAULT_LIMITS.maxPages),
    maxImagePixels: positiveInt(env, 'FOLIO_MAX_IMAGE_PIXELS', DEFAULT_LIMITS.maxImagePixels),
    maxStreamBytes: positiveInt(env, 'FOLIO_MAX_STREAM_MB', DEFAULT_LIMITS.maxStreamBytes / 2 ** 20) * 2 ** 20,
  };
}

/** A pixel count as people read it: "1600 Mpx", or "2500 pixels" for small ones. */
export const megapixels = (px: number) => (px >= 100_000 ? `${+(px / 1e6).toFixed(1)} Mpx` : `${px} pixels`);

/** The one page-count rule for PDFs and multi-page images. */
export function checkPageCount(pages: number, maxPages: number): void {
  if (pages > maxPages) {
    throw new LimitError('pages', `The file has ${pages} pages; this installation accepts at most ${maxPages} (FOLIO_MAX_PAGES).`);
  }
}
