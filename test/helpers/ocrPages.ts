// Scanned-page stand-ins for the OCR tests and benchmark: text drawn with a real font onto a white page
// image (grayscale PNG, like the renderer's OCR image), with where every word's ink was drawn, in PDF points.
// Also the same text as born-digital PDF pages, for the pipeline's text-layer tests and benchmark.
import fs from 'node:fs';
import { createCanvas, GlobalFonts } from '@napi-rs/canvas';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import sharp from 'sharp';

export const DEJAVU_SANS = '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf';
const FAMILY = 'Folio Test Sans';

export interface DrawnLine {
  text: string;
  /** Left end of the line and its baseline, points from the page's left and top edges. */
  x: number;
  baselineFromTop: number;
  size: number;
}

export interface DrawnWord {
  text: string;
  /** Ink box, PDF points, origin bottom left. */
  x0: number;
  x1: number;
  y0: number;
  y1: number;
  /** Baseline height, PDF points from the bottom. */
  baseline: number;
}

export interface DrawnPage {
  png: Buffer;
  dpi: number;
  widthPt: number;
  heightPt: number;
  words: DrawnWord[];
}

let registered = false;
function registerFont(): void {
  if (registered) return;
  if (!fs.existsSync(DEJAVU_SANS)) throw new Error(`${DEJAVU_SANS} is missing: apt-get install fonts-dejavu-core`);
  GlobalFonts.registerFromPath(DEJAVU_SANS, FAMILY);
  registered = true;
}

export async function drawPage(lines: DrawnLine[], options: { dpi?: number; widthPt?: number; heightPt?: number } = {}): Promise<DrawnPage> {
  registerFont();
  const dpi = options.dpi ?? 300;
  const widthPt = options.widthPt ?? 595.28;
  const heightPt = options.heightPt ?? 841.89;
  const s = dpi / 72;
  const canvas = createCanvas(Math.round(widthPt * s), Math.round(heightPt * s));
  const g = canvas.getContext('2d');
  g.fillStyle = '#fff';
  g.fillRect(0, 0, canvas.width, canvas.height);
  g.fillStyle = '#000';
  g.textBaseline = 'alphabetic';
  const words: DrawnWord[] = [];
  for (const line of lines) {
    g.font = `${line.size * s}px "${FAMILY}"`;
    const xPx = line.x * s;
    const yPx = line.baselineFromTop * s;
    g.fillText(line.text, xPx, yPx);
    // Each word's ink from the font's metrics at the pen position the whole line's text gives it.
    let at = 0;
    for (const part of line.text.split(/(\s+)/)) {
      if (part.trim() !== '') {
        const pen = xPx + g.measureText(line.text.slice(0, at)).width;
        const m = g.measureText(part);
        words.push({
          text: part,
          x0: (pen - m.actualBoundingBoxLeft) / s,
          x1: (pen + m.actualBoundingBoxRight) / s,
          y0: heightPt - (yPx + m.actualBoundingBoxDescent) / s,
          y1: heightPt - (yPx - m.actualBoundingBoxAscent) / s,
          baseline: heightPt - line.baselineFromTop,
        });
      }
      at += part.length;
    }
  }
  const rgba = await canvas.encode('png');
  const png = await sharp(rgba).removeAlpha().toColourspace('b-w').png({ compressionLevel: 1 }).toBuffer();
  return { png, dpi, widthPt, heightPt, words };
}

const VOCABULARY = (
  'invoice total amount due payment account number date customer order item quantity price tax net gross ' +
  'delivery address street city postal code reference contract period balance credit debit bank transfer ' +
  'description service hours rate discount shipping handling statement summary page report company'
).split(' ');

/** A full page of business-like text (about 45 lines of 11 pt), different for every `seed`. */
export function bodyText(seed: number, lineCount = 45): DrawnLine[] {
  let state = seed * 2654435761 + 1;
  const next = () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
  const lines: DrawnLine[] = [];
  for (let i = 0; i < lineCount; i++) {
    const words: string[] = [];
    while (words.join(' ').length < 70) {
      const r = next();
      words.push(r < 0.15 ? String(Math.floor(next() * 100000) / 100) : VOCABULARY[Math.floor(r * VOCABULARY.length) % VOCABULARY.length]);
    }
    lines.push({ text: words.join(' '), x: 60, baselineFromTop: 80 + i * 16, size: 11 });
  }
  return lines;
}

/** A born-digital PDF of `pages` A4 pages of bodyText (page n drawn from seed n) in Helvetica, no images. */
export async function bornDigitalPdf(pages: number): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (let i = 0; i < pages; i++) {
    const page = pdf.addPage([595.28, 841.89]);
    for (const line of bodyText(i + 1)) page.drawText(line.text, { x: line.x, y: 841.89 - line.baselineFromTop, size: line.size, font });
  }
  return pdf.save();
}
