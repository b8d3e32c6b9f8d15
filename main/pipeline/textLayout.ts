// Turns positioned page characters into the document text and character boxes the API serves:
// characters grouped into lines, lines ordered top to bottom, words spaced, pages joined by form feeds.
// Pure: the same characters always give the same text, offsets and line indexes.
import type { CharBox } from '../domain/geometry.ts';

/** A positioned character as extraction (pdf.js or OCR) delivers it, PDF points, origin bottom left. */
export interface LayoutInputChar {
  text: string;
  x0: number;
  x1: number;
  y0: number;
  y1: number;
  /** Writing direction in degrees (0 = left to right, 180 = upside down); default 0. */
  dir?: number;
  /** The glyph's baseline across the writing axis (see PdfChar.baseline); default the box bottom. */
  baseline?: number;
}

export interface LayoutInputPage {
  height: number;
  /** In drawing (content-stream) order: the order says which glyphs continue each other. */
  chars: LayoutInputChar[];
  /** The padding column width to use instead of the one these characters give: a page laid out again
   * with a few characters more keeps the columns (and so the text) of its other words. */
  columnUnit?: number;
}

export interface TextLayout {
  text: string;
  /** Non-space characters in text order. */
  chars: CharBox[];
}

export interface LayoutOptions {
  /** Pad with spaces so that words keep their columns, like a layout-preserving text dump (default true). */
  padding?: boolean;
}

/** Baselines closer than this (em of the larger glyph) are one baseline: absorbs float noise only, so two
 * lines that merely sit at nearly the same height stay apart unless drawn as one (see continues()). */
const SAME_BASELINE_EM = 0.002;
/** A gap wider than this (em) between neighbours on a line is a word break (pdfminer's word_margin;
 * it also agrees best with the payslip dataset's word breaks: 98 % of character pairs). */
const WORD_GAP_EM = 0.1;
/** Consecutive glyph runs whose gap is at most this (em) and that overlap vertically by half continue
 * one line even off the baseline (superscripts drawn on a raised baseline, jittery OCR words). */
const CONTINUATION_GAP_EM = 1;
const CONTINUATION_OVERLAP = 0.5;

/** A character in its writing axis' frame: u runs along the axis, v across it (up = glyph top). */
interface Item {
  src: LayoutInputChar;
  seq: number;
  axis: 0 | 1;
  flipped: boolean;
  u0: number;
  u1: number;
  v0: number;
  v1: number;
  size: number;
  baseline: number;
  spaceBefore: boolean;
}

type Row = Item[];

export function layoutText(pages: LayoutInputPage[], options: LayoutOptions = {}): TextLayout {
  const padding = options.padding ?? true;
  const parts: string[] = [];
  const chars: CharBox[] = [];
  let offset = 0; // in code points, like the API's offsets
  let lineIndex = 0;
  pages.forEach((page, pageIndex) => {
    if (pageIndex > 0) {
      parts.push('\f');
      offset += 1;
    }
    const items = toItems(page.chars);
    const unit = padding ? (page.columnUnit ?? columnUnit(items)) : 0;
    rowsOf(items).forEach((row, r) => {
      if (r > 0) {
        parts.push('\n');
        offset += 1;
      }
      lineIndex += 1;
      let column = 0;
      row.forEach((item, k) => {
        const spaces = spacesBefore(row[k - 1], item, column, unit);
        if (spaces > 0) {
          parts.push(' '.repeat(spaces));
          offset += spaces;
          column += spaces;
        }
        const { x0, x1, y0, y1, text } = item.src;
        chars.push({ offset, text, x0, x1, y0, y1, top: page.height - y1, bottom: page.height - y0, page_index: pageIndex, line_index: lineIndex });
        const length = Array.from(text).length;
        parts.push(text);
        offset += length;
        column += length;
      });
    });
  });
  return { text: parts.join(''), chars };
}

