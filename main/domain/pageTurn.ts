// Where an annotation's box lands when its page is turned (post-process: multiples of 90 degrees,
// clockwise like PDF /Rotate) and moved to another place in the document. Boxes are PDF points of the
// page as shown, origin bottom left; `top`/`bottom` count from the top. Offsets are not touched here: the
// page is read again afterwards and each span takes the characters now inside its turned box
// (textMerge.spansInBox), which is how annotations follow new text when a document is read again. When
// that reading's OCR turns a page itself (orientation detection, `ocr_turn`), ocrTurns gives the boxes the
// same turn first, so they turn exactly as the page's final picture did and stay on their words.
import type { StoredSpan } from './spans.ts';

/** Where a page goes: the clockwise turn it receives, its size before (points, as shown), its new index. */
export interface PageMove {
  angle: number;
  width: number;
  height: number;
  to: number;
}

/**
 * The turn OCR applied to pages it read (its orientation detection: `ocr_turn`), as moves that keep
 * every box on its words: a box drawn on the page as it stood before OCR turns with it. `width` and
 * `height` are the pages' sizes after OCR; pages OCR did not turn are left out.
 */
export function ocrTurns(pages: readonly { width_pt: number; height_pt: number; ocr_turn: number | null }[]): Map<number, PageMove> {
  const moves = new Map<number, PageMove>();
  pages.forEach((p, index) => {
    const angle = normalTurn(p.ocr_turn ?? 0);
    if (angle === 0) return;
    const sideways = angle === 90 || angle === 270;
    moves.set(index, { angle, width: sideways ? p.height_pt : p.width_pt, height: sideways ? p.width_pt : p.height_pt, to: index });
  });
  return moves;
}

/** 0, 90, 180 or 270: a turn given as -90 is 270. */
export const normalTurn = (angle: number) => (((angle % 360) + 360) % 360) as 0 | 90 | 180 | 270;

/**
 * The box of a span on a page `width` x `height` (points, as shown before the turn) after the page is
 * turned clockwise by `angle` and becomes page `pageIndex`.
 */
export function turnSpan<S extends Pick<StoredSpan, 'page_index' | 'x0' | 'x1' | 'y0' | 'y1' | 'top' | 'bottom'>>(
  span: S,
  angle: number,
  width: number,
  height: number,
  pageIndex: number,
): S {
  const turn = normalTurn(angle);
  const xs = [span.x0, span.x1];
  const ys = [span.y0, span.y1];
  // One corner at a time: (x, y) with y up. Clockwise by 90: (x, y) -> (y, W - x) on a page H x W.
  const corner = (x: number, y: number): [number, number] =>
    turn === 90 ? [y, width - x] : turn === 180 ? [width - x, height - y] : turn === 270 ? [height - y, x] : [x, y];
  const points = xs.flatMap((x) => ys.map((y) => corner(x, y)));
  const x0 = Math.min(...points.map((p) => p[0]));
  const x1 = Math.max(...points.map((p) => p[0]));
  const y0 = Math.min(...points.map((p) => p[1]));
  const y1 = Math.max(...points.map((p) => p[1]));
  const newHeight = turn === 90 || turn === 270 ? width : height;
  return { ...span, page_index: pageIndex, x0, x1, y0, y1, top: newHeight - y1, bottom: newHeight - y0 };
}
