// Exact per-character geometry from a PDF's text layer: replays pdf.js's operator list with the same
// text-state arithmetic pdf.js's own renderer uses, so every glyph box is where the glyph is painted.
// Runs in PDF worker threads (pdf.worker.ts); extractPdfText (pdfText.ts) is the way in.
// Before pdf.js: keeps the engine's JSON functions (see nativeJson.ts).
import './nativeJson.ts';
import { AnnotationMode, normalizeUnicode, OPS } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { PDFDocumentLoadingTask, PDFDocumentProxy, PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { openPdfjsDocument } from './pdfjsDocument.ts';
import type { PdfChar, PdfPageText } from './types.ts';

type Matrix = [number, number, number, number, number, number];

const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];
const FONT_IDENTITY_MATRIX: Matrix = [0.001, 0, 0, 0.001, 0, 0];

/** The slice of pdf.js's font object (commonObjs) the geometry needs. */
interface FontInfo {
  fontMatrix?: number[];
  descent?: number;
  isType3Font?: boolean;
  vertical?: boolean;
}

/** pdf.js's glyph object inside a showText operator (numbers in the same array are TJ adjustments). */
interface Glyph {
  unicode: string;
  width: number;
  isSpace: boolean;
  vmetric?: number[] | null;
}

/** Text state as pdf.js's CanvasExtraState keeps it: x/y are offsets inside the text matrix. */
interface TextState {
  ctm: Matrix;
  textMatrix: Matrix;
  x: number;
  y: number;
  lineX: number;
  lineY: number;
  font: FontInfo;
  fontSize: number;
  fontDirection: number;
  charSpacing: number;
  wordSpacing: number;
  textHScale: number;
  leading: number;
  textRise: number;
}

/** Starts loading `bytes` (detached by pdf.js: pass a copy you can spare) for reading text only. */
export function openForText(bytes: Uint8Array): PDFDocumentLoadingTask {
  return openPdfjsDocument(bytes, {
    // Images play no part in text geometry, yet pdf.js decodes each one while building the operator
    // list (about 0.15 s per scanned JPEG page). It drops images over maxImageSize pixels: 0 drops all.
    maxImageSize: 0,
  });
}

/** Page `number` (1-based) of a document opened with openForText. */
export async function readPageText(doc: PDFDocumentProxy, number: number): Promise<PdfPageText> {
  const page = await doc.getPage(number);
  try {
    return await extractPage(page);
  } finally {
    page.cleanup();
  }
}

/** extractPdfText on the calling thread, holding it about 10 ms per page: for comparisons. */
export async function extractPdfTextInThread(bytes: Uint8Array): Promise<PdfPageText[]> {
  // pdf.js transfers (detaches) the buffer it is given; keep the caller's bytes intact.
  const task = openForText(new Uint8Array(bytes));
  try {
    const doc = await task.promise;
    const pages: PdfPageText[] = [];
    for (let n = 1; n <= doc.numPages; n++) pages.push(await readPageText(doc, n));
    return pages;
  } finally {
    await task.destroy();
  }
}

async function extractPage(page: PDFPageProxy): Promise<PdfPageText> {
  const viewport = page.getViewport({ scale: 1 });
  const [a, b, c, d, e, f] = viewport.transform;
  // pdf.js's viewport maps user space to a y-down canvas; flip it back to a y-up page.
  const toPage: Matrix = [a, -b, c, -d, e, viewport.height - f];
  // Forms are painted with their field values, like a printout: their text belongs to the page.
  const opList = await page.getOperatorList({ annotationMode: AnnotationMode.ENABLE });
  const chars = walkOperators(opList.fnArray, opList.argsArray, page, toPage);
  const onPage = chars.filter((ch) => ch.x1 > 0 && ch.x0 < viewport.width && ch.y1 > 0 && ch.y0 < viewport.height);
  return {
    number: page.pageNumber,
    width: viewport.width,
    height: viewport.height,
    rotation: page.rotate,
    hasTextLayer: onPage.some((ch) => ch.text.trim() !== ''),
    chars: onPage,
  };
}

