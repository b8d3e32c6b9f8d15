// Finds the pages of a PDF that are nothing but one JPEG filling the page: what scanners, phones and
// image-to-PDF tools write. pageRender.ts decodes such a page's JPEG with sharp (libjpeg-turbo) instead of
// letting pdf.js paint it: pdf.js decodes JPEG in JavaScript, measured at about 0.5 s of the PDF thread's
// 0.8 s for one 300 dpi scan page (bench:scale's CPU profile), where sharp takes a few tens of ms.
//
// The check is strict, so that the shortcut draws exactly what pdf.js would: the page's content stream
// paints one image XObject, its transformations mapping it onto the whole media box, and draws nothing else;
// the image is 8-bit gray or RGB DCT data with no mask, no decode array and no other filter; the crop box,
// if any, is the media box. Anything else (text, vector art, several images, CMYK, JPEG 2000) is painted by
// pdf.js as before. A PDF pdf-lib cannot read gives no shortcut, never an error.
import { decodePDFRawStream, PDFArray, PDFDict, PDFDocument, PDFName, PDFNumber, PDFRawStream, PDFRef, PDFStream, type PDFObject, type PDFPage } from 'pdf-lib';

export interface ScanPage {
  /** The JPEG file as stored in the PDF (a copy: pdf.js detaches the PDF's buffer). */
  jpeg: Uint8Array;
  widthPx: number;
  heightPx: number;
  /** The page's /Rotate, clockwise degrees (0, 90, 180 or 270). */
  rotation: number;
}

/** How close (in points) the image's placement must be to the media box. */
const PLACEMENT_TOLERANCE_PT = 0.5;

/** The 1-based numbers of the pages that are one full-page JPEG, with that JPEG. Never throws. */
export async function findScanPages(pdf: Uint8Array): Promise<Map<number, ScanPage>> {
  const out = new Map<number, ScanPage>();
  let doc: PDFDocument;
  let pages: PDFPage[];
  try {
    doc = await PDFDocument.load(pdf, { updateMetadata: false, throwOnInvalidObject: true });
    pages = doc.getPages();
  } catch {
    return out; // encrypted, or pdf-lib cannot parse it: pdf.js paints every page
  }
  pages.forEach((page, i) => {
    try {
      const scan = scanOf(doc, page);
      if (scan) out.set(i + 1, scan);
    } catch {
      // an unusual page: pdf.js paints it
    }
  });
  return out;
}

function scanOf(doc: PDFDocument, page: PDFPage): ScanPage | null {
  const rotation = ((page.getRotation().angle % 360) + 360) % 360;
  if (rotation % 90 !== 0) return null;
  const media = page.getMediaBox();
  const crop = page.getCropBox();
  if (!sameBox(media, crop)) return null;
  const placed = soleImagePlacement(contentOf(doc, page));
  if (!placed) return null;
  const [a, b, c, d, e, f] = placed.matrix;
  const near = (x: number, y: number) => Math.abs(x - y) <= PLACEMENT_TOLERANCE_PT;
  if (!(near(a, media.width) && near(b, 0) && near(c, 0) && near(d, media.height) && near(e, media.x) && near(f, media.y))) return null;
  const xobjects = page.node.Resources()?.lookupMaybe(PDFName.of('XObject'), PDFDict);
  const image = xobjects?.lookup(PDFName.of(placed.name));
  if (!(image instanceof PDFRawStream)) return null;
  const dict = image.dict;
  const name = (key: string) => {
    const v = dict.lookup(PDFName.of(key));
    return v instanceof PDFName ? v.asString() : v instanceof PDFArray && v.size() === 1 && v.lookup(0) instanceof PDFName ? (v.lookup(0) as PDFName).asString() : undefined;
  };
  if (name('Subtype') !== '/Image' || name('Filter') !== '/DCTDecode') return null;
  for (const key of ['SMask', 'Mask', 'Decode', 'ImageMask', 'DecodeParms']) if (dict.has(PDFName.of(key))) return null;
  const number = (key: string) => {
    const v = dict.lookup(PDFName.of(key));
    return v instanceof PDFNumber ? v.asNumber() : undefined;
  };
  if (number('BitsPerComponent') !== 8) return null;
  if (componentsOf(dict.lookup(PDFName.of('ColorSpace'))) === null) return null;
  const widthPx = number('Width');
  const heightPx = number('Height');
  if (!widthPx || !heightPx) return null;
  return { jpeg: image.contents.slice(), widthPx, heightPx, rotation };
}

