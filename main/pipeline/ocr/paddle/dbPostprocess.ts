// Text lines from the probability map of a DB (Differentiable Binarization) detector, as PP-OCR's
// detector is trained for: the map is high on each line's shrunk core, so the cores are found by a
// threshold and connected components, each gets its minimum-area rectangle, weak ones are dropped by
// their mean probability, and the survivors are grown back ("unclipped") by the distance DB shrank them by.
import { insideBox, minAreaRect, type Point, type RotatedBox } from './geometry.ts';

export interface DbOptions {
  /** Pixels of the map above this are text (PP-OCR: 0.3). */
  threshold: number;
  /** A component whose rectangle's mean probability is below this is dropped (PP-OCR: 0.6). */
  boxThreshold: number;
  /** How far a core is grown: its area times this over its perimeter (PP-OCR: 1.5). */
  unclipRatio: number;
  /** Rectangles whose short side is below this (map pixels) are noise (PP-OCR: 3). */
  minSize: number;
  /** Most components considered, largest first. */
  maxCandidates: number;
}

export const DB_DEFAULTS: Readonly<DbOptions> = Object.freeze({ threshold: 0.3, boxThreshold: 0.6, unclipRatio: 1.5, minSize: 3, maxCandidates: 1000 });

export interface DetectedBox extends RotatedBox {
  /** Mean probability inside the core's rectangle. */
  score: number;
}

/**
 * Boxes (in map pixels, then scaled by sx, sy to the image's) from a probability map of width × height.
 * 8-connected components; each row's leftmost and rightmost pixel squares make the component's hull.
 */
export function dbBoxes(prob: Float32Array, width: number, height: number, options: Partial<DbOptions> = {}, sx = 1, sy = 1): DetectedBox[] {
  const o = { ...DB_DEFAULTS, ...options };
  const n = width * height;
  const label = new Int32Array(n).fill(-1);
  const stack = new Int32Array(n);
  interface Component { pixels: number; rows: Map<number, [number, number]>; x0: number; x1: number; y0: number; y1: number }
  const components: Component[] = [];
  for (let start = 0; start < n; start++) {
    if (label[start] !== -1 || !(prob[start] > o.threshold)) continue;
    const id = components.length;
    const c: Component = { pixels: 0, rows: new Map(), x0: width, x1: -1, y0: height, y1: -1 };
    components.push(c);
    let top = 0;
    stack[top++] = start;
    label[start] = id;
    while (top > 0) {
      const p = stack[--top];
      const x = p % width;
      const y = (p - x) / width;
      c.pixels++;
      const row = c.rows.get(y);
      if (!row) c.rows.set(y, [x, x]);
      else if (x < row[0]) row[0] = x;
      else if (x > row[1]) row[1] = x;
      if (x < c.x0) c.x0 = x;
      if (x > c.x1) c.x1 = x;
      if (y < c.y0) c.y0 = y;
      if (y > c.y1) c.y1 = y;
      for (let dy = -1; dy <= 1; dy++) {
        const yy = y + dy;
        if (yy < 0 || yy >= height) continue;
        for (let dx = -1; dx <= 1; dx++) {
          const xx = x + dx;
          if (xx < 0 || xx >= width || (dx === 0 && dy === 0)) continue;
          const q = yy * width + xx;
          if (label[q] === -1 && prob[q] > o.threshold) {
            label[q] = id;
            stack[top++] = q;
          }
        }
      }
    }
  }
  const boxes: DetectedBox[] = [];
  const candidates = components.filter((c) => c.pixels >= 2).sort((a, b) => b.pixels - a.pixels).slice(0, o.maxCandidates);
  for (const c of candidates) {
    // Pixel squares, not centres: a component one pixel high still has a height.
    const pts: Point[] = [];
    for (const [y, [l, r]] of c.rows) pts.push({ x: l, y }, { x: l, y: y + 1 }, { x: r + 1, y }, { x: r + 1, y: y + 1 });
    const core = minAreaRect(pts);
    if (Math.min(core.w, core.h) < o.minSize) continue;
    // The map's mean inside the rectangle (pixels below the threshold included), as PP-OCR scores a box.
    let sum = 0;
    let count = 0;
    for (let y = c.y0; y <= c.y1; y++) for (let x = c.x0; x <= c.x1; x++) {
      if (!insideBox(core, x + 0.5, y + 0.5)) continue;
      sum += prob[y * width + x];
      count++;
    }
    const score = count ? sum / count : 0;
    if (score < o.boxThreshold) continue;
    // Offsetting a rectangle's sides outwards by d keeps it a rectangle (the rounded corners the polygon
    // offset would add fall outside the minimum-area rectangle taken of it).
    const d = (core.w * core.h * o.unclipRatio) / (2 * (core.w + core.h));
    const w = core.w + 2 * d;
    const h = core.h + 2 * d;
    if (Math.min(w, h) < o.minSize + 2) continue;
    // Scaled to the image: an axis scale turns the box's directions as well.
    const ex = { x: core.ux * w * sx, y: core.uy * w * sy };
    const ey = { x: -core.uy * h * sx, y: core.ux * h * sy };
    const lw = Math.hypot(ex.x, ex.y);
    const lh = Math.hypot(ey.x, ey.y);
    boxes.push({ cx: core.cx * sx, cy: core.cy * sy, w: lw, h: lh, ux: ex.x / lw, uy: ex.y / lw, score });
  }
  return boxes;
}
