// One page in edit mode: its thumbnail turned by the pending angle (CSS only, nothing is sent until
// Confirm), a button that selects it, and small turn buttons. Dragging it re-orders pages.
import type { DragEvent, KeyboardEvent, MouseEvent } from 'react';
import type { EditPage } from './pageSequence.ts';

export interface PageThumbProps {
  page: EditPage;
  thumbnailUrl: string;
  /** Index of the resulting document the page is in (colours the cell). */
  partIndex: number;
  /** Shown above the first page of each resulting document. */
  partLabel: string | null;
  selected: boolean;
  /** Where a dragged page would land relative to this one. */
  dropSide: 'before' | 'after' | null;
  onSelect(e: MouseEvent<HTMLButtonElement>): void;
  onKeyDown(e: KeyboardEvent<HTMLButtonElement>): void;
  onTurn(direction: 1 | -1): void;
  onDragStart(e: DragEvent<HTMLDivElement>): void;
  onDragOver(e: DragEvent<HTMLDivElement>): void;
  onDrop(e: DragEvent<HTMLDivElement>): void;
  onDragEnd(): void;
}

export function PageThumb(props: PageThumbProps) {
  const { page } = props;
  const captionId = `page-caption-${page.id}`;
  const className = ['thumb-cell', `part-c${props.partIndex % 6}`, props.dropSide ? `drop-${props.dropSide}` : ''].filter(Boolean).join(' ');
  return (
    <div className={className} draggable onDragStart={props.onDragStart} onDragOver={props.onDragOver} onDrop={props.onDrop} onDragEnd={props.onDragEnd}>
      <span className="thumb-part" aria-hidden="true">
        {props.partLabel ?? '\u00a0'}
      </span>
      <button
        type="button"
        className="thumb"
        data-page-id={page.id}
        aria-label={`Page ${page.number}`}
        aria-describedby={captionId}
        aria-pressed={props.selected}
        onClick={props.onSelect}
        onKeyDown={props.onKeyDown}
      >
        <span className="thumb-frame">
          <img className={`rot-${page.angle}`} src={props.thumbnailUrl} alt="" loading="lazy" draggable={false} />
        </span>
        <span className="thumb-caption" id={captionId}>
          {page.angle ? `Page ${page.number} · turned ${page.angle}°` : `Page ${page.number}`}
        </span>
      </button>
      {/* Out of the tab order: from the keyboard, R and Shift+R turn the focused or selected pages. */}
      <span className="thumb-turns">
        <button type="button" tabIndex={-1} aria-label={`Turn page ${page.number} left`} title="Turn left" onClick={() => props.onTurn(-1)}>
          ↺
        </button>
        <button type="button" tabIndex={-1} aria-label={`Turn page ${page.number} right`} title="Turn right" onClick={() => props.onTurn(1)}>
          ↻
        </button>
      </span>
    </div>
  );
}
