// Where a dialog about a box on the page goes (the new-annotation dialog): beside the box, on the side
// with the most room, so the reviewer still sees what they drew or found; centred when no side has room.

import type { ScreenRect } from '../../viewer/types.ts';

export type { ScreenRect };

const GAP = 12;
const EDGE = 8;

/** The dialog's top-left corner (viewport pixels) for a dialog of `size` that must not cover `box`. */
export function placeBeside(box: ScreenRect, size: { width: number; height: number }, viewport: { width: number; height: number }): { left: number; top: number } {
  const clamp = (v: number, min: number, max: number) => Math.max(min, Math.min(v, Math.max(min, max)));
  const room = { right: viewport.width - box.right - GAP - EDGE, left: box.left - GAP - EDGE, below: viewport.height - box.bottom - GAP - EDGE, above: box.top - GAP - EDGE };
  const alongY = clamp((box.top + box.bottom) / 2 - size.height / 2, EDGE, viewport.height - size.height - EDGE);
  const alongX = clamp((box.left + box.right) / 2 - size.width / 2, EDGE, viewport.width - size.width - EDGE);
  const sides: [number, { left: number; top: number }][] = [];
  if (room.right >= size.width) sides.push([room.right, { left: box.right + GAP, top: alongY }]);
  if (room.left >= size.width) sides.push([room.left, { left: box.left - GAP - size.width, top: alongY }]);
  if (room.below >= size.height) sides.push([room.below, { left: alongX, top: box.bottom + GAP }]);
  if (room.above >= size.height) sides.push([room.above, { left: alongX, top: box.top - GAP - size.height }]);
  if (!sides.length) return { left: clamp((viewport.width - size.width) / 2, EDGE, viewport.width), top: clamp((viewport.height - size.height) / 2, EDGE, viewport.height) };
  return sides.sort((a, b) => b[0] - a[0])[0][1];
}

/** Where a rectangle in PDF points (origin bottom left) of a page stands on screen, if the page is shown. */
export function screenRectOf(r: { pageIndex: number; x0: number; x1: number; y0: number; y1: number }, pageSize: [number, number] | undefined): ScreenRect | null {
  const el = document.querySelector<HTMLElement>(`.viewer-page[data-page-number="${r.pageIndex + 1}"]`);
  if (!el || !pageSize) return null;
  const page = el.getBoundingClientRect();
  const sx = page.width / pageSize[0];
  const sy = page.height / pageSize[1];
  return { left: page.left + r.x0 * sx, right: page.left + r.x1 * sx, top: page.top + (pageSize[1] - r.y1) * sy, bottom: page.top + (pageSize[1] - r.y0) * sy };
}

/** The rectangle around several rectangles (a value over several lines). */
export function around(rects: ScreenRect[]): ScreenRect | null {
  if (!rects.length) return null;
  return { left: Math.min(...rects.map((r) => r.left)), top: Math.min(...rects.map((r) => r.top)), right: Math.max(...rects.map((r) => r.right)), bottom: Math.max(...rects.map((r) => r.bottom)) };
}
