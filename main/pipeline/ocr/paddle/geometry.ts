// Plane geometry for the PaddleOCR reader: convex hulls, minimum-area rectangles and the rotated boxes
// (quads) that text lines are detected as and cropped from. Image pixels, y down.

export interface Point {
  x: number;
  y: number;
}

/**
 * A rotated rectangle: `u` is the unit vector of its width (the reading direction, pointing right within
 * 45° of the x axis), the height runs along the normal (u.y·-1, u.x), which points down.
 */
export interface RotatedBox {
  cx: number;
  cy: number;
  w: number;
  h: number;
  ux: number;
  uy: number;
}

/** Convex hull, counter-clockwise in y-up terms (Andrew's monotone chain); collinear points dropped. */
export function convexHull(points: Point[]): Point[] {
  const p = [...points].sort((a, b) => a.x - b.x || a.y - b.y);
  if (p.length <= 2) return p;
  const cross = (o: Point, a: Point, b: Point) => (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
  const lower: Point[] = [];
  for (const q of p) {
    while (lower.length >= 2 && cross(lower[lower.length - 2], lower[lower.length - 1], q) <= 0) lower.pop();
    lower.push(q);
  }
  const upper: Point[] = [];
  for (let i = p.length - 1; i >= 0; i--) {
    const q = p[i];
    while (upper.length >= 2 && cross(upper[upper.length - 2], upper[upper.length - 1], q) <= 0) upper.pop();
    upper.push(q);
  }
  return lower.slice(0, -1).concat(upper.slice(0, -1));
}

/**
 * The smallest rectangle around the points: one of its sides lies on an edge of the convex hull, so each
 * hull edge's direction is tried (rotating calipers without the calipers: hulls of text lines are small).
 */
export function minAreaRect(points: Point[]): RotatedBox {
  const hull = convexHull(points);
  if (hull.length === 0) return { cx: 0, cy: 0, w: 0, h: 0, ux: 1, uy: 0 };
  let best: RotatedBox | undefined;
  let bestArea = Infinity;
  const directions: [number, number][] = hull.length < 2 ? [[1, 0]] : hull.map((a, i) => {
    const b = hull[(i + 1) % hull.length];
    const len = Math.hypot(b.x - a.x, b.y - a.y);
    return len > 0 ? [(b.x - a.x) / len, (b.y - a.y) / len] : [1, 0];
  });
  for (const [ux, uy] of directions) {
    let minU = Infinity, maxU = -Infinity, minN = Infinity, maxN = -Infinity;
    for (const q of hull) {
      const pu = q.x * ux + q.y * uy;
      const pn = -q.x * uy + q.y * ux;
      if (pu < minU) minU = pu;
      if (pu > maxU) maxU = pu;
      if (pn < minN) minN = pn;
      if (pn > maxN) maxN = pn;
    }
    const area = (maxU - minU) * (maxN - minN);
    if (area < bestArea - 1e-9) {
      bestArea = area;
      const cu = (minU + maxU) / 2;
      const cn = (minN + maxN) / 2;
      best = { cx: cu * ux - cn * uy, cy: cu * uy + cn * ux, w: maxU - minU, h: maxN - minN, ux, uy };
    }
  }
  return uprightBox(best!);
}

/** The same rectangle described with its width direction within 45° of the x axis, pointing right: a
 * line of text is read along it, whatever side of the hull the rectangle was found from. */
export function uprightBox(b: RotatedBox): RotatedBox {
  let { ux, uy, w, h } = b;
  if (Math.abs(uy) > Math.abs(ux)) {
    // The other side is the one nearer the x axis: its direction is the normal.
    [ux, uy] = [-uy, ux];
    [w, h] = [h, w];
  }
  if (ux < 0 || (ux === 0 && uy < 0)) [ux, uy] = [-ux, -uy];
  return { ...b, ux, uy, w, h };
}

/** Corners: top left, top right, bottom right, bottom left (as read along u). */
export function boxCorners(b: RotatedBox): [Point, Point, Point, Point] {
  const nx = -b.uy;
  const ny = b.ux;
  const at = (su: number, sn: number): Point => ({ x: b.cx + su * (b.w / 2) * b.ux + sn * (b.h / 2) * nx, y: b.cy + su * (b.w / 2) * b.uy + sn * (b.h / 2) * ny });
  return [at(-1, -1), at(1, -1), at(1, 1), at(-1, 1)];
}

/** The image point at (s, t) of the box, s across its width and t down its height, both 0..1 from its top left. */
export function boxPoint(b: RotatedBox, s: number, t: number): Point {
  const su = (s - 0.5) * b.w;
  const sn = (t - 0.5) * b.h;
  return { x: b.cx + su * b.ux - sn * b.uy, y: b.cy + su * b.uy + sn * b.ux };
}

/** Whether an image point lies inside the box. */
export function insideBox(b: RotatedBox, x: number, y: number): boolean {
  const dx = x - b.cx;
  const dy = y - b.cy;
  return Math.abs(dx * b.ux + dy * b.uy) <= b.w / 2 && Math.abs(-dx * b.uy + dy * b.ux) <= b.h / 2;
}

/** Axis-aligned bounds of a box's part between s0 and s1 across its width (whole height). */
export function boxSpanBounds(b: RotatedBox, s0: number, s1: number, t0 = 0, t1 = 1): { x0: number; y0: number; x1: number; y1: number } {
  const pts = [boxPoint(b, s0, t0), boxPoint(b, s1, t0), boxPoint(b, s1, t1), boxPoint(b, s0, t1)];
  return { x0: Math.min(...pts.map((p) => p.x)), y0: Math.min(...pts.map((p) => p.y)), x1: Math.max(...pts.map((p) => p.x)), y1: Math.max(...pts.map((p) => p.y)) };
}
