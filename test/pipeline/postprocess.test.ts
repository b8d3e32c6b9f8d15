// composePdf (the post-process edit) proven through the real pipeline: re-ordered pages keep their text;
// turned pages report turned sizes, and their images, text and character boxes follow the turn; a scan made
// searchable is read again from Folio's own text layer without OCR; bad selections are refused.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { degrees, PDFDocument, StandardFonts } from 'pdf-lib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi, type MockInstance } from 'vitest';
import { runPipeline, type PipelineResult } from '../../main/pipeline/documentPipeline.ts';
import { tessdataDir } from '../../main/pipeline/languages.ts';
import { DEFAULT_LIMITS } from '../../main/pipeline/limits.ts';
import { OcrPool } from '../../main/pipeline/ocr/ocrPool.ts';
import { composePdf, InvalidPageSelection } from '../../main/pipeline/postprocess.ts';
import type { CharBox } from '../../main/domain/geometry.ts';
import { scanImage } from '../fixtures/imageSamples.ts';
import { scannedPdf } from '../fixtures/pdfSamples.ts';
import { decodeImage, pixelAt, type Pixels } from '../fixtures/pixels.ts';

/** OCR shares the machine's cores with other tests: generous limits, never timing assertions. */
const SLOW = 180_000;
const PAGE_SIZE: [number, number] = [595, 842];
const PAGE_LINES = [
  ['Page one Alpha', 'first page second line'],
  ['Page two Beta', 'second page second line'],
  ['Page three Gamma', 'third page second line'],
];
const SCAN_TEXT = 'Invoice 4711 total amount 1234.56 EUR';

let dataDir: string;
let pool: OcrPool;
let recognize: MockInstance<OcrPool['recognize']>;

beforeAll(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-postprocess-test-'));
  fs.mkdirSync(tessdataDir(dataDir));
  pool = new OcrPool({ dataDir, size: 1 });
  recognize = vi.spyOn(pool, 'recognize');
});

