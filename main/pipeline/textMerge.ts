// Merges the characters read again in one region of a page into a document's text, and moves every
// annotation span so that its offsets still point at its characters. Pure: the document's text, its
// character boxes and the spans go in; the new text, boxes and spans come out.
//
// The page is laid out again (textLayout.ts) from its kept characters plus the new ones, so the new
// text lands where reading order puts it. Kept characters keep their lines (each stored line gets one
// shared baseline) and their columns (the page's old padding unit), so the rest of the page reads as
// before. Characters of the old reading inside the region give way to the new reading.
// Here beside textLayout.ts rather than in the domain, because it lays the page out with the pipeline's
// reading order, and the domain imports nothing above it (scripts/import-rules.mjs).
import type { CharBox } from '../domain/geometry.ts';
import { spansFromChars, type Rect, type Span } from '../domain/geometry.ts';
import { layoutText, pageColumnUnit, type LayoutInputChar } from './textLayout.ts';

/** A span as the merge sees it: where it is and which characters it covered (end exclusive). */
export interface OffsetSpan extends Rect {
  start_offset: number | null;
  end_offset: number | null;
}

/** A span after the merge: its offsets and the text now between them; `line` when it was read again from
 * its box (its characters changed), the box of that line of it. */
export interface MergedSpan {
  start_offset: number;
  end_offset: number;
  offset_string: string;
  line?: Rect & { top: number; bottom: number };
}

export interface RegionMergeInput {
  /** The document text (pages joined by form feeds). */
  text: string;
  /** Every character box of the document, in text order. */
  chars: readonly CharBox[];
  pageIndex: number;
  pageHeight: number;
  /** The region read again, PDF points of the page, origin bottom left. */
  region: { x0: number; x1: number; y0: number; y1: number };
  /** What was read there, in page coordinates and reading order (spaces between words allowed). */
  newChars: readonly LayoutInputChar[];
}

export interface RegionMergeResult {
  text: string;
  /** Every character box of the document, in text order, with the new offsets and line indexes. */
  chars: CharBox[];
  /** The characters added (the region's new reading), as stored. */
  added: CharBox[];
  /**
   * Where a span is now: one span per line of its characters (usually exactly one), or none when no
   * character of it is left (its text was inside the region and nothing new covers its box).
   */
  moveSpan(span: OffsetSpan): MergedSpan[];
}

const centerInside = (c: { x0: number; x1: number; y0: number; y1: number }, r: RegionMergeInput['region']) => {
  const x = (c.x0 + c.x1) / 2;
  const y = (c.y0 + c.y1) / 2;
  return x >= Math.min(r.x0, r.x1) && x <= Math.max(r.x0, r.x1) && y >= Math.min(r.y0, r.y1) && y <= Math.max(r.y0, r.y1);
};

/** Offsets count code points; '\f' separates pages. Returns [start, end) of page `index` in `points`. */
function pageRange(points: string[], index: number): [number, number] {
  let start = 0;
  for (let k = 0; k < index; k++) {
    const ff = points.indexOf('\f', start);
    if (ff < 0) throw new RangeError(`the text has no page ${index + 1}`);
    start = ff + 1;
  }
  const ff = points.indexOf('\f', start);
  return [start, ff < 0 ? points.length : ff];
}

