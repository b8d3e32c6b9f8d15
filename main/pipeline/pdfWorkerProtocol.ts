// The messages between the PDF worker pool (pdfWorkerPool.ts, main thread) and a PDF worker thread
// (pdf.worker.ts): one file both sides import, so a request, its answer and the worker's role are written
// once. Types and one constant only: importing it loads neither pdf.js nor the pool.
import type { RenderedPage, RenderSettings } from './pageRender.ts';
import type { PackedPageText } from './packedText.ts';
import type { PdfProbe, PdfRewrite } from './pdfProbe.ts';

/** The `role` in a PDF worker's workerData: pdf.worker.ts serves only when started with it. */
export const PDF_WORKER_ROLE = 'folio-pdf';

export interface PdfWorkerData {
  role: typeof PDF_WORKER_ROLE;
}

/** What a document is opened for: rendering with these settings, or its text (images are skipped). */
export type OpenAs = { purpose: 'render'; settings: RenderSettings } | { purpose: 'text' };

/** Messages to a worker; each is answered by a PdfReply with the same id, in order. `render` and `text`
 * read a page of the document opened last; `probe` and `rewrite` stand alone. */
export type PdfRequest =
  | { id: number; type: 'open'; pdf: Uint8Array; as: OpenAs }
  | { id: number; type: 'render'; number: number }
  | { id: number; type: 'text'; number: number }
  | { id: number; type: 'close' }
  | { id: number; type: 'probe'; pdf: Uint8Array; maxImagePixels: number }
  | { id: number; type: 'rewrite'; pdf: Uint8Array };

/** What each request answers with (`open`: the page count). */
export interface PdfResults {
  open: number;
  render: RenderedPage;
  text: PackedPageText;
  close: null;
  probe: PdfProbe;
  rewrite: PdfRewrite;
}

/** A failure keeps the error's name: callers tell pdf.js's InvalidPDFException or PasswordException by it. */
export type PdfReply = { id: number; ok: true; result: PdfResults[keyof PdfResults] } | { id: number; ok: false; name: string; message: string };
