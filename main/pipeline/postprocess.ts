// Composes the PDF of a post-processed document (split, rotate, re-order): chosen pages of a source PDF,
// in a chosen order, each turned by a multiple of 90 degrees. Pages are copied whole, so their text layers
// (born-digital or Folio's invisible OCR text) come along and the pipeline reads them again without OCR.
import { degrees, PDFDocument } from 'pdf-lib';

/** One page of the new PDF: `sourceIndex` is the 0-based page of the source; `angle` turns it clockwise,
 * in degrees, like PDF /Rotate (one of -270, -180, -90, 0, 90, 180, 270). */
export interface OutputPage {
  sourceIndex: number;
  angle: number;
  /** Which of the sources the page comes from (default 0): pages may be taken from several PDFs of the
   * same pages, e.g. the searchable PDF, or the upload for a scanned page that must be read again turned. */
  source?: number;
}

/** The page selection cannot be made from this source (the caller's mistake, not the file's). */
export class InvalidPageSelection extends Error {}

const ANGLES = [-270, -180, -90, 0, 90, 180, 270];

/** A new PDF holding the given pages of `source` in the given order (a page may appear more than once),
 * each turned by its angle added to the page's own /Rotate, normalised to 0..270. */
export async function composePdf(source: Uint8Array | Uint8Array[], pages: OutputPage[]): Promise<Uint8Array> {
  const sources = Array.isArray(source) ? source : [source];
  if (pages.length === 0) throw new InvalidPageSelection('No pages selected: a document needs at least one page.');
  for (const { angle } of pages) {
    if (!ANGLES.includes(angle)) throw new InvalidPageSelection(`Angle ${angle} is not allowed: rotation is in multiples of 90 degrees, one of ${ANGLES.join(', ')}.`);
  }
  const loaded = await Promise.all(sources.map((s) => PDFDocument.load(s, { updateMetadata: false })));
  for (const { sourceIndex, source: from = 0 } of pages) {
    const src = loaded[from];
    if (!src) throw new InvalidPageSelection(`Source ${from} does not exist: ${loaded.length} given.`);
    const count = src.getPageCount();
    if (!Number.isInteger(sourceIndex) || sourceIndex < 0 || sourceIndex >= count) {
      throw new InvalidPageSelection(`Page index ${sourceIndex} does not exist: the source has ${count} pages (indexes 0 to ${count - 1}).`);
    }
  }
  const out = await PDFDocument.create();
  // Copied source by source (pdf-lib copies shared resources once per call), then put in the asked order.
  const copies = new Array<Awaited<ReturnType<typeof out.copyPages>>[number]>(pages.length);
  for (let from = 0; from < loaded.length; from++) {
    const wanted = pages.flatMap((p, i) => ((p.source ?? 0) === from ? [i] : []));
    if (!wanted.length) continue;
    const copied = await out.copyPages(loaded[from], wanted.map((i) => pages[i].sourceIndex));
    wanted.forEach((i, k) => (copies[i] = copied[k]));
  }
  copies.forEach((page, i) => {
    out.addPage(page);
    // A /Rotate that is not a multiple of 90 counts as 0, as pdf.js (which reads and renders the pages) treats it.
    const own = page.getRotation().angle;
    const current = Number.isInteger(own) && own % 90 === 0 ? own : 0;
    page.setRotation(degrees((((current + pages[i].angle) % 360) + 360) % 360));
  });
  return out.save();
}
