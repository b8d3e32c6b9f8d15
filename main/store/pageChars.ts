// The compact stored form of a page's character boxes: one JSON array of tuples per page instead of a
// row per character (a 300-page document has hundreds of thousands of characters).
import type { CharBox } from '../domain/geometry.ts';

type Tuple = [offset: number, text: string, x0: number, x1: number, y0: number, y1: number, lineIndex: number];

/** Four decimals of a point (1/18000 inch) is far below any visible difference. */
const round = (v: number) => Math.round(v * 10_000) / 10_000;

export function encodeChars(chars: readonly CharBox[]): string {
  return JSON.stringify(chars.map((c): Tuple => [c.offset, c.text, round(c.x0), round(c.x1), round(c.y0), round(c.y1), c.line_index]));
}

/**
 * Pages decoded lately, keyed by their stored text: parsing a page costs about a millisecond, and every
 * annotation drawn on a page reads it again. Keyed by content, an entry can never be stale. Bounded by
 * characters held; least recently used first out.
 */
const recent = new Map<string, { pageIndex: number; pageHeight: number; chars: readonly CharBox[] }>();
const RECENT_MAX_CHARS = 100_000;
let recentChars = 0;

/** The page's character boxes. They are shared with later readers of the same page, hence frozen. */
export function decodeChars(json: string, pageIndex: number, pageHeight: number): readonly CharBox[] {
  const hit = recent.get(json);
  if (hit && hit.pageIndex === pageIndex && hit.pageHeight === pageHeight) {
    recent.delete(json);
    recent.set(json, hit);
    return hit.chars;
  }
  const chars = Object.freeze((JSON.parse(json) as Tuple[]).map(([offset, text, x0, x1, y0, y1, line_index]) => Object.freeze({
    offset, text, x0, x1, y0, y1, line_index,
    page_index: pageIndex,
    top: round(pageHeight - y1),
    bottom: round(pageHeight - y0),
  })));
  remember(json, { pageIndex, pageHeight, chars });
  return chars;
}

function remember(json: string, entry: { pageIndex: number; pageHeight: number; chars: readonly CharBox[] }): void {
  if (entry.chars.length > RECENT_MAX_CHARS) return;
  const old = recent.get(json);
  if (old) recentChars -= old.chars.length;
  recent.delete(json);
  recent.set(json, entry);
  recentChars += entry.chars.length;
  for (const [key, e] of recent) {
    if (recentChars <= RECENT_MAX_CHARS) break;
    recent.delete(key);
    recentChars -= e.chars.length;
  }
}
