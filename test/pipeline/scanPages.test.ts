// Full-page scans (JPEG, Deflate) are decoded by sharp instead of painted by pdf.js (scanPages.ts, pageRender.ts):
// which pages qualify, and that the images made that way match what pdf.js paints for the same page. A page
// that is one picture placed inside it with margins, as image-to-PDF tools wrap a photo (`img2pdf --pagesize
// A4` fits it into the page, centred), is found with its resolution and painted for OCR at that resolution
// instead of 300 dpi (below 150 ppi, and for full-page scans, 300 dpi), and the pipeline reads it with its
// words where they lie on the page.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { degrees, PDFDocument, rgb } from 'pdf-lib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runPipeline } from '../../main/pipeline/documentPipeline.ts';
import { DEFAULT_LIMITS } from '../../main/pipeline/limits.ts';
import { selectEngine } from '../../main/pipeline/ocr/engine.ts';
import { OcrPool } from '../../main/pipeline/ocr/ocrPool.ts';
import { renderPages, type RenderedPage, type RenderOptions } from '../../main/pipeline/render.ts';
import { imagePagesToPdf } from '../../main/pipeline/searchablePdf.ts';
import { findPicturePages, findScanPages, soleImagePlacement } from '../../main/pipeline/scanPages.ts';
import { drawPage, type DrawnLine, type DrawnPage } from '../helpers/ocrPages.ts';
import { grayOf, MIN_PICTURE_OCR_DPI } from '../../main/pipeline/pageRender.ts';
import { decodeImage, meanDifference } from '../fixtures/pixels.ts';

const LETTER: [number, number] = [612, 792];

