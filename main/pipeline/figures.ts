// Finds figure regions in a page image: large areas of ink that are not text (photos, drawings, filled
// shapes), for layout segmentation (domain/layoutSegmentation.ts). Boxes in page-image pixels.
//
// The image is decoded to grey once (sharp, on libuv's thread pool) and measured on a coarse grid of
// square cells (CELLS_ON_LONG_SIDE across the long side, 8 px on a 2000 px page):
// - ink is any pixel clearly darker than the page background (the most common grey level, so a scan's
//   grey paper is background too); a cell is ink when INK_FILL of its pixels are;
// - cells touching a text word box are cleared: text is segmented from the character boxes, not here;
// - ink cells are joined into 8-connected components, and components whose boxes touch are merged;
// - a component is a figure when both its sides reach MIN_SIDE of the page's long side and either no text
//   lies in its box (a drawing) or it is mostly solid ink with only a little text on it (a photo with a
//   caption inside). Sparse ink around text (table rules, frames around paragraphs, underlines) is not.
import sharp from 'sharp';
import { overlapArea, type PixelBox } from '../domain/layoutSegmentation.ts';

const CELLS_ON_LONG_SIDE = 250;
/** Grey levels below the background that count as ink: above paper texture and JPEG noise. */
const INK_CONTRAST = 20;
const INK_FILL = 0.3;
const MIN_SIDE = 0.03;
/** Text may cover at most this share of a sparse figure's box (axis labels brushing it), ... */
const SPARSE_TEXT_COVER = 0.02;
/** ... and this share of a solid one (at least SOLID_DENSITY of its cells ink). */
const SOLID_TEXT_COVER = 0.3;
const SOLID_DENSITY = 0.5;

interface Component {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  cells: number;
}

/**
 * The figure regions of a page image. `textBoxes` are the page's words in pixels of a `width` x
 * `height` image (the page's image_width and image_height); the result is in the same pixels.
 */
export async function findFigures(image: Buffer | string, textBoxes: readonly PixelBox[], width: number, height: number): Promise<PixelBox[]> {
  const { data, info } = await sharp(image).flatten({ background: '#ffffff' }).greyscale().raw().toBuffer({ resolveWithObject: true });
  const W = info.width;
  const H = info.height;
  const channels = info.channels;
  // The stored image should have the page's size; scale the boxes if it does not.
  const kx = W / width;
  const ky = H / height;

  const histogram = new Uint32Array(256);
  for (let i = 0; i < data.length; i += channels) histogram[data[i]!]!++;
  const background = histogram.indexOf(Math.max(...histogram));
  // A dark page (inverted scan, full-page photo) has no paper to stand out from.
  if (background < 128) return [];
  const inkBelow = background - INK_CONTRAST;

  const cell = Math.max(2, Math.round(Math.max(W, H) / CELLS_ON_LONG_SIDE));
  const gw = Math.ceil(W / cell);
  const gh = Math.ceil(H / cell);
  const counts = new Uint32Array(gw * gh);
  for (let y = 0; y < H; y++) {
    const rowStart = y * W * channels;
    const gridRow = ((y / cell) | 0) * gw;
    for (let x = 0; x < W; x++) if (data[rowStart + x * channels]! < inkBelow) counts[gridRow + ((x / cell) | 0)]!++;
  }
  const ink = new Uint8Array(gw * gh);
  for (let gy = 0; gy < gh; gy++) {
    const ch = Math.min(cell, H - gy * cell);
    for (let gx = 0; gx < gw; gx++) {
      const cw = Math.min(cell, W - gx * cell);
      if (counts[gy * gw + gx]! >= INK_FILL * cw * ch) ink[gy * gw + gx] = 1;
    }
  }

  const text = textBoxes.map((b) => ({ x0: b.x0 * kx, y0: b.y0 * ky, x1: b.x1 * kx, y1: b.y1 * ky }));
  for (const b of text) {
    for (let gy = Math.max(0, Math.floor(b.y0 / cell)); gy <= Math.min(gh - 1, Math.floor(b.y1 / cell)); gy++) {
      for (let gx = Math.max(0, Math.floor(b.x0 / cell)); gx <= Math.min(gw - 1, Math.floor(b.x1 / cell)); gx++) ink[gy * gw + gx] = 0;
    }
  }

  const components = mergeTouching(componentsOf(ink, gw, gh));
  const minSide = MIN_SIDE * Math.max(gw, gh);
  const figures: PixelBox[] = [];
  for (const c of components) {
    if (c.x1 - c.x0 < minSide || c.y1 - c.y0 < minSide) continue;
    const box = { x0: c.x0 * cell, y0: c.y0 * cell, x1: Math.min(W, c.x1 * cell), y1: Math.min(H, c.y1 * cell) };
    const boxArea = (box.x1 - box.x0) * (box.y1 - box.y0);
    // Word boxes never overlap one another, so their overlaps with the box add up.
    const covered = text.reduce((sum, t) => sum + overlapArea(t, box), 0) / boxArea;
    const density = c.cells / ((c.x1 - c.x0) * (c.y1 - c.y0));
    if (covered > SPARSE_TEXT_COVER && !(density >= SOLID_DENSITY && covered <= SOLID_TEXT_COVER)) continue;
    figures.push({ x0: box.x0 / kx, y0: box.y0 / ky, x1: box.x1 / kx, y1: box.y1 / ky });
  }
  return figures;
}

