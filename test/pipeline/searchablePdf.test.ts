// The searchable PDF: OCR'd pages get an invisible text layer whose words pdf.js (and poppler, when
// installed) find at their boxes and in reading order; text pages pass through untouched; the layer
// paints nothing; page images of any PNG kind or JPEG are embedded as they show.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { degrees, PDFDocument, StandardFonts } from 'pdf-lib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { extractPdfText, type PdfPageText } from '../../main/pipeline/pdfText.ts';
import { renderPages, type RenderOptions } from '../../main/pipeline/render.ts';
import { buildSearchablePdf, imagePagesToPdf, type WordBox } from '../../main/pipeline/searchablePdf.ts';
import { layoutText } from '../../main/pipeline/textLayout.ts';
import { decodeImage, meanDifference } from '../fixtures/pixels.ts';

/** A4 at 150 dpi: 1240 × 1754 px. */
const DPI = 150;
const SCAN_PX: [number, number] = [1240, 1754];
const SCAN_PT: [number, number] = [(SCAN_PX[0] * 72) / DPI, (SCAN_PX[1] * 72) / DPI];

/** Two printed lines near the top left of a page `height` points tall: WinAnsi words (Helvetica), words
 * only a Unicode font can carry (blank Type3 glyphs), a descender word sitting lower, a taller word, word
 * gaps of a third to half an em (wider gaps make poppler read the words as separate columns). */
function wordsFor(height: number): WordBox[] {
  const top = height - 100;
  return [
    { text: 'Gross', x0: 72, x1: 110, y0: top, y1: top + 12 },
    { text: 'pay', x0: 114, x1: 135, y0: top - 3, y1: top + 9 },
    { text: '1.234,56', x0: 140, x1: 190.5, y0: top, y1: top + 12 },
    { text: 'Łódź', x0: 72, x1: 110, y0: top - 20, y1: top - 8 },
    { text: 'Straße', x0: 114, x1: 160, y0: top - 20, y1: top - 8 },
    { text: '日本語', x0: 165, x1: 211, y0: top - 21, y1: top - 6 },
    { text: '€15', x0: 215, x1: 245, y0: top - 20, y1: top - 8 },
  ];
}
const READING = 'Gross pay 1.234,56\nŁódź Straße 日本語 €15';

/** A scan-like picture: light paper with a dark block where each word is printed. */
async function scanImage(words: WordBox[], format: 'png' | 'jpeg'): Promise<Buffer> {
  const px = (pt: number) => (pt * DPI) / 72;
  const blocks = words.map((w) => `<rect x="${px(w.x0)}" y="${px(SCAN_PT[1] - w.y1)}" width="${px(w.x1 - w.x0)}" height="${px(w.y1 - w.y0)}" fill="#202020"/>`);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${SCAN_PX[0]}" height="${SCAN_PX[1]}"><rect width="100%" height="100%" fill="#f4f1ea"/>${blocks.join('')}</svg>`;
  const img = sharp(Buffer.from(svg));
  return format === 'png' ? img.png().toBuffer() : img.jpeg({ quality: 90 }).toBuffer();
}

/** The words of a page as pdf.js and the layout read them: text in reading order, and a box per word. */
function readWords(page: PdfPageText): { text: string; boxes: WordBox[] } {
  const layout = layoutText([{ height: page.height, chars: page.chars }], { padding: false });
  const boxes: WordBox[] = [];
  let k = 0;
  for (const word of layout.text.split(/\s+/)) {
    const chars = layout.chars.slice(k, (k += Array.from(word).length));
    boxes.push({ text: word, x0: Math.min(...chars.map((c) => c.x0)), x1: Math.max(...chars.map((c) => c.x1)), y0: Math.min(...chars.map((c) => c.y0)), y1: Math.max(...chars.map((c) => c.y1)) });
  }
  return { text: layout.text, boxes };
}

/** Every word is found, in order, with each edge of its box within 0.1 pt of where it was placed. */
function expectWordsAt(page: PdfPageText, words: WordBox[]): void {
  const read = readWords(page);
  expect(read.text).toBe(READING);
  read.boxes.forEach((box, i) => {
    expect(box.text).toBe(words[i].text);
    for (const edge of ['x0', 'x1', 'y0', 'y1'] as const) expect(Math.abs(box[edge] - words[i][edge]), `${box.text} ${edge}`).toBeLessThan(0.1);
  });
}

async function renderImages(pdf: Uint8Array, options: RenderOptions = {}) {
  const out = [];
  for await (const page of renderPages(pdf, { thumbnail: false, ...options })) out.push(await decodeImage(page.image!.png));
  return out;
}