afterAll(async () => {
  await pool?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

type Run = PipelineResult & { images: Map<string, Uint8Array> };

/** The pipeline as the processor runs it, keeping the page images it stores. */
async function pipeline(bytes: Uint8Array): Promise<Run> {
  const images = new Map<string, Uint8Array>();
  const storeImage = async (png: Uint8Array) => {
    const key = `image-${images.size}`;
    images.set(key, png);
    return key;
  };
  return { ...(await runPipeline({ bytes, langs: ['eng'], ocr: pool, limits: DEFAULT_LIMITS, storeImage })), images };
}

/** A born-digital PDF, one page per entry, each line drawn in Helvetica from the top. */
async function textPdf(pages: string[][]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const lines of pages) {
    const page = doc.addPage(PAGE_SIZE);
    lines.forEach((line, i) => page.drawText(line, { x: 72, y: 760 - 20 * i, size: 14, font }));
  }
  return doc.save();
}

/** A page's lines without the layout's padding (only left-to-right lines are padded to their columns). */
function linesOf(run: Run, pageIndex: number): string[] {
  return run.layout.text.split('\f')[pageIndex].split('\n').map((line) => line.trim().replace(/\s+/g, ' '));
}

const charsOf = (run: Run, pageIndex: number) => run.layout.chars.filter((c) => c.page_index === pageIndex);
const words = (text: string) => text.split(/\s+/).filter(Boolean);

interface Box {
  x0: number;
  x1: number;
  y0: number;
  y1: number;
}

/** Where a box of an upright width × height page is shown once the page is turned clockwise by `angle`. */
function turnBox(box: Box, angle: number, width: number, height: number): Box {
  const turn = ([x, y]: number[]): number[] => {
    switch (((angle % 360) + 360) % 360) {
      case 90:
        return [y, width - x];
      case 180:
        return [width - x, height - y];
      case 270:
        return [height - y, x];
      default:
        return [x, y];
    }
  };
  const [a, b] = [turn([box.x0, box.y0]), turn([box.x1, box.y1])];
  return { x0: Math.min(a[0], b[0]), x1: Math.max(a[0], b[0]), y0: Math.min(a[1], b[1]), y1: Math.max(a[1], b[1]) };
}

function union(boxes: Box[]): Box {
  return {
    x0: Math.min(...boxes.map((b) => b.x0)),
    x1: Math.max(...boxes.map((b) => b.x1)),
    y0: Math.min(...boxes.map((b) => b.y0)),
    y1: Math.max(...boxes.map((b) => b.y1)),
  };
}

/** Each word's box: characters at consecutive offsets on one line. */
function wordBoxes(chars: CharBox[]): Box[] {
  const groups: CharBox[][] = [];
  chars.forEach((c, i) => {
    const prev = chars[i - 1];
    if (prev && prev.line_index === c.line_index && prev.offset + Array.from(prev.text).length === c.offset) groups[groups.length - 1].push(c);
    else groups.push([c]);
  });
  return groups.map(union);
}

function expectBoxNear(actual: Box, expected: Box, tolerance: number, what: string): void {
  for (const k of ['x0', 'x1', 'y0', 'y1'] as const) expect(Math.abs(actual[k] - expected[k]), `${what} ${k}`).toBeLessThan(tolerance);
}

/** The darkest channel value a page image shows inside the box around characters (their x and top/bottom,
 * so the same box on pages of other sizes stays at the same distance from the top left corner). */
function darkestAround(img: Pixels, chars: CharBox[], widthPt: number, heightPt: number): number {
  const [sx, sy] = [img.width / widthPt, img.height / heightPt];
  const [x0, x1] = [Math.min(...chars.map((c) => c.x0)) * sx, Math.max(...chars.map((c) => c.x1)) * sx];
  const [top, bottom] = [Math.min(...chars.map((c) => c.top)) * sy, Math.max(...chars.map((c) => c.bottom)) * sy];
  let min = 255;
  for (let y = Math.max(0, Math.ceil(top)); y < Math.min(bottom, img.height); y++) {
    for (let x = Math.max(0, Math.ceil(x0)); x < Math.min(x1, img.width); x++) min = Math.min(min, ...pixelAt(img, x, y));
  }
  return min;
}

describe('composePdf through the pipeline: born-digital pages', () => {
  let source: Uint8Array;
  let upright: Run;

  beforeAll(async () => {
    source = await textPdf(PAGE_LINES);
    upright = await pipeline(source);
  });

  it('re-orders pages: [2, 0] gives page 3 then page 1, text and boxes unchanged', async () => {
    const composed = await composePdf(source, [
      { sourceIndex: 2, angle: 0 },
      { sourceIndex: 0, angle: 0 },
    ]);
    expect(await PDFDocument.load(composed).then((d) => d.getPageCount())).toBe(2);
    const run = await pipeline(composed);
    expect(linesOf(run, 0)).toEqual(PAGE_LINES[2]);
    expect(linesOf(run, 1)).toEqual(PAGE_LINES[0]);
    const uprightPages = upright.layout.text.split('\f');
    expect(run.layout.text).toBe([uprightPages[2], uprightPages[0]].join('\f'));
    const strip = ({ offset, page_index, line_index, ...geometry }: CharBox) => geometry;
    expect(charsOf(run, 0).map(strip)).toEqual(charsOf(upright, 2).map(strip));
    expect(run.pages.map((p) => [p.widthPt, p.heightPt, p.rotation, p.hasTextLayer, p.ocr])).toEqual([
      [...PAGE_SIZE, 0, true, false],
      [...PAGE_SIZE, 0, true, false],
    ]);
  });

  for (const angle of [90, -90, 180, 270]) {
    it(`turns a page by ${angle}°: its size, image, text and character boxes follow`, async () => {
      const run = await pipeline(await composePdf(source, [{ sourceIndex: 0, angle }]));
      const [page] = run.pages;
      const before = upright.pages[0];
      const sideways = angle % 180 !== 0;
      expect(page).toMatchObject({ rotation: ((angle % 360) + 360) % 360, hasTextLayer: true, ocr: false });
      expect([page.widthPt, page.heightPt]).toEqual(sideways ? [before.heightPt, before.widthPt] : [before.widthPt, before.heightPt]);

      // The text reads as before, line by line (lines ordered as the glyphs stand, not by the page's top).
      expect(linesOf(run, 0)).toEqual(PAGE_LINES[0]);

      // Every character is where its upright box is shown on the turned page, and inside that page.
      const chars = charsOf(run, 0);
      const uprightChars = charsOf(upright, 0);
      expect(chars.map((c) => c.text)).toEqual(uprightChars.map((c) => c.text));
      chars.forEach((c, i) => {
        expectBoxNear(c, turnBox(uprightChars[i], angle, before.widthPt, before.heightPt), 0.01, `"${c.text}" (${i})`);
        expect(c.x0).toBeGreaterThanOrEqual(0);
        expect(c.x1).toBeLessThanOrEqual(page.widthPt);
        expect(c.y0).toBeGreaterThanOrEqual(0);
        expect(c.y1).toBeLessThanOrEqual(page.heightPt);
        expect(c.top).toBeCloseTo(page.heightPt - c.y1, 6);
      });

      // The stored image is turned too: swapped pixel sizes, ink where the boxes say and not where it was.
      const image = await decodeImage(run.images.get(page.image!.key)!);
      const uprightImage = upright.pages[0].image!;
      expect([image.width, image.height]).toEqual([page.image!.widthPx, page.image!.heightPx]);
      expect([image.width, image.height]).toEqual(sideways ? [uprightImage.heightPx, uprightImage.widthPx] : [uprightImage.widthPx, uprightImage.heightPx]);
      const firstLine = chars.filter((c) => c.line_index === chars[0].line_index);
      const uprightFirstLine = uprightChars.filter((c) => c.line_index === uprightChars[0].line_index);
      expect(darkestAround(image, firstLine, page.widthPt, page.heightPt)).toBeLessThan(100);
      expect(darkestAround(image, uprightFirstLine, page.widthPt, page.heightPt)).toBe(255);
      const thumbnail = await sharp(run.images.get(page.thumbnailKey!)!).metadata();
      expect(thumbnail.width! > thumbnail.height!).toBe(sideways);
    });
  }

  it('adds the angle to the page’s own /Rotate, normalised to 0..270, and may use a page twice', async () => {
    const doc = await PDFDocument.create();
    doc.addPage(PAGE_SIZE).setRotation(degrees(90));
    const composed = await composePdf(await doc.save(), [
      { sourceIndex: 0, angle: 90 },
      { sourceIndex: 0, angle: -90 },
      { sourceIndex: 0, angle: 180 },
      { sourceIndex: 0, angle: -270 },
    ]);
    const pages = (await PDFDocument.load(composed)).getPages();
    expect(pages.map((p) => p.getRotation().angle)).toEqual([180, 0, 270, 180]);
  });
});

describe('composePdf through the pipeline: scans', () => {
  it(
    'a scan made searchable, then turned by 90°, is read from Folio’s text layer without OCR',
    async () => {
      const first = await pipeline(await scannedPdf(SCAN_TEXT, 150));
      expect(first.pages[0]).toMatchObject({ hasTextLayer: false, ocr: true, rotation: 0 });
      expect(words(first.layout.text)).toEqual(words(SCAN_TEXT));
      const ocrCalls = recognize.mock.calls.length;

      const turned = await pipeline(await composePdf(first.searchable, [{ sourceIndex: 0, angle: 90 }]));
      expect(recognize.mock.calls.length, 'no page was sent to OCR').toBe(ocrCalls);
      const [page] = turned.pages;
      expect(page).toMatchObject({ hasTextLayer: true, ocr: false, rotation: 90, widthPt: first.pages[0].heightPt, heightPt: first.pages[0].widthPt });
      // The same words; only the padding differs (the upright text is indented to its column).
      expect(words(turned.layout.text)).toEqual(words(first.layout.text));
      // Folio's text layer spreads each word over its box with Helvetica's widths, so characters differ from
      // OCR's, but every word's box is the OCR'd word's box turned.
      const [firstWords, turnedWords] = [wordBoxes(first.layout.chars), wordBoxes(turned.layout.chars)];
      expect(turnedWords).toHaveLength(firstWords.length);
      turnedWords.forEach((w, i) => expectBoxNear(w, turnBox(firstWords[i], 90, first.pages[0].widthPt, first.pages[0].heightPt), 0.5, `word ${i}`));
    },
    SLOW,
  );

  it(
    'a sideways scan turned upright from its PDF before OCR is read by OCR in its new orientation',
    async () => {
      // OCR of a sideways page reads little of it, and its searchable PDF carries that text layer, which a
      // later run reads instead of OCR. Turned from the PDF before OCR, the page has no text layer and is read upright.
      const scan = await scanImage(SCAN_TEXT, { dpi: 150, format: 'jpeg' });
      const doc = await PDFDocument.create();
      const jpg = await doc.embedJpg(await sharp(scan.data).rotate(90).jpeg().toBuffer());
      doc.addPage([(jpg.width * 72) / 150, (jpg.height * 72) / 150]).drawImage(jpg, { x: 0, y: 0, width: (jpg.width * 72) / 150, height: (jpg.height * 72) / 150 });
      const ocrCalls = recognize.mock.calls.length;

      const run = await pipeline(await composePdf(await doc.save(), [{ sourceIndex: 0, angle: -90 }]));
      expect(recognize.mock.calls.length).toBe(ocrCalls + 1);
      expect(run.pages[0]).toMatchObject({ hasTextLayer: false, ocr: true, rotation: 270, widthPt: 612, heightPt: 144 });
      expect(words(run.layout.text)).toEqual(words(SCAN_TEXT));
    },
    SLOW,
  );
});

describe('composePdf refusals', () => {
  let source: Uint8Array;
  beforeAll(async () => {
    source = await textPdf(PAGE_LINES);
  });

  const refusals: { name: string; pages: { sourceIndex: number; angle: number }[]; message: RegExp }[] = [
    { name: 'an empty selection', pages: [], message: /at least one page/ },
    { name: 'a page past the end', pages: [{ sourceIndex: 3, angle: 0 }], message: /Page index 3 does not exist: the source has 3 pages \(indexes 0 to 2\)/ },
    { name: 'a negative page index', pages: [{ sourceIndex: -1, angle: 0 }], message: /Page index -1 does not exist/ },
    { name: 'a fractional page index', pages: [{ sourceIndex: 1.5, angle: 0 }], message: /Page index 1.5 does not exist/ },
    { name: 'an angle of 45°', pages: [{ sourceIndex: 0, angle: 45 }], message: /Angle 45 is not allowed: rotation is in multiples of 90 degrees/ },
    { name: 'an angle of 360° (outside -270..270)', pages: [{ sourceIndex: 0, angle: 360 }], message: /Angle 360 is not allowed/ },
  ];
  for (const r of refusals) {
    it(`refuses ${r.name}`, async () => {
      const attempt = composePdf(source, r.pages);
      await expect(attempt).rejects.toBeInstanceOf(InvalidPageSelection);
      await expect(attempt).rejects.toThrow(r.message);
    });
  }
});
