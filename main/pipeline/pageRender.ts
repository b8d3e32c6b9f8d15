// Rasterizes one PDF page, in a PDF worker thread (pdf.worker.ts): pdf.js paints the page onto an
// @napi-rs/canvas once, at the largest resolution asked for, and sharp derives and encodes every image
// from those pixels. A page that is one full-page picture (scanPages.ts) is decoded by sharp instead, at
// its own resolution. A page that is one picture placed inside it with margins (a photo fitted into A4) is
// painted for OCR at the picture's own resolution (when it has at least MIN_PICTURE_OCR_DPI, at most
// ocrDpi): painting it at 300 dpi adds no detail, only pixels to paint (OCR reads both alike, bench:pipeline),
// and small print is enlarged by the OCR's own step (readPage.ts) where it needs to be. A full-page scan
// stays at 300 dpi: read at 200 dpi, its print is enlarged further than 300 dpi gives, which costs OCR time.
// The page is released right after, so a worker holds one page's pixels at most.
import { createCanvas } from '@napi-rs/canvas';
import { AnnotationMode, type PDFDocumentProxy, type PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import sharp from 'sharp';
import type { ScanPage } from './scanPages.ts';

/** What to make of each page; resolved from the caller's options by render.ts. */
export interface RenderSettings {
  image: boolean;
  thumbnail: boolean;
  ocr: boolean;
  /** Long side of the viewer image in pixels; the image never goes above `maxImageDpi`. */
  imageLongSidePx: number;
  maxImageDpi: number;
  thumbnailWidthPx: number;
  ocrDpi: number;
  /** Large pages get a lower OCR resolution so that one page never exceeds this many pixels. */
  maxOcrPixels: number;
  /** A page that is one picture is read at the picture's resolution (see ocrDpiOf). */
  ocrAtPictureDpi: boolean;
}

/** An encoded PNG. Points map to its pixels as px = pt × widthPx / widthPt on x and pt × heightPx / heightPt
 * on y, exactly (the page is stretched to whole pixels); both are dpi / 72 up to the pixel rounding. */
export interface RenderedImage {
  png: Uint8Array;
  widthPx: number;
  heightPx: number;
  dpi: number;
}

export interface RenderedPage {
  number: number;
  /** The page as displayed (rotation applied), in points: the page's original_size. */
  widthPt: number;
  heightPt: number;
  rotation: number;
  /** Colour page image for the viewer (the page's `size`). */
  image?: RenderedImage;
  thumbnail?: RenderedImage;
  /** Grayscale image for OCR at ocrDpi. */
  ocr?: RenderedImage;
}

interface Target {
  dpi: number;
  widthPx: number;
  heightPx: number;
}

function targetAt(widthPt: number, heightPt: number, dpi: number): Target {
  return { dpi, widthPx: Math.max(1, Math.round((widthPt * dpi) / 72)), heightPx: Math.max(1, Math.round((heightPt * dpi) / 72)) };
}

/** A picture placed on a page with at least this resolution is read at its own resolution; one with less
 * (a small picture blown up over the page) is rendered at ocrDpi as any other page. */
export const MIN_PICTURE_OCR_DPI = 150;

/** The resolution a page is read at: ocrDpi, or the picture's own when the page is one placed picture of at
 * least MIN_PICTURE_OCR_DPI; never more pixels than maxOcrPixels. */
export function ocrDpiOf(widthPt: number, heightPt: number, s: Pick<RenderSettings, 'ocrDpi' | 'maxOcrPixels'>, pictureDpi?: number): number {
  const wanted = pictureDpi !== undefined && pictureDpi >= MIN_PICTURE_OCR_DPI ? Math.min(s.ocrDpi, pictureDpi) : s.ocrDpi;
  return Math.min(wanted, Math.sqrt((s.maxOcrPixels * 72 * 72) / (widthPt * heightPt)));
}

/** Sizes of every output for a page of widthPt × heightPt points, and the one resolution to paint at:
 * the largest needed (smaller images are resampled from it, cheaper than a second pdf.js pass and
 * better antialiased than painting a scan straight at thumbnail size). */
function renderTargets(widthPt: number, heightPt: number, s: RenderSettings, pictureDpi?: number) {
  const imageDpi = Math.min(s.maxImageDpi, (s.imageLongSidePx * 72) / Math.max(widthPt, heightPt));
  // Its long side never above the viewer image's: a page a point wide and metres tall would give billions of pixels.
  const thumbnailDpi = Math.min((s.thumbnailWidthPx * 72) / widthPt, (s.imageLongSidePx * 72) / Math.max(widthPt, heightPt));
  const ocrDpi = ocrDpiOf(widthPt, heightPt, s, pictureDpi);
  const paintDpi = s.ocr ? Math.max(ocrDpi, s.image ? imageDpi : 0) : s.image ? imageDpi : Math.min(imageDpi, 2 * thumbnailDpi);
  return {
    image: targetAt(widthPt, heightPt, imageDpi),
    thumbnail: targetAt(widthPt, heightPt, thumbnailDpi),
    ocr: targetAt(widthPt, heightPt, ocrDpi),
    paint: targetAt(widthPt, heightPt, paintDpi),
  };
}

/** PNG settings, measured with sharp on a 1414 × 2000 page (scan / text): level 4 without adaptive filtering
 * takes 93 / 25 ms for 2.2 MB / 645 KB, level 6 takes 304 / 37 ms for 3 % less, adaptive filtering triples the
 * time and makes both bigger. OCR images are read once and thrown away: level 1. */
const STORED_PNG = { compressionLevel: 4, adaptiveFiltering: false } as const;
const TRANSIENT_PNG = { compressionLevel: 1, adaptiveFiltering: false } as const;
type PngSettings = typeof STORED_PNG | typeof TRANSIENT_PNG;

export async function renderPage(doc: PDFDocumentProxy, number: number, s: RenderSettings, scan?: ScanPage): Promise<RenderedPage> {
  const page = await doc.getPage(number);
  try {
    const { width: widthPt, height: heightPt } = page.getViewport({ scale: 1 });
    const targets = renderTargets(widthPt, heightPt, s, s.ocrAtPictureDpi && scan && !scan.fillsPage ? scan.dpi : undefined);
    const pixels = (scan?.fillsPage && scan.rotation === page.rotate && (await decodeScan(scan))) || (await paint(page, widthPt, heightPt, targets.paint.widthPx, targets.paint.heightPx));
    try {
      const encode = async (target: Target, gray: boolean, png: PngSettings): Promise<RenderedImage> => {
        let img = sharp(pixels.data, { raw: { width: pixels.widthPx, height: pixels.heightPx, channels: pixels.channels } });
        if (pixels.channels === 4) img = img.removeAlpha();
        if (target.widthPx !== pixels.widthPx || target.heightPx !== pixels.heightPx) img = img.resize(target.widthPx, target.heightPx, { fit: 'fill' });
        // A gray page gives gray images, the viewer's too: sharp would otherwise widen one channel to sRGB
        // (three times the bytes to filter and compress, and back to gray for OCR).
        img = gray || pixels.channels === 1 ? img.toColourspace('b-w') : img.toColourspace('srgb');
        const data = await img.png(png).toBuffer();
        return { png: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), ...target };
      };
      const [image, thumbnail, ocr] = await Promise.all([
        s.image ? encode(targets.image, false, STORED_PNG) : undefined,
        s.thumbnail ? encode(targets.thumbnail, false, STORED_PNG) : undefined,
        s.ocr ? encode(targets.ocr, true, TRANSIENT_PNG) : undefined,
      ]);
      return { number, widthPt, heightPt, rotation: page.rotate, image, thumbnail, ocr };
    } finally {
      pixels.release();
    }
  } finally {
    page.cleanup();
  }
}

