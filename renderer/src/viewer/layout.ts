// The viewer's geometry, kept pure so that it is cheap to recompute on every scroll: the zoom as a
// scale, where each page sits in the scroll area, which pages are near the viewport, and the mapping
// between CSS pixels on a page and the API's PDF points (origin bottom left).
import type { ZoomMode } from './types.ts';

/** 100% shows a page at its printed size: CSS pixels are 1/96 in, PDF points 1/72 in. */
export const PX_PER_PT = 96 / 72;
export const MIN_PERCENT = 25;
export const MAX_PERCENT = 400;
/** The steps of zoom in / zoom out (Ctrl +/-) and of the zoom menu. */
export const ZOOM_STEPS = [25, 33, 50, 67, 75, 90, 100, 110, 125, 150, 175, 200, 250, 300, 400];
/** Space around and between pages, in CSS pixels. */
export const PAGE_GAP = 16;

export interface Size {
  width: number;
  height: number;
}

/** CSS pixels per PDF point for a zoom in a scroll area of `area` (client size, scrollbar excluded). */
export function scaleFor(zoom: ZoomMode, area: Size, pages: readonly Size[]): number {
  if (zoom.kind === 'percent') return (clampPercent(zoom.value) / 100) * PX_PER_PT;
  // One scale for every page, so that boxes and drawing map the same way on all of them: the widest
  // (and tallest) page fits; fitted zooms stay inside the range the menu offers.
  const maxW = Math.max(1, ...pages.map((p) => p.width));
  const maxH = Math.max(1, ...pages.map((p) => p.height));
  const availW = Math.max(50, area.width - 2 * PAGE_GAP);
  const availH = Math.max(50, area.height - 2 * PAGE_GAP);
  const fit = zoom.kind === 'fit-width' ? availW / maxW : Math.min(availW / maxW, availH / maxH);
  return Math.min(Math.max(fit, (MIN_PERCENT / 100) * PX_PER_PT), (MAX_PERCENT / 100) * PX_PER_PT);
}

export const clampPercent = (p: number) => Math.min(MAX_PERCENT, Math.max(MIN_PERCENT, Math.round(p)));
export const percentOf = (scale: number) => Math.round((scale / PX_PER_PT) * 100);

/** The next zoom step above (`direction` 1) or below (-1) the zoom in effect. */
export function stepZoom(currentPercent: number, direction: 1 | -1): ZoomMode {
  const next = direction > 0 ? ZOOM_STEPS.find((s) => s > currentPercent + 0.5) : [...ZOOM_STEPS].reverse().find((s) => s < currentPercent - 0.5);
  return { kind: 'percent', value: next ?? (direction > 0 ? MAX_PERCENT : MIN_PERCENT) };
}

export interface PageSlot {
  top: number;
  left: number;
  width: number;
  height: number;
}

export interface PageLayout {
  slots: PageSlot[];
  /** Size of the scrolled content. */
  width: number;
  height: number;
}

/** Pages stacked top to bottom, each centred horizontally; sizes come from the API, so nothing moves when pages render. */
export function layoutPages(pages: readonly Size[], scale: number, areaWidth: number): PageLayout {
  const maxW = Math.max(0, ...pages.map((p) => p.width)) * scale;
  const width = Math.max(areaWidth, maxW + 2 * PAGE_GAP);
  const slots: PageSlot[] = [];
  let top = PAGE_GAP;
  for (const p of pages) {
    const w = p.width * scale;
    const h = p.height * scale;
    slots.push({ top, left: Math.max(PAGE_GAP, (width - w) / 2), width: w, height: h });
    top += h + PAGE_GAP;
  }
  return { slots, width, height: top };
}

/** Index of the first slot whose bottom is below `y` (binary search: 300 pages, every scroll event). */
export function slotAt(slots: readonly PageSlot[], y: number): number {
  let lo = 0;
  let hi = slots.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (slots[mid].top + slots[mid].height < y) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The pages to keep mounted: those in the viewport plus `overscan` pixels above and below it. */
export function visibleRange(slots: readonly PageSlot[], scrollTop: number, viewHeight: number, overscan: number): [number, number] {
  if (!slots.length) return [0, -1];
  const first = slotAt(slots, scrollTop - overscan);
  let last = first;
  const bottom = scrollTop + viewHeight + overscan;
  while (last + 1 < slots.length && slots[last + 1].top < bottom) last++;
  return [first, last];
}

/** The page a reader is on: the one crossing a line a third down the viewport (the last one at the very end). */
export function currentPageIndex(slots: readonly PageSlot[], scrollTop: number, viewHeight: number, scrollHeight: number): number {
  if (!slots.length) return 0;
  if (scrollTop + viewHeight >= scrollHeight - 2) return slots.length - 1;
  return slotAt(slots, scrollTop + viewHeight / 3);
}

export interface PdfRect {
  x0: number;
  x1: number;
  y0: number;
  y1: number;
}

/**
 * A rectangle in PDF points (origin bottom left, as the API gives boxes of the page as displayed, its
 * rotation applied) as percentages of the page box: boxes then follow any zoom without re-rendering.
 */
export function rectToPercent(r: PdfRect, page: Size): { left: string; top: string; width: string; height: string } {
  return {
    left: `${(r.x0 / page.width) * 100}%`,
    top: `${((page.height - r.y1) / page.height) * 100}%`,
    width: `${((r.x1 - r.x0) / page.width) * 100}%`,
    height: `${((r.y1 - r.y0) / page.height) * 100}%`,
  };
}

/**
 * A rectangle dragged on a page, in CSS pixels from the page's top-left corner, as PDF points (origin
 * bottom left, y0 < y1), clamped to the page. The page box shows the page as displayed (rotation
 * applied, `original_size` as the API reports it), which is the space of the API's boxes, so the
 * mapping is the same for every rotation.
 */
export function cssRectToPdf(a: { x: number; y: number }, b: { x: number; y: number }, scale: number, page: Size): PdfRect {
  const clampX = (v: number) => Math.min(page.width, Math.max(0, v / scale));
  const clampY = (v: number) => Math.min(page.height, Math.max(0, page.height - v / scale));
  const xs = [clampX(a.x), clampX(b.x)].sort((p, q) => p - q);
  const ys = [clampY(a.y), clampY(b.y)].sort((p, q) => p - q);
  return { x0: round2(xs[0]), x1: round2(xs[1]), y0: round2(ys[0]), y1: round2(ys[1]) };
}

const round2 = (v: number) => Math.round(v * 100) / 100;

/** Where a rectangle of page `index` lies in the scrolled content, in CSS pixels. */
export function rectInContent(slot: PageSlot, r: PdfRect, page: Size): { top: number; bottom: number; left: number; right: number } {
  const s = slot.width / page.width;
  return { top: slot.top + (page.height - r.y1) * s, bottom: slot.top + (page.height - r.y0) * s, left: slot.left + r.x0 * s, right: slot.left + r.x1 * s };
}
