// The pixel limit (FOLIO_MAX_IMAGE_PIXELS) for the images inside a PDF, checked from what they declare before
// anything decodes them: a 1 KB PDF can declare a 40000 × 40000 image, and pdf.js (or sharp) allocates what the
// declaration says. Every image XObject (soft masks and Type 3 glyph images too) and every inline image in a
// content stream is measured by its dictionary's /Width and /Height and, where the data states its own size,
// by that: a JPEG's SOF header, a JPEG 2000 codestream's SIZ, a JBIG2 page or region header. Runs in a PDF worker
// (pdfProbe.ts) because pdf-lib parses the whole file. A PDF pdf-lib cannot parse is not judged here (pdf.js's
// own maxImageSize, set in pdfjsDocument.ts, still drops an oversized image there).
import { decodePDFRawStream, PDFArray, PDFDict, PDFDocument, PDFName, PDFNumber, PDFRawStream, type PDFObject } from 'pdf-lib';
import { megapixels } from './limits.ts';

export interface ImageSize {
  widthPx: number;
  heightPx: number;
  /** Where the size was declared, for the message: "the image dictionary", "its JPEG header"... */
  source: string;
}

/** Why the PDF is refused (its first image over `maxPixels`), or undefined. Never throws. */
export async function oversizedImage(pdf: Uint8Array, maxPixels: number): Promise<string | undefined> {
  let doc: PDFDocument;
  try {
    doc = await PDFDocument.load(pdf, { ignoreEncryption: true, throwOnInvalidObject: false, updateMetadata: false });
  } catch {
    return undefined;
  }
  const encrypted = doc.isEncrypted;
  for (const [, object] of doc.context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFRawStream)) continue;
    // Encrypted streams' data cannot be read here; their dictionaries (numbers are never encrypted) can.
    const sizes = isImage(object.dict) ? imageSizes(object.dict, encrypted ? undefined : object.contents) : encrypted || !mayHoldInlineImages(object.dict) ? [] : inlineImageSizes(object);
    const over = sizes.find((s) => s.widthPx * s.heightPx > maxPixels);
    if (over) {
      return `The PDF holds an image of ${over.widthPx} x ${over.heightPx} pixels (${megapixels(over.widthPx * over.heightPx)}, as ${over.source} declares); this installation accepts at most ${megapixels(maxPixels)} per image (FOLIO_MAX_IMAGE_PIXELS).`;
    }
  }
  return undefined;
}

/** The sizes an image declares: its dictionary's, and its data's own where the filter states one. */
export function imageSizes(dict: Map<string, PDFObject | string> | PDFDict, data?: Uint8Array): ImageSize[] {
  const get = (...keys: string[]) => {
    for (const key of keys) {
      const v = dict instanceof PDFDict ? dict.lookup(PDFName.of(key)) : dict.get(key);
      if (v !== undefined) return v;
    }
    return undefined;
  };
  const num = (v: PDFObject | string | undefined) => (v instanceof PDFNumber ? v.asNumber() : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : 0);
  const sizes: ImageSize[] = [{ widthPx: num(get('Width', 'W')), heightPx: num(get('Height', 'H')), source: 'the image dictionary' }];
  // A decoder's row buffer follows DecodeParms /Columns (CCITT, predictors), whatever the image says.
  const parms = get('DecodeParms', 'DP');
  const columns = [parms, ...(parms instanceof PDFArray ? parms.asArray().map((_, i) => parms.lookup(i)) : [])]
    .map((p) => (p instanceof PDFDict ? num(p.lookup(PDFName.of('Columns'))) : 0))
    .reduce((a, b) => Math.max(a, b), 0);
  if (columns > 0) sizes.push({ widthPx: columns, heightPx: 1, source: 'its /DecodeParms /Columns' });
  const filter = lastFilter(get('Filter', 'F'));
  if (data && data.length > 0) {
    const own = filter === 'DCTDecode' || filter === 'DCT' ? jpegSize(data) : filter === 'JPXDecode' ? jpxSize(data) : filter === 'JBIG2Decode' ? jbig2Size(data) : undefined;
    if (own) sizes.push(own);
  }
  return sizes;
}

function isImage(dict: PDFDict): boolean {
  return dict.lookup(PDFName.of('Subtype')) === PDFName.of('Image');
}

/** Page contents, form XObjects, tiling patterns and Type 3 glyphs: the streams operators (and so BI … ID) are in. */
function mayHoldInlineImages(dict: PDFDict): boolean {
  const subtype = dict.lookup(PDFName.of('Subtype'));
  const type = dict.lookup(PDFName.of('Type'));
  if (subtype !== undefined && subtype !== PDFName.of('Form')) return false;
  if (type !== undefined && type !== PDFName.of('XObject') && type !== PDFName.of('Pattern')) return false;
  return !['Length1', 'Length2', 'N', 'FunctionType', 'ShadingType'].some((key) => dict.has(PDFName.of(key)));
}

