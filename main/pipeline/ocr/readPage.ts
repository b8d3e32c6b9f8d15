// Reading one page with an engine session: preprocessing, orientation, the passes, and the geometry back
// to the upright page's PDF points. The same for every engine; the pool calls it for each page.
import type { OcrSession, OsdResult } from './engine.ts';
import { pngSize, toPageText, type OcrPageText, type TessBlock } from './ocrText.ts';
import { binarize, decodeGray, encodeGray, normalizeBackground, scaleImage, turnImage, type PreprocessOptions } from './preprocess.ts';

export interface PageToRead {
  png: Uint8Array;
  dpi: number;
  /** The page as rendered, in points. */
  widthPt: number;
  heightPt: number;
}

export interface PageReading {
  text: OcrPageText;
  /** Clockwise turn applied to make the page upright (the text is in the turned page's points). */
  rotation: 0 | 90 | 180 | 270;
  osd?: OsdResult;
  /** How many times the engine read the page (orientation checks and second passes read it again). */
  passes: number;
  /** Enlargement of the image the text was read from, 1 when none. */
  scale: number;
}

/** OSD at or above this confidence turns a page without a second opinion. Tesseract's confidence on real
 * receipts is often 0-2 even when it is right, and sometimes 1-2 when it is wrong; clean printed pages turned
 * sideways get well above 10. */
export const OSD_SURE = 8;
/** A reading this good is not questioned: clean upright pages are never turned. */
const READS_WELL_CONFIDENCE = 75;
/** A turned reading must beat the upright one by this factor to be chosen. */
const TURN_MARGIN = 1.5;
/** Tesseract's LSTM models read best around this x-height (px); below MIN_XHEIGHT the page is enlarged. */
const TARGET_XHEIGHT = 28;
const MIN_XHEIGHT = 18;

/** How much confident text a reading holds: word confidence times letters, garbage counts for little. */
export function readingScore(t: OcrPageText): number {
  let s = 0;
  for (const w of t.words) if (w.confidence >= 40) s += (w.confidence / 100) * Array.from(w.text).filter((c) => /[\p{L}\p{N}]/u.test(c)).length;
  return s;
}

function readsWell(t: OcrPageText): boolean {
  return t.words.length >= 3 && t.confidence >= READS_WELL_CONFIDENCE;
}

/** Whether tesseract read the page's lines top to bottom: its layout analysis finds text turned by 90° and
 * reads it, but the boxes stay those of the sideways page, so Folio's lines (left to right) would be
 * garbled. Such a reading counts for nothing; the page is turned instead. */
export function readSideways(blocks: TessBlock[]): boolean {
  let vertical = 0;
  let all = 0;
  for (const b of blocks) for (const p of b.paragraphs ?? []) for (const l of p.lines ?? []) for (const w of l.words ?? []) {
    if (Array.from(w.text ?? '').length < 3) continue;
    all++;
    if (w.bbox.y1 - w.bbox.y0 > 1.5 * (w.bbox.x1 - w.bbox.x0)) vertical++;
  }
  return all > 0 && vertical > all / 2;
}

/** The median x-height (px) of the lines tesseract found, from its row metrics. */
export function medianXHeight(blocks: TessBlock[]): number | undefined {
  const hs: number[] = [];
  for (const b of blocks) for (const p of b.paragraphs ?? []) for (const l of p.lines ?? []) {
    const r = l.rowAttributes;
    if (r && r.rowHeight > 0 && (l.words ?? []).some((w) => w.confidence >= 50)) hs.push(r.rowHeight - Math.abs(r.ascenders) - Math.abs(r.descenders));
  }
  hs.sort((a, b) => a - b);
  return hs.length ? hs[hs.length >> 1] : undefined;
}

export async function readPage(session: OcrSession, page: PageToRead, options: PreprocessOptions): Promise<PageReading> {
  const size = pngSize(page.png);
  let png = page.png;
  let [width, height] = size ? [size.width, size.height] : [Math.round((page.widthPt * page.dpi) / 72), Math.round((page.heightPt * page.dpi) / 72)];
  if (options.normalize || options.binarize) {
    let gray = await decodeGray(png);
    [width, height] = [gray.width, gray.height];
    if (options.normalize) gray = await normalizeBackground(gray);
    if (options.binarize) gray = binarize(gray);
    png = await encodeGray(gray);
  }
  let passes = 0;
  const readAt = async (turn: 0 | 90 | 180 | 270, scale = 1, source = png): Promise<{ text: OcrPageText; blocks: TessBlock[]; sideways: boolean }> => {
    const sideways = turn === 90 || turn === 270;
    let img = await turnImage(source, turn);
    let [w, h] = sideways ? [height, width] : [width, height];
    if (scale !== 1) ({ png: img, width: w, height: h } = await scaleImage(img, w, h, scale));
    const [uw, uh] = sideways ? [page.heightPt, page.widthPt] : [page.widthPt, page.heightPt];
    passes += 1;
    const blocks = await session.recognize(img, { dpi: page.dpi * scale, psm: options.psm });
    // Points per pixel of the image read: scaling and turning change the pixels, never the page's points.
    return { blocks, sideways: readSideways(blocks), text: toPageText(blocks, { sx: uw / w, sy: uh / h, heightPt: uh }) };
  };
  const value = (r: { text: OcrPageText; sideways: boolean }) => (r.sideways ? 0 : readingScore(r.text));

  let osd: OsdResult | undefined;
  let turn: 0 | 90 | 180 | 270 = 0;
  if (options.orientation) {
    osd = await session.detectOrientation(png, page.dpi);
    if (osd && osd.turn !== 0 && osd.confidence >= OSD_SURE) turn = osd.turn;
  }
  let best = await readAt(turn);
  if (options.orientation && (best.sideways || !readsWell(best.text))) {
    // OSD was unsure (or wrong): the engine's own confidence decides, OSD's guess first.
    const tried = new Set<number>([turn]);
    const quarter = (d: number) => ((turn + d) % 360) as 0 | 90 | 180 | 270;
    // Read sideways: the page is a quarter turn off, one way or the other.
    const order = (best.sideways ? [osd?.turn ?? quarter(90), quarter(90), quarter(270)] : [osd?.turn ?? 0, 0, 180, 90, 270]).filter((t) => !tried.has(t) && (tried.add(t), true)) as (0 | 90 | 180 | 270)[];
    let bestTurn = turn;
    for (const t of order) {
      const r = await readAt(t);
      // Upright needs no margin; turning away from it does.
      const margin = t === 0 ? 1 / TURN_MARGIN : bestTurn === 0 ? TURN_MARGIN : 1;
      if (value(r) > value(best) * margin) {
        best = r;
        bestTurn = t;
      }
      if (!best.sideways && readsWell(best.text)) break;
    }
    turn = bestTurn;
  }

  let scale = 1;
  if (options.upscale) {
    const xh = medianXHeight(best.blocks);
    if (xh !== undefined && xh > 0 && xh < MIN_XHEIGHT) {
      const factor = Math.min(3, TARGET_XHEIGHT / xh);
      const r = await readAt(turn, factor);
      if (value(r) > value(best)) {
        best = r;
        scale = factor;
      }
    }
  }
  return { text: best.text, rotation: turn, osd, passes, scale };
}
