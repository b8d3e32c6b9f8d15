// The review panel's width (issue 12): fixed, so that the page beside it keeps its zoom between actions
// (a panel sized by its content made "fit width" re-zoom whenever a longer text appeared), resizable with
// a drag handle or the arrow keys on it, and remembered in localStorage. At 800 px or less the panel is a
// drawer over the page instead, so the page gets the width.
import { useCallback, useEffect, useState, type KeyboardEvent, type PointerEvent } from 'react';

const KEY = 'folio.reviewPanelWidth';
export const PANEL_DEFAULT = 432;
const PANEL_MIN = 300;
const PANEL_MAX = 760;
/** The page keeps at least this much beside the panel. */
const PAGE_MIN = 360;
export const DRAWER_QUERY = '(max-width: 800px)';

const clamp = (w: number) => Math.round(Math.max(PANEL_MIN, Math.min(PANEL_MAX, window.innerWidth - PAGE_MIN, w)));

function stored(): number {
  const n = Number(localStorage.getItem(KEY));
  return Number.isFinite(n) && n > 0 ? n : PANEL_DEFAULT;
}

export function usePanelWidth() {
  const [width, setWidth] = useState(() => clamp(stored()));
  const save = useCallback((w: number) => {
    const next = clamp(w);
    setWidth(next);
    localStorage.setItem(KEY, String(next));
  }, []);

  // A smaller window narrows the panel for the time being; the stored width comes back when there is room.
  useEffect(() => {
    const onResize = () => setWidth(clamp(stored()));
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);

  /** The handle sits at the panel's left edge: dragging left widens the panel. */
  const onPointerDown = useCallback(
    (e: PointerEvent<HTMLElement>) => {
      if (e.button !== 0) return;
      e.preventDefault();
      const handle = e.currentTarget;
      handle.setPointerCapture(e.pointerId);
      const startX = e.clientX;
      const startW = width;
      const move = (ev: globalThis.PointerEvent) => setWidth(clamp(startW + (startX - ev.clientX)));
      const up = (ev: globalThis.PointerEvent) => {
        handle.removeEventListener('pointermove', move);
        handle.removeEventListener('pointerup', up);
        handle.removeEventListener('pointercancel', up);
        save(startW + (startX - ev.clientX));
      };
      handle.addEventListener('pointermove', move);
      handle.addEventListener('pointerup', up);
      handle.addEventListener('pointercancel', up);
    },
    [width, save],
  );

  const onKeyDown = useCallback(
    (e: KeyboardEvent<HTMLElement>) => {
      const step = e.shiftKey ? 64 : 16;
      if (e.key === 'ArrowLeft') save(width + step);
      else if (e.key === 'ArrowRight') save(width - step);
      else if (e.key === 'Home') save(PANEL_DEFAULT);
      else return;
      e.preventDefault();
      e.stopPropagation();
    },
    [width, save],
  );

  return { width, min: PANEL_MIN, max: PANEL_MAX, onPointerDown, onKeyDown };
}

export function useMediaQuery(query: string): boolean {
  const [matches, setMatches] = useState(() => window.matchMedia(query).matches);
  useEffect(() => {
    const list = window.matchMedia(query);
    const onChange = () => setMatches(list.matches);
    onChange();
    list.addEventListener('change', onChange);
    return () => list.removeEventListener('change', onChange);
  }, [query]);
  return matches;
}
