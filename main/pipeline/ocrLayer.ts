// Takes Folio's own invisible OCR text layer (searchablePdf.ts addTextLayer) off pages, leaving the page
// as it was scanned. A page whose text came from OCR must be read by OCR again when it is turned or read
// again on request: with its old layer on, pdf.js would find that (now wrongly placed) text and the page
// would never reach OCR. Only Folio's layer is removed; a born-digital page keeps its text.
import { decodePDFRawStream, PDFArray, PDFDocument, PDFRawStream, PDFRef, PDFStream, type PDFPage } from 'pdf-lib';

/** The layer is one content stream that starts a text object in render mode 3 (invisible) and shows its
 * words with fonts named OcrText (the resource name addTextLayer gives them). */
function isOcrLayer(content: string): boolean {
  return /(^|\n)BT\n3 Tr\n/.test(content) && /(^|\n)\/OcrText[^\s]* [\d.]+ Tf\n/.test(content);
}

function decoded(stream: PDFStream): string {
  if (stream instanceof PDFRawStream) return Buffer.from(decodePDFRawStream(stream).decode()).toString('latin1');
  return Buffer.from(stream.getContents()).toString('latin1');
}

/** Removes the OCR layer streams from one page; returns how many it removed. */
function stripPage(doc: PDFDocument, page: PDFPage): number {
  const contents = page.node.Contents();
  if (!(contents instanceof PDFArray)) return 0; // the layer is always added as a further stream: an array
  let removed = 0;
  for (let i = contents.size() - 1; i >= 0; i--) {
    const entry = contents.get(i);
    const stream = entry instanceof PDFRef ? doc.context.lookup(entry) : entry;
    if (!(stream instanceof PDFStream)) continue;
    let text: string;
    try {
      text = decoded(stream);
    } catch {
      continue; // a stream we cannot decode is not one Folio wrote
    }
    if (isOcrLayer(text)) {
      contents.remove(i);
      removed++;
    }
  }
  return removed;
}

/**
 * The PDF without Folio's OCR text layer on the given 0-based pages (default: every page). Returns the
 * bytes unchanged (the same object) when no page had such a layer, so callers can tell nothing was done.
 */
export async function withoutOcrLayers(pdf: Uint8Array, pageIndexes?: readonly number[]): Promise<Uint8Array> {
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  const pages = doc.getPages();
  const wanted = pageIndexes ?? pages.map((_, i) => i);
  let removed = 0;
  for (const i of wanted) if (pages[i]) removed += stripPage(doc, pages[i]);
  return removed ? doc.save() : pdf;
}
