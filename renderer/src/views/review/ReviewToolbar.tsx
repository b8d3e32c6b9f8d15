// The review view's top row: back to the project, the document, its category (changing it extracts again
// with that category's AI), previous/next document, draw mode, search, undo/redo (named after what they
// would undo), public or private and the public link, edit mode, the shortcut sheet, and on narrow windows
// the review panel's drawer toggle.
import type { Ref } from 'react';
import { CategorySelect } from './CategorySelect.tsx';
import type { DocumentOut, SpanOut } from '../../api/client.ts';
import { useReview } from '../../state/review.ts';
import { SearchBox } from './SearchBox.tsx';
import { PublicShare } from './PublicShare.tsx';

interface Props {
  doc: DocumentOut;
  /** Reviewed, or being read again: nothing to change. */
  locked: boolean;
  /** The document list as the reviewer left it (filters, sort, page). */
  backHref: string;
  onDocument(direction: 1 | -1): void;
  /** Asks to read the whole document again (the view confirms first). */
  onReadAgain(): void;
  search: { hits: SpanOut[][]; current: number; onHits(hits: SpanOut[][]): void; onCurrent(i: number): void; inputRef: Ref<HTMLInputElement>; onLabelHit?(): void };
  /** The panel is a drawer (narrow window): whether it is open, and its toggle. */
  drawer: { open: boolean; toggle(): void } | null;
}

export function ReviewToolbar({ doc, locked, backHref, onDocument, onReadAgain, search, drawer }: Props) {
  const drawing = useReview((s) => s.drawing);
  const setDrawing = useReview((s) => s.setDrawing);
  const setDialog = useReview((s) => s.setDialog);
  const undoTitle = useReview((s) => s.undoStack.at(-1)?.title);
  const redoTitle = useReview((s) => s.redoStack.at(-1)?.title);
  const undo = useReview((s) => s.undo);
  const redo = useReview((s) => s.redo);

  return (
    <div className="review-toolbar">
      <a href={backHref} className="back">
        ← Documents
      </a>
      <h1 className="doc-title" title={doc.data_file_name}>
        {doc.data_file_name}
      </h1>
      <CategorySelect doc={doc} />
      <nav className="doc-nav" aria-label="Documents of the project">
        <button type="button" onClick={() => onDocument(-1)} title="Previous document (Alt+←)" aria-keyshortcuts="Alt+ArrowLeft">
          ‹ Previous
        </button>
        <button type="button" onClick={() => onDocument(1)} title="Next document (Alt+→)" aria-keyshortcuts="Alt+ArrowRight">
          Next ›
        </button>
      </nav>
      <span className="spacer" />
      <button type="button" aria-pressed={drawing} disabled={locked} onClick={() => setDrawing(!drawing)} title="Drag a box around text to label it (D)" aria-keyshortcuts="D">
        Draw box
      </button>
      <SearchBox documentId={doc.id} {...search} />
      <button type="button" disabled={!undoTitle} onClick={() => void undo()} title={undoTitle ? `Undo: ${undoTitle} (Ctrl+Z)` : 'Nothing to undo'} aria-keyshortcuts="Control+Z">
        Undo
      </button>
      <button type="button" disabled={!redoTitle} onClick={() => void redo()} title={redoTitle ? `Redo: ${redoTitle} (Ctrl+Shift+Z)` : 'Nothing to redo'} aria-keyshortcuts="Control+Shift+Z">
        Redo
      </button>
      <button type="button" onClick={onReadAgain} disabled={locked} title="Read the scanned pages again (OCR); asks first">
        Read again…
      </button>
      <PublicShare doc={doc} />
      <a href={`#/documents/${doc.id}/edit`}>Edit pages</a>
      <button type="button" className="icon" aria-label="Keyboard shortcuts" title="Keyboard shortcuts (?)" onClick={() => setDialog({ kind: 'shortcuts' })}>
        ?
      </button>
      {drawer && (
        <button type="button" className="drawer-toggle" aria-expanded={drawer.open} aria-controls="review-panel" onClick={drawer.toggle}>
          {drawer.open ? 'Hide review' : 'Review panel'}
        </button>
      )}
    </div>
  );
}
