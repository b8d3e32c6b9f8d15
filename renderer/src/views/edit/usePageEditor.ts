// The state of edit mode in the window: the page sequence (pageSequence.ts) and which pages are selected,
// with the actions the toolbar, the thumbnails and the keyboard share.
import { useCallback, useMemo, useState } from 'react';
import * as seqOps from './pageSequence.ts';
import type { EditState, PartMeta } from './pageSequence.ts';

export type SelectMode = 'only' | 'toggle' | 'range';

export interface PageEditor {
  seq: EditState;
  parts: seqOps.Part[];
  pages: seqOps.EditPage[];
  selected: ReadonlySet<number>;
  select(id: number, mode: SelectMode): void;
  selectAll(): void;
  clearSelection(): void;
  turn(ids: ReadonlySet<number>, direction: 1 | -1): void;
  move(ids: ReadonlySet<number>, direction: 1 | -1): void;
  moveTo(ids: ReadonlySet<number>, targetId: number, after: boolean): void;
  toggleSplit(pageId: number): void;
  setMeta(key: string, changes: Partial<Pick<PartMeta, 'name' | 'category'>>): void;
  reset(): void;
}

export function usePageEditor(makeInitial: () => EditState): PageEditor {
  const [seq, setSeq] = useState(makeInitial);
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  // Shift-click selects from here; the last page clicked without Shift.
  const [anchor, setAnchor] = useState<number | null>(null);

  const select = useCallback(
    (id: number, mode: SelectMode) => {
      if (mode === 'range' && anchor !== null) {
        setSelected(new Set(seqOps.rangeBetween(seq, anchor, id)));
        return;
      }
      setAnchor(id);
      if (mode === 'toggle') {
        setSelected((s) => {
          const next = new Set(s);
          if (next.has(id)) next.delete(id);
          else next.add(id);
          return next;
        });
      } else setSelected(new Set([id]));
    },
    [anchor, seq],
  );

  return {
    seq,
    parts: useMemo(() => seqOps.partsOf(seq), [seq]),
    pages: useMemo(() => seqOps.pagesOf(seq), [seq]),
    selected,
    select,
    selectAll: () => setSelected(new Set(seqOps.pagesOf(seq).map((p) => p.id))),
    clearSelection: () => setSelected(new Set()),
    turn: (ids, direction) => setSeq((s) => seqOps.rotate(s, ids, direction)),
    move: (ids, direction) => setSeq((s) => seqOps.moveStep(s, ids, direction)),
    moveTo: (ids, targetId, after) => setSeq((s) => seqOps.moveTo(s, ids, targetId, after)),
    toggleSplit: (pageId) => setSeq((s) => seqOps.toggleSplit(s, pageId)),
    setMeta: (key, changes) => setSeq((s) => seqOps.updateMeta(s, key, changes)),
    reset: () => {
      setSeq(makeInitial());
      setSelected(new Set());
      setAnchor(null);
    },
  };
}