/** The filter that gives the image's own format (the last of an array), without the slash. */
function lastFilter(filter: PDFObject | string | undefined): string | undefined {
  const last = filter instanceof PDFArray ? filter.lookup(filter.size() - 1) : filter;
  if (last instanceof PDFName) return last.decodeText();
  return typeof last === 'string' ? last.replace(/^\//, '') : undefined;
}

/** Each inline image of a content stream, by its BI … ID dictionary and, for JPEG data, its SOF header. */
function inlineImageSizes(stream: PDFRawStream): ImageSize[] {
  let content: Uint8Array;
  try {
    content = decodePDFRawStream(stream).decode();
  } catch {
    return []; // a filter pdf-lib does not decode (or damaged data): pdf.js's maxImageSize still applies
  }
  const text = Buffer.from(content.buffer, content.byteOffset, content.byteLength).toString('latin1');
  const sizes: ImageSize[] = [];
  const begin = /(?:^|[\s\])>])BI(?=[\s/])/g;
  for (let m = begin.exec(text); m; m = begin.exec(text)) {
    const id = /\sID(?=[\s])/g;
    id.lastIndex = m.index;
    const found = id.exec(text);
    if (!found) break;
    const tokens = text.slice(m.index + m[0].length, found.index).match(/\/[^\s/[\]()<>]+|\[[^\]]*\]|[^\s/[\]]+/g) ?? [];
    const dict = new Map<string, string>();
    for (let i = 0; i + 1 < tokens.length; i += 2) dict.set(tokens[i].slice(1), tokens[i + 1].replace(/^\[\s*|\s*\]$/g, '').split(/\s+/).pop()!);
    const dataAt = found.index + found[0].length + 1;
    const end = text.indexOf('EI', dataAt);
    sizes.push(...imageSizes(dict, content.subarray(dataAt, end < 0 ? content.length : end)));
    begin.lastIndex = end < 0 ? text.length : end + 2;
  }
  return sizes;
}

/** A JPEG's size from its first SOF marker (a height of 0, set later by a DNL marker, counts as unknown). */
export function jpegSize(data: Uint8Array): ImageSize | undefined {
  if (data[0] !== 0xff || data[1] !== 0xd8) return undefined;
  for (let at = 2; at + 9 < data.length; ) {
    if (data[at] !== 0xff) return undefined;
    const marker = data[at + 1];
    if (marker === 0xff) {
      at++; // fill byte
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2;
      continue;
    }
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { heightPx: (data[at + 5] << 8) | data[at + 6], widthPx: (data[at + 7] << 8) | data[at + 8], source: 'its JPEG header' };
    }
    if (marker === 0xda || marker === 0xd9) return undefined; // scan data before any frame header
    at += 2 + ((data[at + 2] << 8) | data[at + 3]);
  }
  return undefined;
}

/** A JPEG 2000 image's size from its codestream's SIZ marker (raw codestream or inside a JP2 file). */
export function jpxSize(data: Uint8Array): ImageSize | undefined {
  const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const at = bytes.indexOf(Buffer.from([0xff, 0x4f, 0xff, 0x51]));
  if (at < 0 || at + 24 > bytes.length) return undefined;
  // SOC, SIZ, Lsiz, Rsiz, then Xsiz, Ysiz, XOsiz, YOsiz (4 bytes each).
  const [x, y, x0, y0] = [8, 12, 16, 20].map((o) => bytes.readUInt32BE(at + o));
  return { widthPx: Math.max(0, x - x0), heightPx: Math.max(0, y - y0), source: 'its JPEG 2000 header' };
}

/** The largest JBIG2 page or region an embedded JBIG2 stream (a sequence of segments, no file header) declares. */
export function jbig2Size(data: Uint8Array): ImageSize | undefined {
  const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  // Segment types starting with a region segment information field (width, height, x, y, flags), and the page information.
  const REGION = new Set([6, 7, 22, 23, 36, 38, 39, 42, 43]);
  const PAGE = 48;
  let largest: ImageSize | undefined;
  for (let at = 0, n = 0; at + 11 <= bytes.length && n < 10_000; n++) {
    const number = bytes.readUInt32BE(at);
    const flags = bytes[at + 4];
    let p = at + 5;
    let referred = bytes[p] >> 5;
    if (referred === 7) {
      if (p + 4 > bytes.length) break;
      referred = bytes.readUInt32BE(p) & 0x1fffffff;
      p += 4 + Math.ceil((referred + 1) / 8);
    } else p += 1;
    p += referred * (number <= 256 ? 1 : number <= 65536 ? 2 : 4);
    p += flags & 0x40 ? 4 : 1;
    if (p + 4 > bytes.length) break;
    const length = bytes.readUInt32BE(p);
    p += 4;
    const type = flags & 0x3f;
    if ((type === PAGE || REGION.has(type)) && p + 8 <= bytes.length) {
      const widthPx = bytes.readUInt32BE(p);
      const rawHeight = bytes.readUInt32BE(p + 4);
      // A striped page of unknown height (0xffffffff) grows as its stripes come: not a declaration.
      const heightPx = type === PAGE && rawHeight === 0xffffffff ? 0 : rawHeight;
      if (!largest || widthPx * heightPx > largest.widthPx * largest.heightPx) largest = { widthPx, heightPx, source: 'its JBIG2 header' };
    }
    if (length === 0xffffffff) break; // an immediate generic region of unknown length: nothing further to read
    at = p + length;
  }
  return largest;
}
