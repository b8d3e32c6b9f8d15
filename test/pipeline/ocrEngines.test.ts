// The OCR engines and orientation, with real tesseract: a receipt-like page uploaded turned by 90, 180 and
// 270 degrees reads the same key values as upright and is stored upright; the engine setting picks the
// engine; the native program's geometry matches the embedded engine's; the hOCR reader and preprocessing.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../main/config.ts';
import { runPipeline } from '../../main/pipeline/documentPipeline.ts';
import { DEFAULT_LIMITS } from '../../main/pipeline/limits.ts';
import { engineSetting, selectEngine } from '../../main/pipeline/ocr/engine.ts';
import { parseHocr } from '../../main/pipeline/ocr/hocr.ts';
import { findNativeTesseract, nativeEngine } from '../../main/pipeline/ocr/nativeEngine.ts';
import { OcrPool } from '../../main/pipeline/ocr/ocrPool.ts';
import { binarize, normalizeBackground, otsuThreshold, type GrayImage } from '../../main/pipeline/ocr/preprocess.ts';
import { wasmEngine } from '../../main/pipeline/ocr/wasmEngine.ts';
import { drawPage, type DrawnLine } from '../helpers/ocrPages.ts';

const SLOW = 300_000;
const NATIVE = findNativeTesseract();
let dataDir: string;
let pool: OcrPool;

