// Image normalisation on generated images: EXIF orientation applied, transparency flattened on white,
// TIFF pages split, resolution read (or defaulted), colour depth and space made plain, limits enforced.
import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../main/config.ts';
import { BrokenFileError, LimitError } from '../../main/pipeline/errors.ts';
import { DEFAULT_DPI, normalizeImage } from '../../main/pipeline/images.ts';
import { DEFAULT_LIMITS, pipelineLimits } from '../../main/pipeline/limits.ts';
import { BLUE, RED, multiPageTiff, orientedJpeg, transparentPng } from '../fixtures/imageSamples.ts';

/** The RGB of one pixel of an encoded image. */
async function pixel(image: Buffer, x: number, y: number): Promise<number[]> {
  const { data, info } = await sharp(image).raw().toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * info.channels;
  return [...data.subarray(at, at + 3)];
}

const near = (got: number[], want: { r: number; g: number; b: number }, tolerance = 40) =>
  got.every((v, i) => Math.abs(v - [want.r, want.g, want.b][i]) <= tolerance);
const WHITE = { r: 255, g: 255, b: 255 };

async function rejection(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected a rejection');
}

describe('normalizeImage', () => {
  it('applies EXIF orientation 6: width and height swap, the stored top-left corner ends top right', async () => {
    const [page, ...rest] = await normalizeImage(await orientedJpeg(6), 'jpeg');
    expect(rest).toHaveLength(0);
    expect({ w: page.widthPx, h: page.heightPx, format: page.format }).toEqual({ w: 40, h: 60, format: 'jpeg' });
    const meta = await sharp(page.data).metadata();
    expect({ w: meta.width, h: meta.height, orientation: meta.orientation ?? 1 }).toEqual({ w: 40, h: 60, orientation: 1 });
    expect(near(await pixel(page.data, 34, 5), RED)).toBe(true);
    expect(near(await pixel(page.data, 5, 5), WHITE)).toBe(true);
    expect(near(await pixel(page.data, 5, 54), WHITE)).toBe(true);
  });

  it('passes an upright JPEG through byte for byte', async () => {
    const jpeg = await orientedJpeg(1);
    const [page] = await normalizeImage(jpeg, 'jpeg');
    expect(Buffer.compare(page.data, jpeg)).toBe(0);
    expect({ w: page.widthPx, h: page.heightPx }).toEqual({ w: 60, h: 40 });
  });

  it('flattens a PNG with alpha on white: transparent pixels become white, opaque ones stay', async () => {
    const [page] = await normalizeImage(await transparentPng(), 'png');
    expect(page.format).toBe('png');
    const meta = await sharp(page.data).metadata();
    expect({ alpha: meta.hasAlpha, channels: meta.channels }).toEqual({ alpha: false, channels: 3 });
    expect(await pixel(page.data, 1, 1)).toEqual([255, 255, 255]);
    expect(await pixel(page.data, 39, 29)).toEqual([255, 255, 255]);
    expect(await pixel(page.data, 20, 15)).toEqual([BLUE.r, BLUE.g, BLUE.b]);
  });

  it('splits a 3-page TIFF into 3 pages, in order, with the resolution the file states', async () => {
    const pages = await normalizeImage(await multiPageTiff(['#ff0000', '#00ff00', '#0000ff'], 50, 30, 200), 'tiff');
    expect(pages).toHaveLength(3);
    expect(pages.map((p) => [p.widthPx, p.heightPx, p.dpi, p.format])).toEqual(Array(3).fill([50, 30, 200, 'png']));
    // sharp's multi-page TIFF writer is off by one level here and there: hence the small tolerance.
    expect(near(await pixel(pages[0].data, 10, 10), RED, 2)).toBe(true);
    expect(near(await pixel(pages[1].data, 10, 10), { r: 0, g: 255, b: 0 }, 2)).toBe(true);
    expect(near(await pixel(pages[2].data, 10, 10), BLUE, 2)).toBe(true);
  });

  it('reads the resolution from the image, and falls back to 300 dpi when absent or absurd', async () => {
    const white = () => sharp({ create: { width: 30, height: 20, channels: 3, background: '#ffffff' } });
    const dpiOf = async (image: Buffer, kind: 'jpeg' | 'png') => (await normalizeImage(image, kind))[0].dpi;
    expect(await dpiOf(await white().withMetadata({ density: 150 }).jpeg().toBuffer(), 'jpeg')).toBe(150);
    expect(await dpiOf(await white().withMetadata({ density: 600 }).png().toBuffer(), 'png')).toBe(600);
    // sharp's plain JPEG says "72" with no unit (aspect ratio only): no resolution at all.
    expect(await dpiOf(await white().jpeg().toBuffer(), 'jpeg')).toBe(DEFAULT_DPI);
    expect(await dpiOf(await white().png().toBuffer(), 'png')).toBe(DEFAULT_DPI);
    expect(await dpiOf(await white().withMetadata({ density: 5 }).png().toBuffer(), 'png')).toBe(DEFAULT_DPI);
    expect(await dpiOf(await white().withMetadata({ density: 30000 }).png().toBuffer(), 'png')).toBe(DEFAULT_DPI);
    expect(DEFAULT_DPI).toBe(300);
  });

  it('makes plain 8-bit sRGB of a CMYK JPEG and of a 16-bit PNG', async () => {
    const base = () => sharp({ create: { width: 20, height: 20, channels: 3, background: RED } });
    const [cmyk] = await normalizeImage(await base().toColourspace('cmyk').jpeg().toBuffer(), 'jpeg');
    const cmykMeta = await sharp(cmyk.data).metadata();
    expect({ space: cmykMeta.space, channels: cmykMeta.channels }).toEqual({ space: 'srgb', channels: 3 });
    expect(near(await pixel(cmyk.data, 10, 10), RED, 60)).toBe(true);
    const [deep] = await normalizeImage(await base().toColourspace('rgb16').png().toBuffer(), 'png');
    expect((await sharp(deep.data).metadata()).depth).toBe('uchar');
  });
});

