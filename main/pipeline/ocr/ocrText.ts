// Turns tesseract's result tree (blocks > paragraphs > lines > words > symbols, image pixels, y down)
// into page text in PDF points (origin bottom left): characters, words and lines in reading order.
import type { CharBox } from '../types.ts';

/** The parts of tesseract.js's `blocks` output this module reads (pixels of the OCR image). */
export interface TessBox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}
export interface TessSymbol {
  text: string;
  bbox: TessBox;
}
export interface TessWord {
  text: string;
  confidence: number;
  bbox: TessBox;
  symbols?: TessSymbol[] | null;
}
export interface TessLine {
  bbox: TessBox;
  baseline?: TessBox | null;
  rowAttributes?: { rowHeight: number; descenders: number; ascenders: number } | null;
  words: TessWord[];
}
export interface TessBlock {
  paragraphs: { lines: TessLine[] }[];
}

/**
 * One character. Characters tile their word: a character reaches halfway to its neighbours' ink, so a
 * word has no inner gaps and a gap between characters always means a word break (as textLayout reads
 * it). Vertically a character covers its line's band, ascender to descender, and its own ink.
 * Between two words of a line there is a space character spanning the gap, as in pdf.js text.
 */
export interface OcrChar extends CharBox {
  /** The line's baseline height (PDF points) under this character. */
  baseline: number;
}

export interface OcrWord {
  text: string;
  x0: number;
  x1: number;
  y0: number;
  y1: number;
  /** 0-100, tesseract's word confidence. */
  confidence: number;
  /** Index into `lines`. */
  line: number;
  /** This word's characters: chars[charStart .. charEnd). */
  charStart: number;
  charEnd: number;
}

export interface OcrLine {
  x0: number;
  x1: number;
  y0: number;
  y1: number;
  /** The baseline from the line's left to its right end, PDF points (sloped on a skewed scan). */
  baseline: { x0: number; y0: number; x1: number; y1: number };
  /** Height of the line's letters above and below the baseline, points: a text layer's font size is their sum. */
  ascent: number;
  descent: number;
  /** Tesseract's paragraph of this line, counted over the page from 0. */
  paragraph: number;
  /** This line's words: words[wordStart .. wordEnd). */
  wordStart: number;
  wordEnd: number;
}

export interface OcrPageText {
  /** Reading order; words separated by ' ' characters; no line-break characters. */
  chars: OcrChar[];
  words: OcrWord[];
  lines: OcrLine[];
  /** Words joined by spaces, lines by newlines. */
  text: string;
  /** Mean word confidence, 0-100 (0 for a page without words). */
  confidence: number;
}

/** Pixel-to-point mapping of one OCR image. */
export interface PageFrame {
  /** Points per pixel, across and down. */
  sx: number;
  sy: number;
  heightPt: number;
}

const round = (v: number) => Math.round(v * 100) / 100;

export function toPageText(blocks: TessBlock[] | null | undefined, frame: PageFrame): OcrPageText {
  const out: OcrPageText = { chars: [], words: [], lines: [], text: '', confidence: 0 };
  const X = (px: number) => round(px * frame.sx);
  const Y = (px: number) => round(frame.heightPt - px * frame.sy);
  const textLines: string[] = [];
  let confidenceSum = 0;
  let paragraph = -1;
  for (const block of blocks ?? []) {
    for (const para of block.paragraphs ?? []) {
      paragraph += 1;
      for (const line of para.lines ?? []) {
        const words = (line.words ?? []).map(wordGlyphs).filter((w) => w.glyphs.length > 0);
        if (words.length === 0) continue;
        const band = lineBand(line, words);
        const lineIndex = out.lines.length;
        const wordStart = out.words.length;
        let top = Infinity;
        let bottom = -Infinity;
        words.forEach((w, k) => {
          if (k > 0) {
            const prev = words[k - 1].word.bbox;
            const [gx0, gx1] = [Math.min(prev.x1, w.word.bbox.x0), Math.max(prev.x1, w.word.bbox.x0)];
            const b = band.at((gx0 + gx1) / 2);
            out.chars.push({ text: ' ', x0: X(gx0), x1: X(gx1), y0: Y(b.bottom), y1: Y(b.top), baseline: Y(b.baseline) });
          }
          const charStart = out.chars.length;
          let wTop = Infinity;
          let wBottom = -Infinity;
          for (const g of w.glyphs) {
            const b = band.at((g.x0 + g.x1) / 2);
            const t = Math.min(b.top, g.inkTop);
            const u = Math.max(b.bottom, g.inkBottom);
            wTop = Math.min(wTop, t);
            wBottom = Math.max(wBottom, u);
            out.chars.push({ text: g.text, x0: X(g.x0), x1: X(g.x1), y0: Y(u), y1: Y(t), baseline: Y(b.baseline) });
          }
          top = Math.min(top, wTop);
          bottom = Math.max(bottom, wBottom);
          out.words.push({
            text: w.glyphs.map((g) => g.text).join(''),
            x0: X(w.word.bbox.x0),
            x1: X(w.word.bbox.x1),
            y0: Y(wBottom),
            y1: Y(wTop),
            confidence: round(w.word.confidence),
            line: lineIndex,
            charStart,
            charEnd: out.chars.length,
          });
          confidenceSum += w.word.confidence;
        });
        const left = words[0].word.bbox.x0;
        const right = words[words.length - 1].word.bbox.x1;
        const [l, r] = [band.at(left), band.at(right)];
        out.lines.push({
          x0: X(Math.min(...words.map((w) => w.word.bbox.x0))),
          x1: X(Math.max(...words.map((w) => w.word.bbox.x1))),
          y0: Y(bottom),
          y1: Y(top),
          baseline: { x0: X(left), y0: Y(l.baseline), x1: X(right), y1: Y(r.baseline) },
          ascent: round(band.ascent * frame.sy),
          descent: round(band.descent * frame.sy),
          paragraph,
          wordStart,
          wordEnd: out.words.length,
        });
        textLines.push(out.words.slice(wordStart).map((w) => w.text).join(' '));
      }
    }
  }
  out.text = textLines.join('\n');
  out.confidence = out.words.length ? round(confidenceSum / out.words.length) : 0;
  return out;
}

