// Virtualization of the page column: measures the scroll area, lays the pages out at the zoom's scale,
// and tracks which pages are near the viewport and which one the reader is on. Scroll events are folded
// into one update per frame, and React re-renders only when the set of mounted pages or the current
// page changes. A zoom change keeps the point at the centre of the view where it was.
import { useCallback, useLayoutEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { currentPageIndex, layoutPages, scaleFor, slotAt, visibleRange, type PageLayout, type Size } from './layout.ts';
import type { ZoomMode } from './types.ts';

export interface VirtualPages {
  area: Size;
  scale: number;
  layout: PageLayout;
  /** Pages to mount, inclusive; [0, -1] before the area is measured. */
  range: [number, number];
  current: number;
  /** Scrolls page `index` to the top of the view. */
  goToPage(index: number): void;
  /** Scrolls so that a rectangle of the content (CSS px) is in view, centred when it was out of view. */
  reveal(r: { top: number; bottom: number; left: number; right: number }): void;
  /** True while the reader flings through the pages: painting pages that fly by would only cost frames. */
  isScrollingFast(): boolean;
}

/** Faster than this many screen heights per second is skimming, not reading. */
const FAST_SCREENS_PER_SECOND = 2.5;
/** How long skimming is assumed to go on after the last fast scroll step. */
const FAST_HOLD_MS = 150;

/** `documentKey`: another document starts at its top, not at the place the last one was left. */
export function useVirtualPages(scroller: RefObject<HTMLDivElement | null>, sizes: readonly Size[], zoom: ZoomMode, documentKey: unknown): VirtualPages {
  const [area, setArea] = useState<Size>({ width: 0, height: 0 });
  const [range, setRange] = useState<[number, number]>([0, -1]);
  const [current, setCurrent] = useState(0);

  const scale = useMemo(() => (area.width ? scaleFor(zoom, area, sizes) : 0), [zoom, area, sizes]);
  const layout = useMemo(() => layoutPages(sizes, scale, area.width), [sizes, scale, area.width]);

  const layoutRef = useRef(layout);
  layoutRef.current = layout;
  /** The point at the centre of the view as (page, fraction down the page, fraction across the content). */
  const anchor = useRef<{ index: number; y: number; x: number } | null>(null);
  /** The scroll position at the last update, and until when the scrolling counts as fast. */
  const motion = useRef({ top: 0, time: 0, fastUntil: 0 });

  const update = useCallback(() => {
    const el = scroller.current;
    const { slots, width } = layoutRef.current;
    if (!el || !slots.length || !slots[0].width) return;
    const vh = el.clientHeight;
    // One screen above and below stays mounted: a page is drawn before it scrolls in.
    const [first, last] = visibleRange(slots, el.scrollTop, vh, vh);
    setRange((r) => (r[0] === first && r[1] === last ? r : [first, last]));
    setCurrent(currentPageIndex(slots, el.scrollTop, vh, el.scrollHeight));
    const centre = el.scrollTop + vh / 2;
    const i = slotAt(slots, centre);
    anchor.current = { index: i, y: (centre - slots[i].top) / slots[i].height, x: (el.scrollLeft + el.clientWidth / 2) / width };
    motion.current.top = el.scrollTop;
    motion.current.time = performance.now();
  }, [scroller]);

  // The size of the scroll area (window resizes, a panel beside the viewer opening).
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const measure = () => setArea((a) => (a.width === el.clientWidth && a.height === el.clientHeight ? a : { width: el.clientWidth, height: el.clientHeight }));
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, [scroller]);

  // Runs before the anchoring below (same commit, declared first).
  useLayoutEffect(() => {
    anchor.current = null;
    const el = scroller.current;
    if (el) el.scrollTop = el.scrollLeft = 0;
  }, [documentKey, scroller]);

  // A new layout (zoom, resize): put the anchored point back at the centre, then recompute the window,
  // all before the browser paints, so nothing visibly jumps.
  useLayoutEffect(() => {
    const el = scroller.current;
    const a = anchor.current;
    if (el && a && layout.slots[a.index]) {
      const slot = layout.slots[a.index];
      el.scrollTop = slot.top + a.y * slot.height - el.clientHeight / 2;
      el.scrollLeft = a.x * layout.width - el.clientWidth / 2;
    }
    update();
  }, [layout, scroller, update]);

  // Scroll events: at most one update per frame.
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    let frame = 0;
    const onScroll = () => {
      if (!frame) frame = requestAnimationFrame((now) => {
        frame = 0;
        // The reader's speed, from scroll events only: a jump to a page (goToPage, reveal) is not a fling.
        const m = motion.current;
        const dt = now - m.time;
        if (dt > 0 && dt < 250 && (Math.abs(el.scrollTop - m.top) / dt) * 1000 > FAST_SCREENS_PER_SECOND * el.clientHeight) m.fastUntil = now + FAST_HOLD_MS;
        update();
      });
    };
    el.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      el.removeEventListener('scroll', onScroll);
      cancelAnimationFrame(frame);
    };
  }, [scroller, update]);

  const goToPage = useCallback(
    (index: number) => {
      const el = scroller.current;
      const slot = layoutRef.current.slots[Math.min(layoutRef.current.slots.length - 1, Math.max(0, index))];
      if (!el || !slot) return;
      el.scrollTop = slot.top - 8;
      update();
    },
    [scroller, update],
  );

  const reveal = useCallback(
    (r: { top: number; bottom: number; left: number; right: number }) => {
      const el = scroller.current;
      if (!el) return;
      const margin = 48;
      if (r.top < el.scrollTop + margin || r.bottom > el.scrollTop + el.clientHeight - margin) el.scrollTop = (r.top + r.bottom) / 2 - el.clientHeight / 2;
      if (r.left < el.scrollLeft || r.right > el.scrollLeft + el.clientWidth) el.scrollLeft = (r.left + r.right) / 2 - el.clientWidth / 2;
      update();
    },
    [scroller, update],
  );

  const isScrollingFast = useCallback(() => performance.now() < motion.current.fastUntil, []);

  return { area, scale, layout, range, current, goToPage, reveal, isScrollingFast };
}
