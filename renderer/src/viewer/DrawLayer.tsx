// Drawing mode over one page: a drag shows a rectangle and reports it in PDF points when released.
// Escape during the drag abandons it. A click (a drag shorter than a few pixels) reports a rectangle of
// no size at that point, so the embedder can take the word under it.
import { useEffect, useRef, useState, type PointerEvent } from 'react';
import { cssRectToPdf, type PdfRect, type Size } from './layout.ts';

/** A drag shorter than this (CSS px) in both directions is a click: reported as the point it was made at. */
const MIN_DRAG_PX = 3;

interface Point {
  x: number;
  y: number;
}

interface Props {
  page: Size;
  /** CSS pixels per PDF point. */
  scale: number;
  onRect(rect: PdfRect): void;
}

export function DrawLayer({ page, scale, onRect }: Props) {
  const [drag, setDrag] = useState<{ from: Point; to: Point } | null>(null);
  const layer = useRef<HTMLDivElement>(null);
  const dragging = drag !== null;

  // Escape abandons a drag wherever the focus is; caught first so that the embedding view's own
  // Escape (leave drawing mode, clear the selection) does not also fire.
  useEffect(() => {
    if (!dragging) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      e.stopPropagation();
      e.preventDefault();
      setDrag(null);
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [dragging]);

  const at = (e: PointerEvent): Point => {
    const r = layer.current!.getBoundingClientRect();
    return { x: e.clientX - r.left, y: e.clientY - r.top };
  };
  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    if (e.button !== 0) return;
    e.preventDefault(); // no text selection or native drag while drawing
    e.currentTarget.setPointerCapture(e.pointerId);
    const p = at(e);
    setDrag({ from: p, to: p });
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    if (drag) setDrag({ from: drag.from, to: at(e) });
  };
  const onPointerUp = (e: PointerEvent<HTMLDivElement>) => {
    if (!drag) return;
    const to = at(e);
    setDrag(null);
    const click = Math.abs(to.x - drag.from.x) < MIN_DRAG_PX && Math.abs(to.y - drag.from.y) < MIN_DRAG_PX;
    onRect(cssRectToPdf(drag.from, click ? drag.from : to, scale, page));
  };

  return (
    <div
      ref={layer}
      className="viewer-draw"
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={() => setDrag(null)}
    >
      {drag && (
        <div
          className="viewer-band"
          style={{
            left: Math.min(drag.from.x, drag.to.x),
            top: Math.min(drag.from.y, drag.to.y),
            width: Math.abs(drag.to.x - drag.from.x),
            height: Math.abs(drag.to.y - drag.from.y),
          }}
        />
      )}
    </div>
  );
}
