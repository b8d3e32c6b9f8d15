// Which engine reads a page when FOLIO_OCR_ENGINE=auto has a photo reader (PP-OCRv4, paddleEngine.ts) beside
// tesseract: photographed images go to the photo reader, which reads them better (key values on the
// receipts of bench:ocr-quality), scans and born-digital pages to tesseract, which reads clean print as well
// and several times faster. Decided from what the upload and the page measure, never from a file name.
import { decodeGray, paperSpread } from './preprocess.ts';

/** What the pipeline knows of a page's source: a whole uploaded image (not a page of a PDF), by the format
 * its bytes have (sniffed, not its name). */
export interface PageSource {
  image: 'jpeg' | 'png';
}

/** Paper whose brightness spreads over this many levels (paperSpread) is unevenly lit: a photograph, shadows. */
export const UNEVEN_PAPER = 20;

/**
 * Whether a page looks photographed: it is an uploaded image (a PDF page, which scanners and programs
 * write, never is) and either a JPEG, what cameras and phone scanners write, or unevenly lit paper in any
 * other format. A clean PNG (a screenshot, a generated page) stays with tesseract.
 */
export async function looksPhotographed(png: Uint8Array, source: PageSource | undefined): Promise<boolean> {
  if (!source) return false;
  if (source.image === 'jpeg') return true;
  return paperSpread(await decodeGray(png)) >= UNEVEN_PAPER;
}