/** A page's pixels, from which every image is resampled and encoded. */
const inflate = promisify(zlib.inflate);

interface Pixels {
  data: Uint8Array;
  widthPx: number;
  heightPx: number;
  channels: 1 | 3 | 4;
  /** Frees native memory at once (a canvas surface the JS heap does not see). */
  release(): void;
}

/**
 * A full-page scan's picture decoded by sharp (and zlib) at its own resolution, turned by the page's /Rotate:
 * what pdf.js would paint, without its JavaScript decoders. Null when the picture is not what the PDF says
 * it is (size, components, length): pdf.js paints that page.
 */
async function decodeScan(scan: ScanPage): Promise<Pixels | null> {
  try {
    const { widthPx: width, heightPx: height, channels } = scan;
    let input: sharp.Sharp;
    if (scan.encoding === 'deflate') {
      // Capped at the pixels' size: a stream that inflates further is not these pixels.
      const raw = await inflate(scan.data, { maxOutputLength: width * height * channels + 1 });
      if (raw.length !== width * height * channels) return null;
      input = sharp(raw, { raw: { width, height, channels } });
    } else {
      input = sharp(scan.data);
    }
    // One channel stays one: sharp's raw output is sRGB unless told otherwise, and three channels would not
    // be the picture the PDF describes (every gray scan went to pdf.js's JavaScript decoder that way).
    if (channels === 1) input = input.toColourspace('b-w');
    const { data, info } = await input.rotate(scan.rotation).raw().toBuffer({ resolveWithObject: true });
    const turned = scan.rotation === 90 || scan.rotation === 270;
    const [w, h] = turned ? [height, width] : [width, height];
    if (info.width !== w || info.height !== h || info.channels !== channels) return null;
    const pixels = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    const gray = channels === 3 ? grayOf(pixels) : null;
    if (gray) return { data: gray, widthPx: info.width, heightPx: info.height, channels: 1, release: () => {} };
    return { data: pixels, widthPx: info.width, heightPx: info.height, channels, release: () => {} };
  } catch {
    return null;
  }
}