/** A PDF whose pages show the scan JPEG, each with a rotation and a media box that does not start at 0. */
async function scannedPdf(jpeg: Buffer, rotations: number[]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const image = await doc.embedJpg(jpeg);
  for (const rotation of rotations) {
    const page = doc.addPage(SCAN_PT);
    page.setMediaBox(30, -20, SCAN_PT[0], SCAN_PT[1]);
    page.drawImage(image, { x: 30, y: -20, width: SCAN_PT[0], height: SCAN_PT[1] });
    page.setRotation(degrees(rotation));
  }
  return doc.save();
}

describe('buildSearchablePdf', () => {
  it('puts each recognised word of an image page at its box, in reading order, without painting it', async () => {
    const words = wordsFor(SCAN_PT[1]);
    const png = await scanImage(words, 'png');
    const pdf = await buildSearchablePdf(null, [{ kind: 'ocr', image: png, widthPt: SCAN_PT[0], heightPt: SCAN_PT[1], words }]);

    const [page] = await extractPdfText(pdf);
    expect([page.width, page.height]).toEqual(SCAN_PT);
    expectWordsAt(page, words);
    // Spaces are in the text layer itself (viewers' search finds "Gross pay"), spanning the gaps.
    const spaces = page.chars.filter((c) => c.text === ' ');
    expect(spaces[0]).toMatchObject({ x0: expect.closeTo(110, 2), x1: expect.closeTo(114, 2) });

    // The page shows the image and nothing else: the same pixels as the image alone, and as the picture.
    const options = { imageLongSidePx: SCAN_PX[1] };
    const [withText] = await renderImages(pdf, options);
    const [imageOnly] = await renderImages(await imagePagesToPdf([{ image: png, widthPt: SCAN_PT[0], heightPt: SCAN_PT[1] }]), options);
    expect(meanDifference(withText, imageOnly)).toBe(0);
    const picture = await decodeImage(await sharp(png).removeAlpha().toBuffer());
    expect(meanDifference(withText, picture)).toBeLessThan(1);
  });

  it('lays the text over scanned pages of the original, whatever their rotation and media box', async () => {
    const rotations = [0, 90, 180, 270];
    const jpeg = await scanImage(wordsFor(SCAN_PT[1]), 'jpeg');
    const original = await scannedPdf(jpeg, rotations);
    const shown = (r: number): [number, number] => (r % 180 ? [SCAN_PT[1], SCAN_PT[0]] : SCAN_PT);
    const pdf = await buildSearchablePdf(
      original,
      rotations.map((r) => ({ kind: 'ocr', widthPt: shown(r)[0], heightPt: shown(r)[1], words: wordsFor(shown(r)[1]) })),
    );

    const pages = await extractPdfText(pdf);
    pages.forEach((page, i) => {
      expect([page.rotation, page.width, page.height]).toEqual([rotations[i], ...shown(rotations[i])]);
      expectWordsAt(page, wordsFor(page.height));
    });
    // The scan itself is untouched: the file grows by the text layers only, and renders the same.
    expect(pdf.length - original.length).toBeLessThan(12_000);
    const before = await renderImages(original, { imageLongSidePx: 600 });
    const after = await renderImages(pdf, { imageLongSidePx: 600 });
    after.forEach((img, i) => expect(meanDifference(img, before[i])).toBe(0));
  });

  it('leaves text pages as they are, and the original alone when no page needs OCR', async () => {
    const source = await PDFDocument.create();
    source.setTitle('Payslip March');
    const font = await source.embedFont(StandardFonts.Helvetica);
    source.addPage(SCAN_PT).drawText('Net salary 2.345,67 EUR', { x: 72, y: 700, size: 11, font });
    const image = await source.embedJpg(await scanImage(wordsFor(SCAN_PT[1]), 'jpeg'));
    source.addPage(SCAN_PT).drawImage(image, { x: 0, y: 0, width: SCAN_PT[0], height: SCAN_PT[1] });
    const original = await source.save();

    expect(await buildSearchablePdf(original, [{ kind: 'text' }, { kind: 'text' }])).toBe(original);

    const words = wordsFor(SCAN_PT[1]);
    const pdf = await buildSearchablePdf(original, [{ kind: 'text' }, { kind: 'ocr', widthPt: SCAN_PT[0], heightPt: SCAN_PT[1], words }]);
    const [before] = await extractPdfText(original);
    const [textPage, ocrPage] = await extractPdfText(pdf);
    expect(textPage).toEqual(before);
    expectWordsAt(ocrPage, words);
    expect((await PDFDocument.load(pdf)).getTitle()).toBe('Payslip March');
  });

  it('replaces a page by its image when one is given, without keeping the old page in the file', async () => {
    const source = await PDFDocument.create();
    const font = await source.embedFont(StandardFonts.Helvetica);
    source.addPage(SCAN_PT).drawText('Net salary 2.345,67 EUR', { x: 72, y: 700, size: 11, font });
    // A heavy picture (noise does not compress) that the new page no longer needs.
    const noise = await sharp({ create: { width: 1000, height: 1000, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 60 } } })
      .jpeg({ quality: 95 })
      .toBuffer();
    expect(noise.length).toBeGreaterThan(500_000);
    const heavy = await source.embedJpg(noise);
    source.addPage(SCAN_PT).drawImage(heavy, { x: 0, y: 0, width: SCAN_PT[0], height: SCAN_PT[1] });
    const original = await source.save();

    const words = wordsFor(SCAN_PT[1]);
    const jpeg = await scanImage(words, 'jpeg');
    const pdf = await buildSearchablePdf(original, [{ kind: 'text' }, { kind: 'ocr', image: jpeg, widthPt: SCAN_PT[0], heightPt: SCAN_PT[1], words }]);
    const [before] = await extractPdfText(original);
    const [textPage, ocrPage] = await extractPdfText(pdf);
    expect(textPage).toEqual(before);
    expectWordsAt(ocrPage, words);
    // The new page's image and text layer, with Helvetica and the blank font: some 15 KB beyond the JPEG.
    expect(pdf.length).toBeLessThan(original.length - noise.length + jpeg.length + 30_000);
  });

  it('is read the same by poppler (pdftotext), when installed', async (ctx) => {
    let hasPoppler = true;
    try {
      execFileSync('pdftotext', ['-v'], { stdio: 'ignore' });
    } catch {
      hasPoppler = false;
    }
    if (!hasPoppler) ctx.skip();
    const words = wordsFor(SCAN_PT[1]);
    const pdf = await buildSearchablePdf(null, [{ kind: 'ocr', image: await scanImage(words, 'jpeg'), widthPt: SCAN_PT[0], heightPt: SCAN_PT[1], words }]);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-searchable-'));
    try {
      const file = path.join(dir, 'out.pdf');
      fs.writeFileSync(file, pdf);
      expect(execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' })).toContain('Gross pay 1.234,56');
      expect(execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' })).toContain('Łódź Straße 日本語 €15');
      // -bbox: one <word> per word, top-down coordinates; poppler's own font metrics decide the top.
      const found = [...execFileSync('pdftotext', ['-bbox', file, '-'], { encoding: 'utf8' }).matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g)];
      expect(found.map((m) => m[5])).toEqual(words.map((w) => w.text));
      found.forEach(([, xMin, , xMax, yMax], i) => {
        expect(Math.abs(Number(xMin) - words[i].x0)).toBeLessThan(0.1);
        expect(Math.abs(Number(xMax) - words[i].x1)).toBeLessThan(0.1);
        expect(Math.abs(SCAN_PT[1] - Number(yMax) - words[i].y0)).toBeLessThan(1);
      });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('imagePagesToPdf', () => {
  it('embeds JPEG and every kind of PNG so that the page shows the picture, at its dpi', async () => {
    const [w, h] = [400, 300];
    // Noise exercises every PNG row filter; the flattened alpha image must come out on white.
    const noise = sharp({ create: { width: w, height: h, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 50 } } });
    const rgbRaw = await noise.raw().toBuffer();
    const raw = (channels: 1 | 3 | 4, data: Buffer) => sharp(data, { raw: { width: w, height: h, channels } });
    const rgba = Buffer.alloc(w * h * 4);
    for (let i = 0; i < w * h; i++) rgba.set([rgbRaw[3 * i], rgbRaw[3 * i + 1], rgbRaw[3 * i + 2], i % w < w / 2 ? 255 : 0], 4 * i);
    const images = {
      rgb: await raw(3, rgbRaw).png({ adaptiveFiltering: true }).toBuffer(),
      gray: await raw(3, rgbRaw).toColourspace('b-w').png().toBuffer(),
      palette: await raw(3, rgbRaw).png({ palette: true, colours: 16 }).toBuffer(),
      interlacedAlpha: await raw(4, rgba).png({ progressive: true }).toBuffer(),
      sixteenBit: await raw(3, rgbRaw).toColourspace('rgb16').png().toBuffer(),
      // Without chroma subsampling, so that pdf.js and libjpeg decode it alike.
      jpeg: await raw(3, rgbRaw).jpeg({ quality: 95, chromaSubsampling: '4:4:4' }).toBuffer(),
    };
    const pdf = await imagePagesToPdf(Object.values(images).map((image) => ({ image, widthPt: (w * 72) / 100, heightPt: (h * 72) / 100 })));
    const pages = await extractPdfText(pdf);
    expect(pages.map((p) => [p.width, p.height, p.hasTextLayer])).toEqual(Object.values(images).map(() => [288, 216, false]));

    const rendered = await renderImages(pdf, { imageLongSidePx: w, maxImageDpi: 100 });
    for (const [i, [name, image]] of Object.entries(images).entries()) {
      const expected = await decodeImage(await sharp(image).flatten({ background: '#ffffff' }).toColourspace('srgb').png().toBuffer());
      expect(meanDifference(rendered[i], expected), name).toBeLessThan(1);
    }
  });
});
