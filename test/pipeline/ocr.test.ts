// OCR of generated page images with the real tesseract.js engine: recognised text in English, German and
// French, every word's box where it was drawn (PDF points, origin bottom left), two workers at once,
// refused languages, failures that must not hang, and no network use.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Tesseract from 'tesseract.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ValidationError } from '../../main/domain/errors.ts';
import { tessdataDir } from '../../main/pipeline/languages.ts';
import { OCR_WORKER_SCRIPT, OcrError, OcrPool, defaultOcrWorkerCount, ocrModelCacheDir, type OcrPageText } from '../../main/pipeline/ocr/ocrPool.ts';
import { toPageText, type TessBlock, type TessWord } from '../../main/pipeline/ocr/ocrText.ts';
import { layoutText } from '../../main/pipeline/textLayout.ts';
import { ConfigError } from '../../main/config.ts';
import { drawPage, type DrawnLine, type DrawnPage } from '../helpers/ocrPages.ts';

/** Debian's tesseract-ocr-fra puts its model here (5 on bookworm, 4.00 before). */
const DEBIAN_FRA = ['/usr/share/tesseract-ocr/5/tessdata/fra.traineddata', '/usr/share/tesseract-ocr/4.00/tessdata/fra.traineddata'].find((f) => fs.existsSync(f));
/** OCR shares the machine's cores with other tests: generous limits, never timing assertions. */
const SLOW = 180_000;

let dataDir: string;
let pool: OcrPool;

beforeAll(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-ocr-test-'));
  fs.mkdirSync(tessdataDir(dataDir));
  if (DEBIAN_FRA) fs.copyFileSync(DEBIAN_FRA, path.join(tessdataDir(dataDir), 'fra.traineddata'));
  pool = new OcrPool({ dataDir, size: 2 });
});

