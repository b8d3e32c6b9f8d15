// Page rendering in worker threads: image, thumbnail and OCR sizes, what the pixels show where the PDF
// draws, rotated pages, page selection and order, failures, and the worker started outside vitest.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { degrees, PDFDocument, rgb, StandardFonts } from 'pdf-lib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { renderPages, type RenderedPage, type RenderOptions } from '../../main/pipeline/render.ts';
import { decodeImage, pixelAt, type Pixels } from '../fixtures/pixels.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const A4: [number, number] = [595.2, 841.68];
/** A dark blue rectangle in user space (points): x 100-300, y 100-200. */
const RECT = { x: 100, y: 100, width: 200, height: 100, color: [26, 51, 153] };

/** Page 1: A4 with text and the rectangle; page 2: the same with /Rotate 90; page 3: a 200 × 100 pt label. */
async function samplePdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const rotation of [0, 90]) {
    const page = doc.addPage(A4);
    page.drawText('Hello', { x: 72, y: 700, size: 24, font });
    page.drawRectangle({ ...RECT, color: rgb(RECT.color[0] / 255, RECT.color[1] / 255, RECT.color[2] / 255) });
    page.setRotation(degrees(rotation));
  }
  doc.addPage([200, 100]).drawText('Label', { x: 10, y: 40, size: 20, font });
  return doc.save();
}

async function renderAll(pdf: Uint8Array, options: RenderOptions = {}): Promise<RenderedPage[]> {
  const pages: RenderedPage[] = [];
  for await (const page of renderPages(pdf, options)) pages.push(page);
  return pages;
}

/** The darkest channel value inside a pixel rectangle. */
function darkest(img: Pixels, x0: number, y0: number, x1: number, y1: number): number {
  let min = 255;
  for (let y = Math.round(y0); y <= y1; y++) for (let x = Math.round(x0); x <= x1; x++) min = Math.min(min, ...pixelAt(img, x, y));
  return min;
}

