// Pure geometry over a document's text and character boxes: characters inside rectangles, spans per
// line, search hits as spans, and the words of a page. Offsets count code points (as the API does).

/** A character box as the API serves it (compat.md "Coordinates"): made by the
 * pipeline's text layout, stored per page, read by the services and the AI engines. */
export interface CharBox {
  offset: number;
  text: string;
  x0: number;
  x1: number;
  y0: number;
  y1: number;
  top: number;
  bottom: number;
  page_index: number;
  line_index: number;
}

export interface Rect {
  page_index: number;
  x0: number;
  x1: number;
  y0: number;
  y1: number;
}

export interface Span extends Rect {
  top: number;
  bottom: number;
  start_offset: number;
  end_offset: number;
  line_index: number;
  offset_string: string;
  offset_string_original: string;
}

/** Characters count as inside a rectangle when their box is, give or take float noise. */
const EPS = 0.01;

const HAS_SURROGATES = /[\uD800-\uDFFF]/;

/** Text between two code-point offsets (end exclusive). */
export function sliceCodePoints(text: string, start: number, end: number): string {
  if (!HAS_SURROGATES.test(text)) return text.slice(start, end);
  return Array.from(text).slice(start, end).join('');
}

/** Converts a JS string index of `text` to a code-point offset. */
function codePointOffsets(text: string): (index: number) => number {
  if (!HAS_SURROGATES.test(text)) return (i) => i;
  const map: number[] = [];
  let cp = 0;
  for (let i = 0; i < text.length; i++) {
    map[i] = cp;
    const c = text.charCodeAt(i);
    if (c < 0xd800 || c > 0xdbff) cp++;
  }
  map[text.length] = cp;
  return (i) => map[i];
}

export function charsInRects(chars: readonly CharBox[], rects: readonly Rect[]): CharBox[] {
  return chars.filter((c) =>
    rects.some(
      (r) =>
        c.page_index === r.page_index &&
        c.x0 >= Math.min(r.x0, r.x1) - EPS &&
        c.x1 <= Math.max(r.x0, r.x1) + EPS &&
        c.y0 >= Math.min(r.y0, r.y1) - EPS &&
        c.y1 <= Math.max(r.y0, r.y1) + EPS,
    ),
  );
}

/** What a rectangle holds: its characters as spans (one per line), and the height of its page. */
export interface RectText {
  lines: Span[];
  pageHeight: number;
  /** Characters inside the rectangle were left out (textInRects' trimPunctuation). */
  trimmed?: boolean;
}

/** Reads rectangles against a document; null for a page without characters (not processed, or no text). */
export type TextInRect = (rect: Rect) => RectText | null;

/** A token made only of punctuation (":", "-", "*"): no part of a date, number or yes/no value. */
const PUNCTUATION = /^\p{P}+$/u;

/**
 * Characters without the punctuation tokens at the start and the end of them (in text order; a token is
 * a run of characters with nothing between them on one line). Characters that are all punctuation are
 * kept as they are.
 */
export function withoutEdgePunctuation(chars: readonly CharBox[]): CharBox[] {
  const sorted = [...chars].sort((a, b) => a.offset - b.offset);
  const tokens: CharBox[][] = [];
  for (const c of sorted) {
    const last = tokens.at(-1)?.at(-1);
    if (last && last.line_index === c.line_index && c.offset === last.offset + Array.from(last.text).length) tokens.at(-1)!.push(c);
    else tokens.push([c]);
  }
  const punct = (t: CharBox[]) => PUNCTUATION.test(t.map((c) => c.text).join(''));
  let from = 0;
  let to = tokens.length;
  while (from < to && punct(tokens[from])) from++;
  while (to > from && punct(tokens[to - 1])) to--;
  return from === to ? sorted : tokens.slice(from, to).flat();
}

/**
 * A reader of rectangles over the given characters (the bbox POST rule: characters fully inside).
 * `trimPunctuation`: leading and trailing punctuation tokens are left out (a box drawn on a date takes
 * in the ":" before it); `trimmed` then says the lines are smaller than the rectangle.
 */
