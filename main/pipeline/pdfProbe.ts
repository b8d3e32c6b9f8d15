// What the upload check (pdfCheck.ts) asks of pdf.js and pdf-lib, run in a PDF worker thread (pdf.worker.ts)
// because both parse the whole file: whether pdf.js reads a PDF and its images' declared sizes
// (pdfImageSizes.ts), and pdf-lib's rewrite of a damaged one.
// Both answer with plain data, never by throwing, so that the check's verdicts stay in pdfCheck.ts.
import { PDFDocument } from 'pdf-lib';
import { openPdfjsDocument } from './pdfjsDocument.ts';
import { oversizedImage } from './pdfImageSizes.ts';

/** `oversizedImage`: why an image is over the pixel limit, found before pdf.js saw the file. */
export type PdfProbe = ({ ok: true; pageCount: number; restricted: boolean } | { ok: false; needsPassword: boolean; error: string }) & { oversizedImage?: string };

export type PdfRewrite = { ok: true; bytes: Uint8Array } | { ok: false; error: string };

/** Measures the images of `pdf` against `maxImagePixels`, then opens it (detached by pdf.js: pass a copy you can
 * spare) and walks its page tree. An oversized image answers at once: pdf.js never opens such a file. */
export async function probePdf(pdf: Uint8Array, maxImagePixels: number): Promise<PdfProbe> {
  const oversized = await oversizedImage(pdf, maxImagePixels);
  if (oversized) return { ok: false, needsPassword: false, error: oversized, oversizedImage: oversized };
  const task = openPdfjsDocument(pdf);
  try {
    const doc = await task.promise;
    if (doc.numPages < 1) return { ok: false, needsPassword: false, error: 'it has no pages' };
    // Loading the last page walks the page tree: a tree that only claims its count fails here.
    await doc.getPage(doc.numPages);
    const info = (await doc.getMetadata()).info as { EncryptFilterName?: string | null };
    return { ok: true, pageCount: doc.numPages, restricted: Boolean(info.EncryptFilterName) };
  } catch (err) {
    const e = err as Error;
    return { ok: false, needsPassword: e?.name === 'PasswordException', error: e?.message ?? String(err) };
  } finally {
    await task.destroy();
  }
}

/** pdf-lib's rebuild of `pdf` by scanning its objects, saved with a clean cross-reference table. */
export async function rewritePdf(pdf: Uint8Array): Promise<PdfRewrite> {
  try {
    const doc = await PDFDocument.load(pdf, { ignoreEncryption: false, throwOnInvalidObject: false, updateMetadata: false });
    if (doc.getPageCount() === 0) return { ok: false, error: 'no pages could be found' };
    // A classic xref table, as every PDF 1.x reader expects whatever the header says.
    return { ok: true, bytes: await doc.save({ useObjectStreams: false }) };
  } catch (err) {
    return { ok: false, error: (err as Error)?.message?.split('\n')[0] ?? String(err) };
  }
}
