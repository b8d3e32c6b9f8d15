// Layout segmentation of one page (spec 2.12): groups the page's character boxes into elements labelled
// text, title, list or table, adds the figure regions found in the page image, all in page-image pixels.
//
// Pure and deterministic: the same characters and figures always give the same elements, in reading
// order (top to bottom, then left to right). Every length below is a multiple of the line height h (the
// height of a row's character boxes), so the rules hold at any font size and image resolution.
//
// 1. Rows. Characters are grouped by line_index and turned into pixels: x scaled by image_width/width_pt,
//    y flipped (pixels count from the top) and scaled by image_height/height_pt (compat.md "Coordinates").
//    Lines side by side at the same height (overlapping vertically by half) are one row. In a row, a gap
//    wider than WORD_GAP h starts a word, one wider than CHUNK_GAP h a chunk (a cell, a column, a value).
// 2. Figures. Chunks lying mostly inside a figure region (pipeline/figures.ts) are part of the figure
//    (labels of a chart) and are not segmented further.
// 3. Tables. Down the page, a row of 3+ chunks opens a candidate whose corridors are the gaps between its
//    chunks. Each following row (at most TABLE_ROW_GAP h lower) narrows every corridor to the free space it
//    leaves there and joins while 2+ corridors stay open: empty or wrapped cells keep a table going, a
//    paragraph crossing the columns ends it. A candidate with 2+ rows of 3+ chunks is a table (trailing
//    single-chunk rows are given back to the text).
// 4. Blocks. Other chunks are lines (a chunk that is only a bullet stays with the text after it). Top to
//    bottom, a line joins the block whose last line is just above it when they overlap horizontally, their
//    heights differ by at most HEIGHT_RATIO, the gap is below the page's paragraph gap (1.5x its median gap
//    between stacked lines, at least 0.6 h, plus LIST_EXTRA_GAP h between list items), and they align:
//    same left edge, same centre, same right edge (unless the block is a left-aligned paragraph body), or
//    an outdent after an indented first line. An indented line under an aligned one starts a paragraph.
//    A line starting with a bullet (any lone symbol: "•", "-", OCR's "»") or an enumerator ("1.", "a)",
//    "(iv)") opens a list block, which takes further bullet lines and lines indented past its bullets (the
//    hanging indent), and nothing else.
// 5. Labels. list: a list block with 2+ bullet lines. title: a block of 1-2 lines at least TITLE_RATIO
//    times the page's median line height (median over characters), or the page's topmost element, with
//    nothing beside it and more text below, when it is one short line (<= 60 characters, not ending in
//    . , ; :) not smaller than the median. text: every other block. figure: the image regions as given.
import type { CharBox } from './geometry.ts';

export type SegmentLabel = 'text' | 'title' | 'list' | 'table' | 'figure';

/** A rectangle in page-image pixels, origin top left, x0 < x1, y0 < y1. */
export interface PixelBox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export interface SegmentElement extends PixelBox {
  label: SegmentLabel;
}

/** What segmentation needs of a character box (PDF points, origin bottom left). */
export type SegmentChar = Pick<CharBox, 'text' | 'x0' | 'x1' | 'y0' | 'y1' | 'line_index'>;

/** A page's size in points and its image's size in pixels (null without an image: boxes stay in points). */
export interface PageFrame {
  widthPt: number;
  heightPt: number;
  imageWidth: number | null;
  imageHeight: number | null;
}

// Lengths are multiples of the line height h; the module comment says what each rule does with them.
const WORD_GAP = 0.15;
const CHUNK_GAP = 1.0;
/** A corridor narrower than this (h) no longer separates two columns. */
const MIN_CORRIDOR = 0.25;
const TABLE_ROW_GAP = 2.5;
const HEIGHT_RATIO = 1.3;
const ALIGN_TOL = 0.5;
/** How far (h) the body of a paragraph may start left of its indented first line. */
const MAX_INDENT = 4;
/** Continuation lines of a list item start at least this far (h) right of the bullets. */
const HANGING_INDENT = 0.5;
const LIST_EXTRA_GAP = 0.6;
/** A bullet chunk stays with the text at most this far (h) to its right. */
const BULLET_GAP = 4;
const TITLE_RATIO = 1.3;
const TOP_TITLE_MAX_CHARS = 60;

/** A bullet is any single symbol ("•", "-", "*", and what OCR makes of bullets: "»", "°"); an enumerator a
 * number, letter or roman numeral with "." or ")" ("1.", "b)", "(iv)"). */
