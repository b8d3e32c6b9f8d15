// The Paddle reader's lines as tesseract's result tree (blocks > paragraphs > lines > words > symbols, page
// pixels), so the pool's geometry (toPageText) treats them like any engine's; and the hybrid engine's
// line strip: the detected lines cut out, stacked into one image for tesseract, and its words mapped back.
import type { TessBlock, TessBox, TessLine, TessWord } from '../ocrText.ts';
import { boxPoint, boxSpanBounds, type RotatedBox } from './geometry.ts';
import type { ReadLine } from './reader.ts';
import { cropLine, type RgbImage } from './raster.ts';

const toBox = (b: { x0: number; y0: number; x1: number; y1: number }): TessBox => ({ x0: Math.round(b.x0), y0: Math.round(b.y0), x1: Math.round(b.x1), y1: Math.round(b.y1) });

/** Boxes in reading order: rows top to bottom (boxes whose middles lie within each other's height share a
 * row), left to right in a row. */
export function readingOrder<T extends { box: RotatedBox }>(items: T[]): T[] {
  const sorted = [...items].sort((a, b) => a.box.cy - b.box.cy);
  const rows: T[][] = [];
  for (const item of sorted) {
    const row = rows[rows.length - 1];
    const last = row?.[row.length - 1];
    if (row && last && Math.abs(item.box.cy - last.box.cy) < Math.min(item.box.h, last.box.h) / 2) row.push(item);
    else rows.push([item]);
  }
  return rows.flatMap((r) => r.sort((a, b) => a.box.cx - b.box.cx));
}

/** One block (one paragraph, one line) per detected line: the detector's lines are the layout. */
export function linesToBlocks(lines: ReadLine[]): TessBlock[] {
  return readingOrder(lines).map((line) => {
    const words: TessWord[] = line.words.map((w) => ({
      text: w.text,
      confidence: Math.round(w.confidence * 10000) / 100,
      bbox: toBox(boxSpanBounds(line.box, w.s0, w.s1, w.t0, w.t1)),
      symbols: w.chars.map((c) => ({ text: c.text, bbox: toBox(boxSpanBounds(line.box, c.s0, c.s1, w.t0, w.t1)) })),
    }));
    const tl: TessLine = { bbox: toBox(boxSpanBounds(line.box, 0, 1)), baseline: null, rowAttributes: null, words };
    return { paragraphs: [{ lines: [tl] }] };
  });
}

/** Where one detected line lies in the strip. */
export interface StripRow {
  box: RotatedBox;
  top: number;
  /** The line's size in the strip, pixels. */
  width: number;
  height: number;
}

export interface LineStrip {
  /** Grayscale pixels, width × height. */
  gray: Uint8Array;
  width: number;
  height: number;
  rows: StripRow[];
  /** Strip pixels per page pixel, the median over the lines (for the resolution tesseract is told). */
  scale: number;
}

/** White between the lines and around them, pixels: tesseract sees separate lines, never one. */
const STRIP_GAP = 24;
const STRIP_MARGIN = 24;

/**
 * The detected lines, each cut out along its box and scaled to `rowHeight` pixels, stacked top to bottom
 * on white in reading order. A line is one row, so tesseract (one uniform block, psm 6) reads each as a line.
 */
export function buildStrip(img: RgbImage, boxes: RotatedBox[], rowHeight: number): LineStrip {
  const ordered = readingOrder(boxes.map((box) => ({ box })));
  const crops = ordered.map(({ box }) => ({ box, image: cropLine(img, box, rowHeight) }));
  const width = Math.max(1, ...crops.map((c) => c.image.width)) + 2 * STRIP_MARGIN;
  const height = STRIP_MARGIN * 2 + crops.reduce((a, c) => a + c.image.height, 0) + STRIP_GAP * Math.max(0, crops.length - 1);
  const gray = new Uint8Array(width * height).fill(255);
  const rows: StripRow[] = [];
  let top = STRIP_MARGIN;
  for (const c of crops) {
    for (let y = 0; y < c.image.height; y++) gray.set(c.image.gray.subarray(y * c.image.width, (y + 1) * c.image.width), (top + y) * width + STRIP_MARGIN);
    rows.push({ box: c.box, top, width: c.image.width, height: c.image.height });
    top += c.image.height + STRIP_GAP;
  }
  const scales = crops.map((c) => rowHeight / Math.max(1, c.box.h)).sort((a, b) => a - b);
  return { gray, width, height, rows, scale: scales.length ? scales[scales.length >> 1] : 1 };
}

/**
 * Tesseract's reading of a strip, back on the page: each word belongs to the row its middle lies in, its
 * boxes and its line's baseline are mapped through that row's box. Tesseract's lines of one row become one
 * line; anything between the rows (noise tesseract read in the gaps) is dropped.
 */
export function mapStrip(blocks: TessBlock[], rows: StripRow[]): TessBlock[] {
  const rowOf = (b: TessBox) => {
    const mid = (b.y0 + b.y1) / 2;
    return rows.findIndex((r) => mid >= r.top - STRIP_GAP / 2 && mid < r.top + r.height + STRIP_GAP / 2);
  };
  const place = (r: StripRow, x: number, y: number) => {
    const s = Math.min(1, Math.max(0, (x - STRIP_MARGIN) / r.width));
    const t = Math.min(1, Math.max(0, (y - r.top) / r.height));
    return { s, t };
  };
  const mapBox = (r: StripRow, b: TessBox): TessBox => {
    const a = place(r, b.x0, b.y0);
    const c = place(r, b.x1, b.y1);
    return toBox(boxSpanBounds(r.box, a.s, c.s, a.t, c.t));
  };
  const perRow = new Map<number, { words: TessWord[]; lines: TessLine[] }>();
  for (const block of blocks) for (const para of block.paragraphs ?? []) for (const line of para.lines ?? []) {
    for (const word of line.words ?? []) {
      const k = rowOf(word.bbox);
      if (k < 0) continue;
      const r = rows[k];
      let entry = perRow.get(k);
      if (!entry) perRow.set(k, (entry = { words: [], lines: [] }));
      if (!entry.lines.includes(line)) entry.lines.push(line);
      entry.words.push({ ...word, bbox: mapBox(r, word.bbox), symbols: word.symbols?.map((s) => ({ ...s, bbox: mapBox(r, s.bbox) })) ?? null });
    }
  }
  const out: TessBlock[] = [];
  for (const k of [...perRow.keys()].sort((a, b) => a - b)) {
    const r = rows[k];
    const { words, lines } = perRow.get(k)!;
    // The row's baseline and letter heights from tesseract's first line of it, scaled back to the page.
    const first = lines[0];
    const scale = r.box.h / r.height;
    let baseline: TessBox | null = null;
    if (first.baseline) {
      const a = place(r, first.baseline.x0, first.baseline.y0);
      const b = place(r, first.baseline.x1, first.baseline.y1);
      const pa = boxPoint(r.box, a.s, a.t);
      const pb = boxPoint(r.box, b.s, b.t);
      baseline = { x0: pa.x, y0: pa.y, x1: pb.x, y1: pb.y };
    }
    const ra = first.rowAttributes;
    out.push({
      paragraphs: [{
        lines: [{
          bbox: toBox(boxSpanBounds(r.box, 0, 1)),
          baseline: baseline && baseline.x1 > baseline.x0 ? baseline : null,
          rowAttributes: ra ? { rowHeight: ra.rowHeight * scale, descenders: ra.descenders * scale, ascenders: ra.ascenders * scale } : null,
          words: words.sort((a, b) => a.bbox.x0 - b.bbox.x0),
        }],
      }],
    });
  }
  return out;
}
