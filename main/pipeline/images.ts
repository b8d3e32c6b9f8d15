// Turns an uploaded image into upright, opaque page images: EXIF orientation applied, transparency
// flattened on white, each TIFF page on its own, with the resolution the page size is computed from.
// sharp decodes on libuv's thread pool, so none of this blocks the event loop.
import sharp from 'sharp';
import { BrokenFileError, LimitError } from './errors.ts';
import { checkPageCount, megapixels, pipelineLimits } from './limits.ts';

export type ImageKind = 'jpeg' | 'png' | 'tiff';

export interface ImagePage {
  /** PNG, or JPEG when the upload was a JPEG (re-encoding a photo as PNG only makes it larger); an
   * upright sRGB or grey JPEG is passed through byte for byte. */
  data: Buffer;
  format: 'png' | 'jpeg';
  widthPx: number;
  heightPx: number;
  /** Pixels per inch: page size in points is `px * 72 / dpi`. */
  dpi: number;
}

export interface NormalizeImageOptions {
  /** Defaults to FOLIO_MAX_IMAGE_PIXELS. */
  maxPixels?: number;
  /** Defaults to FOLIO_MAX_PAGES (multi-page TIFFs). */
  maxPages?: number;
}

export const DEFAULT_DPI = 300;
/** Resolutions outside this range are taken for junk metadata rather than a real scan or photo. */
const PLAUSIBLE_DPI = { min: 50, max: 2400 };

const KIND_NAMES: Record<ImageKind, string> = { jpeg: 'JPEG', png: 'PNG', tiff: 'TIFF' };

const damagedError = (kind: ImageKind, err: unknown) =>
  new BrokenFileError(`The ${KIND_NAMES[kind]} image is damaged or incomplete and cannot be read. Upload the original file again, or a new scan or export of it.`, { detail: firstLine(err) });

/**
 * The checks an image passes before anything is decoded, from its headers only: a readable header, the
 * page count and each page's pixels within the limits. Returns each page's metadata. The upload check
 * runs it so that an oversized image is a 413 at once, not a failed document later.
 */
export async function checkImageLimits(bytes: Uint8Array, kind: ImageKind, opts: NormalizeImageOptions = {}): Promise<sharp.Metadata[]> {
  const maxPixels = opts.maxPixels ?? pipelineLimits().maxImagePixels;
  const input = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const meta = await sharp(input, { limitInputPixels: false }).metadata().catch((err) => {
    throw damagedError(kind, err);
  });
  const pageCount = kind === 'tiff' ? (meta.pages ?? 1) : 1;
  checkPageCount(pageCount, opts.maxPages ?? pipelineLimits().maxPages);
  const metas: sharp.Metadata[] = [];
  for (let page = 0; page < pageCount; page++) {
    // TIFF pages each have their own size, resolution and orientation.
    const pageMeta = page === 0 ? meta : await sharp(input, { page, limitInputPixels: false }).metadata().catch((err) => {
      throw damagedError(kind, err);
    });
    const width = pageMeta.width ?? 0;
    const height = pageMeta.height ?? 0;
    if (width * height > maxPixels) {
      const where = pageCount > 1 ? ` (page ${page + 1})` : '';
      throw new LimitError('pixels', `The image${where} is ${width} x ${height} pixels (${megapixels(width * height)}); this installation accepts at most ${megapixels(maxPixels)} per page (FOLIO_MAX_IMAGE_PIXELS).`);
    }
    metas.push(pageMeta);
  }
  return metas;
}

export async function normalizeImage(bytes: Uint8Array, kind: ImageKind, opts: NormalizeImageOptions = {}): Promise<ImagePage[]> {
  const maxPixels = opts.maxPixels ?? pipelineLimits().maxImagePixels;
  const input = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const metas = await checkImageLimits(bytes, kind, opts);
  const pages: ImagePage[] = [];
  for (const [page, pageMeta] of metas.entries()) {
    try {
      pages.push(await normalizePage(input, page, kind, pageMeta, maxPixels));
    } catch (err) {
      throw damagedError(kind, err);
    }
  }
  return pages;
}

async function normalizePage(input: Buffer, page: number, kind: ImageKind, meta: sharp.Metadata, maxPixels: number): Promise<ImagePage> {
  // failOn 'error': a truncated image is refused (half a page would be extracted as if whole), while
  // the harmless warnings many cameras and scanners cause are not.
  const decode = () => sharp(input, { page, limitInputPixels: maxPixels, failOn: 'error' });
  const dpi = resolutionOf(meta);
  if (kind === 'jpeg' && (meta.orientation ?? 1) === 1 && (meta.space === 'srgb' || meta.space === 'b-w')) {
    // Already upright and in a colour space PDFs embed as is: keep the original (no generation loss).
    // A shrink-on-load decode still reads every scan, so a truncated file fails here, at a tenth of the cost.
    await decode().resize(32).raw().toBuffer();
    return { data: input, format: 'jpeg', widthPx: meta.width ?? 0, heightPx: meta.height ?? 0, dpi };
  }
  let image = decode().rotate();
  if (meta.hasAlpha) image = image.flatten({ background: '#ffffff' });
  // 8-bit sRGB or grey: CMYK JPEGs and 16-bit PNGs become what PDF embedding and OCR expect.
  const grey = meta.space === 'b-w' || meta.space === 'grey16';
  image = image.toColourspace(grey ? 'b-w' : 'srgb');
  const format = kind === 'jpeg' ? 'jpeg' : 'png';
  const { data, info } = await (format === 'jpeg' ? image.jpeg({ quality: 92 }) : image.png()).toBuffer({ resolveWithObject: true });
  return { data, format, widthPx: info.width, heightPx: info.height, dpi };
}

/** The image's own resolution when it states one in real units and it is plausible, else 300 dpi. */
function resolutionOf(meta: sharp.Metadata): number {
  // Without a unit (JFIF "aspect ratio only", or no pHYs chunk) sharp still reports 72: meaningless.
  if (!meta.resolutionUnit || !meta.density) return DEFAULT_DPI;
  const dpi = meta.density;
  return dpi >= PLAUSIBLE_DPI.min && dpi <= PLAUSIBLE_DPI.max ? Math.round(dpi) : DEFAULT_DPI;
}

const firstLine = (err: unknown) => String((err as Error)?.message ?? err).split('\n')[0];
