// Finds the pages of a PDF that are nothing but one picture filling the page: what scanners, phones and
// image-to-PDF tools write (JPEG, or Deflate with or without PNG predictors). pageRender.ts decodes such a
// page's picture with sharp and zlib (native code) instead of letting pdf.js paint it: pdf.js decodes JPEG
// and Deflate in JavaScript, measured at about 0.5 s of the PDF thread's 0.8 s for one 300 dpi JPEG scan
// page (bench:scale's CPU profile), where sharp takes a few tens of ms.
//
// The check is strict, so that the shortcut draws exactly what pdf.js would: the page's content stream
// paints one image XObject, its transformations mapping it onto the whole media box, and draws nothing else;
// the image is 8-bit gray or RGB, JPEG (DCT) or Deflate data with no mask, no decode array and no other
// filter; the crop box, if any, is the media box. Anything else (text, vector art, several images, CMYK,
// JPEG 2000, CCITT, JBIG2) is painted by pdf.js as before. A PDF pdf-lib cannot read gives no shortcut, never an error.
//
// A page that is one such picture placed upright inside the page with margins around it (what image-to-PDF
// tools write for a photo fitted into A4, `img2pdf --pagesize A4`) is found too (fillsPage false): pdf.js
// paints it, and the picture's own resolution tells the renderer the resolution to read it at (pageRender.ts).
import zlib from 'node:zlib';
import { decodePDFRawStream, PDFArray, PDFDict, PDFDocument, PDFName, PDFNumber, PDFRawStream, PDFRef, PDFStream, type PDFObject, type PDFPage } from 'pdf-lib';

export interface ScanPage {
  /** The picture as stored in the PDF (a copy: pdf.js detaches the PDF's buffer): a JPEG file; a PNG file
   * made around Deflate data with PNG predictors (the same bytes PNG's IDAT holds); or Deflate data of
   * the bare pixels. */
  data: Uint8Array;
  encoding: 'jpeg' | 'png' | 'deflate';
  widthPx: number;
  heightPx: number;
  channels: 1 | 3;
  /** The page's /Rotate, clockwise degrees (0, 90, 180 or 270). */
  rotation: number;
  /** Whether the picture covers the whole page (then sharp decodes it in place of pdf.js), or sits inside it. */
  fillsPage: boolean;
  /** Pixels per inch of the picture as placed on the page (the finer of its two axes). */
  dpi: number;
}

/** How close (in points) the image's placement must be to the media box. */
const PLACEMENT_TOLERANCE_PT = 0.5;

/** The 1-based numbers of the pages that are one full-page picture, with that picture. Never throws. */
export async function findScanPages(pdf: Uint8Array): Promise<Map<number, ScanPage>> {
  return new Map([...(await findPicturePages(pdf))].filter(([, scan]) => scan.fillsPage));
}

/** The 1-based numbers of the pages that are one picture, over the whole page or placed upright inside it,
 * with that picture. Never throws. */
export async function findPicturePages(pdf: Uint8Array): Promise<Map<number, ScanPage>> {
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
  // Upright (no turn, no mirror), and within the media box.
  if (!(near(b, 0) && near(c, 0) && a > 0 && d > 0)) return null;
  if (e < media.x - PLACEMENT_TOLERANCE_PT || f < media.y - PLACEMENT_TOLERANCE_PT || e + a > media.x + media.width + PLACEMENT_TOLERANCE_PT || f + d > media.y + media.height + PLACEMENT_TOLERANCE_PT) return null;
  const fillsPage = near(a, media.width) && near(d, media.height) && near(e, media.x) && near(f, media.y);
  const xobjects = page.node.Resources()?.lookupMaybe(PDFName.of('XObject'), PDFDict);
  const image = xobjects?.lookup(PDFName.of(placed.name));
  if (!(image instanceof PDFRawStream)) return null;
  const dict = image.dict;
  const name = (key: string) => {
    const v = dict.lookup(PDFName.of(key));
    return v instanceof PDFName ? v.asString() : v instanceof PDFArray && v.size() === 1 && v.lookup(0) instanceof PDFName ? (v.lookup(0) as PDFName).asString() : undefined;
  };
  const filter = name('Filter');
  if (name('Subtype') !== '/Image' || (filter !== '/DCTDecode' && filter !== '/FlateDecode')) return null;
  for (const key of ['SMask', 'Mask', 'Decode', 'ImageMask']) if (dict.has(PDFName.of(key))) return null;
  const number = (from: PDFDict, key: string) => {
    const v = from.lookup(PDFName.of(key));
    return v instanceof PDFNumber ? v.asNumber() : undefined;
  };
  if (number(dict, 'BitsPerComponent') !== 8) return null;
  const channels = componentsOf(dict.lookup(PDFName.of('ColorSpace')));
  const widthPx = number(dict, 'Width');
  const heightPx = number(dict, 'Height');
  if (channels === null || !widthPx || !heightPx) return null;
  const scan = { widthPx, heightPx, channels, rotation, fillsPage, dpi: Math.max((widthPx * 72) / a, (heightPx * 72) / d) };
  const parms = dict.lookup(PDFName.of('DecodeParms'));
  if (filter === '/DCTDecode') return parms ? null : { ...scan, data: image.contents.slice(), encoding: 'jpeg' };
  // Deflate: bare pixels, or rows each led by a PNG filter byte (predictors 10-15) for Columns × Colors samples.
  if (!parms) return { ...scan, data: image.contents.slice(), encoding: 'deflate' };
  if (!(parms instanceof PDFDict)) return null;
  const predictor = number(parms, 'Predictor') ?? 1;
  if ((number(parms, 'Colors') ?? 1) !== channels || (number(parms, 'BitsPerComponent') ?? 8) !== 8 || (number(parms, 'Columns') ?? 1) !== widthPx) return null;
  if (predictor === 1) return { ...scan, data: image.contents.slice(), encoding: 'deflate' };
  if (predictor < 10) return null; // TIFF predictor 2: pdf.js
  return { ...scan, data: pngAround(image.contents, widthPx, heightPx, channels), encoding: 'png' };
}

/** A PNG file whose one IDAT chunk is `zlibRows` (zlib data of filtered rows, as PDF's PNG predictors store them). */
function pngAround(zlibRows: Uint8Array, width: number, height: number, channels: 1 | 3): Uint8Array {
  const chunk = (type: string, body: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(body.length, 0);
    head.write(type, 4, 'latin1');
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(Buffer.concat([head.subarray(4), body])), 0);
    return Buffer.concat([head, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = channels === 1 ? 0 : 2; // gray or RGB
  // compression, filter method and interlace: 0
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return new Uint8Array(Buffer.concat([signature, chunk('IHDR', ihdr), chunk('IDAT', Buffer.from(zlibRows)), chunk('IEND', Buffer.alloc(0))]));
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
