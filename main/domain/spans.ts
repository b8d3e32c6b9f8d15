// Spans of an annotation (spec 2.10): how sent spans are stored, when two spans mark the same place,
// and the annotation columns derived from its spans. Pure.
import { ValidationError } from './errors.ts';
import type { TextInRect } from './geometry.ts';

/** A span as a client sends it (shared/schemas/annotations.ts validates it). */
export interface SpanInput {
  page_index: number;
  x0: number;
  x1: number;
  y0: number;
  y1: number;
  top?: number | null;
  bottom?: number | null;
  offset_string?: string | null;
  start_offset?: number | null;
  end_offset?: number | null;
}

/** A span as stored in `annotations.spans` (JSON). */
export interface StoredSpan {
  page_index: number;
  x0: number;
  x1: number;
  y0: number;
  y1: number;
  top: number | null;
  bottom: number | null;
  offset_string: string;
  /** The text first sent for this place; offset_string differs from it once a user corrects the text. */
  offset_string_original: string;
  start_offset: number | null;
  end_offset: number | null;
}

/** Coordinates closer than this (PDF points) are the same place: clients round differently. */
const TOLERANCE = 0.01;
const near = (a: number, b: number) => Math.abs(a - b) < TOLERANCE;

/** Two spans mark the same place: the same character range when both have one, else the same rectangle. */
export function samePlace(a: SpanInput, b: SpanInput): boolean {
  if (a.page_index !== b.page_index) return false;
  if (a.start_offset != null && a.end_offset != null && b.start_offset != null && b.end_offset != null) {
    return a.start_offset === b.start_offset && a.end_offset === b.end_offset;
  }
  return near(a.x0, b.x0) && near(a.x1, b.x1) && near(a.y0, b.y0) && near(a.y1, b.y1);
}

/** Two annotations cover the same text when each span of one has its place among the other's. */
export const samePosition = (a: SpanInput[], b: SpanInput[]): boolean =>
  a.length === b.length && a.every((s) => b.some((t) => samePlace(s, t)));

/** A correction the annotation already had at a place (its text differs from the text found there). */
const correctionAt = (previous: StoredSpan[], span: StoredSpan): string | undefined => {
  const before = previous.find((p) => samePlace(p, span));
  return before && before.offset_string !== before.offset_string_original ? before.offset_string : undefined;
};

const collapse = (s: string) => s.trim().split(/\s+/).join(' ');

/**
 * Spans as sent -> spans as stored (spec 2.10: offsets and the original text are read-only). Where the
 * page has characters, a span's text and offsets are those of the characters inside its rectangle (the
 * bbox POST rule); sent offsets are ignored and a sent offset_string is the user's correction of the found
 * text. A rectangle over several lines becomes one span per line (a span never crosses a line break),
 * each with its line's box. Where the page has no characters yet (the document is not processed) the
 * rectangle is kept with the text sent and no offsets. A place the annotation already had keeps its
 * correction when the span comes back without text.
 */
