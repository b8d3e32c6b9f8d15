// Renders a PDF's pages to PNG images (viewer image, thumbnail, grayscale OCR image) in the PDF worker
// threads, streaming the pages in order with a bounded look-ahead so a long document never sits in memory
// at once.
import type { RenderedPage, RenderSettings } from './pageRender.ts';
import { eachPage } from './pdfWorkerPool.ts';

export type { RenderedImage, RenderedPage } from './pageRender.ts';

export interface RenderOptions {
  /** Colour page image for the viewer (default true). */
  image?: boolean;
  /** Thumbnail (default true). */
  thumbnail?: boolean;
  /** Grayscale image for OCR (default false). */
  ocr?: boolean;
  /** Long side of the page image (default 2000 px, like the dataset's [1414, 2000] for A4). */
  imageLongSidePx?: number;
  /** Small pages are not blown up beyond this (default 300 dpi). */
  maxImageDpi?: number;
  /** Thumbnail width (default 200 px). */
  thumbnailWidthPx?: number;
  /** OCR resolution (default 300 dpi). */
  ocrDpi?: number;
  /** Pixel budget of one OCR image (default 25 million: A2 and larger pages get a lower dpi). */
  maxOcrPixels?: number;
  /** A page that is one picture placed inside it is read at the picture's own resolution (pageRender.ts;
   * default true; bench:pipeline compares with it off). */
  ocrAtPictureDpi?: boolean;
  /** 1-based page numbers to render, in the order wanted (default all pages). */
  pages?: number[];
  /** A page (or opening the PDF) that takes longer fails and its worker is stopped (default 120 s): a
   * pathological page must not hold the pipeline forever. */
  pageTimeoutMs?: number;
  /** Worker threads (default: see PageWork.workers in pdfWorkerPool.ts). */
  workers?: number;
}

/** Yields the pages in the order asked for, rendered by the PDF workers (several pages at once, memory
 * bounded by the worker count: see eachPage). Stopping the iteration early stops the workers. */
export async function* renderPages(pdf: Uint8Array, options: RenderOptions = {}): AsyncGenerator<RenderedPage> {
  const settings: RenderSettings = {
    image: options.image ?? true,
    thumbnail: options.thumbnail ?? true,
    ocr: options.ocr ?? false,
    imageLongSidePx: options.imageLongSidePx ?? 2000,
    maxImageDpi: options.maxImageDpi ?? 300,
    thumbnailWidthPx: options.thumbnailWidthPx ?? 200,
    ocrDpi: options.ocrDpi ?? 300,
    maxOcrPixels: options.maxOcrPixels ?? 25_000_000,
    ocrAtPictureDpi: options.ocrAtPictureDpi ?? true,
  };
  yield* eachPage(pdf, {
    open: { purpose: 'render', settings },
    pages: options.pages,
    workers: options.workers,
    timeoutMs: options.pageTimeoutMs,
    context: { open: 'cannot open the PDF', page: (n) => `cannot render page ${n}` },
    work: (worker, n) => worker.render(n),
  });
}