const BULLET = /^[^\p{L}\p{N}\s]$|^(\d{1,2}|[a-zA-Z]|[ivxIVX]{1,4})[.)]$|^\((\d{1,2}|[a-zA-Z]|[ivxIVX]{1,4})\)$/u;

interface Word extends PixelBox {
  text: string;
}
interface Chunk extends PixelBox {
  words: Word[];
}
interface Row extends PixelBox {
  h: number;
  glyphs: number;
  chunks: Chunk[];
}
/** A chunk as one line of a block. */
interface Line extends PixelBox {
  h: number;
  words: Word[];
  bullet: boolean;
}
interface Block extends PixelBox {
  lines: Line[];
  list: boolean;
}

function union(boxes: readonly PixelBox[]): PixelBox {
  const u = { x0: Infinity, y0: Infinity, x1: -Infinity, y1: -Infinity };
  for (const b of boxes) {
    if (b.x0 < u.x0) u.x0 = b.x0;
    if (b.y0 < u.y0) u.y0 = b.y0;
    if (b.x1 > u.x1) u.x1 = b.x1;
    if (b.y1 > u.y1) u.y1 = b.y1;
  }
  return u;
}
const area = (b: PixelBox) => Math.max(0, b.x1 - b.x0) * Math.max(0, b.y1 - b.y0);
/** The area two rectangles share. */
export const overlapArea = (a: PixelBox, b: PixelBox) =>
  Math.max(0, Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0)) * Math.max(0, Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0));
const overlapX = (a: PixelBox, b: PixelBox) => Math.min(a.x1, b.x1) > Math.max(a.x0, b.x0);
const byPosition = (a: PixelBox, b: PixelBox) => a.y0 - b.y0 || a.x0 - b.x0 || a.y1 - b.y1 || a.x1 - b.x1;

/** Splits boxes sorted by x0 wherever the gap to the previous one exceeds `gap`. */
function splitAtGaps<T extends PixelBox>(items: readonly T[], gap: number): T[][] {
  const groups: T[][] = [];
  let right = -Infinity;
  for (const it of items) {
    if (!groups.length || it.x0 - right > gap) groups.push([]);
    groups[groups.length - 1]!.push(it);
    right = Math.max(right, it.x1);
  }
  return groups;
}

function scaleOf(frame: PageFrame) {
  const sx = frame.imageWidth && frame.widthPt > 0 ? frame.imageWidth / frame.widthPt : 1;
  const sy = frame.imageHeight && frame.heightPt > 0 ? frame.imageHeight / frame.heightPt : 1;
  return { sx, sy, width: frame.widthPt * sx, height: frame.heightPt * sy };
}

/** The page's rows, top to bottom, with their words and chunks in pixels. */
function rowsOf(chars: readonly SegmentChar[], frame: PageFrame): Row[] {
  const { sx, sy } = scaleOf(frame);
  const byLine = new Map<number, Word[]>();
  for (const c of chars) {
    if (!c.text.trim()) continue;
    const g = { text: c.text, x0: c.x0 * sx, x1: c.x1 * sx, y0: (frame.heightPt - c.y1) * sy, y1: (frame.heightPt - c.y0) * sy };
    const list = byLine.get(c.line_index);
    if (list) list.push(g);
    else byLine.set(c.line_index, [g]);
  }
  // Lines side by side (table cells on slightly different baselines, OCR jitter) become one row.
  const lines = [...byLine.values()].map((glyphs) => ({ box: union(glyphs), glyphs })).sort((a, b) => byPosition(a.box, b.box));
  const merged: { box: PixelBox; h: number; boxes: PixelBox[]; glyphs: Word[] }[] = [];
  for (const line of lines) {
    const h = line.box.y1 - line.box.y0;
    const row = merged.find((r) => {
      const overlap = Math.min(r.box.y1, line.box.y1) - Math.max(r.box.y0, line.box.y0);
      return overlap >= 0.5 * Math.min(h, r.h) && !r.boxes.some((b) => overlapX(b, line.box));
    });
    if (row) {
      row.box = union([row.box, line.box]);
      row.h = Math.max(row.h, h);
      row.boxes.push(line.box);
      row.glyphs.push(...line.glyphs);
    } else merged.push({ box: line.box, h, boxes: [line.box], glyphs: [...line.glyphs] });
  }
  return merged
    .map((r) => {
      const h = Math.max(r.h, 1e-6);
      const sorted = [...r.glyphs].sort((a, b) => a.x0 - b.x0 || a.x1 - b.x1);
      const words = splitAtGaps(sorted, WORD_GAP * h).map((g): Word => ({ ...union(g), text: g.map((x) => x.text).join('') }));
      const chunks = splitAtGaps(words, CHUNK_GAP * h).map((w): Chunk => ({ ...union(w), words: w }));
      return { ...r.box, h, glyphs: r.glyphs.length, chunks };
    })
    .sort(byPosition);
}