afterAll(async () => {
  await pool?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** A small page (so that OCR is quick) with lines of text 1.5 lines apart. */
function smallPage(texts: string[], size = 12): Promise<DrawnPage> {
  const lines: DrawnLine[] = texts.map((text, i) => ({ text, x: 36, baselineFromTop: 48 + i * size * 1.8, size }));
  return drawPage(lines, { widthPt: 420, heightPt: 60 + texts.length * size * 1.8 });
}

function read(page: DrawnPage, langs: string | string[], on = pool): Promise<OcrPageText> {
  return on.recognize(page.png, { langs, dpi: page.dpi, pageWidthPt: page.widthPt, pageHeightPt: page.heightPt });
}

const words = (s: string) => s.split(/\s+/).filter(Boolean);

/** The recognised words are the drawn ones, each box on the drawn ink, each word tiled by its characters. */
function expectWordsWhereDrawn(result: OcrPageText, page: DrawnPage, size: number): void {
  expect(result.words.map((w) => w.text)).toEqual(page.words.map((w) => w.text));
  result.words.forEach((w, i) => {
    const drawn = page.words[i];
    const at = `word ${i} "${w.text}"`;
    expect(Math.abs(w.x0 - drawn.x0), `${at} left`).toBeLessThan(1.5);
    expect(Math.abs(w.x1 - drawn.x1), `${at} right`).toBeLessThan(1.5);
    expect(w.y0, `${at} bottom holds the ink`).toBeLessThan(drawn.y0 + 1);
    expect(w.y1, `${at} top holds the ink`).toBeGreaterThan(drawn.y1 - 1);
    expect(w.y1 - w.y0, `${at} height`).toBeLessThan(1.6 * size);
    expect(w.y0).toBeLessThan(w.y1);
    const chars = result.chars.slice(w.charStart, w.charEnd);
    expect(chars.map((c) => c.text).join('')).toBe(w.text);
    expect(chars[0].x0).toBe(w.x0);
    expect(chars[chars.length - 1].x1).toBe(w.x1);
    chars.forEach((c, k) => {
      expect(c.x0, `${at} char ${k}`).toBeLessThan(c.x1);
      if (k > 0) expect(c.x0, `${at} chars tile the word`).toBe(chars[k - 1].x1);
      expect(c.y0).toBeGreaterThanOrEqual(w.y0);
      expect(c.y1).toBeLessThanOrEqual(w.y1);
      expect(Math.abs(c.baseline - drawn.baseline), `${at} baseline`).toBeLessThan(1);
    });
  });
  // Between the words of a line there is exactly one space character, nothing else is blank.
  const blanks = result.chars.filter((c) => c.text.trim() === '');
  expect(blanks.every((c) => c.text === ' ')).toBe(true);
  expect(blanks).toHaveLength(result.words.length - result.lines.length);
  for (const c of result.chars) expect(Array.from(c.text)).toHaveLength(1);
}

describe('OCR of page images', () => {
  it('reads an English page: text, word boxes in PDF points, lines', async () => {
    const texts = ['Invoice 4711 from Folio Test Ltd.', 'The quick brown fox jumps over the lazy dog.', 'Total amount due: 1,234.56 EUR'];
    const page = await smallPage(texts);
    const result = await read(page, 'English');
    expect(result.text).toBe(texts.join('\n'));
    expectWordsWhereDrawn(result, page, 12);
    expect(result.lines).toHaveLength(3);
    result.lines.forEach((line, i) => {
      expect(result.words.slice(line.wordStart, line.wordEnd).map((w) => w.text)).toEqual(words(texts[i]));
      expect(Math.abs(line.baseline.y0 - (page.heightPt - 48 - i * 12 * 1.8))).toBeLessThan(1);
      expect(line.ascent + line.descent).toBeGreaterThan(8);
      expect(line.ascent + line.descent).toBeLessThan(16);
    });
    expect(result.confidence).toBeGreaterThan(80);
    // The characters are drop-in input for the document text layout.
    const layout = layoutText([{ height: page.heightPt, chars: result.chars }], { padding: false });
    expect(layout.text).toBe(texts.join('\n'));
  }, SLOW);

  it('reads a German page with umlauts and ß', async () => {
    const texts = ['Größe der Übergabe: Äpfel, Öl und Müsli', 'Straße 12, 80331 München', 'Frühstück für zwölf Bären'];
    const page = await smallPage(texts);
    const result = await read(page, ['German']);
    expect(result.text).toBe(texts.join('\n'));
    expectWordsWhereDrawn(result, page, 12);
  }, SLOW);

  it.skipIf(!DEBIAN_FRA)(`reads a French page with Debian's fra model from the data folder${DEBIAN_FRA ? '' : ' (skipped: no Debian fra.traineddata; apt-get install tesseract-ocr-fra)'}`, async () => {
    const texts = ['Le garçon a reçu une lettre très détaillée', 'Noël à la forêt près du château'];
    const page = await smallPage(texts);
    const result = await read(page, 'fra');
    expect(result.text).toBe(texts.join('\n'));
    expectWordsWhereDrawn(result, page, 12);
  }, SLOW);

  it('reads at another resolution and places boxes by the image size', async () => {
    const page = await drawPage([{ text: 'Scanned at 200 dpi', x: 50, baselineFromTop: 60, size: 16 }], { dpi: 200, widthPt: 300, heightPt: 100 });
    const result = await read(page, 'eng');
    expect(result.text).toBe('Scanned at 200 dpi');
    expectWordsWhereDrawn(result, page, 16);
  }, SLOW);

  it('runs two pages at once on two workers', async () => {
    const [a, b] = await Promise.all([smallPage(['First page of two', 'with a second line']), smallPage(['Second page', 'read at the same time'])]);
    let mostBusy = 0;
    const sampler = setInterval(() => (mostBusy = Math.max(mostBusy, pool.stats().busy)), 5);
    try {
      const [ra, rb] = await Promise.all([read(a, 'eng'), read(b, 'eng')]);
      expect(ra.text).toBe('First page of two\nwith a second line');
      expect(rb.text).toBe('Second page\nread at the same time');
    } finally {
      clearInterval(sampler);
    }
    expect(mostBusy).toBe(2);
    expect(pool.stats().workers.map((w) => w.langs)).toEqual(['eng', 'eng']);
  }, SLOW);
});

describe('refusals and failures', () => {
  it('refuses languages that are unknown or not installed with a ValidationError', async () => {
    const page = await smallPage(['x']);
    const refused = await read(page, ['English', 'Klingon', 'Italian']).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ValidationError);
    const messages = (refused as ValidationError).fields.langs;
    expect(messages).toHaveLength(2);
    expect(messages[0]).toContain('"Klingon" is not an OCR language');
    expect(messages[1]).toContain('apt-get install tesseract-ocr-ita');
  });

  it('refuses an image that is not the page at the given resolution', async () => {
    const page = await smallPage(['x']);
    await expect(pool.recognize(page.png, { langs: 'eng', dpi: 150, pageWidthPt: page.widthPt, pageHeightPt: page.heightPt })).rejects.toThrow(RangeError);
    await expect(pool.recognize(page.png, { langs: 'eng', dpi: 0, pageWidthPt: page.widthPt, pageHeightPt: page.heightPt })).rejects.toThrow(/dpi/);
  });

  it('fails a page whose model is broken, at once, and goes on reading other pages', async () => {
    const model = path.join(tessdataDir(dataDir), 'zzz.traineddata');
    const cached = path.join(ocrModelCacheDir(dataDir), 'zzz.traineddata');
    fs.writeFileSync(model, Buffer.alloc(50_000, 7));
    try {
      const page = await smallPage(['Still readable']);
      await expect(read(page, 'zzz')).rejects.toThrow(/Could not start OCR for zzz.*LSTM/);
      expect(fs.readFileSync(cached)).toEqual(fs.readFileSync(model));
      // A model replaced in tessdata is what the next worker gets.
      fs.writeFileSync(model, Buffer.alloc(60_000, 8));
      await expect(read(page, 'zzz')).rejects.toThrow(OcrError);
      expect(fs.readFileSync(cached)).toEqual(fs.readFileSync(model));
      expect((await read(page, 'eng')).text).toBe('Still readable');
    } finally {
      fs.rmSync(path.join(tessdataDir(dataDir), 'zzz.traineddata'));
    }
  }, SLOW);

  it('holds producers back while the queue is full and fails waiting pages on close', async () => {
    const small = new OcrPool({ dataDir, size: 1, maxQueue: 1 });
    const page = await smallPage(['Queued']);
    const first = read(page, 'eng', small).catch((e: unknown) => e);
    const second = read(page, 'eng', small).catch((e: unknown) => e);
    expect(small.stats()).toMatchObject({ queued: 1, busy: 1 });
    let room = false;
    const waiting = small.waitForRoom().then(() => (room = true));
    await new Promise((r) => setTimeout(r, 20));
    expect(room).toBe(false);
    await small.close();
    await waiting;
    expect(await first).toBeInstanceOf(OcrError);
    expect(await second).toBeInstanceOf(OcrError);
    expect(String(await second)).toMatch(/closed/);
    await expect(read(page, 'eng', small)).rejects.toThrow(/closed/);
  });

  it('frees room as soon as a worker takes the next page', async () => {
    const small = new OcrPool({ dataDir, size: 1, maxQueue: 1 });
    try {
      const page = await smallPage(['One at a time']);
      const order: string[] = [];
      const first = read(page, 'eng', small).then(() => order.push('first done'));
      const second = read(page, 'eng', small).then(() => order.push('second done'));
      await small.waitForRoom();
      // Room came when the worker, done with the first page, took the second one from the queue.
      expect(small.stats()).toMatchObject({ queued: 0, busy: 1 });
      expect(order).not.toContain('second done');
      await Promise.all([first, second]);
      expect(order).toEqual(['first done', 'second done']);
    } finally {
      await small.close();
    }
  }, SLOW);
});

describe('configuration and offline use', () => {
  it('sizes the pool from the cores, leaving one free, or from FOLIO_OCR_WORKERS', () => {
    expect(defaultOcrWorkerCount({}, 1)).toBe(1);
    expect(defaultOcrWorkerCount({}, 2)).toBe(1);
    expect(defaultOcrWorkerCount({}, 4)).toBe(3);
    expect(defaultOcrWorkerCount({}, 64)).toBe(6);
    expect(defaultOcrWorkerCount({ FOLIO_OCR_WORKERS: '2' }, 1)).toBe(2);
    expect(() => defaultOcrWorkerCount({ FOLIO_OCR_WORKERS: 'many' })).toThrow(ConfigError);
    expect(() => defaultOcrWorkerCount({ FOLIO_OCR_WORKERS: '0' })).toThrow(ConfigError);
  });

  it('never uses the network: no fetch in this thread, and the worker thread cannot fetch at all', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    try {
      const page = await smallPage(['Offline']);
      expect((await read(page, 'eng')).text).toBe('Offline');
      expect(fetchSpy).not.toHaveBeenCalled();
    } finally {
      fetchSpy.mockRestore();
    }
    // Without a local langPath tesseract.js downloads models from a CDN; on our worker script that fails at once.
    const refused = await new Promise<string>((resolve) => {
      void Tesseract.createWorker('eng', Tesseract.OEM.LSTM_ONLY, { workerPath: OCR_WORKER_SCRIPT, cacheMethod: 'none', errorHandler: (e: unknown) => resolve(String(e)) });
    });
    expect(refused).toMatch(/never downloads \(asked for https:\/\/cdn\.jsdelivr\.net\/.*eng\.traineddata\.gz\)/);
  }, SLOW);
});

