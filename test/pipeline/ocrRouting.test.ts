// FOLIO_OCR_ENGINE=auto's choice of engine per page (main/pipeline/ocr/routing.ts): photographed images
// (an uploaded JPEG, or unevenly lit paper) are read by PP-OCRv4, PDF pages and clean images by
// tesseract; what each page says read it is the engine that did; and through the whole pipeline a receipt
// photographed as a JPEG is read by PP-OCRv4 (also when it is read again from its searchable PDF) while the
// same page as a scanned PDF is read by tesseract.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runPipeline } from '../../main/pipeline/documentPipeline.ts';
import { DEFAULT_LIMITS } from '../../main/pipeline/limits.ts';
import { selectEngine, selectPhotoEngine } from '../../main/pipeline/ocr/engine.ts';
import { OcrPool } from '../../main/pipeline/ocr/ocrPool.ts';
import { paddleMissing } from '../../main/pipeline/ocr/paddle/models.ts';
import { decodeGray, paperSpread } from '../../main/pipeline/ocr/preprocess.ts';
import { looksPhotographed, UNEVEN_PAPER } from '../../main/pipeline/ocr/routing.ts';
import { drawPage, type DrawnLine, type DrawnPage } from '../helpers/ocrPages.ts';
import { imagePagesToPdf } from '../../main/pipeline/searchablePdf.ts';
import { withoutOcrLayers } from '../../main/pipeline/ocrLayer.ts';

const SLOW = 300_000;
const LINES = ['SUNRISE HARDWARE SDN BHD', 'Date: 14/03/2019 10:42', 'Pencil 2B x2 3.00', 'TOTAL RM 39.80', 'CASH RM 50.00', 'Thank you please come again'];

let page: DrawnPage;
let dataDir: string;

/** A small receipt at 100 dpi: letters about 10 px high, small print as a phone or a cheap scanner gives. */
beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-routing-'));
  const lines: DrawnLine[] = LINES.map((text, i) => ({ text, x: 12, baselineFromTop: 30 + i * 18, size: 9 }));
  page = await drawPage(lines, { dpi: 100, widthPt: 200, heightPt: 150 });
});
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

/** The page lit from one side: the paper goes from white to a grey shadow. */
async function shaded(png: Uint8Array): Promise<Buffer> {
  const { data, info } = await sharp(png).toColourspace('b-w').raw().toBuffer({ resolveWithObject: true });
  for (let y = 0; y < info.height; y++) for (let x = 0; x < info.width; x++) data[y * info.width + x] = Math.round(data[y * info.width + x] * (1 - 0.4 * (x / info.width)));
  return sharp(data, { raw: { width: info.width, height: info.height, channels: 1 } }).png().toBuffer();
}

describe('which pages look photographed', () => {
  it('an uploaded JPEG, or an uploaded image with unevenly lit paper; never a PDF page or a clean PNG', async () => {
    const jpeg = await sharp(page.png).jpeg({ quality: 80 }).png().toBuffer();
    expect(await looksPhotographed(jpeg, { image: 'jpeg' })).toBe(true);
    // The same pixels as a PNG upload (a screenshot, a generated image), or as a page of a PDF: tesseract.
    expect(paperSpread(await decodeGray(page.png))).toBe(0);
    expect(await looksPhotographed(page.png, { image: 'png' })).toBe(false);
    expect(await looksPhotographed(jpeg, undefined)).toBe(false);
    // Unevenly lit paper is a photograph whatever the format; a PDF page is a scan even so.
    const dark = await shaded(page.png);
    expect(paperSpread(await decodeGray(dark))).toBeGreaterThanOrEqual(UNEVEN_PAPER);
    expect(await looksPhotographed(dark, { image: 'png' })).toBe(true);
    expect(await looksPhotographed(dark, undefined)).toBe(false);
  });

  it('auto has a photo engine when this machine runs PP-OCRv4; any other setting reads every page with one engine', () => {
    expect(selectPhotoEngine({ PATH: process.env.PATH })?.name).toBe(paddleMissing() ? undefined : 'paddle');
    for (const setting of ['native', 'wasm', 'paddle', 'hybrid']) expect(selectPhotoEngine({ FOLIO_OCR_ENGINE: setting })).toBeUndefined();
  });
});

describe.skipIf(!!paddleMissing())('auto through the pipeline', () => {
  let pool: OcrPool;
  beforeAll(() => {
    // As Folio makes it: FOLIO_OCR_ENGINE unset.
    pool = new OcrPool({ dataDir, size: 1 });
  });
  afterAll(() => pool.close());

  it('a photographed receipt (JPEG) is read by PP-OCRv4 and says so; the same page scanned into a PDF by tesseract', async () => {
    // Its stated resolution makes the image page the drawn page's size.
    const jpeg = await sharp(page.png).withMetadata({ density: page.dpi }).jpeg({ quality: 85 }).toBuffer();
    const photo = await runPipeline({ bytes: jpeg, langs: ['eng'], ocr: pool, limits: DEFAULT_LIMITS, storeImage: async () => 'key' });
    expect(photo.pages[0].ocrInfo).toMatchObject({ engine: 'paddle', version: expect.stringMatching(/PP-OCRv4/) });
    expect(photo.layout.text.replace(/\s+/g, ' ')).toContain('TOTAL RM 39.80');
    expect(photo.layout.text).toContain('14/03/2019');
    // Its words lie on the page where they were drawn (points of the page, origin bottom left).
    expect(photo.pages[0].widthPt).toBeCloseTo(page.widthPt, 0);
    const drawn = page.words.find((w) => w.text === '39.80')!;
    const offset = photo.layout.text.indexOf('39.80');
    const first = photo.layout.chars.find((c) => c.offset === offset)!;
    const last = photo.layout.chars.find((c) => c.offset === offset + 4)!;
    expect(Math.abs(first.x0 - drawn.x0), JSON.stringify(first)).toBeLessThan(2);
    expect(Math.abs(last.x1 - drawn.x1), JSON.stringify(last)).toBeLessThan(2);
    expect(first.y0).toBeLessThan(drawn.y0 + 1);
    expect(first.y1).toBeGreaterThan(drawn.y1 - 1);

    const pdf = await imagePagesToPdf([{ image: page.png, widthPt: page.widthPt, heightPt: page.heightPt }]);
    const scan = await runPipeline({ bytes: pdf, langs: ['eng'], ocr: pool, limits: DEFAULT_LIMITS, storeImage: async () => 'key' });
    expect(scan.pages[0].ocrInfo?.engine).toBe(selectEngine({ PATH: process.env.PATH }).name);

    // Read again (processor.readAgain): the photo's searchable PDF without its OCR text, said to come from a JPEG upload, goes to
    // PP-OCRv4 again rather than to the engine for PDF pages.
    const again = await runPipeline({ bytes: await withoutOcrLayers(photo.searchable), langs: ['eng'], ocr: pool, limits: DEFAULT_LIMITS, storeImage: async () => 'key', uploadedImage: 'jpeg' });
    expect(again.pages[0].ocrInfo).toMatchObject({ engine: 'paddle' });
    expect(again.layout.text.replace(/\s+/g, ' ')).toContain('TOTAL RM 39.80');
  }, SLOW);
});