export function textInRects(text: string, chars: readonly CharBox[], pageHeights: readonly number[], opts: { trimPunctuation?: boolean } = {}): TextInRect {
  const byPage = new Map<number, CharBox[]>();
  for (const c of chars) {
    const page = byPage.get(c.page_index);
    if (page) page.push(c);
    else byPage.set(c.page_index, [c]);
  }
  return (rect) => {
    const onPage = byPage.get(rect.page_index);
    if (!onPage) return null;
    const inside = charsInRects(onPage, [rect]);
    const kept = opts.trimPunctuation ? withoutEdgePunctuation(inside) : inside;
    return { lines: spansFromChars(text, kept, pageHeights), pageHeight: pageHeights[rect.page_index] ?? 0, trimmed: kept.length < inside.length };
  };
}

/**
 * Groups characters (in text order) into one span per line: a span never crosses a line break
 * (compat.md). The span's text is the document text from its first to its last character, so spaces
 * between the words it covers are kept.
 */
export function spansFromChars(text: string, chars: readonly CharBox[], pageHeights: readonly number[]): Span[] {
  const sorted = [...chars].sort((a, b) => a.offset - b.offset);
  const spans: Span[] = [];
  let group: CharBox[] = [];
  const flush = () => {
    if (!group.length) return;
    const first = group[0];
    const last = group[group.length - 1];
    const x0 = Math.min(...group.map((c) => c.x0));
    const x1 = Math.max(...group.map((c) => c.x1));
    const y0 = Math.min(...group.map((c) => c.y0));
    const y1 = Math.max(...group.map((c) => c.y1));
    const h = pageHeights[first.page_index] ?? 0;
    const s = sliceCodePoints(text, first.offset, last.offset + 1);
    spans.push({
      page_index: first.page_index,
      line_index: first.line_index,
      x0, x1, y0, y1,
      top: h - y1,
      bottom: h - y0,
      start_offset: first.offset,
      end_offset: last.offset + 1,
      offset_string: s,
      offset_string_original: s,
    });
    group = [];
  };
  for (const c of sorted) {
    const prev = group[group.length - 1];
    if (prev && (prev.line_index !== c.line_index || prev.page_index !== c.page_index)) flush();
    group.push(c);
  }
  flush();
  return spans;
}

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Every occurrence of `query` in the text, case-insensitive, any run of white space in the query
 * matching any run in the text (layout text pads words with spaces). Each hit becomes its spans.
 */
export function searchSpans(text: string, chars: readonly CharBox[], query: string, pageHeights: readonly number[]): Span[][] {
  const words = query.trim().split(/\s+/).filter(Boolean);
  if (!words.length) return [];
  // White space in the query matches any run of it in the text, line breaks too (a multi-line address is
  // one hit, with a span per line), but not a page break: a value does not run on to the next page.
  const re = new RegExp(words.map(escapeRegex).join('[^\\S\\f]+'), 'giu');
  const toCp = codePointOffsets(text);
  const byOffset = new Map(chars.map((c) => [c.offset, c]));
  const hits: Span[][] = [];
  for (const m of text.matchAll(re)) {
    const start = toCp(m.index!);
    const end = toCp(m.index! + m[0].length);
    const inHit: CharBox[] = [];
    for (let o = start; o < end; o++) {
      const c = byOffset.get(o);
      if (c) inHit.push(c);
    }
    if (inHit.length) hits.push(spansFromChars(text, inHit, pageHeights));
  }
  return hits;
}

/** The words of a page: runs of characters with consecutive offsets on one line. */
export function pageWords(text: string, pageChars: readonly CharBox[], pageHeights: readonly number[]): Span[] {
  const words: Span[] = [];
  let run: CharBox[] = [];
  const flush = () => {
    if (run.length) words.push(...spansFromChars(text, run, pageHeights));
    run = [];
  };
  for (const c of [...pageChars].sort((a, b) => a.offset - b.offset)) {
    const prev = run[run.length - 1];
    if (prev && (c.offset !== prev.offset + 1 || c.line_index !== prev.line_index)) flush();
    run.push(c);
  }
  flush();
  return words;
}
