// The compact stored form of a page's character boxes: one JSON array of tuples per page instead of a
// row per character (a 300-page document has hundreds of thousands of characters).
import type { CharBox } from '../pipeline/textLayout.ts';

type Tuple = [offset: number, text: string, x0: number, x1: number, y0: number, y1: number, lineIndex: number];

/** Four decimals of a point (1/18000 inch) is far below any visible difference. */
const round = (v: number) => Math.round(v * 10_000) / 10_000;

export function encodeChars(chars: readonly CharBox[]): string {
  return JSON.stringify(chars.map((c): Tuple => [c.offset, c.text, round(c.x0), round(c.x1), round(c.y0), round(c.y1), c.line_index]));
}

export function decodeChars(json: string, pageIndex: number, pageHeight: number): CharBox[] {
  return (JSON.parse(json) as Tuple[]).map(([offset, text, x0, x1, y0, y1, line_index]) => ({
    offset, text, x0, x1, y0, y1, line_index,
    page_index: pageIndex,
    top: round(pageHeight - y1),
    bottom: round(pageHeight - y0),
  }));
}