describe('renderPages', () => {
  it('renders page images, thumbnails and grayscale OCR images at their sizes, showing what the page draws', async () => {
    const [portrait, rotated, label] = await renderAll(await samplePdf(), { ocr: true });

    expect(portrait).toMatchObject({ number: 1, widthPt: A4[0], heightPt: A4[1], rotation: 0 });
    // The dataset's A4 pages: size [1414, 2000].
    expect(portrait.image).toMatchObject({ widthPx: 1414, heightPx: 2000 });
    expect(portrait.thumbnail).toMatchObject({ widthPx: 200, heightPx: 283 });
    expect(portrait.ocr).toMatchObject({ widthPx: 2480, heightPx: 3507, dpi: 300 });

    const image = await decodeImage(portrait.image!.png);
    expect([image.width, image.height, image.channels]).toEqual([1414, 2000, 3]);
    const sx = 1414 / A4[0];
    const sy = 2000 / A4[1];
    // px = pt × scale, y flipped: the rectangle's centre (200, 150) and a point outside it.
    expect(pixelAt(image, 200 * sx, (A4[1] - 150) * sy)).toEqual(RECT.color);
    expect(pixelAt(image, 400 * sx, (A4[1] - 150) * sy)).toEqual([255, 255, 255]);
    // Its edge is where the PDF puts it: within 1 pt (about 2 px; resampling from 300 dpi blurs the edge pixels).
    expect(pixelAt(image, 101 * sx, (A4[1] - 150) * sy)).toEqual(RECT.color);
    expect(pixelAt(image, 99 * sx, (A4[1] - 150) * sy).every((v) => v > 245)).toBe(true);
    // "Hello" (24 pt, baseline 700): its H is black, the space above the cap height is blank.
    expect(darkest(image, 73 * sx, (A4[1] - 716) * sy, 90 * sx, (A4[1] - 701) * sy)).toBeLessThan(40);
    expect(darkest(image, 73 * sx, (A4[1] - 740) * sy, 90 * sx, (A4[1] - 725) * sy)).toBe(255);

    // A one-channel PNG (sharp decodes it to three equal channels).
    expect(await sharp(portrait.ocr!.png).metadata()).toMatchObject({ format: 'png', width: 2480, height: 3507, channels: 1 });
    const ocr = await decodeImage(portrait.ocr!.png);
    const [gray] = pixelAt(ocr, (200 * 300) / 72, ((A4[1] - 150) * 300) / 72);
    expect(gray).toBeGreaterThan(40);
    expect(gray).toBeLessThan(70); // the blue's luminance
    const thumbnail = await decodeImage(portrait.thumbnail!.png);
    expect(pixelAt(thumbnail, 200 * (200 / A4[0]), (A4[1] - 150) * (283 / A4[1]))).toEqual(RECT.color);

    // /Rotate 90: the page is shown turned clockwise, so its sizes swap and user-space (200, 150) is
    // shown at (150, 200) from the top left.
    expect(rotated).toMatchObject({ number: 2, widthPt: A4[1], heightPt: A4[0], rotation: 90 });
    expect(rotated.image).toMatchObject({ widthPx: 2000, heightPx: 1414 });
    expect(rotated.thumbnail).toMatchObject({ widthPx: 200, heightPx: 141 });
    expect(rotated.ocr).toMatchObject({ widthPx: 3507, heightPx: 2480 });
    const turned = await decodeImage(rotated.image!.png);
    expect(pixelAt(turned, 150 * (2000 / A4[1]), 200 * (1414 / A4[0]))).toEqual(RECT.color);
    expect(pixelAt(turned, 150 * (2000 / A4[1]), 400 * (1414 / A4[0]))).toEqual([255, 255, 255]);

    // A small page is not blown up past 300 dpi.
    expect(label).toMatchObject({ widthPt: 200, heightPt: 100 });
    expect(label.image).toMatchObject({ widthPx: 833, heightPx: 417, dpi: 300 });
  });

  it('renders only the pages asked for, in the order asked, and only the images asked for', async () => {
    const pages = await renderAll(await samplePdf(), { pages: [3, 1], thumbnail: false, thumbnailWidthPx: 100, imageLongSidePx: 1000 });
    expect(pages.map((p) => p.number)).toEqual([3, 1]);
    expect(pages.every((p) => p.thumbnail === undefined && p.ocr === undefined)).toBe(true);
    expect(pages[1].image).toMatchObject({ widthPx: 707, heightPx: 1000 });
    const thumbsOnly = await renderAll(await samplePdf(), { pages: [1], image: false, thumbnailWidthPx: 100 });
    expect(thumbsOnly[0].image).toBeUndefined();
    expect(thumbsOnly[0].thumbnail).toMatchObject({ widthPx: 100, heightPx: 141 });
    expect(pixelAt(await decodeImage(thumbsOnly[0].thumbnail!.png), 200 * (100 / A4[0]), (A4[1] - 150) * (141 / A4[1]))).toEqual(RECT.color);
  });

  it('streams a longer document in order with several workers, and can be stopped early', async () => {
    const doc = await PDFDocument.create();
    for (let i = 1; i <= 9; i++) doc.addPage([100 + i * 10, 100]);
    const pdf = await doc.save();
    const pages = await renderAll(pdf, { workers: 3, thumbnail: false });
    expect(pages.map((p) => [p.number, p.widthPt])).toEqual(Array.from({ length: 9 }, (_, i) => [i + 1, 110 + i * 10]));

    const first: number[] = [];
    for await (const page of renderPages(pdf, { workers: 2 })) {
      first.push(page.number);
      if (first.length === 2) break;
    }
    expect(first).toEqual([1, 2]);
    // The workers stopped or went back to the pool: the next document renders as usual.
    expect((await renderAll(pdf, { pages: [9] })).map((p) => p.number)).toEqual([9]);
  });

  it("leaves the caller's bytes intact, Buffer or Uint8Array", async () => {
    const bytes = await samplePdf();
    // Not from Buffer's pool (whose memory Node never moves to a thread): like fs.readFileSync's Buffers.
    const buffer = Buffer.allocUnsafeSlow(bytes.length);
    buffer.set(bytes);
    await renderAll(buffer, { pages: [3] });
    await renderAll(bytes, { pages: [3] });
    expect(Buffer.compare(buffer, Buffer.from(bytes))).toBe(0);
    expect(buffer.length).toBeGreaterThan(1000);
  });

  it('rejects what is not a PDF and pages that do not exist', async () => {
    await expect(renderAll(new TextEncoder().encode('not a pdf at all'))).rejects.toThrow(/cannot open the PDF/);
    await expect(renderAll(await samplePdf(), { pages: [4] })).rejects.toThrow(/page 4 does not exist/);
  });

  it('gives up on a page that takes too long, stopping its worker, and renders on afterwards', async () => {
    const pdf = await samplePdf();
    await expect(renderAll(pdf, { pageTimeoutMs: 1 })).rejects.toThrow(/no answer after 0.001 s/);
    expect((await renderAll(pdf, { pages: [1] })).map((p) => p.image?.widthPx)).toEqual([1414]);
  });

  it('works from a script run with node bin/run-ts.mjs (the worker loads its TypeScript itself)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-render-'));
    try {
      fs.writeFileSync(path.join(dir, 'sample.pdf'), await samplePdf());
      const script = path.join(dir, 'render.mts');
      fs.writeFileSync(
        script,
        [
          `import fs from 'node:fs';`,
          `import { renderPages } from ${JSON.stringify(path.join(ROOT, 'main/pipeline/render.ts'))};`,
          `const out = [];`,
          `for await (const p of renderPages(fs.readFileSync(process.argv[2]), { pages: [2] })) out.push([p.number, p.image.widthPx, p.image.heightPx, p.image.png.length > 0]);`,
          `console.log(JSON.stringify(out));`,
        ].join('\n'),
      );
      const { stdout } = await promisify(execFile)(process.execPath, [path.join(ROOT, 'bin/run-ts.mjs'), script, path.join(dir, 'sample.pdf')], { cwd: ROOT, timeout: 60_000 });
      expect(JSON.parse(stdout)).toEqual([[2, 2000, 1414, true]]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