/**
 * The one channel of RGB pixels that are all gray (R = G = B, as a gray page scanned or saved as a colour
 * JPEG decodes: its chroma is flat), else null, as soon as one pixel has colour. Encoding one channel
 * instead of three, and not converting colour to gray for OCR, saves about 0.1 s of sharp a 300 dpi page.
 * Four pixels at a time as three 32-bit words where the bytes allow (12 instead of 27 ms a 300 dpi page).
 */
export function grayOf(rgb: Uint8Array): Uint8Array | null {
  const n = Math.floor(rgb.length / 3);
  const out = new Uint8Array(n);
  const quads = LITTLE_ENDIAN && rgb.byteOffset % 4 === 0 ? n >> 2 : 0;
  if (quads > 0 && !grayQuads(new Uint32Array(rgb.buffer, rgb.byteOffset, quads * 3), new Uint32Array(out.buffer, 0, quads))) return null;
  for (let i = quads * 4, j = i * 3; i < n; i++, j += 3) {
    const r = rgb[j];
    if (rgb[j + 1] !== r || rgb[j + 2] !== r) return null;
    out[i] = r;
  }
  return out;
}

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** grayOf for whole groups of four pixels: words `a a a b`, `b b c c`, `c d d d` (lowest byte first) become
 * `a b c d`; false at the first pixel with colour. */
function grayQuads(words: Uint32Array, out: Uint32Array): boolean {
  for (let q = 0, j = 0; q < out.length; q++, j += 3) {
    const w0 = words[j];
    const w1 = words[j + 1];
    const w2 = words[j + 2];
    const a = w0 & 0xff;
    const b = w0 >>> 24;
    const c = w1 >>> 24;
    const d = w2 >>> 24;
    if (w0 !== ((a * 0x10101 + (b << 24)) >>> 0)) return false;
    if (w1 !== ((b * 0x101 + c * 0x1010000) >>> 0)) return false;
    if (w2 !== ((c + d * 0x1010100) >>> 0)) return false;
    out[q] = (a | (b << 8) | (c << 16) | (d << 24)) >>> 0;
  }
  return true;
}

/** The page painted by pdf.js (rotation applied, white background) onto a canvas of exactly widthPx × heightPx. */
async function paint(page: PDFPageProxy, widthPt: number, heightPt: number, widthPx: number, heightPx: number): Promise<Pixels> {
  const canvas = createCanvas(widthPx, heightPx);
  // Stretch the unit viewport to the whole-pixel canvas, so each axis maps points to pixels exactly.
  const transform = [widthPx / widthPt, 0, 0, heightPx / heightPt, 0, 0];
  await page.render({
    canvas: canvas as unknown as HTMLCanvasElement,
    canvasContext: canvas.getContext('2d') as unknown as CanvasRenderingContext2D,
    viewport: page.getViewport({ scale: 1 }),
    transform,
    // Form fields are painted with their values, matching the text layer extractPdfText reads.
    annotationMode: AnnotationMode.ENABLE,
  }).promise;
  return {
    // A view onto the canvas surface, not a copy: the canvas must outlive every encoder reading it.
    data: canvas.data(),
    widthPx,
    heightPx,
    channels: 4,
    release: () => {
      canvas.width = 0;
      canvas.height = 0;
    },
  };
}