/** A character of a word with its tiled horizontal extent and its ink's vertical extent (pixels). */
interface Glyph {
  text: string;
  x0: number;
  x1: number;
  inkTop: number;
  inkBottom: number;
}

/** A word's characters: symbols split into single code points, boxes tiled across the word box. */
function wordGlyphs(word: TessWord): { word: TessWord; glyphs: Glyph[] } {
  const wb = word.bbox;
  const pieces: { text: string; box: TessBox }[] = [];
  const symbols = word.symbols?.length ? word.symbols : [{ text: word.text, bbox: wb }];
  for (const s of symbols) {
    const cps = Array.from((s.text ?? '').normalize('NFC')).filter((c) => c.trim() !== '');
    // A symbol of several code points (a ligature, a letter without a precomposed form) shares its box.
    const step = (s.bbox.x1 - s.bbox.x0) / Math.max(1, cps.length);
    cps.forEach((text, i) => pieces.push({ text, box: { ...s.bbox, x0: s.bbox.x0 + i * step, x1: s.bbox.x0 + (i + 1) * step } }));
  }
  if (pieces.length === 0) return { word, glyphs: [] };
  // Tiles are laid out left to right by where each character's ink is (right-to-left words list their
  // characters from the right); the characters keep their reading order. Boundaries lie halfway between
  // neighbouring inks, kept in order and inside the word: LSTM symbol boxes may overlap or be empty, and a
  // word whose boxes give no usable boundaries is divided evenly.
  const byX = pieces.map((_, i) => i).sort((a, b) => pieces[a].box.x0 + pieces[a].box.x1 - (pieces[b].box.x0 + pieces[b].box.x1));
  const edges = [wb.x0];
  for (let k = 1; k < byX.length; k++) {
    const mid = (pieces[byX[k - 1]].box.x1 + pieces[byX[k]].box.x0) / 2;
    edges.push(Math.min(wb.x1, Math.max(edges[k - 1], mid)));
  }
  edges.push(wb.x1);
  const even = edges.some((e, k) => k > 0 && e <= edges[k - 1]);
  const slot = new Array<number>(pieces.length);
  byX.forEach((piece, k) => (slot[piece] = k));
  const width = (wb.x1 - wb.x0) / pieces.length;
  const glyphs = pieces.map((p, i) => ({
    text: p.text,
    x0: even ? wb.x0 + slot[i] * width : edges[slot[i]],
    x1: even ? wb.x0 + (slot[i] + 1) * width : edges[slot[i] + 1],
    inkTop: Math.max(wb.y0, Math.min(p.box.y0, wb.y1)),
    inkBottom: Math.min(wb.y1, Math.max(p.box.y1, wb.y0)),
  }));
  return { word, glyphs };
}

interface Band {
  ascent: number;
  descent: number;
  at(x: number): { top: number; bottom: number; baseline: number };
}

/** The line's letter band: tesseract's baseline (a sloped segment on skewed scans) with the row's
 * ascender and descender heights; the words' box where tesseract gives no usable row metrics. */
function lineBand(line: TessLine, words: { word: TessWord }[]): Band {
  const top = Math.min(...words.map((w) => w.word.bbox.y0));
  const bottom = Math.max(...words.map((w) => w.word.bbox.y1));
  const bl = line.baseline;
  const ra = line.rowAttributes;
  if (!bl || !ra || !(ra.rowHeight > 0)) {
    const descent = (bottom - top) * 0.2;
    return { ascent: bottom - top - descent, descent, at: () => ({ top, bottom, baseline: bottom - descent }) };
  }
  const descent = Math.abs(ra.descenders);
  const ascent = Math.max(0, ra.rowHeight - descent);
  const slope = bl.x1 === bl.x0 ? 0 : (bl.y1 - bl.y0) / (bl.x1 - bl.x0);
  return {
    ascent,
    descent,
    at: (x: number) => {
      const baseline = bl.y0 + slope * (x - bl.x0);
      return { top: baseline - ascent, bottom: baseline + descent, baseline };
    },
  };
}

/** Width and height of a PNG from its header, or undefined for anything else. */
export function pngSize(image: Uint8Array): { width: number; height: number } | undefined {
  const sig = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (image.length < 24 || sig.some((b, i) => image[i] !== b)) return undefined;
  const view = new DataView(image.buffer, image.byteOffset, image.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}