describe('tesseract result to page text', () => {
  // 300 dpi: 0.24 pt per pixel; a 100 pt high page.
  const frame = { sx: 0.24, sy: 0.24, heightPt: 100 };
  const box = (x0: number, x1: number, y0 = 100, y1 = 140) => ({ x0, x1, y0, y1 });
  const word = (text: string, bbox: ReturnType<typeof box>, symbols: [string, ReturnType<typeof box>][]): TessWord => ({
    text,
    confidence: 90,
    bbox,
    symbols: symbols.map(([t, b]) => ({ text: t, bbox: b })),
  });
  const page = (words: TessWord[], line: Partial<TessBlock['paragraphs'][0]['lines'][0]> = {}): TessBlock[] => [
    { paragraphs: [{ lines: [{ bbox: box(0, 400), baseline: { x0: 0, y0: 130, x1: 400, y1: 130 }, rowAttributes: { rowHeight: 40, descenders: 10, ascenders: 8 }, words, ...line }] }] },
  ];
  const xs = (r: OcrPageText) => r.chars.map((c) => [c.text, c.x0, c.x1]);

  it('tiles a word halfway between inks and puts a space between words', () => {
    const r = toPageText(page([word('ab', box(10, 40), [['a', box(10, 20)], ['b', box(30, 40)]]), word('c', box(60, 70), [['c', box(60, 70)]])]), frame);
    expect(xs(r)).toEqual([['a', 2.4, 6], ['b', 6, 9.6], [' ', 9.6, 14.4], ['c', 14.4, 16.8]]);
    // Band: baseline 130 px, 30 px above it, 10 below; y flips to points from the bottom.
    expect(r.chars[0]).toMatchObject({ y0: 100 - 140 * 0.24, y1: 100 - 100 * 0.24, baseline: 100 - 130 * 0.24 });
    expect(r.lines[0]).toMatchObject({ ascent: 7.2, descent: 2.4, wordStart: 0, wordEnd: 2 });
    expect(r.text).toBe('ab c');
  });

  it('keeps reading order but places right-to-left characters by their ink', () => {
    const r = toPageText(page([word('אב', box(45, 70), [['א', box(60, 70)], ['ב', box(45, 55)]])]), frame);
    expect(xs(r)).toEqual([['א', 13.8, 16.8], ['ב', 10.8, 13.8]]);
  });

  it('splits symbols of several characters, composes accents, separates characters that share one box', () => {
    const r = toPageText(page([word('fié', box(0, 30), [['fi', box(0, 20)], ['e\u0301', box(20, 30)]]), word('xy', box(40, 60), [['x', box(40, 60)], ['y', box(40, 60)]])]), frame);
    expect(xs(r)).toEqual([['f', 0, 2.4], ['i', 2.4, 4.8], ['é', 4.8, 7.2], [' ', 7.2, 9.6], ['x', 9.6, 12], ['y', 12, 14.4]]);
    expect(r.words.map((w) => w.text)).toEqual(['fié', 'xy']);
  });

  it('follows a sloped baseline and falls back to the word box without row metrics', () => {
    const sloped = toPageText(page([word('a', box(40, 60), [['a', box(40, 60)]])], { baseline: { x0: 0, y0: 100, x1: 100, y1: 110 } }), frame);
    expect(sloped.chars[0].baseline).toBe(Math.round((100 - 105 * 0.24) * 100) / 100);
    const bare = toPageText(page([word('a', box(40, 60, 100, 150), [['a', box(40, 60, 100, 150)]])], { rowAttributes: null }), frame);
    expect(bare.chars[0]).toMatchObject({ y0: 100 - 150 * 0.24, y1: 100 - 100 * 0.24, baseline: 100 - 140 * 0.24 });
  });
});
