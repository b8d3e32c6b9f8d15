// The review view's keyboard (issue 5, item 8; the sheet in ShortcutSheet.tsx lists the same keys). Keys go
// to text fields and open dialogs untouched; on other buttons Enter and Delete keep their own meaning,
// except on the panel's item buttons, whose Enter/Delete act on the item.
import { useEffect, type RefObject } from 'react';
import { useReview } from '../../state/review.ts';
import { acceptEverything, deleteAction, primaryAction } from './actions.ts';
import { reviewItems } from '../../state/reviewTree.ts';

/** What the review workspace does on its keys while it is shown (not while the document is processed). */
export interface WorkspaceKeys {
  finish?(): void;
  /** The current search hit becomes an annotation. */
  labelHit?(): void;
}

export interface ReviewKeyHandlers {
  onDocument(direction: 1 | -1): void;
  onSearch(): void;
  workspace?: RefObject<WorkspaceKeys>;
}

function currentItem() {
  const { doc, cursor } = useReview.getState();
  return doc ? reviewItems(doc.annotation_sets).find((i) => i.key === cursor) ?? null : null;
}

export function useReviewKeys(handlers: ReviewKeyHandlers): void {
  useEffect(() => {
    function onKey(e: KeyboardEvent) {
      if (e.defaultPrevented || document.querySelector('dialog[open]')) return;
      const s = useReview.getState();
      const target = e.target instanceof Element ? e.target : null;
      const typing = !!target?.closest('input, textarea, select, [contenteditable="true"]');
      const onItem = !!target?.closest('[data-review-item]');
      const onControl = !onItem && !!target?.closest('button, a, summary');
      const mod = e.ctrlKey || e.metaKey;
      const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
      // Reviewed, or being read again (not Done): nothing to change.
      const locked = (s.doc?.is_reviewed ?? true) || s.doc?.status_data !== 2;

      if (mod && !typing && (key === 'z' || key === 'y')) {
        e.preventDefault();
        void (key === 'y' || e.shiftKey ? s.redo() : s.undo());
        return;
      }
      if (e.altKey && (key === 'ArrowRight' || key === 'ArrowLeft')) {
        e.preventDefault(); // also keeps Alt+Left from going back in the window's history
        handlers.onDocument(key === 'ArrowRight' ? 1 : -1);
        return;
      }
      if (mod && !typing && key === 'Enter') {
        if (locked) return;
        e.preventDefault();
        handlers.workspace?.current?.finish?.();
        return;
      }
      if (typing || mod || e.altKey) return;

      switch (key) {
        case 'ArrowDown':
        case 'ArrowUp':
          e.preventDefault();
          s.moveCursor(key === 'ArrowDown' ? 1 : -1);
          return;
        case 'Enter':
        case 'Delete':
        case 'Backspace': {
          if (onControl || locked) return;
          const item = currentItem();
          if (!item) return;
          e.preventDefault();
          // Act on the item, then go on to the next one: a reviewer's flow is one key per annotation.
          const acted = key === 'Enter' ? primaryAction(item) : deleteAction(item);
          if (acted) s.moveCursor(1);
          return;
        }
        case 'Escape':
          if (s.drawing) s.setDrawing(false);
          else s.setCursor(null);
          return;
        case '?':
          e.preventDefault();
          s.setDialog({ kind: 'shortcuts' });
          return;
        case 'd':
          if (!locked) s.setDrawing(!s.drawing);
          return;
        case 'a':
          // Accept every annotation of the document still awaiting feedback (one request, one undo).
          if (locked) return;
          e.preventDefault();
          void acceptEverything();
          return;
        case 'f':
          if (locked) return;
          e.preventDefault();
          handlers.workspace?.current?.finish?.();
          return;
        case 'n':
          if (locked) return;
          e.preventDefault();
          handlers.workspace?.current?.labelHit?.();
          return;
        case 'e':
        case 'l': {
          const item = currentItem();
          if (locked || item?.kind !== 'annotation') return;
          e.preventDefault();
          s.setDialog({ kind: key === 'e' ? 'edit-text' : 'change-label', annotationId: item.annotation.id });
          return;
        }
        case '/':
          e.preventDefault();
          handlers.onSearch();
          return;
      }
    }
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [handlers]);
}