/** 8-connected components of the ink cells, as cell boxes (x1, y1 exclusive) with their ink cell counts. */
function componentsOf(ink: Uint8Array, gw: number, gh: number): Component[] {
  const seen = new Uint8Array(ink.length);
  const stack = new Int32Array(ink.length);
  const out: Component[] = [];
  for (let start = 0; start < ink.length; start++) {
    if (!ink[start] || seen[start]) continue;
    seen[start] = 1;
    let top = 0;
    stack[top++] = start;
    const c: Component = { x0: gw, y0: gh, x1: 0, y1: 0, cells: 0 };
    while (top > 0) {
      const i = stack[--top]!;
      const x = i % gw;
      const y = (i / gw) | 0;
      c.cells++;
      c.x0 = Math.min(c.x0, x);
      c.y0 = Math.min(c.y0, y);
      c.x1 = Math.max(c.x1, x + 1);
      c.y1 = Math.max(c.y1, y + 1);
      for (let dy = -1; dy <= 1; dy++) {
        const ny = y + dy;
        if (ny < 0 || ny >= gh) continue;
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          if (nx < 0 || nx >= gw) continue;
          const j = ny * gw + nx;
          if (ink[j] && !seen[j]) {
            seen[j] = 1;
            stack[top++] = j;
          }
        }
      }
    }
    out.push(c);
  }
  return out;
}

/** Components whose boxes overlap or touch are one region (the parts of a drawing, a photo cut by a label).
 * Passes over all pairs until none merges: a few passes, as merged boxes only grow. */
function mergeTouching(components: readonly Component[]): Component[] {
  let list = [...components];
  for (let merged = true; merged; ) {
    merged = false;
    const alive = list.map(() => true);
    for (let i = 0; i < list.length; i++) {
      if (!alive[i]) continue;
      const a = list[i]!;
      for (let j = i + 1; j < list.length; j++) {
        const b = list[j]!;
        if (!alive[j] || a.x0 > b.x1 || b.x0 > a.x1 || a.y0 > b.y1 || b.y0 > a.y1) continue;
        a.x0 = Math.min(a.x0, b.x0);
        a.y0 = Math.min(a.y0, b.y0);
        a.x1 = Math.max(a.x1, b.x1);
        a.y1 = Math.max(a.y1, b.y1);
        a.cells += b.cells;
        alive[j] = false;
        merged = true;
      }
    }
    list = list.filter((_, i) => alive[i]);
  }
  return list;
}