/** The padding column width layoutText gives a page of these characters. */
export function pageColumnUnit(chars: LayoutInputChar[]): number {
  return columnUnit(toItems(chars));
}

function toItems(chars: LayoutInputChar[]): Item[] {
  const items: Item[] = [];
  let spaceBefore = false;
  chars.forEach((src, seq) => {
    if (src.text.trim() === '') {
      spaceBefore = true;
      return;
    }
    const dir = (((src.dir ?? 0) % 360) + 360) % 360;
    const axis = (Math.round(dir / 90) % 2) as 0 | 1;
    const flipped = axis === 0 ? dir > 90 && dir < 270 : dir > 180;
    // Vertical writing is rotated into the horizontal frame: along = y, up = -x (glyph tops face left at 90°).
    const [u0, u1, v0, v1] = axis === 0 ? [src.x0, src.x1, src.y0, src.y1] : [src.y0, src.y1, -src.x1, -src.x0];
    const baseline = src.baseline ?? (flipped ? v1 : v0);
    items.push({ src, seq, axis, flipped, u0, u1, v0, v1, size: v1 - v0, baseline, spaceBefore });
    spaceBefore = false;
  });
  return items;
}

/** Lines of a page, top to bottom as their glyphs stand (horizontal lines first, then vertical ones), each
 * in reading order. */
function rowsOf(items: Item[]): Row[] {
  const runs = glyphRuns(items);
  const parent = runs.map((_, i) => i);
  // Extent along the line of every run in a group: overprinted runs must not be woven into one line.
  const spans = runs.map((run) => [spanOf(run)]);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i])));
  const union = (a: number, b: number) => {
    const [ra, rb] = [find(a), find(b)];
    if (ra === rb) return;
    parent[ra] = rb;
    spans[rb].push(...spans[ra]);
  };
  // Runs on one baseline are one line wherever the content stream put them (tables drawn by column),
  // unless they collide, as text printed over other text does.
  const byBaseline = runs.map((_, i) => i).sort((a, b) => runs[a][0].axis - runs[b][0].axis || runs[a][0].baseline - runs[b][0].baseline);
  for (let k = 1; k < byBaseline.length; k++) {
    const [i, j] = [byBaseline[k - 1], byBaseline[k]];
    const a = runs[i][0];
    const b = runs[j][0];
    if (a.axis === b.axis && sameBaseline(a, b) && !collide(spans[find(i)], spans[find(j)], Math.max(a.size, b.size))) union(i, j);
  }
  for (let i = 1; i < runs.length; i++) if (continues(runs[i - 1][runs[i - 1].length - 1], runs[i][0])) union(i - 1, i);

  const groups = new Map<number, Item[][]>();
  runs.forEach((run, i) => {
    const root = find(i);
    const group = groups.get(root);
    if (group) group.push(run);
    else groups.set(root, [run]);
  });
  // Each axis' lines are ordered as most of its glyphs stand: on a page turned upside down, or turned
  // clockwise so that its lines run downwards, the first line is the one nearest the glyphs' tops.
  const turned = [0, 1].map((axis) => {
    const onAxis = items.filter((it) => it.axis === axis);
    return 2 * onAxis.filter((it) => it.flipped).length > onAxis.length;
  });
  const rows = [...groups.values()].map((group) => {
    const row = readingOrder(group);
    const axis = row[0].axis;
    let top = -Infinity;
    let left = Infinity;
    for (const it of row) {
      top = Math.max(top, turned[axis] ? -it.v0 : it.v1);
      left = Math.min(left, turned[axis] ? -it.u1 : it.u0);
    }
    return { row, axis, top, left };
  });
  rows.sort((a, b) => a.axis - b.axis || b.top - a.top || a.left - b.left);
  return rows.map((r) => r.row);
}