export function toStoredSpans(spans: SpanInput[], previous: StoredSpan[], textIn: TextInRect): StoredSpan[] {
  return spans.flatMap((s, i): StoredSpan[] => {
    const found = textIn(s);
    if (!found) return [unreadSpan(s, previous)];
    const { lines, pageHeight } = found;
    if (!lines.length) {
      throw ValidationError.of(`span.${i}`, `No text lies inside this rectangle on page ${s.page_index + 1}: a span marks characters of the document (POST /documents/<id>/bbox/ shows what a rectangle holds).`);
    }
    if (lines.length === 1) {
      const [line] = lines;
      // A rectangle whose edge characters were left out shrinks to what it keeps, so that reading it
      // again (read again, a turn) does not take them back in.
      const box = found.trimmed ? line : s;
      const span: StoredSpan = {
        page_index: s.page_index, x0: box.x0, x1: box.x1, y0: box.y0, y1: box.y1,
        top: pageHeight - box.y1, bottom: pageHeight - box.y0,
        offset_string: line.offset_string, offset_string_original: line.offset_string,
        start_offset: line.start_offset, end_offset: line.end_offset,
      };
      // An empty text is no correction: clients that know no text send "".
      return [{ ...span, offset_string: (s.offset_string || undefined) ?? correctionAt(previous, span) ?? span.offset_string }];
    }
    const foundText = lines.map((l) => l.offset_string).join(' ');
    if (s.offset_string && collapse(s.offset_string) !== collapse(foundText)) {
      throw ValidationError.of(`span.${i}.offset_string`, `This rectangle holds ${lines.length} lines ("${foundText}"): correct the text of each line in a span of its own.`);
    }
    return lines.map((l) => {
      const span: StoredSpan = {
        page_index: l.page_index, x0: l.x0, x1: l.x1, y0: l.y0, y1: l.y1, top: l.top, bottom: l.bottom,
        offset_string: l.offset_string, offset_string_original: l.offset_string, start_offset: l.start_offset, end_offset: l.end_offset,
      };
      return { ...span, offset_string: correctionAt(previous, span) ?? span.offset_string };
    });
  });
}

/** A rectangle on a page without characters: the text sent (or kept from before), no offsets. */
function unreadSpan(s: SpanInput, previous: StoredSpan[]): StoredSpan {
  const before = previous.find((p) => samePlace(p, { ...s, start_offset: null, end_offset: null }));
  const text = s.offset_string ?? before?.offset_string ?? '';
  return {
    page_index: s.page_index, x0: s.x0, x1: s.x1, y0: s.y0, y1: s.y1,
    top: s.top ?? before?.top ?? null,
    bottom: s.bottom ?? before?.bottom ?? null,
    offset_string: text,
    offset_string_original: before ? before.offset_string_original : text,
    start_offset: null,
    end_offset: null,
  };
}

/**
 * Spans of a typed value: nothing can be read in the box, so the reviewer typed what it says. Each keeps
 * its rectangle and the typed text, and has no offsets: the document text is not changed, so every
 * other annotation's offsets stay right.
 */
export function typedSpans(spans: SpanInput[]): StoredSpan[] {
  return spans.map((s, i) => {
    const text = (s.offset_string ?? '').trim();
    if (!text) throw ValidationError.of(`span.${i}.offset_string`, 'Type the value: a typed annotation keeps the text sent for its box (offset_string).');
    return {
      page_index: s.page_index, x0: s.x0, x1: s.x1, y0: s.y0, y1: s.y1,
      top: s.top ?? null, bottom: s.bottom ?? null,
      offset_string: text, offset_string_original: text,
      start_offset: null, end_offset: null,
    };
  });
}

/**
 * Spans the extraction AI made from the document's own characters (geometry.spansFromChars): stored as
 * given, offsets included, without reading the characters again.
 */
export const machineSpans = (spans: SpanInput[]): StoredSpan[] =>
  spans.map((s) => {
    const text = s.offset_string ?? '';
    return {
      page_index: s.page_index, x0: s.x0, x1: s.x1, y0: s.y0, y1: s.y1,
      top: s.top ?? null, bottom: s.bottom ?? null,
      offset_string: text, offset_string_original: text,
      start_offset: s.start_offset ?? null, end_offset: s.end_offset ?? null,
    };
  });

/** The annotation's own columns, derived from its spans. */
export function spanColumns(spans: StoredSpan[]) {
  const starts = spans.map((s) => s.start_offset).filter((n): n is number => n !== null);
  const ends = spans.map((s) => s.end_offset).filter((n): n is number => n !== null);
  return {
    spans,
    offset_string: spans.map((s) => s.offset_string).filter(Boolean).join(' '),
    start_offset: starts.length ? Math.min(...starts) : null,
    end_offset: ends.length ? Math.max(...ends) : null,
    custom_offset_string: spans.some((s) => s.offset_string !== s.offset_string_original),
  };
}
