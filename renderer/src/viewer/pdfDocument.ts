// Opens the searchable PDF with pdf.js for the viewer. pdf.js is loaded on first use (its own chunk, so
// the login and project screens do not pay for it) and parses in its worker, served from our origin.
import { useEffect, useState } from 'react';
import type { PDFDocumentProxy, PDFWorker } from 'pdfjs-dist';
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';

export type PdfState =
  | { status: 'idle' | 'loading'; pdf: null; error: null }
  | { status: 'ready'; pdf: PDFDocumentProxy; error: null }
  | { status: 'failed'; pdf: null; error: string };

const IDLE: PdfState = { status: 'idle', pdf: null, error: null };
const LOADING: PdfState = { status: 'loading', pdf: null, error: null };

interface Pdfjs {
  lib: typeof import('pdfjs-dist');
  /** One worker for every document the window opens: going to the next document skips its start-up. */
  worker: PDFWorker;
}

let pdfjs: Promise<Pdfjs> | null = null;

/**
 * pdf.js and its worker, loaded once per window. The review view may call this as it starts loading a
 * document, so that pdf.js is ready by the time the pages are known.
 */
export function preloadPdfjs(): Promise<Pdfjs> {
  pdfjs ??= import('pdfjs-dist').then((lib) => {
    lib.GlobalWorkerOptions.workerSrc = workerUrl;
    return { lib, worker: new lib.PDFWorker() };
  });
  return pdfjs;
}

/** The PDF at `url` (null: none wanted), destroyed again when the url changes or the viewer goes. */
export function usePdfDocument(url: string | null): PdfState {
  // Kept with the url it belongs to: right after the url changes (the next document), the previous
  // document, destroyed by then, must not be handed to the new pages.
  const [loaded, setLoaded] = useState<{ url: string; state: PdfState } | null>(null);

  useEffect(() => {
    if (!url) return;
    let gone = false;
    let destroy: (() => void) | null = null;
    const settle = (state: PdfState) => {
      if (!gone) setLoaded({ url, state });
    };
    void preloadPdfjs()
      .then(({ lib, worker }) => {
        if (gone) return;
        const task = lib.getDocument({
          url,
          worker,
          // The page's Content-Security-Policy forbids eval; say so rather than let pdf.js probe it.
          isEvalSupported: false,
          // No forms or scripts in a review tool: draw the page, nothing interactive.
          enableXfa: false,
        });
        // Destroys this document in the worker; the shared worker stays.
        destroy = () => void task.destroy();
        return task.promise.then((pdf) => settle({ status: 'ready', pdf, error: null }));
      })
      .catch((err: unknown) => settle({ status: 'failed', pdf: null, error: describePdfError(err) }));
    return () => {
      gone = true;
      destroy?.();
    };
  }, [url]);

  if (!url) return IDLE;
  return loaded?.url === url ? loaded.state : LOADING;
}

function describePdfError(err: unknown): string {
  const e = err as { name?: string; status?: number; message?: string };
  if (e?.name === 'ResponseException' && e.status === 404) return 'The searchable PDF is not there (yet): the document may still be processing.';
  if (e?.name === 'InvalidPDFException') return 'The searchable PDF is damaged.';
  return e?.message ? `The searchable PDF could not be opened: ${e.message}` : 'The searchable PDF could not be opened.';
}
