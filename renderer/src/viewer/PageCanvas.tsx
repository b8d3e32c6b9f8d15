// One page of the PDF painted by pdf.js. pdf.js draws into a detached canvas; the finished picture is
// moved (not copied) into a `bitmaprenderer` canvas on the page, which the compositor treats as a still
// image: a live 2D canvas on the page made every scrolled frame's commit several times dearer. A new
// picture replaces the old one only when done, so a zoom change stretches the old picture for a moment
// instead of flashing blank; a page scrolled away cancels its render and frees its pixels at once.
import { memo, useEffect, useRef } from 'react';
import type { PDFDocumentProxy, RenderTask } from 'pdfjs-dist';

/** Canvas memory per page is capped (an A4 page at 400% on a 2x screen would need 56 Mpx): beyond it, slightly soft. */
const MAX_CANVAS_PIXELS = 16_777_216;
/** A zoom change waits this long before re-rendering, so that clicking + three times renders once. */
const RERENDER_DELAY_MS = 120;
/** How often a waiting page checks again whether it may render. */
const WAIT_CHECK_MS = 100;
/** The name of the performance measure each page render leaves (the UI benchmark reads them). */
export const RENDER_MEASURE = 'folio-viewer-page-render';

interface Props {
  pdf: PDFDocumentProxy;
  pageNumber: number;
  /** CSS size of the page box. */
  width: number;
  height: number;
  onPainted(): void;
  onFailed(reason: string): void;
  /** While true, the render waits (the reader is flinging past this page). */
  shouldWait(): boolean;
}

/** Gives a shown picture's pixels back now rather than at the next garbage collection. */
function release(canvas: HTMLCanvasElement | null): void {
  (canvas?.getContext('bitmaprenderer') as ImageBitmapRenderingContext | null)?.transferFromImageBitmap(null);
}

export const PageCanvas = memo(function PageCanvas({ pdf, pageNumber, width, height, onPainted, onFailed, shouldWait }: Props) {
  const holder = useRef<HTMLDivElement>(null);
  const shown = useRef<HTMLCanvasElement | null>(null);
  // The latest callbacks without re-running the render effect when a parent passes new ones.
  const callbacks = useRef({ onPainted, onFailed, shouldWait });
  callbacks.current = { onPainted, onFailed, shouldWait };

  useEffect(() => {
    let task: RenderTask | null = null;
    let cancelled = false;

    const render = async () => {
      const startedAt = performance.now();
      const page = await pdf.getPage(pageNumber);
      if (cancelled) return;
      const natural = page.getViewport({ scale: 1 });
      const ratio = Math.min(window.devicePixelRatio || 1, Math.sqrt(MAX_CANVAS_PIXELS / Math.max(1, width * height)));
      const drawing = document.createElement('canvas');
      drawing.width = Math.max(1, Math.floor(width * ratio));
      drawing.height = Math.max(1, Math.floor(height * ratio));
      // The page box keeps the API's size; pdf.js draws the page as displayed (its /Rotate applied),
      // which is the space of original_size and of every box.
      task = page.render({ canvas: drawing, viewport: page.getViewport({ scale: drawing.width / natural.width }) });
      await task.promise;
      const bitmap = await createImageBitmap(drawing);
      drawing.width = drawing.height = 0;
      if (cancelled) return bitmap.close();
      const picture = document.createElement('canvas');
      picture.width = bitmap.width;
      picture.height = bitmap.height;
      picture.setAttribute('aria-hidden', 'true');
      picture.getContext('bitmaprenderer')!.transferFromImageBitmap(bitmap);
      holder.current?.replaceChildren(picture);
      release(shown.current);
      shown.current = picture;
      performance.measure(RENDER_MEASURE, { start: startedAt, detail: { pageNumber, width, height } });
      callbacks.current.onPainted();
    };

    const begin = () => {
      if (cancelled) return;
      if (callbacks.current.shouldWait()) {
        timer = window.setTimeout(begin, WAIT_CHECK_MS);
        return;
      }
      render().catch((err: unknown) => {
        if (cancelled || (err as { name?: string })?.name === 'RenderingCancelledException') return;
        callbacks.current.onFailed((err as Error)?.message ?? String(err));
      });
    };
    // The first paint starts at once; a repaint after a zoom change waits for the zoom to settle.
    let timer = window.setTimeout(begin, shown.current ? RERENDER_DELAY_MS : 0);
    return () => {
      cancelled = true;
      window.clearTimeout(timer);
      task?.cancel();
    };
  }, [pdf, pageNumber, width, height]);

  // Unmounted (scrolled away): give the pixels back at once, 300 pages would otherwise pile up.
  useEffect(
    () => () => {
      release(shown.current);
      shown.current = null;
    },
    [],
  );

  return <div ref={holder} className="viewer-canvas" />;
});
