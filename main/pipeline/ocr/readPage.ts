// Reading one page with an engine session: preprocessing, orientation, the passes, and the geometry back
// to the upright page's PDF points. The same for every engine; the pool calls it for each page.
import type { OcrSession, OsdResult } from './engine.ts';
import { pngSize, toPageText, type OcrPageText, type TessBlock } from './ocrText.ts';
import { binarize, cropImage, decodeGray, encodeGray, glyphBoxes, medianGlyphHeight, normalizeBackground, scaleGray, turnImage, type GlyphBox, type GrayImage, type PreprocessOptions } from './preprocess.ts';

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
  /** How many pages worth the engine read: 1, plus a quarter for each band the orientation check read. */
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
/** The orientation check's band is read as one block of text. */
const ORIENTATION_PSM = 6;
/** A turn needs at least this much confident text in the band (readingScore: about that many letters). */
const MIN_TURN_SCORE = 8;
/** Median letter height (px, from the ink's blobs) small print is enlarged to. PP-OCRv4 reads the enlarged page
 * too: without it, and with 40 px, it read the receipts worse (README, OCR). */
export const TARGET_GLYPH_HEIGHT = 30;
/** Print whose letters are at least TARGET_GLYPH_HEIGHT / UPSCALE_FROM high is read as it is. */
const UPSCALE_FROM = 1.25;
const MAX_UPSCALE = 3;
/** An enlarged page stays below this many pixels (memory and time of one pass). */
const MAX_UPSCALED_PIXELS = 24e6;

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

/** The band of the page the orientation check reads in each turn: the whole page across its short side, a
 * slice of the long side (a quarter, at least the short side's half) where the most letter-like blobs are.
 * Lines of portrait pages and of receipts run along the short side, so the band holds whole lines. */
export function orientationBand(width: number, height: number, glyphs: GlyphBox[]): { left: number; top: number; width: number; height: number } {
  const tall = height >= width;
  const long = tall ? height : width;
  const short = tall ? width : height;
  const length = Math.min(long, Math.max(Math.round(long / 4), Math.round(short / 2)));
  // Blob centres along the long side, then the window of that length holding the most.
  const centres = glyphs.map((g) => (tall ? (g.y0 + g.y1) / 2 : (g.x0 + g.x1) / 2)).sort((a, b) => a - b);
  let start = Math.round((long - length) / 2);
  let most = -1;
  for (let i = 0, j = 0; i < centres.length; i++) {
    while (j < centres.length && centres[j] < centres[i] + length) j++;
    if (j - i > most) {
      most = j - i;
      start = Math.round(Math.min(long - length, Math.max(0, centres[i] - length * 0.05)));
    }
  }
  return tall ? { left: 0, top: start, width, height: length } : { left: start, top: 0, width: length, height };
}