/** A 150 dpi scan of a letter page: dark text lines and a box on off-white paper, as JPEG. */
async function scanJpeg(colour: 'gray' | 'rgb' | 'cmyk' = 'gray'): Promise<Buffer> {
  const [w, h] = [1275, 1650];
  const lines = Array.from({ length: 12 }, (_, i) => `<text x="120" y="${200 + i * 100}" font-family="DejaVu Sans" font-size="48" fill="#111">Line ${i + 1}: TOTAL 12.${i}0 RM</text>`).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><rect width="100%" height="100%" fill="#f4f1ea"/><rect x="900" y="1400" width="250" height="120" fill="#2040a0"/>${lines}</svg>`;
  let img = sharp(Buffer.from(svg));
  img = colour === 'gray' ? img.toColourspace('b-w') : colour === 'cmyk' ? img.toColourspace('cmyk') : img;
  return img.jpeg({ quality: 90 }).toBuffer();
}

async function renderAll(pdf: Uint8Array, options: RenderOptions): Promise<RenderedPage[]> {
  const pages: RenderedPage[] = [];
  for await (const page of renderPages(pdf, options)) pages.push(page);
  return pages;
}

describe('findScanPages', () => {
  it('takes pages that are one JPEG over the whole page, with or without /Rotate, and no other page', async () => {
    const doc = await PDFDocument.create();
    const gray = await doc.embedJpg(await scanJpeg('gray'));
    const colour = await doc.embedJpg(await scanJpeg('rgb'));
    const cmyk = await doc.embedJpg(await scanJpeg('cmyk'));
    const full = { x: 0, y: 0, width: LETTER[0], height: LETTER[1] };
    doc.addPage(LETTER).drawImage(gray, full); // 1: a scan
    doc.addPage(LETTER).drawImage(colour, full); // 2: a colour scan
    const turned = doc.addPage(LETTER); // 3: a scan shown turned by /Rotate
    turned.drawImage(gray, full);
    turned.setRotation(degrees(90));
    const withText = doc.addPage(LETTER); // 4: a scan with a text layer over it
    withText.drawImage(gray, full);
    withText.drawText('invisible', { x: 10, y: 10, size: 8, opacity: 0 });
    doc.addPage(LETTER).drawImage(gray, { ...full, x: 20, width: LETTER[0] - 40 }); // 5: a margin around it
    doc.addPage(LETTER).drawImage(cmyk, full); // 6: CMYK, which pdf.js paints with its own colour conversion
    const twice = doc.addPage(LETTER); // 7: two images
    twice.drawImage(gray, full);
    twice.drawImage(gray, { x: 0, y: 0, width: 100, height: 100 });
    const vector = doc.addPage(LETTER); // 8: vector art only
    vector.drawRectangle({ x: 10, y: 10, width: 100, height: 100, color: rgb(0, 0, 0) });

    const scans = await findScanPages(await doc.save());
    expect([...scans.keys()]).toEqual([1, 2, 3]);
    expect(scans.get(1)).toMatchObject({ widthPx: 1275, heightPx: 1650, rotation: 0 });
    expect(scans.get(3)).toMatchObject({ rotation: 90 });
    expect(scans.get(2)).toMatchObject({ encoding: 'jpeg', channels: 3 });
    expect((await sharp(scans.get(2)!.data).metadata()).channels).toBe(3);
  });

  it('takes Deflate pictures too: bare pixels (pdf-lib) and rows with PNG predictors (Folio\'s image pages)', async () => {
    const png = await sharp(await scanJpeg('gray')).toColourspace('b-w').png().toBuffer();
    const doc = await PDFDocument.create();
    doc.addPage(LETTER).drawImage(await doc.embedPng(png), { x: 0, y: 0, width: LETTER[0], height: LETTER[1] });
    const withAlpha = await sharp(png).ensureAlpha(0.5).png().toBuffer();
    doc.addPage(LETTER).drawImage(await doc.embedPng(withAlpha), { x: 0, y: 0, width: LETTER[0], height: LETTER[1] }); // a soft mask: pdf.js
    expect([...(await findScanPages(await doc.save())).values()].map((s) => s.encoding)).toEqual(['deflate']);

    const own = await findScanPages(await imagePagesToPdf([{ image: png, widthPt: LETTER[0], heightPt: LETTER[1] }]));
    expect(own.get(1)).toMatchObject({ encoding: 'png', widthPx: 1275, heightPx: 1650, channels: 1 });
    expect(await sharp(own.get(1)!.data).metadata()).toMatchObject({ format: 'png', width: 1275, height: 1650, channels: 1 });
  });

  it('gives no shortcut for a PDF it cannot read, instead of failing', async () => {
    expect((await findScanPages(new TextEncoder().encode('%PDF-1.7\nnot really a PDF'))).size).toBe(0);
  });
});

describe('soleImagePlacement', () => {
  it('composes the transformations in force where the one image is drawn, undoing those a Q closes', () => {
    expect(soleImagePlacement('q 1 0 0 1 10 20 cm 2 0 0 3 0 0 cm /Im0 Do Q')).toEqual({ name: 'Im0', matrix: [2, 0, 0, 3, 10, 20] });
    expect(soleImagePlacement('q 5 0 0 5 0 0 cm Q q 612 0 0 792 0 0 cm /Scan Do Q')).toEqual({ name: 'Scan', matrix: [612, 0, 0, 792, 0, 0] });
  });

  it('refuses any drawing besides the one image', () => {
    expect(soleImagePlacement('q 612 0 0 792 0 0 cm /Im0 Do Q BT /F1 12 Tf (x) Tj ET')).toBeNull();
    expect(soleImagePlacement('q 612 0 0 792 0 0 cm /Im0 Do /Im1 Do Q')).toBeNull();
    expect(soleImagePlacement('0 0 m 10 10 l S q 612 0 0 792 0 0 cm /Im0 Do Q')).toBeNull();
    expect(soleImagePlacement('/GS0 gs q 612 0 0 792 0 0 cm /Im0 Do Q')).toBeNull();
    expect(soleImagePlacement('q 612 0 0 792 0 0 cm Q')).toBeNull();
  });
});

describe('rendering a scan page through sharp', () => {
  // Rendering for OCR takes the shortcut; rendering without OCR (the pages with a text layer) is always
  // pdf.js: the same page both ways gives the reference to compare with.
  const cases = [
    ['a gray JPEG scan', 'gray', 0, 'jpeg'],
    ['a colour JPEG scan', 'rgb', 0, 'jpeg'],
    ['a gray JPEG scan shown turned by /Rotate 270', 'gray', 270, 'jpeg'],
    ['a colour scan as bare Deflate pixels', 'rgb', 0, 'deflate'],
    ['a gray scan as Deflate with PNG predictors, turned by /Rotate 90', 'gray', 90, 'png'],
  ] as const;
  for (const [name, colour, rotation, encoding] of cases) {
    it(`makes the viewer image and thumbnail pdf.js paints, for ${name}`, async () => {
      const jpeg = await scanJpeg(colour);
      let pdf: Uint8Array;
      if (encoding === 'png') {
        const made = await PDFDocument.load(await imagePagesToPdf([{ image: await sharp(jpeg).png().toBuffer(), widthPt: LETTER[0], heightPt: LETTER[1] }]));
        made.getPage(0).setRotation(degrees(rotation));
        pdf = await made.save();
      } else {
        const doc = await PDFDocument.create();
        const page = doc.addPage(LETTER);
        const picture = encoding === 'jpeg' ? await doc.embedJpg(jpeg) : await doc.embedPng(await sharp(jpeg).png().toBuffer());
        page.drawImage(picture, { x: 0, y: 0, width: LETTER[0], height: LETTER[1] });
        page.setRotation(degrees(rotation));
        pdf = await doc.save();
      }
      expect([...(await findScanPages(pdf)).values()].map((s) => s.encoding)).toEqual([encoding]);
      expect((await findScanPages(pdf)).size).toBe(1);

      const [viaSharp] = await renderAll(pdf, { ocr: true });
      const [viaPdfjs] = await renderAll(pdf, { ocr: false });
      expect({ widthPt: viaSharp.widthPt, heightPt: viaSharp.heightPt, rotation: viaSharp.rotation }).toEqual({ widthPt: viaPdfjs.widthPt, heightPt: viaPdfjs.heightPt, rotation: viaPdfjs.rotation });
      for (const which of ['image', 'thumbnail'] as const) {
        const a = await decodeImage(viaSharp[which]!.png);
        const b = await decodeImage(viaPdfjs[which]!.png);
        expect([a.width, a.height, a.channels]).toEqual([b.width, b.height, b.channels]);
        // Resampling filters differ (sharp's Lanczos against the canvas's smoothing): a few levels on average.
        expect(meanDifference(a, b)).toBeLessThan(4);
      }
      // The OCR image: 300 dpi, one gray channel, upright as the page is shown.
      const ocr = await sharp(viaSharp.ocr!.png).metadata();
      expect([ocr.width, ocr.height, ocr.channels]).toEqual(rotation % 180 ? [3300, 2550, 1] : [2550, 3300, 1]);
      // A gray scan's pictures are gray: decoded by sharp as one channel (pdf.js paints RGBA, so a gray
      // viewer image also shows that the scan did not go to pdf.js's JavaScript decoder).
      expect((await sharp(viaSharp.image!.png).metadata()).channels).toBe(colour === 'gray' ? 1 : 3);
    });
  }

  it('makes gray pictures of a gray page saved as a colour JPEG, with the OCR pixels of the colour conversion', async () => {
    const grayJpeg = await scanJpeg('gray');
    // The same gray page as a three-channel JPEG: its chroma is flat, so it decodes to R = G = B.
    const colourJpeg = await sharp(await sharp(grayJpeg).toColourspace('srgb').raw().toBuffer(), { raw: { width: 1275, height: 1650, channels: 3 } }).jpeg({ quality: 90 }).toBuffer();
    expect((await sharp(colourJpeg).metadata()).channels).toBe(3);
    const doc = await PDFDocument.create();
    doc.addPage(LETTER).drawImage(await doc.embedJpg(colourJpeg), { x: 0, y: 0, width: LETTER[0], height: LETTER[1] });
    const [page] = await renderAll(await doc.save(), { ocr: true });
    expect((await sharp(page.image!.png).metadata()).channels).toBe(1);
    expect((await sharp(page.thumbnail!.png).metadata()).channels).toBe(1);
    // What the OCR reads is what converting the decoded colour picture to gray gives, pixel for pixel.
    const decoded = await sharp(colourJpeg).raw().toBuffer({ resolveWithObject: true });
    const converted = await sharp(decoded.data, { raw: { width: 1275, height: 1650, channels: 3 } }).resize(2550, 3300, { fit: 'fill' }).toColourspace('b-w').raw().toBuffer();
    const ocr = await sharp(page.ocr!.png).toColourspace('b-w').raw().toBuffer();
    expect(ocr.length).toBe(converted.length);
    expect(meanDifference({ data: ocr, width: 2550, height: 3300, channels: 1 }, { data: converted, width: 2550, height: 3300, channels: 1 })).toBeLessThan(0.5);
  });
});

describe('grayOf', () => {
  it('takes one channel of RGB pixels that are all gray, and gives up at the first coloured one', () => {
    expect(grayOf(Uint8Array.from([0, 0, 0, 128, 128, 128, 255, 255, 255]))).toEqual(Uint8Array.from([0, 128, 255]));
    expect(grayOf(Uint8Array.from([10, 10, 10, 200, 10, 10, 30, 30, 30]))).toBeNull();
    expect(grayOf(Uint8Array.from([10, 10, 10, 30, 30, 31]))).toBeNull();
    expect(grayOf(new Uint8Array(0))).toEqual(new Uint8Array(0));
  });

  it('reads four pixels at a time alike: every gray level, a colour in any byte, any length and byte offset', () => {
    const levels = Array.from({ length: 256 }, (_, v) => v);
    const gray = Uint8Array.from([...levels, 7, 250, 3].flatMap((v) => [v, v, v]));
    expect(grayOf(gray)).toEqual(Uint8Array.from([...levels, 7, 250, 3]));
    // A colour in each of a group's 12 bytes, by one level either way, is found (the words' bytes differ).
    for (let byte = 0; byte < 12; byte++) {
      for (const delta of [1, -1]) {
        const rgb = gray.slice();
        const at = 3 * 40 + byte;
        rgb[at] = (rgb[at] + delta + 256) % 256;
        expect(grayOf(rgb), `byte ${byte}, ${delta}`).toBeNull();
      }
    }
    // Views at an offset that is not a multiple of four, and lengths that leave pixels after the groups.
    const backing = new Uint8Array(gray.length + 8);
    for (const offset of [1, 2, 3, 4]) {
      for (const pixels of [1, 5, 7, 258]) {
        const view = backing.subarray(offset, offset + 3 * pixels);
        view.set(gray.subarray(0, 3 * pixels));
        expect(grayOf(view)).toEqual(Uint8Array.from(levels.concat([7, 250, 3]).slice(0, pixels)));
      }
    }
  });
});

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
