// The pages of the document in their new order, with a split toggle in every gap between two pages.
// Mouse: click, Shift-click and Ctrl-click select; drag re-orders. Keyboard (on a page): arrows go
// through the pages, Ctrl+Space adds to the selection, Alt+arrows move, R / Shift+R turn, S splits after.
// The thumbnails are large enough to see where a payslip ends, and a slider sizes them (remembered); past
// the thumbnail's own resolution the page image is shown instead.
import { useEffect, useRef, useState, type DragEvent, type KeyboardEvent, type MouseEvent } from 'react';
import { useClient } from '../../state/session.ts';
import { PageThumb } from './PageThumb.tsx';
import type { PageEditor } from './usePageEditor.ts';

interface DropTarget {
  id: number;
  side: 'before' | 'after';
}

const SIZE_KEY = 'folio.editThumbSize';
const SIZE_MIN = 8;
const SIZE_MAX = 28;
const SIZE_DEFAULT = 14;
/** Above this size (rem) the thumbnail (a small PNG) would be blurred: the page image is shown. */
const THUMB_SHARP_UNTIL = 12;

function storedSize(): number {
  const n = Number(localStorage.getItem(SIZE_KEY));
  return Number.isFinite(n) && n >= SIZE_MIN && n <= SIZE_MAX ? n : SIZE_DEFAULT;
}

export function PageStrip({ editor, thumbnailUrl }: { editor: PageEditor; thumbnailUrl(pageId: number): string }) {
  const { parts, pages, selected } = editor;
  const [size, setSize] = useState(storedSize);
  const client = useClient();
  const imageOf = (id: number) => (size > THUMB_SHARP_UNTIL ? client.pageImageUrl(id) : thumbnailUrl(id));
  const stripRef = useRef<HTMLDivElement>(null);
  const dragging = useRef<ReadonlySet<number> | null>(null);
  const [drop, setDrop] = useState<DropTarget | null>(null);
  // The page to focus once the re-ordered strip has rendered (keyboard moves keep the focus on the page).
  const [focusId, setFocusId] = useState<number | null>(null);

  useEffect(() => {
    if (focusId === null) return;
    stripRef.current?.querySelector<HTMLButtonElement>(`button.thumb[data-page-id="${focusId}"]`)?.focus();
    setFocusId(null);
  }, [focusId, pages]);

  /** The pages an action on `id` applies to: the selection when the page is in it, else the page alone. */
  const targetsOf = (id: number): ReadonlySet<number> => (selected.has(id) ? selected : new Set([id]));
  const lastOfPart = new Set(parts.slice(0, -1).map((p) => p.pages[p.pages.length - 1].id));

  function onKeyDown(e: KeyboardEvent<HTMLButtonElement>, index: number): void {
    const id = pages[index].id;
    const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
    const go = (to: number) => setFocusId(pages[Math.max(0, Math.min(pages.length - 1, to))].id);
    let handled = true;
    if ((key === 'ArrowLeft' || key === 'ArrowRight') && e.altKey) {
      const targets = targetsOf(id);
      if (!selected.has(id)) editor.select(id, 'only');
      editor.move(targets, key === 'ArrowLeft' ? -1 : 1);
      setFocusId(id);
    } else if (key === 'ArrowLeft') go(index - 1);
    else if (key === 'ArrowRight') go(index + 1);
    else if (key === 'Home') go(0);
    else if (key === 'End') go(pages.length - 1);
    else if (key === ' ' && (e.ctrlKey || e.metaKey)) editor.select(id, 'toggle');
    else if (key === 'a' && (e.ctrlKey || e.metaKey)) editor.selectAll();
    else if (key === 'r' && !e.ctrlKey && !e.metaKey && !e.altKey) editor.turn(targetsOf(id), e.shiftKey ? -1 : 1);
    else if (key === 's' && !e.ctrlKey && !e.metaKey && !e.altKey) editor.toggleSplit(id);
    else if (key === 'Escape') editor.clearSelection();
    else handled = false;
    if (handled) e.preventDefault();
  }

  function onSelect(e: MouseEvent<HTMLButtonElement>, id: number): void {
    editor.select(id, e.shiftKey ? 'range' : e.ctrlKey || e.metaKey ? 'toggle' : 'only');
  }

  function onDragStart(e: DragEvent<HTMLDivElement>, id: number): void {
    dragging.current = targetsOf(id);
    e.dataTransfer.effectAllowed = 'move';
    e.dataTransfer.setData('text/plain', String(id));
  }

  function onDragOver(e: DragEvent<HTMLDivElement>, id: number): void {
    if (!dragging.current) return; // something else is dragged over (a file): not ours
    e.preventDefault();
    e.dataTransfer.dropEffect = 'move';
    const box = e.currentTarget.getBoundingClientRect();
    const side = e.clientX > box.left + box.width / 2 ? 'after' : 'before';
    if (drop?.id !== id || drop.side !== side) setDrop({ id, side });
  }

  function onDrop(e: DragEvent<HTMLDivElement>, id: number): void {
    e.preventDefault();
    const moving = dragging.current;
    const box = e.currentTarget.getBoundingClientRect();
    if (moving) editor.moveTo(moving, id, e.clientX > box.left + box.width / 2);
    onDragEnd();
  }

  function onDragEnd(): void {
    dragging.current = null;
    setDrop(null);
  }

  let index = -1;
  return (
    <>
    <label className="thumb-zoom">
      <span>Page size</span>
      <input
        type="range"
        min={SIZE_MIN}
        max={SIZE_MAX}
        step={1}
        value={size}
        aria-valuetext={`${size} rem`}
        onChange={(e) => {
          const next = Number(e.target.value);
          setSize(next);
          localStorage.setItem(SIZE_KEY, String(next));
        }}
      />
    </label>
    <div className="page-strip" ref={stripRef} role="group" aria-label="Pages in their new order" style={{ ['--thumb' as string]: `${size}rem` }} onDragLeave={(e) => e.currentTarget === e.target && setDrop(null)}>
      {parts.map((part, partIndex) =>
        part.pages.map((page, k) => {
          index += 1;
          const i = index;
          const next = pages[i + 1];
          return (
            <div className="strip-slot" key={page.id}>
              <PageThumb
                page={page}
                thumbnailUrl={imageOf(page.id)}
                partIndex={partIndex}
                partLabel={k === 0 && parts.length > 1 ? `Document ${partIndex + 1}` : null}
                selected={selected.has(page.id)}
                dropSide={drop?.id === page.id ? drop.side : null}
                onSelect={(e) => onSelect(e, page.id)}
                onKeyDown={(e) => onKeyDown(e, i)}
                onTurn={(direction) => editor.turn(new Set([page.id]), direction)}
                onDragStart={(e) => onDragStart(e, page.id)}
                onDragOver={(e) => onDragOver(e, page.id)}
                onDrop={(e) => onDrop(e, page.id)}
                onDragEnd={onDragEnd}
              />
              {next && (
                <button
                  type="button"
                  className="split-toggle"
                  aria-pressed={lastOfPart.has(page.id)}
                  aria-label={`Split between page ${page.number} and page ${next.number}`}
                  title={lastOfPart.has(page.id) ? 'Join these pages into one document' : 'Split into two documents here'}
                  onClick={() => editor.toggleSplit(page.id)}
                >
                  <span aria-hidden="true">✂</span>
                </button>
              )}
            </div>
          );
        }),
      )}
    </div>
    </>
  );
}