function walkOperators(fnArray: number[], argsArray: unknown[][], page: PDFPageProxy, toPage: Matrix): PdfChar[] {
  const chars: PdfChar[] = [];
  const stack: TextState[] = [];
  const annotationDepth: number[] = [];
  let st = initialState(IDENTITY);

  const setFont = (name: string, size: number) => {
    st.font = page.commonObjs.has(name) ? (page.commonObjs.get(name) as FontInfo) : {};
    st.fontDirection = size < 0 ? -1 : 1;
    st.fontSize = Math.abs(size);
  };
  const moveText = (x: number, y: number) => {
    st.x = st.lineX += x;
    st.y = st.lineY += y;
  };

  for (let i = 0; i < fnArray.length; i++) {
    const args = argsArray[i] as any[];
    switch (fnArray[i]) {
      case OPS.save:
        stack.push(cloneState(st));
        break;
      case OPS.restore:
        st = stack.pop() ?? st;
        break;
      case OPS.transform:
        st.ctm = multiply(st.ctm, toMatrix(args));
        break;
      case OPS.paintFormXObjectBegin:
        stack.push(cloneState(st));
        if (args[0]) st.ctm = multiply(st.ctm, toMatrix(args[0]));
        break;
      case OPS.paintFormXObjectEnd:
        st = stack.pop() ?? st;
        break;
      case OPS.beginAnnotation:
        // Annotation appearances start from the page's own space, like pdf.js's renderer does.
        annotationDepth.push(stack.length);
        stack.push(cloneState(st));
        st = initialState(multiply(toMatrix(args[2]), toMatrix(args[3])));
        break;
      case OPS.endAnnotation: {
        const depth = annotationDepth.pop() ?? 0;
        while (stack.length > depth + 1) stack.pop();
        st = stack.pop() ?? st;
        break;
      }
      case OPS.beginText:
        st.textMatrix = IDENTITY;
        st.x = st.lineX = 0;
        st.y = st.lineY = 0;
        break;
      case OPS.setTextMatrix:
        st.textMatrix = toMatrix(args[0]);
        st.x = st.lineX = 0;
        st.y = st.lineY = 0;
        break;
      case OPS.moveText:
        moveText(args[0], args[1]);
        break;
      case OPS.setLeadingMoveText:
        st.leading = args[1];
        moveText(args[0], args[1]);
        break;
      case OPS.nextLine:
        moveText(0, st.leading);
        break;
      case OPS.setLeading:
        st.leading = -args[0];
        break;
      case OPS.setCharSpacing:
        st.charSpacing = args[0];
        break;
      case OPS.setWordSpacing:
        st.wordSpacing = args[0];
        break;
      case OPS.setHScale:
        st.textHScale = args[0] / 100;
        break;
      case OPS.setTextRise:
        st.textRise = args[0];
        break;
      case OPS.setFont:
        setFont(args[0], args[1]);
        break;
      case OPS.setGState:
        for (const [key, value] of args[0] as [string, any][]) if (key === 'Font') setFont(value[0], value[1]);
        break;
      case OPS.showText:
        showText(st, args[0] as (Glyph | number)[], toPage, chars);
        break;
    }
  }
  return chars;
}

/** Mirrors pdf.js's CanvasGraphics.showText / showType3Text advance arithmetic glyph by glyph. */
function showText(st: TextState, glyphs: (Glyph | number)[], toPage: Matrix, out: PdfChar[]): void {
  const { font, fontSize } = st;
  if (fontSize === 0) return;
  const fontMatrix = (font.fontMatrix as Matrix | undefined) ?? FONT_IDENTITY_MATRIX;
  const isType3 = font.isType3Font === true;
  const vertical = font.vertical === true && !isType3;
  const textHScale = st.textHScale * st.fontDirection;
  const spacingDir = vertical ? 1 : -1;
  // pdf.js reports Descent / 1000: em for ordinary fonts; a Type3 descriptor is in glyph space, which
  // the font's FontMatrix turns into em. No known descent: boxes start at the baseline (like pdfminer).
  const descentEm = Number.isFinite(font.descent) ? (font.descent as number) * (isType3 ? 1000 * fontMatrix[3] : 1) : 0;
  const toDevice = multiply(multiply(toPage, st.ctm), st.textMatrix);
  // Vertical fonts write down the text-space y axis, all others along x.
  const dirVec = applyLinear(toDevice, vertical ? [0, -1] : [textHScale, 0]);
  const dir = normalizeDegrees((Math.atan2(dirVec[1], dirVec[0]) * 180) / Math.PI);

  let x = 0; // advance along the line in unscaled text units, as pdf.js accumulates it
  for (const glyph of glyphs) {
    if (typeof glyph === 'number') {
      x += (spacingDir * glyph * fontSize) / 1000;
      continue;
    }
    const spacing = (glyph.isSpace ? st.wordSpacing : 0) + st.charSpacing;
    const width = Number.isFinite(glyph.width) ? glyph.width : 0;
    let advance: number; // glyph width without spacing, unscaled text units
    let step: number;
    if (isType3) {
      advance = (width * fontMatrix[0] + fontMatrix[4]) * fontSize;
      step = advance + spacing;
    } else if (vertical) {
      advance = (glyph.vmetric ? -glyph.vmetric[0] : width) * fontSize * fontMatrix[0];
      step = advance - spacing * st.fontDirection;
    } else {
      advance = width * fontSize * fontMatrix[0];
      step = advance + spacing * st.fontDirection;
    }
    if (vertical) {
      // Vertical writing: glyphs hang below the pen position, centred on it (approximation).
      const top = st.y + st.textRise - x;
      pushGlyph(out, glyph.unicode, toDevice, [st.x - fontSize / 2, top - advance, st.x + fontSize / 2, top], [st.x, top], dir);
    } else {
      const left = st.x + x * textHScale;
      const bottom = st.y + st.textRise + descentEm * fontSize;
      pushGlyph(out, glyph.unicode, toDevice, [left, bottom, left + advance * textHScale, bottom + fontSize], [left, st.y], dir);
    }
    x += step;
  }
  if (vertical) st.y -= x;
  else st.x += x * textHScale;
}