/** Maximal stretches of the drawing order that stay on one baseline and move forward. */
function glyphRuns(items: Item[]): Item[][] {
  const runs: Item[][] = [];
  for (const it of items) {
    const run = runs[runs.length - 1];
    const prev = run?.[run.length - 1];
    const forward = prev && (it.flipped ? it.u1 <= prev.u1 + 1e-6 : it.u0 >= prev.u0 - 1e-6);
    if (prev && prev.axis === it.axis && prev.flipped === it.flipped && sameBaseline(prev, it) && forward) run.push(it);
    else runs.push([it]);
  }
  return runs;
}

interface Span {
  u0: number;
  u1: number;
  flipped: boolean;
}

function spanOf(run: Item[]): Span {
  let u0 = Infinity;
  let u1 = -Infinity;
  for (const it of run) {
    u0 = Math.min(u0, it.u0);
    u1 = Math.max(u1, it.u1);
  }
  return { u0, u1, flipped: run[0].flipped };
}

/** Whether two runs of one direction overlap by more than a sliver (touching glyphs do not). Runs of
 * opposite directions never collide: a line keeps each of them whole (readingOrder), nothing interleaves. */
function collide(a: Span[], b: Span[], em: number): boolean {
  const slack = 0.1 * em;
  return a.some((x) => b.some((y) => x.flipped === y.flipped && Math.min(x.u1, y.u1) - Math.max(x.u0, y.u0) > slack));
}

function sameBaseline(a: Item, b: Item): boolean {
  return Math.abs(a.baseline - b.baseline) <= SAME_BASELINE_EM * Math.max(a.size, b.size);
}

/** Whether b, drawn right after a, carries on a's line although its baseline differs. */
function continues(a: Item, b: Item): boolean {
  if (a.axis !== b.axis || a.flipped !== b.flipped) return false;
  const em = Math.max(a.size, b.size);
  const gap = a.flipped ? a.u0 - b.u1 : b.u0 - a.u1;
  const overlap = Math.min(a.v1, b.v1) - Math.max(a.v0, b.v0);
  return gap >= -0.1 * em && gap <= CONTINUATION_GAP_EM * em && overlap >= CONTINUATION_OVERLAP * Math.min(a.size, b.size);
}

/** Runs of one direction interleave by position; a line mixing upright and upside-down runs keeps
 * each run's own order and places runs by where they start. */
function readingOrder(runs: Item[][]): Row {
  const flipped = runs[0][0].flipped;
  if (runs.every((run) => run[0].flipped === flipped)) {
    const all = runs.flat().sort((a, b) => a.seq - b.seq);
    return all.sort((a, b) => (flipped ? b.u1 - a.u1 : a.u0 - b.u0));
  }
  const start = (run: Item[]) => (run[0].flipped ? run[0].u1 : run[0].u0);
  return [...runs].sort((a, b) => start(a) - start(b)).flat();
}

/** Spaces to write before `item`: a word break gives at least one; with padding the word also moves
 * to its column (position / unit) and the line's first word is indented. */
function spacesBefore(prev: Item | undefined, item: Item, column: number, unit: number): number {
  const target = unit > 0 && item.axis === 0 && !item.flipped ? Math.round(item.u0 / unit) : 0;
  if (!prev) return Math.max(0, target);
  if (!isWordBreak(prev, item)) return 0;
  return Math.max(1, target - column);
}

function isWordBreak(a: Item, b: Item): boolean {
  if (b.spaceBefore && b.seq > a.seq) return true;
  if (a.flipped !== b.flipped) return true;
  const gap = a.flipped ? a.u0 - b.u1 : b.u0 - a.u1;
  return gap > WORD_GAP_EM * Math.max(a.size, b.size);
}

/** The page's typical character width: one padding column. */
function columnUnit(items: Item[]): number {
  const widths = items.map((it) => it.u1 - it.u0).filter((w) => w > 0).sort((a, b) => a - b);
  return widths.length ? widths[Math.floor(widths.length / 2)] : 0;
}
