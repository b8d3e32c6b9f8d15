// The document viewer: the pages of the searchable PDF (page images when the PDF cannot be opened),
// virtualized so that a 300-page document opens at once; thumbnails, zoom, page navigation, and one layer
// per page with the annotation boxes and search hits; drawing mode reports rectangles in PDF points.
// What it shows and reports is the contract in types.ts.
import { useCallback, useEffect, useMemo, useRef, type KeyboardEvent } from 'react';
import type { PageSummary } from '../api/client.ts';
import { useClient } from '../state/session.ts';
import type { IndexedHighlight } from './BoxLayer.tsx';
import { rectInContent, stepZoom, percentOf, type PdfRect, type Size } from './layout.ts';
import { PageView } from './PageView.tsx';
import { usePdfDocument } from './pdfDocument.ts';
import { Thumbnails } from './Thumbnails.tsx';
import type { BoxOnPage, ViewerProps } from './types.ts';
import { useVirtualPages } from './useVirtualPages.ts';
import { ViewerToolbar } from './ViewerToolbar.tsx';
import './viewer.css';

const NO_BOXES: readonly BoxOnPage[] = [];
const NO_HITS: readonly IndexedHighlight[] = [];
/** Set once per viewer when its first page is on screen (the UI benchmark reads it). */
export const FIRST_PAGE_MARK = 'folio-viewer-first-page';

/** Identifies where a box is, so that a moved box is revealed again. */
const placeKey = (r: { pageIndex: number } & PdfRect) => `${r.pageIndex}:${r.x0}:${r.y0}:${r.x1}:${r.y1}`;

function groupByPage<T extends { pageIndex: number }>(items: readonly T[]): Map<number, T[]> {
  const byPage = new Map<number, T[]>();
  for (const item of items) {
    const list = byPage.get(item.pageIndex);
    if (list) list.push(item);
    else byPage.set(item.pageIndex, [item]);
  }
  return byPage;
}