function sameBox(a: { x: number; y: number; width: number; height: number }, b: typeof a): boolean {
  return a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height;
}

/** 1 or 3 for DeviceGray, DeviceRGB and ICC-based spaces of those, else null (CMYK, indexed, Lab...). */
function componentsOf(space: PDFObject | undefined): 1 | 3 | null {
  if (space instanceof PDFName) return space.asString() === '/DeviceGray' ? 1 : space.asString() === '/DeviceRGB' ? 3 : null;
  if (space instanceof PDFArray && space.size() === 2 && space.lookup(0) instanceof PDFName && (space.lookup(0) as PDFName).asString() === '/ICCBased') {
    const profile = space.lookup(1);
    const n = profile instanceof PDFStream ? profile.dict.lookup(PDFName.of('N')) : undefined;
    return n instanceof PDFNumber && (n.asNumber() === 1 || n.asNumber() === 3) ? (n.asNumber() as 1 | 3) : null;
  }
  return null;
}

/** The page's content streams, decoded and joined (a page's /Contents may be one stream or an array). */
function contentOf(doc: PDFDocument, page: PDFPage): string {
  const contents = page.node.get(PDFName.of('Contents'));
  const refs = contents instanceof PDFArray ? contents.asArray() : contents ? [contents] : [];
  return refs
    .map((ref) => {
      const stream = ref instanceof PDFRef ? doc.context.lookup(ref) : ref;
      if (!(stream instanceof PDFRawStream)) throw new Error('not a content stream');
      return Buffer.from(decodePDFRawStream(stream).decode()).toString('latin1');
    })
    .join('\n');
}

/**
 * When the content stream draws exactly one XObject, with nothing but graphics-state nesting (q, Q) and
 * transformations (cm, as pdf-lib writes one per translate, rotate, scale and skew) around it: that
 * XObject's name and the transformation it is drawn with. Any other operator (text, paths, clipping,
 * colours, graphics-state dictionaries, a second Do) gives null.
 */
export function soleImagePlacement(content: string): { name: string; matrix: number[] } | null {
  const tokens = content.split(/[\s\0]+/).filter(Boolean);
  const operands: string[] = [];
  const saved: number[][] = [];
  let matrix = [1, 0, 0, 1, 0, 0];
  let placed: { name: string; matrix: number[] } | null = null;
  for (const token of tokens) {
    if (/^[+-]?(\d+\.?\d*|\.\d+)$/.test(token) || /^\/[^\s/[\]()<>{}%]+$/.test(token)) {
      operands.push(token);
      continue;
    }
    if (token === 'q' && !operands.length) saved.push(matrix);
    else if (token === 'Q' && !operands.length && saved.length) matrix = saved.pop()!;
    else if (token === 'cm' && operands.length === 6 && operands.every((o) => !o.startsWith('/'))) matrix = concat(operands.map(Number), matrix);
    else if (token === 'Do' && !placed && operands.length === 1 && operands[0].startsWith('/')) placed = { name: operands[0].slice(1), matrix };
    else return null;
    operands.length = 0;
  }
  return operands.length ? null : placed;
}

/** `m` then `ctm`: the PDF's `m cm` on the current transformation matrix (both as [a b c d e f]). */
function concat(m: number[], ctm: number[]): number[] {
  const [a, b, c, d, e, f] = m;
  const [A, B, C, D, E, F] = ctm;
  return [a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F];
}
