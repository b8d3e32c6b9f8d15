// Builds the searchable PDF, OCRmyPDF's way: pages with a text layer stay as they are; OCR'd pages keep
// their picture and get an invisible text layer (Tr 3) with each recognised word laid exactly over its box.
import { PDFDocument, StandardFonts, degrees, type PDFFont, type PDFName, type PDFPage, type PDFRef } from 'pdf-lib';
import { BLANK_FONT_CODES, blankType3Font } from './blankType3Font.ts';
import { embedImageXObject } from './pdfImageXObject.ts';

/** A recognised word in PDF points of the page as displayed (rotation applied), origin bottom left. */
export interface WordBox {
  text: string;
  x0: number;
  x1: number;
  y0: number;
  y1: number;
}

/** A picture that becomes a whole page of widthPt × heightPt (its pixels at its dpi: pt = px × 72 / dpi). */
export interface PageImage {
  /** JPEG or PNG bytes, embedded as they are; other formats sharp reads are turned into PNG. */
  image: Uint8Array;
  widthPt: number;
  heightPt: number;
}

/** What becomes of each page, in order. With an original PDF there is one entry per original page:
 * - text: the original page, untouched;
 * - ocr without image: the original page (a scan) with the text layer over it, as OCRmyPDF does;
 * - ocr with image: a new page showing the image, with the text layer (no original needed).
 * Words are in the coordinates of a widthPt × heightPt page, in reading order. */
export type SearchablePage = { kind: 'text' } | ({ kind: 'ocr'; words: WordBox[]; turn?: number } & ({ image?: undefined; widthPt: number; heightPt: number } | PageImage));

/** Helvetica's descent (AFM Descender, em). The baseline goes this far above a word's box bottom so that the
 * glyph box (descent to descent + font size, as pdf.js and pdfminer compute it) is the word's box. */
const DESCENT_EM = -0.207;
const HELVETICA_SPACE_EM = 0.278;
/** Blank glyphs are half an em wide, like Tesseract's GlyphLessFont; horizontal scaling fits each word anyway. */
const BLANK_WIDTH_EM = 0.5;

/** Returns the original bytes when there is nothing to add. */
export async function buildSearchablePdf(original: Uint8Array | null, pages: SearchablePage[]): Promise<Uint8Array> {
  if (original && pages.every((p) => p.kind === 'text')) return original;
  const source = original ? await loadOriginal(original) : undefined;
  if (source && source.getPageCount() !== pages.length) {
    throw new RangeError(`${pages.length} pages given for a PDF of ${source.getPageCount()} pages`);
  }
  if (!source && pages.some((p) => p.kind !== 'ocr' || !p.image)) throw new Error('without an original PDF every page needs an image');

  // Editing the original keeps everything it holds (outlines, forms, metadata). A page replaced by an
  // image would leave its old objects in the file (pdf-lib saves unreferenced objects too), so then the
  // kept pages are copied into a new document instead.
  const replaced = (p: SearchablePage) => p.kind === 'ocr' && p.image !== undefined;
  let doc: PDFDocument;
  let originals: (PDFPage | undefined)[];
  if (source && !pages.some(replaced)) {
    doc = source;
    originals = source.getPages();
  } else {
    doc = await PDFDocument.create();
    const keep = pages.flatMap((p, i) => (replaced(p) ? [] : [i]));
    const copies = source ? await doc.copyPages(source, keep) : [];
    originals = pages.map(() => undefined);
    keep.forEach((i, k) => (originals[i] = copies[k]));
  }

  const words = pages.flatMap((p) => (p.kind === 'ocr' ? p.words : []));
  const fonts = words.length > 0 ? new TextLayerFonts(doc, words) : undefined;
  for (const [i, spec] of pages.entries()) {
    let page = originals[i];
    if (page && doc !== source) doc.addPage(page);
    if (spec.kind === 'text') continue;
    if (spec.image) page = await addImagePage(doc, spec);
    // OCR read the page turned upright (turn: clockwise degrees): the page is shown that way, and its
    // words (in the upright page's coordinates) go under the turned page.
    if (spec.turn && spec.turn % 360) page!.setRotation(degrees((((page!.getRotation().angle + spec.turn) % 360) + 360) % 360));
    if (fonts) addTextLayer(page!, spec.words, fonts, spec.image ? undefined : displayToUser(page!, spec.widthPt, spec.heightPt));
  }
  return doc.save();
}

