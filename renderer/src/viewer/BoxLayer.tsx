// The one layer over a page that carries its annotation boxes and search hits. Boxes are placed in
// percentages of the page, so a zoom change moves them with the page without rendering them again.
import { memo, type MouseEvent } from 'react';
import { rectToPercent, type Size } from './layout.ts';
import type { BoxOnPage, Highlight, ReviewStateName } from './types.ts';

/** CSS class of each review state (colours and border styles in viewer.css, shown in the legend). */
export const STATE_CLASS: Record<ReviewStateName, string> = {
  'Feedback required': 'state-feedback',
  Accepted: 'state-accepted',
  Declined: 'state-declined',
  'Created by human': 'state-human',
};

/** A search hit with its index in the viewer's `highlights` and the occurrence it is part of (what `focusHighlight` names). */
export interface IndexedHighlight extends Highlight {
  index: number;
  hit: number;
}

interface Props {
  page: Size;
  boxes: readonly BoxOnPage[];
  hits: readonly IndexedHighlight[];
  /** The selected annotation when it has a box on this page (else null, so other pages skip re-rendering). */
  selectedId: number | null;
  /** The focused hit when it is on this page. */
  focusedHit: number | null;
  onSelect?(annotationId: number): void;
}

export const BoxLayer = memo(function BoxLayer({ page, boxes, hits, selectedId, focusedHit, onSelect }: Props) {
  // One listener for all boxes of the page (500 boxes, one handler).
  const onClick = (e: MouseEvent<HTMLDivElement>) => {
    const id = (e.target as HTMLElement).closest<HTMLElement>('[data-annotation-id]')?.dataset.annotationId;
    if (id && onSelect) onSelect(Number(id));
  };
  return (
    <div className="viewer-layer" onClick={onClick}>
      {hits.map((h) => (
        <div key={`h${h.index}`} className={h.hit === focusedHit ? 'viewer-hit focused' : 'viewer-hit'} style={rectToPercent(h, page)} data-hit-index={h.hit} />
      ))}
      {boxes.map((b, i) => (
        <div
          key={`${b.annotationId}-${i}`}
          className={`viewer-box ${STATE_CLASS[b.state]}${b.annotationId === selectedId ? ' selected' : ''}`}
          style={rectToPercent(b, page)}
          title={`${b.title} (${b.state})`}
          data-annotation-id={b.annotationId}
        />
      ))}
    </div>
  );
});