beforeAll(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-ocr-engines-'));
  pool = new OcrPool({ dataDir, size: 2 });
});
afterAll(async () => {
  await pool?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** A narrow shop receipt: shop name, address, date, items, total. */
function receipt(): Promise<Awaited<ReturnType<typeof drawPage>>> {
  const texts = ['SUNRISE HARDWARE TRADING', 'No 12 Jalan Merdeka 81100 Johor', 'Date: 14/03/2019 Time 10:42', 'Cash Bill 00781', 'Wood screws 2 x 4.50 9.00', 'Wall paint 1 x 38.90 38.90', 'Brush set 1 x 12.60 12.60', 'TOTAL RM 60.50', 'Thank you please come again'];
  const lines: DrawnLine[] = texts.map((text, i) => ({ text, x: 18, baselineFromTop: 40 + i * 22, size: 11 }));
  return drawPage(lines, { widthPt: 260, heightPt: 260 });
}

const KEYS = ['SUNRISE HARDWARE TRADING', '14/03/2019', '60.50'];

describe('orientation', () => {
  it('reads a receipt turned by 90, 180 and 270 degrees like the upright one, and keeps the page upright', async () => {
    const page = await receipt();
    for (const turn of [0, 90, 180, 270]) {
      // Turned counter-clockwise by `turn`, as a sideways scan comes in: the pipeline turns it back.
      const bytes = await sharp(page.png).rotate(360 - turn).withMetadata({ density: page.dpi }).png().toBuffer();
      const result = await runPipeline({ bytes, langs: ['eng'], ocr: pool, limits: DEFAULT_LIMITS, storeImage: async () => 'key' });
      // The layout keeps the page's spacing: compared with runs of spaces made one.
      const text = result.layout.text.replace(/[ \t]+/g, ' ');
      for (const key of KEYS) expect(text, `turned ${turn}: ${key}`).toContain(key);
      const p = result.pages[0];
      expect(p.ocrInfo?.turn, `turned ${turn}`).toBe(turn % 360);
      // The upright page: as wide as drawn, with its image turned to match.
      expect(p.widthPt).toBeCloseTo(page.widthPt, 0);
      expect(p.heightPt).toBeCloseTo(page.heightPt, 0);
      expect(p.image!.widthPx / p.image!.heightPx).toBeCloseTo(page.widthPt / page.heightPt, 1);
      expect(p.rotation).toBe(turn % 360);
    }
  }, SLOW);

  it('never turns a clean upright page, whatever the engine', async () => {
    const page = await receipt();
    const r = await pool.recognize(page.png, { langs: 'eng', dpi: page.dpi, pageWidthPt: page.widthPt, pageHeightPt: page.heightPt });
    expect(r.rotation).toBe(0);
    expect(r.engine).toBe(pool.engine.name);
  }, SLOW);
});

describe('engines', () => {
  it('picks the engine by FOLIO_OCR_ENGINE: auto takes the native program when there is one', () => {
    expect(engineSetting({})).toBe('auto');
    expect(() => engineSetting({ FOLIO_OCR_ENGINE: 'ocropus' })).toThrow(ConfigError);
    expect(selectEngine({ FOLIO_OCR_ENGINE: 'wasm', PATH: process.env.PATH }).name).toBe('wasm');
    expect(selectEngine({ FOLIO_OCR_ENGINE: 'auto', PATH: '/nonexistent' }).name).toBe('wasm');
    expect(() => selectEngine({ FOLIO_OCR_ENGINE: 'native', PATH: '/nonexistent' })).toThrow(/FOLIO_OCR_ENGINE=native needs the tesseract program/);
    expect(() => selectEngine({ FOLIO_OCR_ENGINE: 'native', FOLIO_TESSERACT: '/bin/false' })).toThrow(ConfigError);
    if (NATIVE) {
      expect(selectEngine({ FOLIO_OCR_ENGINE: 'auto', PATH: process.env.PATH }).name).toBe('native');
      expect(selectEngine({ FOLIO_OCR_ENGINE: 'native', PATH: '', FOLIO_TESSERACT: NATIVE.file }).name).toBe('native');
    }
  });

  it.skipIf(!NATIVE)('reads the same words at the same places with the native program as with tesseract.js', async () => {
    const page = await receipt();
    const request = { langs: 'eng', dpi: page.dpi, pageWidthPt: page.widthPt, pageHeightPt: page.heightPt };
    const native = new OcrPool({ dataDir, size: 1, engine: nativeEngine(NATIVE!) });
    const wasm = new OcrPool({ dataDir, size: 1, engine: wasmEngine() });
    try {
      const [a, b] = await Promise.all([native.recognize(page.png, request), wasm.recognize(page.png, request)]);
      expect(a.engineVersion).toMatch(/^tesseract \d+\.\d+/);
      expect(b.engineVersion).toMatch(/^tesseract\.js /);
      expect(a.words.map((w) => w.text)).toEqual(b.words.map((w) => w.text));
      a.words.forEach((w, i) => {
        for (const k of ['x0', 'x1', 'y0', 'y1'] as const) expect(Math.abs(w[k] - b.words[i][k]), `${w.text} ${k}`).toBeLessThan(1);
      });
      expect(a.chars.length).toBe(b.chars.length);
      a.chars.forEach((c, i) => expect(Math.abs(c.x0 - b.chars[i].x0), `char ${i} "${c.text}"`).toBeLessThan(1.5));
    } finally {
      await Promise.all([native.close(), wasm.close()]);
    }
  }, SLOW);
});

describe('hOCR and preprocessing', () => {
  it('reads hOCR into blocks, lines with baseline and row metrics, words and characters', () => {
    const hocr = `<div class='ocr_carea' title="bbox 10 10 200 40"><p class='ocr_par'><span class='ocr_line' title="bbox 10 10 200 40; baseline 0.01 -5; x_size 30; x_descenders 6; x_ascenders 8">
      <span class='ocrx_word' title='bbox 10 12 60 35; x_wconf 91'><span class='ocrx_cinfo' title='x_bboxes 10 12 30 35; x_conf 99'>A</span><span class='ocrx_cinfo' title='x_bboxes 32 12 60 35; x_conf 98'>&amp;</span></span>
      <span class='ocrx_word' title='bbox 80 12 120 35; x_wconf 88'><span class='ocrx_cinfo' title='x_bboxes 80 12 120 35; x_conf 90'>B</span></span></span></p></div>`;
    const [block] = parseHocr(hocr);
    const line = block.paragraphs[0].lines[0];
    expect(line.words.map((w) => [w.text, w.confidence])).toEqual([['A&', 91], ['B', 88]]);
    expect(line.words[0].symbols!.map((s) => s.bbox.x1)).toEqual([30, 60]);
    expect(line.baseline).toEqual({ x0: 10, y0: 35, x1: 200, y1: 35 + 0.01 * 190 });
    expect(line.rowAttributes).toEqual({ rowHeight: 30, descenders: -6, ascenders: 8 });
  });

  it('divides out uneven lighting and keeps ink dark; binarizes at Otsu\'s threshold', async () => {
    // A page darkening from left (250) to right (130) with ink (40 less than the paper) in the middle.
    const width = 400;
    const height = 100;
    const data = new Uint8Array(width * height);
    for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) {
      const paper = 250 - (120 * x) / width;
      data[y * width + x] = y > 45 && y < 55 && x % 20 < 6 ? paper * 0.3 : paper;
    }
    const out = await normalizeBackground({ data, width, height } as GrayImage);
    const at = (x: number, y: number) => out.data[y * width + x];
    expect(at(10, 10)).toBeGreaterThan(235);
    expect(at(390, 10)).toBeGreaterThan(225);
    expect(at(382, 50)).toBeLessThan(110);
    const bw = binarize(out, otsuThreshold(out));
    expect(new Set(bw.data)).toEqual(new Set([0, 255]));
    // Ink is black and paper white on both the bright and the dark side.
    for (const x of [2, 382]) expect(bw.data[50 * width + x]).toBe(0);
    for (const x of [10, 390]) expect(bw.data[10 * width + x]).toBe(255);
  });
});