/** A PDF of image pages (image-only uploads), without text. */
export async function imagePagesToPdf(pages: PageImage[]): Promise<Uint8Array> {
  return buildSearchablePdf(
    null,
    pages.map((p) => ({ kind: 'ocr', words: [], ...p })),
  );
}

/** Appends (or inserts at `index`) a page of widthPt × heightPt filled by the image. */
export async function addImagePage(doc: PDFDocument, page: PageImage, index?: number): Promise<PDFPage> {
  const image = await embedImageXObject(doc, page.image);
  const size: [number, number] = [page.widthPt, page.heightPt];
  const added = index === undefined ? doc.addPage(size) : doc.insertPage(index, size);
  const name = added.node.newXObject('Scan', image.ref);
  const ctx = doc.context;
  added.node.addContentStream(ctx.register(ctx.stream(`q ${num(page.widthPt)} 0 0 ${num(page.heightPt)} 0 0 cm ${name} Do Q`)));
  return added;
}

async function loadOriginal(bytes: Uint8Array): Promise<PDFDocument> {
  try {
    return await PDFDocument.load(bytes, { updateMetadata: false });
  } catch (err) {
    // pdf-lib cannot write encrypted files: callers then pass an image for every page and no original.
    throw new Error(`cannot rewrite the original PDF: ${(err as Error).message}`);
  }
}

type Matrix = [number, number, number, number, number, number];

/** Maps the displayed page (rotation applied, widthPt × heightPt) to the page's user space, which is
 * what its content stream draws in: undo /Rotate (clockwise) and move to the crop box's corner. */
function displayToUser(page: PDFPage, widthPt: number, heightPt: number): Matrix {
  const { x, y, width, height } = page.getCropBox();
  const angle = page.getRotation().angle;
  const rotate = angle % 90 === 0 ? ((angle % 360) + 360) % 360 : 0; // pdf.js ignores other angles too
  const [shownWidth, shownHeight] = rotate % 180 ? [height, width] : [width, height];
  const sx = shownWidth / widthPt;
  const sy = shownHeight / heightPt;
  const [a, b, c, d, e, f]: Matrix =
    rotate === 90 ? [0, 1, -1, 0, x + width, y] : rotate === 180 ? [-1, 0, 0, -1, x + width, y + height] : rotate === 270 ? [0, -1, 1, 0, x, y + height] : [1, 0, 0, 1, x, y];
  return [a * sx, b * sx, c * sy, d * sy, e, f];
}

/** One stretch of a word drawn with one font. */
interface Run {
  font: PDFRef;
  /** Hex string operand for Tj. */
  codes: string;
  /** Advance at font size 1. */
  widthEm: number;
}

/** The fonts of the text layer: Helvetica (WinAnsi) for every word it can encode, since every viewer has it;
 * a word with any other character is written entirely in blank Type3 fonts whose ToUnicode maps say what
 * each code is, so Polish, Greek, CJK or emoji are found and copied as recognised rather than transliterated. */
class TextLayerFonts {
  readonly helvetica: PDFFont;
  private readonly winAnsi: Set<number>;
  private readonly blankCodes = new Map<string, { font: PDFRef; code: number }>();

  constructor(doc: PDFDocument, words: WordBox[]) {
    this.helvetica = doc.embedStandardFont(StandardFonts.Helvetica);
    this.winAnsi = new Set(this.helvetica.getCharacterSet());
    const others = new Set<string>();
    for (const w of words) {
      const text = cleanText(w.text);
      if (!this.encodable(text)) for (const ch of text) others.add(ch);
    }
    const alphabet = [...others];
    for (let start = 0; start < alphabet.length; start += BLANK_FONT_CODES) {
      const chars = alphabet.slice(start, start + BLANK_FONT_CODES);
      const font = blankType3Font(doc, chars, { fontName: 'FolioOcrText', width: BLANK_WIDTH_EM * 1000, ascent: 1000 + DESCENT_EM * 1000, descent: DESCENT_EM * 1000 });
      chars.forEach((ch, k) => this.blankCodes.set(ch, { font, code: k + 1 }));
    }
  }