describe('normalizeImage: limits and damage', () => {
  it('refuses an image over the pixel limit with a 413 naming its size and the limit', async () => {
    const err = await rejection(normalizeImage(await orientedJpeg(6), 'jpeg', { maxPixels: 2000 }));
    expect(err).toBeInstanceOf(LimitError);
    const limit = err as LimitError;
    expect({ status: limit.status, kind: limit.limit }).toEqual({ status: 413, kind: 'pixels' });
    expect(limit.body.data_file[0]).toBe('The image is 60 x 40 pixels (2400 pixels); this installation accepts at most 2000 pixels per page (FOLIO_MAX_IMAGE_PIXELS).');
  });

  it('checks the default limit (100 Mpx) from the header, before decoding', async () => {
    // A PNG claiming 12000 x 10000 with (almost) no pixel data: decoding it would fail as damaged instead.
    const chunk = (type: string, body: Buffer) => {
      const len = Buffer.alloc(4);
      len.writeUInt32BE(body.length);
      const crc = Buffer.alloc(4);
      crc.writeUInt32BE(crc32(Buffer.concat([Buffer.from(type), body])));
      return Buffer.concat([len, Buffer.from(type), body, crc]);
    };
    const ihdr = Buffer.alloc(13);
    ihdr.writeUInt32BE(12_000, 0);
    ihdr.writeUInt32BE(10_000, 4);
    ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
    const huge = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(Buffer.alloc(0))), chunk('IEND', Buffer.alloc(0))]);
    const err = await rejection(normalizeImage(huge, 'png'));
    expect(err).toBeInstanceOf(LimitError);
    expect(err.message).toContain('12000 x 10000 pixels (120 Mpx); this installation accepts at most 100 Mpx');
  });

  it('refuses a TIFF with more pages than the page limit', async () => {
    const err = await rejection(normalizeImage(await multiPageTiff(['#000', '#111', '#222']), 'tiff', { maxPages: 2 }));
    expect(err).toBeInstanceOf(LimitError);
    expect((err as LimitError).limit).toBe('pages');
    expect(err.message).toBe('The file has 3 pages; this installation accepts at most 2 (FOLIO_MAX_PAGES).');
  });

  it('refuses truncated images with a 400 that says so, on the re-encoding and the pass-through paths', async () => {
    const noisy = sharp({ create: { width: 300, height: 200, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 40 } } });
    const rotated = await noisy.clone().jpeg().withMetadata({ orientation: 6 }).toBuffer();
    const upright = await noisy.clone().jpeg().toBuffer();
    const png = await noisy.clone().png().toBuffer();
    for (const [bytes, kind] of [[rotated, 'jpeg'], [upright, 'jpeg'], [png, 'png']] as const) {
      const err = await rejection(normalizeImage(bytes.subarray(0, Math.floor(bytes.length * 0.6)), kind));
      expect(err).toBeInstanceOf(BrokenFileError);
      expect((err as BrokenFileError).status).toBe(400);
      // The reviewer's words; libvips' own stay in `detail`, for the log (issue 31).
      expect(err.message).toBe(`The ${kind.toUpperCase()} image is damaged or incomplete and cannot be read. Upload the original file again, or a new scan or export of it.`);
      expect((err as BrokenFileError).detail).toMatch(/\S/);
    }
    const headerOnly = await rejection(normalizeImage(png.subarray(0, 8), 'png'));
    expect(headerOnly).toBeInstanceOf(BrokenFileError);
  });

  it('reads its limits from the environment and rejects nonsense there', () => {
    expect(pipelineLimits({})).toEqual(DEFAULT_LIMITS);
    expect(DEFAULT_LIMITS).toEqual({ maxPages: 1000, maxImagePixels: 100_000_000, maxStreamBytes: 512 * 2 ** 20 });
    expect(pipelineLimits({ FOLIO_MAX_PAGES: '12', FOLIO_MAX_IMAGE_PIXELS: '5000000', FOLIO_MAX_STREAM_MB: '64' })).toEqual({ maxPages: 12, maxImagePixels: 5_000_000, maxStreamBytes: 64 * 2 ** 20 });
    expect(() => pipelineLimits({ FOLIO_MAX_STREAM_MB: '-1' })).toThrow(/FOLIO_MAX_STREAM_MB must be a positive whole number/);
    expect(() => pipelineLimits({ FOLIO_MAX_PAGES: 'many' })).toThrow(ConfigError);
    expect(() => pipelineLimits({ FOLIO_MAX_IMAGE_PIXELS: '0' })).toThrow(/FOLIO_MAX_IMAGE_PIXELS must be a positive whole number/);
  });
});
