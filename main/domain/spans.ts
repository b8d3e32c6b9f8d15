// Spans of an annotation (spec 2.10): how sent spans are stored, when two spans mark the same place,
// and the annotation columns derived from its spans. Pure.

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

export const parseSpans = (json: string): StoredSpan[] => JSON.parse(json) as StoredSpan[];

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

/**
 * Spans as sent -> spans as stored. A span at a place the annotation already had keeps the text first
 * seen there (offset_string_original); a new place starts with the text sent now. Without a text
 * layer the offsets are kept as the client sent them.
 */
export function toStoredSpans(spans: SpanInput[], previous: StoredSpan[] = []): StoredSpan[] {
  return spans.map((s) => {
    const before = previous.find((p) => samePlace(p, s));
    const text = s.offset_string ?? before?.offset_string ?? '';
    return {
      page_index: s.page_index,
      x0: s.x0,
      x1: s.x1,
      y0: s.y0,
      y1: s.y1,
      top: s.top ?? before?.top ?? null,
      bottom: s.bottom ?? before?.bottom ?? null,
      offset_string: text,
      offset_string_original: before ? before.offset_string_original : text,
      start_offset: s.start_offset ?? null,
      end_offset: s.end_offset ?? null,
    };
  });
}

/** The annotation's own columns, derived from its spans. */
export function spanColumns(spans: StoredSpan[]) {
  const starts = spans.map((s) => s.start_offset).filter((n): n is number => n !== null);
  const ends = spans.map((s) => s.end_offset).filter((n): n is number => n !== null);
  return {
    spans: JSON.stringify(spans),
    offset_string: spans.map((s) => s.offset_string).filter(Boolean).join(' '),
    start_offset: starts.length ? Math.min(...starts) : null,
    end_offset: ends.length ? Math.max(...ends) : null,
    custom_offset_string: spans.some((s) => s.offset_string !== s.offset_string_original) ? 1 : 0,
  };
}
