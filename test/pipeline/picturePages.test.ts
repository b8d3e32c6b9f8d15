// A page that is one picture placed inside it with margins, as image-to-PDF tools wrap a photo
// (`img2pdf --pagesize A4` fits it into the page, centred): scanPages.ts finds it and its resolution,
// pageRender.ts paints it for OCR at that resolution instead of 300 dpi, and the pipeline reads it with its
// words where they lie on the page. Full-page scans and pictures below 150 ppi are rendered at 300 dpi.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { degrees, PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runPipeline } from '../../main/pipeline/documentPipeline.ts';
import { DEFAULT_LIMITS } from '../../main/pipeline/limits.ts';
import { selectEngine } from '../../main/pipeline/ocr/engine.ts';
import { OcrPool } from '../../main/pipeline/ocr/ocrPool.ts';
import { MIN_PICTURE_OCR_DPI } from '../../main/pipeline/pageRender.ts';
import { renderPages, type RenderedPage, type RenderOptions } from '../../main/pipeline/render.ts';
import { findPicturePages, findScanPages } from '../../main/pipeline/scanPages.ts';
import { drawPage, type DrawnLine, type DrawnPage } from '../helpers/ocrPages.ts';

const SLOW = 300_000;
const A4: [number, number] = [595.28, 841.89];
const LINES = ['GREEN LEAF TRADING SDN BHD', 'Invoice No: CS00012345', 'Date: 16/03/2018 14:05', 'Rice 5kg x1 21.90', 'Cooking oil 2L x1 12.40', 'TOTAL RM 34.30', 'CASH RM 50.00'];

/** A receipt of 220 × 300 pt drawn at `dpi`, as a JPEG photo. */
async function receipt(dpi: number): Promise<{ drawn: DrawnPage; jpeg: Buffer }> {
  const lines: DrawnLine[] = LINES.map((text, i) => ({ text, x: 14, baselineFromTop: 40 + i * 26, size: 10 }));
  const drawn = await drawPage(lines, { dpi, widthPt: 220, heightPt: 300 });
  return { drawn, jpeg: await sharp(drawn.png).jpeg({ quality: 88 }).toBuffer() };
}

/** The picture fitted into an A4 page and centred, as img2pdf --pagesize A4 places it; where it lies, in points. */
async function fittedIntoA4(jpeg: Buffer, picture: { widthPt: number; heightPt: number }, scale = 1): Promise<{ pdf: Uint8Array; x: number; y: number; scale: number }> {
  const doc = await PDFDocument.create();
  const image = await doc.embedJpg(jpeg);
  const [width, height] = [picture.widthPt * scale, picture.heightPt * scale];
  const [x, y] = [(A4[0] - width) / 2, (A4[1] - height) / 2];
  doc.addPage(A4).drawImage(image, { x, y, width, height });
  return { pdf: await doc.save(), x, y, scale };
}

async function renderAll(pdf: Uint8Array, options: RenderOptions): Promise<RenderedPage[]> {
  const pages: RenderedPage[] = [];
  for await (const page of renderPages(pdf, options)) pages.push(page);
  return pages;
}

