// The text layer of a PDF's pages, every glyph with its exact box (pdfTextGeometry.ts), read in the PDF
// worker threads: pdf.js takes about 10 ms a page, which a long document must not take from the main
// thread and the API answers waiting on it.
import type { PdfPageText } from './types.ts';
import { eachPage } from './pdfWorkerPool.ts';

// The shapes are in types.ts: the PDF worker's text code and the pool import them from there, not from this
// file, which uses the pool.
export type { PdfChar, PdfPageText } from './types.ts';

/** Every page's text layer, in page order. A file pdf.js cannot read fails with pdf.js's own error name
 * (InvalidPDFException, PasswordException, FormatError...), as processor.ts expects. */
export async function extractPdfText(bytes: Uint8Array): Promise<PdfPageText[]> {
  const pages: PdfPageText[] = [];
  for await (const page of eachPage(bytes, { open: { purpose: 'text' }, queueDepth: 2, work: (worker, n) => worker.text(n) })) pages.push(page);
  return pages;
}
