// Worker thread for pdf.js's heavy work, so that the main thread (and every API answer) never waits on a
// PDF: rasterizes pages (pageRender.ts), reads their text layers (pdfTextGeometry.ts) and checks uploads
// (pdfProbe.ts). Started and fed by pdfWorkerPool.ts, through pdf.worker.mjs; the messages are in
// pdfWorkerProtocol.ts.
import { type MessagePort, parentPort, workerData } from 'node:worker_threads';
import type { PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { lowerThisWorkerThread } from './backgroundPriority.ts';
import { openPdfjsDocument } from './pdfjsDocument.ts';
import { renderPage } from './pageRender.ts';
import { findPicturePages, type ScanPage } from './scanPages.ts';
import { openForText, readPageText } from './pdfTextGeometry.ts';
import { packPageText } from './packedText.ts';
import { probePdf, rewritePdf } from './pdfProbe.ts';
import { PDF_WORKER_ROLE, type OpenAs, type PdfReply, type PdfRequest, type PdfResults, type PdfWorkerData } from './pdfWorkerProtocol.ts';

/** A worker serves one document at a time (open, pages…, close) and is then reused for the next. */
function serve(port: MessagePort): void {
  let doc: { proxy: PDFDocumentProxy; as: OpenAs; scans: Map<number, ScanPage>; destroy: () => Promise<void> } | undefined;
  const close = async () => {
    const open = doc;
    doc = undefined;
    await open?.destroy();
  };
  const opened = () => {
    if (!doc) throw new Error('no document is open');
    return doc;
  };
  const handle = async (req: PdfRequest): Promise<PdfResults[keyof PdfResults]> => {
    switch (req.type) {
      case 'open': {
        await close();
        // Pages rendered for OCR are mostly scans: find the pictures before pdf.js detaches the bytes.
        const scans = req.as.purpose === 'render' && req.as.settings.ocr ? await findPicturePages(req.pdf) : new Map<number, ScanPage>();
        const task = req.as.purpose === 'text' ? openForText(req.pdf) : openPdfjsDocument(req.pdf);
        const proxy = await task.promise.catch(async (err: unknown) => {
          await task.destroy();
          throw err;
        });
        doc = { proxy, as: req.as, scans, destroy: () => task.destroy() };
        return proxy.numPages;
      }
      case 'render': {
        const { proxy, as, scans } = opened();
        if (as.purpose !== 'render') throw new Error('the document was opened for its text, not for rendering');
        return renderPage(proxy, req.number, as.settings, scans.get(req.number));
      }
      case 'text':
        return packPageText(await readPageText(opened().proxy, req.number));
      case 'close':
        await close();
        return null;
      case 'probe':
        return probePdf(req.pdf, req.maxImagePixels);
      case 'rewrite':
        return rewritePdf(req.pdf);
    }
  };
  // One request at a time, in arrival order: a worker never holds more than one page's pixels.
  let queue = Promise.resolve();
  port.on('message', (req: PdfRequest) => {
    queue = queue.then(async () => {
      try {
        const result = await handle(req);
        port.postMessage({ id: req.id, ok: true, result } satisfies PdfReply, movable(result));
      } catch (err) {
        const e = err instanceof Error ? err : new Error(String(err));
        port.postMessage({ id: req.id, ok: false, name: e.name, message: e.message } satisfies PdfReply);
      }
    });
  });
}

/** A page's character numbers and a rewritten PDF go back moved, not copied, when they own their buffer. */
function movable(result: PdfResults[keyof PdfResults]): ArrayBuffer[] {
  if (result === null || typeof result !== 'object') return [];
  const view = 'numbers' in result ? result.numbers : 'bytes' in result ? result.bytes : undefined;
  const owns = view && view.buffer instanceof ArrayBuffer && view.byteOffset === 0 && view.byteLength === view.buffer.byteLength;
  return owns ? [view.buffer as ArrayBuffer] : [];
}

// Only as a PDF worker (started by pdfWorkerPool.ts through pdf.worker.mjs); importing this module elsewhere is inert.
if (parentPort && (workerData as Partial<PdfWorkerData> | null)?.role === PDF_WORKER_ROLE) {
  lowerThisWorkerThread();
  serve(parentPort);
}
