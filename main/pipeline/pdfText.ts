// The text layer of a PDF's pages, every glyph with its exact box (pdfTextGeometry.ts), read in the PDF
// worker threads: pdf.js takes about 10 ms a page, which a long document must not take from the main
// thread and the API answers waiting on it.
import { eachPage } from './pdfWorkerPool.ts';

/** One glyph (or one character of a multi-character glyph) in PDF points, origin bottom left. */
export interface PdfChar {
  text: string;
  x0: number;
  x1: number;
  y0: number;
  y1: number;
  /** Writing direction in degrees, counter-clockwise, in page space: 0 = left to right, 180 = upside down. */
  dir: number;
  /** Where the glyph's baseline (without text rise) crosses the page, measured across the writing axis
   * (for dir 0 and 180 it is the baseline's y). Glyphs on one printed line share it exactly. */
  baseline: number;
}

export interface PdfPageText {
  number: number;
  width: number;
  height: number;
  rotation: number;
  hasTextLayer: boolean;
  /** In content-stream order; whitespace glyphs are kept (text ' ') as word-break evidence. */
  chars: PdfChar[];
}

/** Every page's text layer, in page order. A file pdf.js cannot read fails with pdf.js's own error name
 * (InvalidPDFException, PasswordException, FormatError...), as processor.ts expects. */
export async function extractPdfText(bytes: Uint8Array): Promise<PdfPageText[]> {
  const pages: PdfPageText[] = [];
  for await (const page of eachPage(bytes, { open: { purpose: 'text' }, queueDepth: 2, work: (worker, n) => worker.text(n) })) pages.push(page);
  return pages;
}