/** The boxes of the page's words in pixels: where the image is text, not figure. */
export function textBoxes(chars: readonly SegmentChar[], frame: PageFrame): PixelBox[] {
  return rowsOf(chars, frame).flatMap((r) => r.chunks.flatMap((c) => c.words.map(({ x0, y0, x1, y1 }) => ({ x0, y0, x1, y1 }))));
}

/** The free intervals of each corridor once `row` is placed: the widest piece of each that stays open. */
function narrow(corridors: readonly [number, number][], row: Row): [number, number][] {
  const open: [number, number][] = [];
  for (const [a, b] of corridors) {
    let best: [number, number] | undefined;
    let from = a;
    for (const c of [...row.chunks, { x0: b, x1: b }]) {
      const to = Math.min(b, c.x0);
      if (to - from > (best ? best[1] - best[0] : 0)) best = [from, to];
      from = Math.max(from, c.x1);
      if (from >= b) break;
    }
    if (best && best[1] - best[0] >= MIN_CORRIDOR * row.h) open.push(best);
  }
  return open;
}

function findTables(rows: readonly Row[]): { tables: PixelBox[]; rest: Row[] } {
  const tables: PixelBox[] = [];
  const taken = new Set<Row>();
  for (let i = 0; i < rows.length; i++) {
    const start = rows[i]!;
    if (start.chunks.length < 3) continue;
    let corridors = start.chunks.slice(1).map((c, k): [number, number] => [start.chunks[k]!.x1, c.x0]);
    const members = [start];
    for (let j = i + 1; j < rows.length; j++) {
      const row = rows[j]!;
      const last = members[members.length - 1]!;
      if (row.y0 - last.y1 > TABLE_ROW_GAP * Math.max(row.h, last.h)) break;
      const open = narrow(corridors, row);
      if (open.length < 2) break;
      corridors = open;
      members.push(row);
    }
    while (members[members.length - 1]!.chunks.length < 2) members.pop();
    if (members.filter((m) => m.chunks.length >= 3).length < 2) continue;
    tables.push(union(members));
    for (const m of members) taken.add(m);
    i = rows.indexOf(members[members.length - 1]!);
  }
  return { tables, rest: rows.filter((r) => !taken.has(r)) };
}

/** Chunks as block lines; a chunk that is only a bullet is joined to the text after it. */
function linesOf(rows: readonly Row[]): Line[] {
  const lines: Line[] = [];
  for (const row of rows) {
    const chunks = row.chunks;
    for (let k = 0; k < chunks.length; k++) {
      let words = chunks[k]!.words;
      const next = chunks[k + 1];
      if (words.length === 1 && BULLET.test(words[0]!.text) && next && next.x0 - chunks[k]!.x1 <= BULLET_GAP * row.h) {
        words = [...words, ...next.words];
        k++;
      }
      lines.push({ ...union(words), h: row.h, words, bullet: words.length > 1 && BULLET.test(words[0]!.text) });
    }
  }
  return lines.sort(byPosition);
}

/** The largest gap (h) between stacked lines of one paragraph: 1.5x the page's median, at least 0.6. */
function paragraphGap(lines: readonly Line[]): number {
  const ratios: number[] = [];
  for (const line of lines) {
    let best = Infinity;
    for (const above of lines) {
      const h = Math.min(line.h, above.h);
      const gap = line.y0 - above.y1;
      if (above.y0 >= line.y0 || gap < -0.3 * h || !overlapX(above, line) || Math.max(line.h, above.h) / h > HEIGHT_RATIO) continue;
      best = Math.min(best, gap / h);
    }
    if (best < 2) ratios.push(Math.max(0, best));
  }
  if (!ratios.length) return 0.6;
  ratios.sort((a, b) => a - b);
  return Math.min(1.6, Math.max(0.6, 1.5 * ratios[Math.floor(ratios.length / 2)]! + 0.15));
}