export function Viewer(props: ViewerProps) {
  const { documentId, pages, boxes, highlights, selectedAnnotationId, focusHighlight, zoom, drawing = false, source = 'pdf', imagesFromPageUrls = false } = props;
  const client = useClient();
  const pdf = usePdfDocument(pages.length && source === 'pdf' ? client.searchablePdfUrl(documentId) : null);

  const scroller = useRef<HTMLDivElement>(null);
  const sizes = useMemo<Size[]>(() => pages.map((p) => ({ width: p.original_size[0], height: p.original_size[1] })), [pages]);
  const view = useVirtualPages(scroller, sizes, zoom, documentId);
  const percent = view.scale ? percentOf(view.scale) : 100;

  // The embedding's latest callbacks, read through a ref so that the pages' props stay stable.
  const latest = useRef(props);
  latest.current = props;
  const setZoom = useCallback((z: typeof zoom) => latest.current.onZoomChange?.(z), []);
  const onDrawRect = useCallback((pageIndex: number, rect: PdfRect) => latest.current.onDrawRect?.({ pageIndex, ...rect }), []);
  const onSelectAnnotation = useCallback((id: number) => latest.current.onSelectAnnotation?.(id), []);
  const firstPaint = useRef<number | null>(null);
  const onFirstPaint = useCallback(() => {
    if (firstPaint.current === documentId) return;
    firstPaint.current = documentId;
    performance.mark(FIRST_PAGE_MARK, { detail: { documentId } });
  }, [documentId]);
  const thumbnailUrl = useCallback(
    (p: PageSummary) => (p.thumbnail_url ? (imagesFromPageUrls ? client.fileAt(p.thumbnail_url) : client.thumbnailUrl(p.id)) : null),
    [client, imagesFromPageUrls],
  );

  const boxesByPage = useMemo(() => groupByPage(boxes), [boxes]);
  const hitsByPage = useMemo(() => groupByPage((highlights ?? []).map((h, index) => ({ ...h, index, hit: h.hit ?? index }))), [highlights]);
  const selectedPages = useMemo(() => new Set(boxes.filter((b) => b.annotationId === selectedAnnotationId).map((b) => b.pageIndex)), [boxes, selectedAnnotationId]);

  useEffect(() => {
    latest.current.onPageChange?.(view.current + 1);
  }, [view.current]);

  // The selected annotation (its first box) and the focused search hit scroll into view when they
  // change or move, not on every zoom: the reader may have scrolled away on purpose.
  const { layout } = view;
  const measured = layout.slots.length > 0 && layout.slots[0].width > 0;
  const layoutRef = useRef(layout);
  layoutRef.current = layout;
  const reveal = useCallback(
    (r: ({ pageIndex: number } & PdfRect) | undefined) => {
      const slot = r && layoutRef.current.slots[r.pageIndex];
      if (r && slot) view.reveal(rectInContent(slot, r, sizes[r.pageIndex]));
    },
    [view.reveal, sizes],
  );
  const selectedBox = selectedAnnotationId == null ? undefined : boxes.find((b) => b.annotationId === selectedAnnotationId);
  // A hit over several lines is revealed from its first line.
  const focusedHit = focusHighlight == null ? undefined : highlights?.find((h, i) => (h.hit ?? i) === focusHighlight);
  const selectedKey = measured && selectedBox ? placeKey(selectedBox) : '';
  const focusedKey = measured && focusedHit ? `${focusHighlight}:${placeKey(focusedHit)}` : '';
  const targets = useRef({ selectedBox, focusedHit });
  targets.current = { selectedBox, focusedHit };
  useEffect(() => {
    if (selectedKey) reveal(targets.current.selectedBox);
  }, [selectedKey, reveal]);
  useEffect(() => {
    if (focusedKey) reveal(targets.current.focusedHit);
  }, [focusedKey, reveal]);

  // Ctrl +/-/0 zoom while the focus is anywhere in the viewer; Ctrl+wheel over the pages.
  const onKeyDown = (e: KeyboardEvent) => {
    if (!(e.ctrlKey || e.metaKey) || e.altKey) return;
    const z = e.key === '+' || e.key === '=' ? stepZoom(percent, 1) : e.key === '-' ? stepZoom(percent, -1) : e.key === '0' ? ({ kind: 'fit-width' } as const) : null;
    if (!z) return;
    e.preventDefault(); // not the browser's own page zoom
    setZoom(z);
  };
  const percentRef = useRef(percent);
  percentRef.current = percent;
  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    let wheel = 0;
    const onWheel = (e: WheelEvent) => {
      if (!e.ctrlKey) return;
      e.preventDefault();
      wheel += e.deltaY;
      if (Math.abs(wheel) < 50) return; // a trackpad pinch sends many small deltas
      setZoom(stepZoom(percentRef.current, wheel < 0 ? 1 : -1));
      wheel = 0;
    };
    el.addEventListener('wheel', onWheel, { passive: false });
    return () => el.removeEventListener('wheel', onWheel);
  }, [setZoom]);

  const useImages = source === 'images' || pdf.status === 'failed';
  const status = pdf.status === 'loading' ? 'Opening the document…' : pdf.status === 'failed' ? `${pdf.error} Showing the page images instead.` : '';
  const [first, last] = view.range;
  const mounted: number[] = [];
  for (let i = Math.max(0, first); i <= last && i < pages.length; i++) mounted.push(i);

  return (
    <div className="viewer" onKeyDown={onKeyDown}>
      <ViewerToolbar pageCount={pages.length} current={view.current} onGo={view.goToPage} zoom={zoom} percent={percent} onZoom={setZoom} />
      <div className="viewer-body">
        <Thumbnails pages={pages} current={view.current} thumbnailUrl={thumbnailUrl} onGo={view.goToPage} />
        <div className="viewer-main">
          <p className="viewer-status" role="status" hidden={!status}>
            {status}
          </p>
          <div
            ref={scroller}
            className={drawing ? 'viewer-scroller drawing' : 'viewer-scroller'}
            tabIndex={0}
            role="region"
            aria-label={`Document pages${drawing ? ', drawing mode: drag a rectangle over the text' : ''}`}
          >
            {pages.length === 0 && <p className="viewer-empty muted">This document has no pages yet.</p>}
            <div className="viewer-sizer" style={{ width: layout.width, height: layout.height }}>
              {measured &&
                mounted.map((i) => {
                  const page = pages[i];
                  const hits = hitsByPage.get(i) ?? NO_HITS;
                  return (
                    <PageView
                      key={page.id}
                      page={page}
                      index={i}
                      slot={layout.slots[i]}
                      pdf={pdf.pdf}
                      useImages={useImages}
                      thumbnailUrl={thumbnailUrl(page)}
                      imageUrl={page.image_url ? (imagesFromPageUrls ? client.fileAt(page.image_url) : client.pageImageUrl(page.id)) : null}
                      boxes={boxesByPage.get(i) ?? NO_BOXES}
                      hits={hits}
                      selectedId={selectedPages.has(i) ? (selectedAnnotationId ?? null) : null}
                      focusedHit={focusHighlight != null && hits.some((h) => h.hit === focusHighlight) ? focusHighlight : null}
                      drawing={drawing}
                      onDrawRect={onDrawRect}
                      onSelectAnnotation={onSelectAnnotation}
                      onFirstPaint={onFirstPaint}
                      isScrollingFast={view.isScrollingFast}
                    />
                  );
                })}
            </div>
          </div>
        </div>
      </div>
    </div>
  );
}
