// One page in the scroll area, at its final size from the start: the thumbnail as a preview, then the
// PDF page (or, when the PDF cannot be shown, the page image), the box layer and, in drawing mode, the
// drawing layer.
import { memo, useCallback, useMemo, useState } from 'react';
import type { PDFDocumentProxy } from 'pdfjs-dist';
import type { PageSummary } from '../api/client.ts';
import { BoxLayer, type IndexedHighlight } from './BoxLayer.tsx';
import { DrawLayer } from './DrawLayer.tsx';
import { PageCanvas } from './PageCanvas.tsx';
import type { PageSlot, PdfRect, Size } from './layout.ts';
import type { BoxOnPage } from './types.ts';

interface Props {
  page: PageSummary;
  index: number;
  slot: PageSlot;
  /** The PDF when it opened; null while it loads or when it failed (see `useImages`). */
  pdf: PDFDocumentProxy | null;
  /** Show the page image instead of the PDF (the PDF failed to open). */
  useImages: boolean;
  thumbnailUrl: string | null;
  imageUrl: string | null;
  boxes: readonly BoxOnPage[];
  hits: readonly IndexedHighlight[];
  selectedId: number | null;
  focusedHit: number | null;
  drawing: boolean;
  onDrawRect(pageIndex: number, rect: PdfRect): void;
  onSelectAnnotation?(annotationId: number): void;
  onFirstPaint(): void;
  /** True while the reader flings through the pages (renders wait). */
  isScrollingFast(): boolean;
}

export const PageView = memo(function PageView(p: Props) {
  const [painted, setPainted] = useState<'canvas' | 'image' | null>(null);
  // A page pdf.js cannot draw falls back to its image alone; the rest of the document stays on the PDF.
  const [canvasFailed, setCanvasFailed] = useState(false);
  const [widthPt, heightPt] = p.page.original_size;
  const size: Size = useMemo(() => ({ width: widthPt, height: heightPt }), [widthPt, heightPt]);
  const { onFirstPaint, onDrawRect, index } = p;

  const onPainted = useCallback(() => {
    setPainted('canvas');
    onFirstPaint();
  }, [onFirstPaint]);
  const onFailed = useCallback((reason: string) => {
    console.warn(`Page ${index + 1} could not be drawn from the PDF (${reason}); showing its image.`);
    setCanvasFailed(true);
  }, [index]);
  const onRect = useCallback((rect: PdfRect) => onDrawRect(index, rect), [onDrawRect, index]);

  const showImage = (p.useImages || canvasFailed) && p.imageUrl;
  return (
    <div
      className="viewer-page"
      style={{ top: p.slot.top, left: p.slot.left, width: p.slot.width, height: p.slot.height }}
      data-page-number={p.page.number}
      data-rendered={painted ?? undefined}
      role="img"
      aria-label={`Page ${p.page.number}`}
    >
      {p.thumbnailUrl && !painted && <img className="viewer-preview" src={p.thumbnailUrl} alt="" decoding="async" draggable={false} />}
      {showImage ? (
        <img
          className="viewer-image"
          src={p.imageUrl!}
          alt=""
          decoding="async"
          draggable={false}
          onLoad={() => {
            setPainted('image');
            onFirstPaint();
          }}
        />
      ) : (
        p.pdf && !canvasFailed && <PageCanvas pdf={p.pdf} pageNumber={p.page.number} width={p.slot.width} height={p.slot.height} onPainted={onPainted} onFailed={onFailed} shouldWait={p.isScrollingFast} />
      )}
      {(p.useImages || canvasFailed) && !p.imageUrl && <p className="viewer-page-note">This page cannot be shown.</p>}
      <BoxLayer page={size} boxes={p.boxes} hits={p.hits} selectedId={p.selectedId} focusedHit={p.focusedHit} onSelect={p.onSelectAnnotation} />
      {p.drawing && <DrawLayer page={size} scale={p.slot.width / size.width} onRect={onRect} />}
    </div>
  );
});