export async function readPage(session: OcrSession, page: PageToRead, options: PreprocessOptions): Promise<PageReading> {
  const size = pngSize(page.png);
  let [width, height] = size ? [size.width, size.height] : [Math.round((page.widthPt * page.dpi) / 72), Math.round((page.heightPt * page.dpi) / 72)];
  let passes = 0;
  // The page as rendered and its letter-like blobs, found when needed (upscaling, the orientation check).
  let gray: GrayImage | undefined;
  let glyphs: GlyphBox[] | undefined;
  const blobs = async () => {
    gray ??= await decodeGray(page.png);
    [width, height] = [gray.width, gray.height];
    return (glyphs ??= glyphBoxes(gray));
  };

  // Preprocessing, for the page read upright or upside down, or for it read sideways: the enlargement
  // follows the letters' height, which on a sideways page runs along the image's width.
  const prepared = new Map<boolean, Promise<{ png: Uint8Array; scale: number; width: number; height: number }>>();
  const prepare = (sideways: boolean) => {
    let p = prepared.get(sideways);
    if (!p) prepared.set(sideways, (p = preprocessed(sideways)));
    return p;
  };
  const preprocessed = async (sideways: boolean) => {
    let scale = 1;
    if (!(options.normalize || options.binarize || options.upscale)) return { png: page.png, scale, width, height };
    if (options.upscale) {
      // Small print is enlarged before the pass (no pass is spent finding out): the letters' median height,
      // from the ink's blobs, is brought to TARGET_GLYPH_HEIGHT.
      const h = medianGlyphHeight(await blobs(), sideways);
      if (h !== undefined && h < TARGET_GLYPH_HEIGHT / UPSCALE_FROM) {
        scale = Math.min(MAX_UPSCALE, TARGET_GLYPH_HEIGHT / h, Math.sqrt(MAX_UPSCALED_PIXELS / (width * height)));
        if (scale <= 1.05) scale = 1;
      }
    }
    let img = gray ?? (await decodeGray(page.png));
    if (scale !== 1) img = await scaleGray(img, scale);
    if (options.normalize) img = await normalizeBackground(img);
    if (options.binarize) img = binarize(img);
    const png = options.normalize || options.binarize || scale !== 1 ? await encodeGray(img) : page.png;
    return { png, scale, width: img.width, height: img.height };
  };
  // The page as rendered (the orientation checks look at it as it is).
  const rendered = size ?? { width, height };

  const read = async (turn: 0 | 90 | 180 | 270) => {
    const sideways = turn === 90 || turn === 270;
    const { png, scale, width: readWidth, height: readHeight } = await prepare(sideways);
    passes += 1;
    const blocks = await session.recognize(await turnImage(png, turn), { dpi: page.dpi * scale, psm: options.psm });
    const [w, h] = sideways ? [readHeight, readWidth] : [readWidth, readHeight];
    const [uw, uh] = sideways ? [page.heightPt, page.widthPt] : [page.widthPt, page.heightPt];
    // Points per pixel of the image read: scaling and turning change the pixels, never the page's points.
    return { blocks, scale, text: toPageText(blocks, { sx: uw / w, sy: uh / h, heightPt: uh }) };
  };

  // The page as it comes first: most pages are upright, and one that reads well upright (confident words,
  // lines left to right) is not questioned, so it costs one pass and no orientation detection.
  const upright = await read(0);
  if (!options.orientation || (readsWell(upright.text) && !readSideways(upright.blocks))) return { text: upright.text, rotation: 0, passes, scale: upright.scale };

  // Orientation on the page as rendered (not enlarged: cheaper, and enough to tell the turn).
  let osd: OsdResult | undefined;
  let turn: 0 | 90 | 180 | 270 = 0;
  osd = await session.detectOrientation(page.png, page.dpi);
  if (osd && osd.confidence >= OSD_SURE) turn = osd.turn;
  else {
    // OSD is unsure (on receipts it nearly always is, and its guess is often wrong): one band of the page
    // is read in each turn (the same pixels each time, about a quarter of the page), and the engine's own
    // confidence decides. Upright needs no margin, a turn does.
    const band = orientationBand(rendered.width, rendered.height, await blobs());
    const scores = new Map<number, number>();
    const order = [0, ...(osd && osd.turn !== 0 ? [osd.turn] : []), 180, 90, 270].filter((t, i, a) => a.indexOf(t) === i) as (0 | 90 | 180 | 270)[];
    for (const t of order) {
      passes += 0.25;
      const blocks = await session.recognize(await cropImage(page.png, band, t), { dpi: page.dpi, psm: ORIENTATION_PSM });
      const text = toPageText(blocks, { sx: 1, sy: 1, heightPt: 0 });
      scores.set(t, readSideways(blocks) ? 0 : readingScore(text));
      // A band that reads well upright settles it: clean pages OSD was unsure about cost a quarter pass.
      if (t === 0 && readsWell(text) && !readSideways(blocks)) break;
    }
    let best = (scores.get(0) ?? 0) * TURN_MARGIN;
    for (const [t, v] of scores) if (t !== 0 && v > best && v >= MIN_TURN_SCORE) [turn, best] = [t as 0 | 90 | 180 | 270, v];
  }
  if (turn === 0) return { text: upright.text, rotation: 0, osd, passes, scale: upright.scale };
  const turned = await read(turn);
  return { text: turned.text, rotation: turn, osd, passes, scale: turned.scale };
}
