// Embeds a page image into a pdf-lib document as an image XObject without re-encoding it where PDF can
// carry it as is: JPEG as DCT data, plain PNG as its own zlib data with the PNG predictors (like img2pdf).
// pdf-lib's embedPng decodes and re-deflates in JavaScript instead: about 1 s for a 1414 × 2000 scan.
import { PDFHexString, PDFName, type PDFDocument, type PDFRef } from 'pdf-lib';
import sharp from 'sharp';

export interface ImageXObject {
  ref: PDFRef;
  widthPx: number;
  heightPx: number;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function isPng(bytes: Uint8Array): boolean {
  return PNG_SIGNATURE.every((b, i) => bytes[i] === b);
}

function isJpeg(bytes: Uint8Array): boolean {
  return bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;
}

/** JPEG and PNG are embedded as they are (PNG with alpha or interlacing is first flattened onto white);
 * any other format sharp reads (its first page) becomes a lossless PNG first. The image is placed as
 * stored: an EXIF orientation is the caller's to apply. */
export async function embedImageXObject(doc: PDFDocument, bytes: Uint8Array): Promise<ImageXObject> {
  if (isJpeg(bytes)) {
    const image = await doc.embedJpg(bytes);
    return { ref: image.ref, widthPx: image.width, heightPx: image.height };
  }
  const png = isPng(bytes) ? readPng(bytes) : undefined;
  if (png?.passThrough) return embedPng(doc, png);
  const flat = await sharp(bytes).flatten({ background: '#ffffff' }).png({ compressionLevel: 6 }).toBuffer();
  const normalised = readPng(flat);
  if (!normalised.passThrough) throw new Error('cannot embed the image: sharp produced an unexpected PNG');
  return embedPng(doc, normalised);
}

interface PngInfo {
  width: number;
  height: number;
  bitDepth: number;
  colorType: number;
  palette?: Uint8Array;
  idat: Uint8Array[];
  /** Grey, RGB or palette, not interlaced, no transparency: the zlib data is a valid PDF Flate stream. */
  passThrough: boolean;
}

function readPng(bytes: Uint8Array): PngInfo {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const info: PngInfo = { width: 0, height: 0, bitDepth: 0, colorType: 0, idat: [], passThrough: false };
  let interlaced = false;
  let transparent = false;
  for (let at = 8; at + 8 <= bytes.length; ) {
    const length = view.getUint32(at);
    const type = String.fromCharCode(...bytes.subarray(at + 4, at + 8));
    const data = bytes.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') {
      info.width = view.getUint32(at + 8);
      info.height = view.getUint32(at + 12);
      info.bitDepth = data[8];
      info.colorType = data[9];
      interlaced = data[12] !== 0;
    } else if (type === 'PLTE') info.palette = data;
    else if (type === 'tRNS') transparent = true;
    else if (type === 'IDAT') info.idat.push(data);
    else if (type === 'IEND') break;
    at += 12 + length;
  }
  const plainColour = info.colorType === 0 || info.colorType === 2 || (info.colorType === 3 && info.palette !== undefined);
  info.passThrough = plainColour && !interlaced && !transparent && info.idat.length > 0 && info.width > 0 && info.height > 0;
  return info;
}

function embedPng(doc: PDFDocument, png: PngInfo): ImageXObject {
  const ctx = doc.context;
  const colors = png.colorType === 2 ? 3 : 1;
  const colorSpace =
    png.colorType === 3
      ? ctx.obj([PDFName.of('Indexed'), PDFName.of('DeviceRGB'), png.palette!.length / 3 - 1, PDFHexString.of(Buffer.from(png.palette!).toString('hex'))])
      : PDFName.of(png.colorType === 2 ? 'DeviceRGB' : 'DeviceGray');
  const data = Buffer.concat(png.idat);
  const stream = ctx.stream(data, {
    Type: 'XObject',
    Subtype: 'Image',
    Width: png.width,
    Height: png.height,
    ColorSpace: colorSpace,
    BitsPerComponent: png.bitDepth,
    Filter: 'FlateDecode',
    DecodeParms: { Predictor: 15, Colors: colors, BitsPerComponent: png.bitDepth, Columns: png.width },
  });
  return { ref: ctx.register(stream), widthPx: png.width, heightPx: png.height };
}