/** Adds one glyph's box (text space, transformed by m); a glyph that stands for several characters
 * (a ligature) is split evenly along x. `pen` is the glyph origin on its baseline, without text rise. */
function pushGlyph(out: PdfChar[], unicode: string, m: Matrix, box: number[], pen: number[], dir: number): void {
  // Compatibility ligatures (ﬁ) become their letters, as in pdf.js's own text layer; controls are dropped.
  const text = Array.from(normalizeUnicode(unicode ?? '') as string).filter((ch) => ch >= ' ' && ch !== '\u007f');
  if (text.length === 0) return;
  const [bx0, by0, bx1, by1] = box;
  // Measure the baseline across its axis (0/180 or 90/270), so upside-down text shares a line key.
  const origin = applyPoint(m, pen);
  const axis = (((Math.round(dir / 90) % 2) + 2) % 2) * 90;
  const rad = ((dir - (Math.round((dir - axis) / 180) * 180)) * Math.PI) / 180;
  const baseline = -Math.sin(rad) * origin[0] + Math.cos(rad) * origin[1];
  const share = (bx1 - bx0) / text.length;
  text.forEach((ch, k) => {
    const left = bx0 + share * k;
    const corners = [
      applyPoint(m, [left, by0]),
      applyPoint(m, [left + share, by0]),
      applyPoint(m, [left, by1]),
      applyPoint(m, [left + share, by1]),
    ];
    const xs = corners.map((p) => p[0]);
    const ys = corners.map((p) => p[1]);
    out.push({
      text: /\s/.test(ch) ? ' ' : ch,
      x0: Math.min(...xs),
      x1: Math.max(...xs),
      y0: Math.min(...ys),
      y1: Math.max(...ys),
      dir,
      baseline,
    });
  });
}

function initialState(ctm: Matrix): TextState {
  return {
    ctm,
    textMatrix: IDENTITY,
    x: 0,
    y: 0,
    lineX: 0,
    lineY: 0,
    font: {},
    fontSize: 0,
    fontDirection: 1,
    charSpacing: 0,
    wordSpacing: 0,
    textHScale: 1,
    leading: 0,
    textRise: 0,
  };
}

function cloneState(st: TextState): TextState {
  return { ...st };
}

/** m1 × m2 in pdf.js's convention: the result applies m2 first, then m1 (like ctx.transform). */
function multiply(m1: Matrix, m2: Matrix): Matrix {
  return [
    m1[0] * m2[0] + m1[2] * m2[1],
    m1[1] * m2[0] + m1[3] * m2[1],
    m1[0] * m2[2] + m1[2] * m2[3],
    m1[1] * m2[2] + m1[3] * m2[3],
    m1[0] * m2[4] + m1[2] * m2[5] + m1[4],
    m1[1] * m2[4] + m1[3] * m2[5] + m1[5],
  ];
}

/** Operator-list matrices arrive as plain arrays or Float32Arrays (text and form matrices). */
function toMatrix(value: unknown): Matrix {
  return value ? (Array.from(value as ArrayLike<number>) as Matrix) : IDENTITY;
}

function applyPoint(m: Matrix, [x, y]: number[]): [number, number] {
  return [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]];
}

function applyLinear(m: Matrix, [x, y]: number[]): [number, number] {
  return [m[0] * x + m[2] * y, m[1] * x + m[3] * y];
}

function normalizeDegrees(deg: number): number {
  const r = Math.round(deg * 1e6) / 1e6;
  return ((r % 360) + 360) % 360;
}