export function mergeRegionText(input: RegionMergeInput): RegionMergeResult {
  const { pageIndex, pageHeight, region } = input;
  const points = Array.from(input.text);
  const [pageStart, pageEnd] = pageRange(points, pageIndex);

  const before = input.chars.filter((c) => c.page_index < pageIndex);
  const onPage = input.chars.filter((c) => c.page_index === pageIndex);
  const after = input.chars.filter((c) => c.page_index > pageIndex);
  const kept = onPage.filter((c) => !centerInside(c, region));

  // Each stored line keeps one baseline for all its characters, so the layout joins them as before.
  const lineBaseline = new Map<number, number>();
  for (const c of onPage) lineBaseline.set(c.line_index, Math.min(lineBaseline.get(c.line_index) ?? Infinity, c.y0));
  const layoutChars: LayoutInputChar[] = [
    ...kept.map((c) => ({ text: c.text, x0: c.x0, x1: c.x1, y0: c.y0, y1: c.y1, baseline: lineBaseline.get(c.line_index) })),
    ...input.newChars,
  ];
  const unit = onPage.length ? pageColumnUnit(onPage) : undefined;
  const layout = layoutText([{ height: pageHeight, chars: layoutChars, columnUnit: unit }]);

  const lineBase = before.reduce((m, c) => Math.max(m, c.line_index), 0);
  const oldLastLine = onPage.reduce((m, c) => Math.max(m, c.line_index), lineBase);
  const newLastLine = layout.chars.reduce((m, c) => Math.max(m, lineBase + c.line_index), lineBase);
  const pageDelta = Array.from(layout.text).length - (pageEnd - pageStart);

  const placed = layout.chars.map((c) => ({ ...c, offset: pageStart + c.offset, page_index: pageIndex, line_index: lineBase + c.line_index, top: pageHeight - c.y1, bottom: pageHeight - c.y0 }));
  // layoutText keeps its input objects' identity only through position: the first kept.length inputs
  // are the kept characters. Match each placed character back to its input by box and text.
  const keyOf = (c: { text: string; x0: number; x1: number; y0: number; y1: number }) => `${c.text}|${c.x0}|${c.x1}|${c.y0}|${c.y1}`;
  const newOffsetOf = new Map<string, number[]>();
  for (const c of placed) {
    const list = newOffsetOf.get(keyOf(c));
    if (list) list.push(c.offset);
    else newOffsetOf.set(keyOf(c), [c.offset]);
  }
  const oldToNew = new Map<number, number>();
  const taken = new Map<string, number>();
  for (const c of kept) {
    const key = keyOf(c);
    const k = taken.get(key) ?? 0;
    const at = newOffsetOf.get(key)?.[k];
    taken.set(key, k + 1);
    if (at !== undefined) oldToNew.set(c.offset, at);
  }
  const keptOffsets = new Set(kept.map((c) => c.offset));
  const removedOffsets = new Set(onPage.filter((c) => !keptOffsets.has(c.offset)).map((c) => c.offset));
  const addedOffsets = new Set(placed.map((c) => c.offset));
  for (const o of oldToNew.values()) addedOffsets.delete(o);

  const text = [...points.slice(0, pageStart), ...Array.from(layout.text), ...points.slice(pageEnd)].join('');
  const shiftedAfter = after.map((c) => ({ ...c, offset: c.offset + pageDelta, line_index: c.line_index + (newLastLine - oldLastLine) }));
  const chars = [...before, ...placed, ...shiftedAfter];
  const added = placed.filter((c) => addedOffsets.has(c.offset));
  const heights: number[] = [];
  heights[pageIndex] = pageHeight;

  const textPoints = Array.from(text);
  const sliceText = (start: number, end: number) => textPoints.slice(start, end).join('');

  function moveSpan(span: OffsetSpan): MergedSpan[] {
    const { start_offset: start, end_offset: end } = span;
    if (start === null || end === null) return [];
    if (end <= pageStart || span.page_index < pageIndex) {
      return [{ start_offset: start, end_offset: end, offset_string: sliceText(start, end) }];
    }
    if (span.page_index > pageIndex || start >= pageEnd) {
      return [{ start_offset: start + pageDelta, end_offset: end + pageDelta, offset_string: sliceText(start + pageDelta, end + pageDelta) }];
    }
    // On the page: its characters moved together when none was replaced and nothing new came between them.
    const covered = onPage.filter((c) => c.offset >= start && c.offset < end);
    const intact = covered.length > 0 && covered.every((c) => !removedOffsets.has(c.offset));
    if (intact) {
      const moved = covered.map((c) => oldToNew.get(c.offset)!);
      const first = Math.min(...moved);
      const last = Math.max(...moved);
      const lastChar = covered.find((c) => oldToNew.get(c.offset) === last)!;
      const newEnd = last + Array.from(lastChar.text).length;
      const between = placed.filter((c) => c.offset >= first && c.offset < newEnd);
      if (between.length === covered.length) {
        return [{ start_offset: first, end_offset: newEnd, offset_string: sliceText(first, newEnd) }];
      }
    }
    // Otherwise it is read again from its box: the characters now inside it, one span per line.
    const inBox = placed.filter((c) => c.x0 >= Math.min(span.x0, span.x1) - 0.01 && c.x1 <= Math.max(span.x0, span.x1) + 0.01 && c.y0 >= Math.min(span.y0, span.y1) - 0.01 && c.y1 <= Math.max(span.y0, span.y1) + 0.01);
    return perLine(spansFromChars(text, inBox, heights));
  }

  return { text, chars, added, moveSpan };
}

/**
 * A span read again from its box over a document's new characters (after the whole document was read
 * again): the characters whose centre lies inside the box, one span per line; none when the box is empty
 * now. Centres rather than whole boxes: a second reading draws each character's box a little differently,
 * and a box drawn tightly around the old reading must still hold the new one.
 */
export function spansInBox(text: string, pageChars: readonly CharBox[], pageHeight: number, box: Rect): MergedSpan[] {
  const heights: number[] = [];
  heights[box.page_index] = pageHeight;
  const inside = pageChars.filter((c) => c.page_index === box.page_index && centerInside(c, box));
  return perLine(spansFromChars(text, inside, heights));
}

/** Spans of a box's characters: a box of one line keeps its own rectangle (the reviewer drew it); over
 * several lines it becomes one span per line, each with its line's box (a span never crosses a line). */
function perLine(lines: Span[]): MergedSpan[] {
  return lines.map((l) => ({
    start_offset: l.start_offset,
    end_offset: l.end_offset,
    offset_string: l.offset_string,
    ...(lines.length > 1 ? { line: { page_index: l.page_index, x0: l.x0, x1: l.x1, y0: l.y0, y1: l.y1, top: l.top, bottom: l.bottom } } : {}),
  }));
}