function fits(block: Block, last: Line, line: Line, h: number): boolean {
  const tol = ALIGN_TOL * h;
  const bulletLeft = block.lines[0]!.x0;
  if (block.list) return line.bullet ? line.x0 >= bulletLeft - tol : line.x0 >= bulletLeft + HANGING_INDENT * h;
  if (line.bullet) return false;
  if (Math.abs(line.x0 - last.x0) <= tol) return true;
  if (Math.abs((line.x0 + line.x1) / 2 - (last.x0 + last.x1) / 2) <= tol) return true;
  // Same right edge: a right-aligned block, unless the block is a left-aligned paragraph body (first line
  // aside), where an indented line with the justified right edge starts the next paragraph.
  const body = block.lines.slice(1);
  const leftAligned = body.length >= 2 && body.every((l) => Math.abs(l.x0 - body[0]!.x0) <= tol);
  if (Math.abs(line.x1 - last.x1) <= tol && !leftAligned) return true;
  return block.lines.length === 1 && line.x0 < last.x0 && last.x0 - line.x0 <= MAX_INDENT * h;
}

function blocksOf(lines: readonly Line[]): Block[] {
  const limit = paragraphGap(lines);
  const blocks: Block[] = [];
  for (const line of lines) {
    let best: Block | undefined;
    let bestGap = Infinity;
    for (const block of blocks) {
      const last = block.lines[block.lines.length - 1]!;
      const h = Math.min(line.h, last.h);
      const gap = line.y0 - last.y1;
      if (last.y0 >= line.y0 || gap < -0.3 * h || gap >= bestGap) continue;
      if (!overlapX(line, block) || Math.max(line.h, last.h) / h > HEIGHT_RATIO) continue;
      if (gap > (limit + (block.list && line.bullet ? LIST_EXTRA_GAP : 0)) * h) continue;
      if (!fits(block, last, line, h)) continue;
      best = block;
      bestGap = gap;
    }
    if (best) {
      best.lines.push(line);
      Object.assign(best, union([best, line]));
    } else blocks.push({ ...union([line]), lines: [line], list: line.bullet });
  }
  return blocks;
}

/** The median of `values` weighted by `weights`. */
function weightedMedian(values: readonly number[], weights: readonly number[]): number {
  const order = values.map((v, i) => [v, weights[i]!] as const).sort((a, b) => a[0] - b[0]);
  const total = order.reduce((s, [, w]) => s + w, 0);
  let seen = 0;
  for (const [v, w] of order) {
    seen += w;
    if (seen >= total / 2) return v;
  }
  return 0;
}

/** `alone`: the block is the page's topmost element with nothing beside it, and more text follows. */
function labelOf(block: Block, medianH: number, alone: boolean): SegmentLabel {
  if (block.list && block.lines.filter((l) => l.bullet).length >= 2) return 'list';
  const h = Math.max(...block.lines.map((l) => l.h));
  if (block.lines.length <= 2 && h >= TITLE_RATIO * medianH) return 'title';
  if (alone && block.lines.length === 1 && h >= medianH) {
    const text = block.lines[0]!.words.map((w) => w.text).join(' ');
    if (text.length <= TOP_TITLE_MAX_CHARS && !/[.,;:]$/.test(text)) return 'title';
  }
  return 'text';
}

/** The labelled elements of one page, in page-image pixels, top to bottom. */
export function segmentPage(chars: readonly SegmentChar[], frame: PageFrame, figures: readonly PixelBox[] = []): SegmentElement[] {
  const { width, height } = scaleOf(frame);
  const rows = rowsOf(chars, frame)
    .map((r) => ({ ...r, chunks: r.chunks.filter((c) => !figures.some((f) => overlapArea(c, f) > 0.5 * area(c))) }))
    .filter((r) => r.chunks.length > 0);
  const medianH = weightedMedian(rows.map((r) => r.h), rows.map((r) => r.glyphs));
  const { tables, rest } = findTables(rows);
  const blocks = blocksOf(linesOf(rest));
  const elements: SegmentElement[] = [
    ...tables.map((t) => ({ label: 'table' as const, ...t })),
    ...figures.map((f) => ({ label: 'figure' as const, ...f })),
  ];
  const others: PixelBox[] = [...elements, ...blocks];
  const alone = (b: Block) =>
    blocks.length > 1 && others.every((o) => o === b || o.y0 >= b.y1);
  for (const b of blocks) elements.push({ label: labelOf(b, medianH, alone(b)), ...union([b]) });
  return elements
    .map((e) => ({
      label: e.label,
      x0: Math.max(0, Math.floor(e.x0)),
      y0: Math.max(0, Math.floor(e.y0)),
      x1: Math.min(Math.ceil(width), Math.ceil(e.x1)),
      y1: Math.min(Math.ceil(height), Math.ceil(e.y1)),
    }))
    .sort(byPosition);
}