describe('pages that are one picture placed inside them', () => {
  it('are found with the resolution the picture has on the page; turned, skewed or overflowing pictures are not', async () => {
    const { drawn, jpeg } = await receipt(200);
    const doc = await PDFDocument.create();
    const image = await doc.embedJpg(jpeg);
    doc.addPage(A4).drawImage(image, { x: 100, y: 200, width: drawn.widthPt, height: drawn.heightPt }); // 1: placed at 200 ppi
    doc.addPage(A4).drawImage(image, { x: 0, y: 0, width: A4[0], height: A4[1] }); // 2: stretched over the page
    doc.addPage(A4).drawImage(image, { x: 100, y: 200, width: drawn.widthPt / 2, height: drawn.heightPt / 2 }); // 3: at 400 ppi
    doc.addPage(A4).drawImage(image, { x: 500, y: 200, width: drawn.widthPt, height: drawn.heightPt }); // 4: over the right edge
    doc.addPage(A4).drawImage(image, { x: 300, y: 200, width: drawn.widthPt, height: drawn.heightPt, rotate: degrees(90) }); // 5: turned
    const pdf = await doc.save();

    const pictures = await findPicturePages(pdf);
    expect([...pictures.keys()]).toEqual([1, 2, 3]);
    expect(pictures.get(1)).toMatchObject({ fillsPage: false, encoding: 'jpeg', widthPx: 611, heightPx: 833 });
    expect(pictures.get(1)!.dpi).toBeCloseTo(200, 0);
    expect(pictures.get(2)).toMatchObject({ fillsPage: true });
    expect(pictures.get(3)!.dpi).toBeCloseTo(400, 0);
    // Only the full-page one is decoded by sharp in place of pdf.js.
    expect([...(await findScanPages(pdf)).keys()]).toEqual([2]);
  });

  it('are painted for OCR at the picture\'s resolution (at most 300 dpi, at least 150), the viewer images as before', async () => {
    const { drawn, jpeg } = await receipt(200);
    const placed = await fittedIntoA4(jpeg, drawn);
    const [page] = await renderAll(placed.pdf, { ocr: true });
    // The picture's pixels over its 220 pt: 611 px, 199.96 ppi.
    const dpi = (611 * 72) / 220;
    expect(page.ocr!.dpi).toBeCloseTo(dpi, 6);
    expect(page.ocr).toMatchObject({ widthPx: Math.round((A4[0] * dpi) / 72), heightPx: Math.round((A4[1] * dpi) / 72) });
    expect((await sharp(page.ocr!.png).metadata()).width).toBe(page.ocr!.widthPx);
    // Off, the page is read at 300 dpi; the viewer image and thumbnail are the same either way.
    const [at300] = await renderAll(placed.pdf, { ocr: true, ocrAtPictureDpi: false });
    expect(at300.ocr!.dpi).toBe(300);
    expect([page.image!.widthPx, page.thumbnail!.widthPx]).toEqual([at300.image!.widthPx, at300.thumbnail!.widthPx]);

    // A picture with fewer pixels than MIN_PICTURE_OCR_DPI on the page (blown up over it) is rendered at 300 dpi.
    const blownUp = await fittedIntoA4(jpeg, drawn, 200 / (MIN_PICTURE_OCR_DPI - 10));
    const [large] = await renderAll(blownUp.pdf, { ocr: true });
    expect(large.ocr!.dpi).toBe(300);
    // A picture finer than 300 ppi is read at 300 dpi.
    const fine = await fittedIntoA4(jpeg, drawn, 0.5);
    expect((await renderAll(fine.pdf, { ocr: true }))[0].ocr!.dpi).toBe(300);
  });
});

describe('reading a photo fitted into an A4 page', () => {
  let dataDir: string;
  let pool: OcrPool;
  beforeAll(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-picture-pages-'));
    pool = new OcrPool({ dataDir, size: 1, engine: selectEngine({ PATH: process.env.PATH }) });
  });
  afterAll(async () => {
    await pool.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('reads its key values at the picture\'s resolution, each word where it lies on the page', async () => {
    const { drawn, jpeg } = await receipt(200);
    const placed = await fittedIntoA4(jpeg, drawn);
    const result = await runPipeline({ bytes: placed.pdf, langs: ['eng'], ocr: pool, limits: DEFAULT_LIMITS, storeImage: async () => 'key' });
    const text = result.layout.text.replace(/\s+/g, ' ');
    for (const value of ['GREEN LEAF TRADING SDN BHD', '16/03/2018', 'TOTAL RM 34.30']) expect(text).toContain(value);
    expect(result.pages[0]).toMatchObject({ widthPt: A4[0], heightPt: A4[1], rotation: 0 });
    // The total's characters lie where it was drawn, moved by the picture's place on the page.
    const word = drawn.words.find((w) => w.text === '34.30')!;
    const offset = result.layout.text.indexOf('34.30');
    const first = result.layout.chars.find((c) => c.offset === offset)!;
    const last = result.layout.chars.find((c) => c.offset === offset + 4)!;
    expect(Math.abs(first.x0 - (word.x0 + placed.x)), JSON.stringify(first)).toBeLessThan(2);
    expect(Math.abs(last.x1 - (word.x1 + placed.x)), JSON.stringify(last)).toBeLessThan(2);
    expect(first.y0).toBeLessThan(word.y0 + placed.y + 1);
    expect(first.y1).toBeGreaterThan(word.y1 + placed.y - 1);
  }, SLOW);
});