  runs(text: string): Run[] {
    if (this.encodable(text)) {
      // Glyph by glyph: pdf-lib's width of a whole string includes kerning, which Tj does not apply.
      let widthEm = 0;
      for (const ch of text) widthEm += this.helvetica.widthOfTextAtSize(ch, 1);
      return [{ font: this.helvetica.ref, codes: this.helvetica.encodeText(text).toString(), widthEm }];
    }
    const runs: Run[] = [];
    for (const ch of text) {
      const { font, code } = this.blankCodes.get(ch)!;
      const last = runs[runs.length - 1];
      const hex = code.toString(16).padStart(2, '0');
      if (last?.font === font) {
        last.codes = `${last.codes.slice(0, -1)}${hex}>`;
        last.widthEm += BLANK_WIDTH_EM;
      } else runs.push({ font, codes: `<${hex}>`, widthEm: BLANK_WIDTH_EM });
    }
    return runs;
  }

  space(): Run {
    return { font: this.helvetica.ref, codes: '<20>', widthEm: HELVETICA_SPACE_EM };
  }

  private encodable(text: string): boolean {
    for (const ch of text) if (!this.winAnsi.has(ch.codePointAt(0)!)) return false;
    return true;
  }
}

/** Control characters have no glyph and no place in a text layer. */
function cleanText(text: string): string {
  return text.replace(/[\p{Cc}]/gu, '');
}

/** Draws the words invisibly: each at its box (font size = box height, baseline above the bottom by the
 * descent, horizontal scaling so the advance is the box width), each followed by a space that spans the
 * gap to the next word on the line (or a plain space at the end of a line), so phrases are found too. */
function addTextLayer(page: PDFPage, words: WordBox[], fonts: TextLayerFonts, toUser: Matrix | undefined): void {
  const drawn = words.map((w) => ({ ...w, text: cleanText(w.text) })).filter((w) => w.text.trim() !== '' && w.x1 > w.x0 && w.y1 > w.y0);
  if (drawn.length === 0) return;
  const names = new Map<PDFRef, PDFName>();
  const nameOf = (font: PDFRef) => {
    let name = names.get(font);
    if (!name) names.set(font, (name = page.node.newFontDictionary('OcrText', font)));
    return name;
  };
  // After normalize() (run by newFontDictionary) the page's own content is wrapped in q … Q, so whatever
  // graphics state it leaves behind cannot displace the layer.
  const ops: string[] = ['q'];
  if (toUser) ops.push(`${toUser.map(num).join(' ')} cm`);
  ops.push('BT', '3 Tr');
  let state = { font: undefined as PDFRef | undefined, size: NaN, scale: NaN };
  const show = (run: Run, size: number, scale: number) => {
    if (run.font !== state.font || size !== state.size) ops.push(`${nameOf(run.font)} ${num(size)} Tf`);
    if (scale !== state.scale) ops.push(`${num(scale, 4)} Tz`);
    ops.push(`${run.codes} Tj`);
    state = { font: run.font, size, scale };
  };
  drawn.forEach((w, i) => {
    const size = w.y1 - w.y0;
    const runs = fonts.runs(w.text);
    const scale = (100 * (w.x1 - w.x0)) / (size * runs.reduce((sum, r) => sum + r.widthEm, 0));
    ops.push(`1 0 0 1 ${num(w.x0)} ${num(w.y0 - DESCENT_EM * size)} Tm`);
    for (const run of runs) show(run, size, scale);
    const next = drawn[i + 1];
    if (!next) return;
    const space = fonts.space();
    const natural = space.widthEm * size;
    const width = sameLine(w, next) ? Math.max(next.x0 - w.x1, 0.05 * size) : natural;
    show(space, size, (100 * width) / natural);
  });
  ops.push('ET', 'Q');
  const ctx = page.doc.context;
  page.node.addContentStream(ctx.register(ctx.flateStream(ops.join('\n'))));
}

/** Whether b continues a's line: it starts further right and they overlap by half the smaller height. */
function sameLine(a: WordBox, b: WordBox): boolean {
  const overlap = Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0);
  return b.x0 > a.x0 && overlap >= 0.5 * Math.min(a.y1 - a.y0, b.y1 - b.y0);
}

/** Plain decimal notation (PDF has no exponents). */
function num(n: number, digits = 3): string {
  return String(Number(n.toFixed(digits)));
}
