// The photo readers (FOLIO_OCR_ENGINE=paddle and =hybrid) with the real PP-OCRv4 models: a generated page
// reads back with its words where they were drawn and with the spaces between them; a page upside down is
// turned; the setting picks them. And the pieces on made-up inputs: DB boxes, CTC decoding, word breaks.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { knownEngines, selectEngine } from '../../main/pipeline/ocr/engine.ts';
import { paddleMissing } from '../../main/pipeline/ocr/paddle/models.ts';
import { findNativeTesseract } from '../../main/pipeline/ocr/nativeEngine.ts';
import { OcrPool, type OcrPageResult } from '../../main/pipeline/ocr/ocrPool.ts';
import { ctcGreedy, fixedPitchCell, insideNumber, spaceBreaks } from '../../main/pipeline/ocr/paddle/ctc.ts';
import { dbBoxes } from '../../main/pipeline/ocr/paddle/dbPostprocess.ts';
import { minAreaRect } from '../../main/pipeline/ocr/paddle/geometry.ts';
import { digitWord, halfWidth, latinMark, letterWord, PaddleReader, READER_DEFAULTS, withMargins } from '../../main/pipeline/ocr/paddle/reader.ts';
import { readingOrder } from '../../main/pipeline/ocr/paddle/blocks.ts';
import { decodeRgb } from '../../main/pipeline/ocr/paddle/raster.ts';
import { hybridEngine, paddleEngine } from '../../main/pipeline/ocr/paddleEngine.ts';
import { wasmEngine } from '../../main/pipeline/ocr/wasmEngine.ts';
import { nativeEngine } from '../../main/pipeline/ocr/nativeEngine.ts';
import { drawPage, type DrawnLine, type DrawnPage } from '../helpers/ocrPages.ts';

const SLOW = 300_000;
const NATIVE = findNativeTesseract();
let dataDir: string;
let page: DrawnPage;
const pools: OcrPool[] = [];

// PP-OCRv4 alone reads "00781" in this font as "0o781": numbers get their zeros back (digitWord).
const LINES = ['SUNRISE HARDWARE TRADING', 'invoice total amount due 60.50', 'delivery address street city', 'Date: 14/03/2019 Time 10:42', 'payment account number 00781', 'Thank you please come again'];

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-paddle-'));
  const lines: DrawnLine[] = LINES.map((text, i) => ({ text, x: 24, baselineFromTop: 40 + i * 24, size: 11 }));
  page = await drawPage(lines, { widthPt: 300, heightPt: 200 });
});
afterAll(async () => {
  await Promise.all(pools.map((p) => p.close()));
  fs.rmSync(dataDir, { recursive: true, force: true });
});

function read(pool: OcrPool, png: Uint8Array, widthPt = page.widthPt, heightPt = page.heightPt): Promise<OcrPageResult> {
  return pool.recognize(png, { langs: 'eng', dpi: page.dpi, pageWidthPt: widthPt, pageHeightPt: heightPt });
}

const engines = [
  ['paddle', () => paddleEngine()],
  ['hybrid', () => hybridEngine(NATIVE ? nativeEngine(NATIVE) : wasmEngine())],
] as const;

describe.each(engines)('FOLIO_OCR_ENGINE=%s', (name, make) => {
  let pool: OcrPool;
  beforeAll(() => {
    pool = new OcrPool({ dataDir, size: 1, engine: make() });
    pools.push(pool);
  });

  it('reads a generated page: every line with its spaces, each word where it was drawn', async () => {
    const r = await read(pool, page.png);
    expect(r.engine).toBe(name);
    expect(r.engineVersion).toMatch(/PP-OCRv4/);
    expect(r.rotation).toBe(0);
    const lines = r.text.split('\n');
    for (const line of LINES) expect(lines, line).toContain(line);
    // Each drawn word at its place (as test/pipeline/ocr.test.ts checks tesseract's): the ink's left and
    // right within 1.5 points, its box holding the ink (a character covers its line's band, ascender to
    // descender), no taller than the line.
    for (const drawn of page.words) {
      const found = r.words.filter((w) => w.text === drawn.text && Math.abs(w.y0 - drawn.y0) < 6);
      expect(found.length, drawn.text).toBeGreaterThanOrEqual(1);
      const w = found.sort((a, b) => Math.abs(a.x0 - drawn.x0) - Math.abs(b.x0 - drawn.x0))[0];
      const at = `${drawn.text} at ${drawn.x0.toFixed(1)},${drawn.y0.toFixed(1)}: ${JSON.stringify([w.x0, w.x1, w.y0, w.y1])}`;
      expect(Math.abs(w.x0 - drawn.x0), `${at} left`).toBeLessThan(1.5);
      expect(Math.abs(w.x1 - drawn.x1), `${at} right`).toBeLessThan(1.5);
      expect(w.y0, `${at} bottom holds the ink`).toBeLessThan(drawn.y0 + 1);
      expect(w.y1, `${at} top holds the ink`).toBeGreaterThan(drawn.y1 - 1);
      expect(w.y1 - w.y0, `${at} height`).toBeLessThan(1.6 * 11);
    }
    // Characters tile their words, spaces lie between the words of a line.
    for (const w of r.words) {
      const chars = r.chars.slice(w.charStart, w.charEnd);
      expect(chars.map((c) => c.text).join('')).toBe(w.text);
      expect(chars[0].x0).toBeCloseTo(w.x0, 0);
      expect(chars[chars.length - 1].x1).toBeCloseTo(w.x1, 0);
    }
  }, SLOW);

  it('turns a page that came in upside down', async () => {
    const turned = await sharp(page.png).rotate(180).png().toBuffer();
    const r = await read(pool, turned);
    expect(r.rotation).toBe(180);
    expect(r.text).toContain('invoice total amount due 60.50');
  }, SLOW);
});

describe('engine setting', () => {
  it('FOLIO_OCR_ENGINE=paddle and =hybrid pick the photo readers', async () => {
    expect(selectEngine({ FOLIO_OCR_ENGINE: 'paddle' }).name).toBe('paddle');
    const hybrid = selectEngine({ FOLIO_OCR_ENGINE: 'hybrid', PATH: process.env.PATH });
    expect(hybrid.name).toBe('hybrid');
    // Its lines are read by the native program when there is one, else by tesseract.js.
    expect(await hybrid.version()).toMatch(NATIVE ? /tesseract \d/ : /tesseract\.js/);
    expect(await selectEngine({ FOLIO_OCR_ENGINE: 'hybrid', PATH: '/nonexistent' }).version()).toMatch(/tesseract\.js/);
    // Both are listed (GET ocr-engine/) with whether this machine runs them; auto stays tesseract.
    const known = new Map(knownEngines({ PATH: process.env.PATH }).map((e) => [e.name, e]));
    expect(known.get('paddle')?.engine?.name).toBe('paddle');
    expect(known.get('hybrid')?.engine?.name).toBe('hybrid');
    expect(selectEngine({ PATH: process.env.PATH }).name).toBe(NATIVE ? 'native' : 'wasm');
    // ONNX Runtime has no binding for Intel Macs: there the setting says so instead of failing later.
    expect(paddleMissing('darwin', 'x64')).toMatch(/no CPU binding for darwin x64/);
  });
});

describe('the pieces', () => {
  it('DB post-processing: a skewed line core becomes one box grown by the unclip distance', () => {
    const [w, h] = [200, 80];
    const prob = new Float32Array(w * h);
    // A 120 × 10 core turned by about 5.7°, centred at (100, 40); a weak blob that scores too low.
    const angle = Math.atan2(1, 10);
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
      const dx = x + 0.5 - 100;
      const dy = y + 0.5 - 40;
      const u = dx * Math.cos(angle) + dy * Math.sin(angle);
      const n = -dx * Math.sin(angle) + dy * Math.cos(angle);
      if (Math.abs(u) <= 60 && Math.abs(n) <= 5) prob[y * w + x] = 0.9;
    }
    for (let y = 5; y < 12; y++) for (let x = 5; x < 12; x++) prob[y * w + x] = 0.35;
    const boxes = dbBoxes(prob, w, h, {}, 2, 2);
    expect(boxes).toHaveLength(1);
    const b = boxes[0];
    expect(b.cx).toBeCloseTo(200, -1);
    expect(b.cy).toBeCloseTo(80, -1);
    expect(Math.atan2(b.uy, b.ux)).toBeCloseTo(angle, 1);
    // d = area · 1.5 / perimeter = 120 · 10 · 1.5 / 260 ≈ 6.9 map pixels on every side, then × 2.
    expect(b.w).toBeGreaterThan(2 * (120 + 2 * 6));
    expect(b.w).toBeLessThan(2 * (122 + 2 * 8));
    expect(b.h).toBeGreaterThan(2 * (10 + 2 * 6));
    expect(b.h).toBeLessThan(2 * (12 + 2 * 8));
    expect(b.score).toBeGreaterThan(0.6);
  });

  it('a tall rectangle is described along its long side only when that side is nearer the x axis', () => {
    const r = minAreaRect([{ x: 0, y: 0 }, { x: 10, y: 0 }, { x: 10, y: 40 }, { x: 0, y: 40 }]);
    expect([r.w, r.h, r.ux, r.uy].map((v) => Math.abs(Math.round(v * 100) / 100))).toEqual([10, 40, 1, 0]);
  });

  it('CTC greedy decoding: repeats collapse, a blank separates a double letter, steps are kept', () => {
    // Classes: 0 blank, 1 "a", 2 "b". Steps: a a _ a b b _
    const seq = [1, 1, 0, 1, 2, 2, 0];
    const probs = new Float32Array(seq.length * 3);
    seq.forEach((k, t) => {
      probs.fill(0.05, t * 3, t * 3 + 3);
      probs[t * 3 + k] = 0.9;
    });
    const out = ctcGreedy(probs, seq.length, 3);
    expect(out.map((c) => [c.index, c.first, c.last])).toEqual([[1, 0, 1], [1, 3, 3], [2, 4, 5]]);
    expect(out[0].prob).toBeCloseTo(0.9);
  });

  it('word breaks: where the ink leaves a gap wider than a share of the letters\' height', () => {
    // Three letters 6 px wide, 8 px apart, a gap of 14 px, two more letters; letters 20 px high.
    const ink = new Uint8Array(80);
    const letters = [0, 8, 16, 36, 44];
    for (const x of letters) ink.fill(1, x, x + 6);
    const chars = letters.map((x, i) => ({ text: 'abcde'[i], center: x + 3, prob: 1 }));
    expect(spaceBreaks(chars, { line: 30, letters: 20 }, ink, { pitch: 10, inkGap: 0.5 })).toEqual([false, false, false, true, false]);
    // Without ink contrast the centres decide: 8 px apart within words, 20 across the gap.
    expect(spaceBreaks(chars, { line: 20, letters: 20 }, undefined, { pitch: 0.7, inkGap: 0.5 })).toEqual([false, false, false, true, false]);
  });

  it('no word break around the decimal point of a number, however wide the unlit gap around the point', () => {
    // "RM 39.80": the point has no ink across the line's middle, so both its sides show a wide gap.
    const ink = new Uint8Array(120);
    const xs = [0, 8, 30, 38, 56, 74, 82];
    for (const [i, x] of xs.entries()) if ('RM 39.80'.replace(' ', '')[i] !== '.') ink.fill(1, x, x + 6);
    const chars = xs.map((x, i) => ({ text: 'RM39.80'[i], center: x + 3, prob: 1 }));
    expect(spaceBreaks(chars, { line: 30, letters: 20 }, ink, { pitch: 10, inkGap: 0.45 })).toEqual([false, false, true, false, false, false, false]);
    expect([1, 2, 3, 4].map((i) => insideNumber([...'1,250.00'].map((text) => ({ text })), i))).toEqual([true, true, false, false]);
    // Dates, times and phone numbers hold together the same way.
    for (const n of ['18/03/18', '15:17', '03-3271']) expect([...n].map((_, i) => i > 0 && insideNumber([...n].map((text) => ({ text })), i)).filter(Boolean).length, n).toBe(2 * (n.split(/[/:-]/).length - 1));
    // A point after a word, or a number's last point before a word, may still end a word.
    expect(insideNumber([...'No.5'].map((text) => ({ text })), 3)).toBe(false);
    expect(insideNumber([...'5.Item'].map((text) => ({ text })), 2)).toBe(false);
  });

  it('no word break before a point or comma: it ends the word before it', () => {
    // "No. 5 ." read from the ink: the gap before the last point is wide, the point still ends "5.".
    const ink = new Uint8Array(100);
    const xs = [0, 10, 20, 46, 72];
    for (const [i, x] of xs.entries()) if ('No.5.'[i] !== '.') ink.fill(1, x, x + 6);
    const chars = xs.map((x, i) => ({ text: 'No.5.'[i], center: x + 3, prob: 1 }));
    expect(spaceBreaks(chars, { line: 30, letters: 20 }, ink, { pitch: 10, inkGap: 0.4 })).toEqual([false, false, false, true, false]);
  });

  it('an initialism holds together after its points, once its first letter starts a word', () => {
    // "MR D.I. Y." drawn with wide gaps after every point: the letters between points stay with them.
    const at = (text: string, gaps: number[]) => {
      const xs: number[] = [];
      let x = 0;
      for (let i = 0; i < text.length; i++) {
        xs.push(x);
        x += 10 + (gaps[i] ?? 0);
      }
      const ink = new Uint8Array(x + 10);
      for (const [i, p] of xs.entries()) if (text[i] !== '.') ink.fill(1, p, p + 6);
      return spaceBreaks(xs.map((p, i) => ({ text: text[i], center: p + 3, prob: 1 })), { line: 30, letters: 20 }, ink, { pitch: 10, inkGap: 0.4 });
    };
    //                        M  R     D  .  I  .  Y  .
    expect(at('MRD.I.Y.', [0, 20, 0, 20, 0, 20, 0])).toEqual([false, false, true, false, false, false, false, false]);
    // "MR.D.I.Y." with a space after "MR.": D is a word's first letter only because of that break.
    expect(at('MR.D.I.Y.', [0, 0, 20, 0, 20, 0, 20, 0])).toEqual([false, false, false, true, false, false, false, false, false]);
  });

  it('an ampersand between words stands apart, between single letters it joins them', () => {
    const tight = (text: string) => {
      const ink = new Uint8Array(10 * text.length + 10).fill(1);
      return spaceBreaks([...text].map((t, i) => ({ text: t, center: 10 * i + 5, prob: 1 })), { line: 30, letters: 20 }, ink, { pitch: 10, inkGap: 0.4 });
    };
    expect(tight('WARE&ELEC').map((b, i) => (b ? i : -1)).filter((i) => i >= 0)).toEqual([4, 5]);
    expect(tight('T&C').some(Boolean)).toBe(false);
  });

  it('a fixed-pitch line breaks by its cells, not by the unlit columns around a narrow letter', () => {
    // "World Sdn" in a 28-pixel cell: the centres fall on 4-pixel steps, so 24 and 32 alternate; a narrow "l"
    // leaves 20 unlit columns on either side, yet only the empty cell is a space.
    const text = 'WorldSdn';
    const centres = [14, 38, 70, 94, 126, 182, 206, 238];
    const ink = new Uint8Array(260);
    for (const [i, c] of centres.entries()) if (text[i] === 'l') ink.fill(1, c - 1, c + 1);
    else ink.fill(1, c - 10, c + 10);
    const chars = centres.map((c, i) => ({ text: text[i], center: c, prob: 1 }));
    const fixedPitch = READER_DEFAULTS.spacing.fixedPitch!;
    expect(fixedPitchCell(chars, fixedPitch)).toBe(28);
    const words = (breaks: boolean[]) => [...text].map((t, i) => (breaks[i] ? ' ' : '') + t).join('');
    expect(words(spaceBreaks(chars, { line: 48, letters: 30 }, ink, { pitch: 0.7, inkGap: 0.4 }))).toBe('Wor l d Sdn');
    expect(words(spaceBreaks(chars, { line: 48, letters: 30 }, ink, { pitch: 0.7, inkGap: 0.4, fixedPitch }))).toBe('World Sdn');
    // A proportional line (distances of many sizes) is not fixed-pitch.
    expect(fixedPitchCell([0, 9, 30, 38, 61, 70, 95].map((c, i) => ({ text: 'abcdefg'[i], center: c, prob: 1 })), fixedPitch)).toBeUndefined();
    // Between two digits the ink must agree: an amount in a fixed-pitch line is not split by a wide cell.
    const amount = [0, 28, 56, 84, 112, 168].map((c, i) => ({ text: '174.90'[i], center: c + 14, prob: 1 }));
    const solid = new Uint8Array(200).fill(1);
    expect(fixedPitchCell(amount, fixedPitch)).toBe(28);
    expect(spaceBreaks(amount, { line: 48, letters: 30 }, solid, { pitch: 0.7, inkGap: 0.4, fixedPitch }).some(Boolean)).toBe(false);
  });

  it('a middle dot read between Latin words is the space it stands for', () => {
    expect([...'AL·SDN'].map(latinMark).join('')).toBe('AL SDN');
    expect(latinMark('.')).toBe('.');
  });

  it('a bracket opened after a word starts a new word, whatever the ink says', () => {
    // "Y(M)" drawn tight: no gap before the bracket.
    const ink = new Uint8Array(60);
    const xs = [0, 8, 16, 24];
    for (const x of xs) ink.fill(1, x, x + 8);
    const chars = xs.map((x, i) => ({ text: 'Y(M)'[i], center: x + 4, prob: 1 }));
    expect(spaceBreaks(chars, { line: 30, letters: 20 }, ink, { pitch: 10, inkGap: 0.4 })).toEqual([false, true, false, false]);
    // No break just inside the brackets, however wide the gap: "( M )" drawn loose is still "(M)".
    const loose = new Uint8Array(120);
    const at = [0, 30, 60, 90];
    for (const x of at) loose.fill(1, x, x + 8);
    expect(spaceBreaks(at.map((x, i) => ({ text: 'Y(M)'[i], center: x + 4, prob: 1 })), { line: 30, letters: 20 }, loose, { pitch: 10, inkGap: 0.4 })).toEqual([false, true, false, false]);
    // Not after a digit or inside a number's bracket: "2(3)" keeps together.
    expect(spaceBreaks(chars.map((c, i) => ({ ...c, text: '2(3)'[i] })), { line: 30, letters: 20 }, ink, { pitch: 10, inkGap: 0.4 })).toEqual([false, false, false, false]);
  });

  it('full-width brackets, colons and digits read from a Latin receipt become ASCII', () => {
    expect([...'（Ｍ）：１'].map(halfWidth).join('')).toBe('(M):1');
    expect(halfWidth('店')).toBe('店');
    expect(halfWidth('a')).toBe('a');
  });

  it('a zero read as the letter o inside a number is a zero again, words keep their o', () => {
    for (const w of ['0o781', '1o.50', '2O/03/2019', '1o:42']) expect(digitWord(w), w).toBe(true);
    for (const w of ['no', 'Too', 'o1', 'No.2', 'total']) expect(digitWord(w), w).toBe(false);
    // And the other way: a zero among letters is the letter O.
    for (const w of ['INV0ICE', 'C0.', 'N0', 'AE0N', 'L0T']) expect(letterWord(w), w).toBe(true);
    for (const w of ['10', 'A10', 'IJ0K1', 'RM50.00', 'ON']) expect(letterWord(w), w).toBe(false);
  });
});

describe('large lines', () => {
  it('boxes of lines well above the median height get a margin on every side, the others stay as detected', () => {
    const line = (h: number) => ({ cx: 100, cy: 50, w: 300, h, ux: 1, uy: 0 });
    const boxes = [line(20), line(21), line(19), line(40), line(26)];
    const out = withMargins(boxes, { above: 1.3, grow: 0.05 });
    expect(out.slice(0, 3)).toEqual(boxes.slice(0, 3));
    // 40 > 1.3 × 20: 2 pixels more on each side (0.05 × 40), centre and direction kept.
    expect(out[3]).toEqual({ ...boxes[3], w: 304, h: 44 });
    // 26 is exactly 1.3 × 20: not above it.
    expect(out[4]).toEqual(boxes[4]);
    expect(withMargins([], { above: 1.3, grow: 0.05 })).toEqual([]);
    // The median may come from other boxes (the page's strong ones): 26 is large beside lines of 18.
    expect(withMargins(boxes, { above: 1.3, grow: 0.05 }, [line(18), line(18)])[4]).toEqual({ ...boxes[4], w: 302.6, h: 28.6 });
  });

  it('a heading above smaller print is read from its larger cut, the print as before', async () => {
    if (paddleMissing()) return;
    const heading = 'S.H.H. MOTOR SDN. BHD.';
    const body = ['No. 343, Jalan Kurau, Sungai Rengit', 'Tel: 07-8263254 Fax: 07-8266888', 'Date: 14/03/2019 Time 10:42', 'Thank you please come again'];
    const drawn = await drawPage([{ text: heading, x: 12, baselineFromTop: 32, size: 24 }, ...body.map((text, i) => ({ text, x: 12, baselineFromTop: 40 + (i + 1) * 16, size: 11 }))], { widthPt: 420, heightPt: 140 });
    const reader = await PaddleReader.open();
    try {
      const img = await decodeRgb(drawn.png);
      const detected = await reader.detect(img);
      const lines = readingOrder(await reader.read(img, detected));
      expect(lines.map((l) => l.words.map((w) => w.text).join(' '))).toEqual([heading, ...body]);
      // The heading was read in a box larger than the detector's; the print in the detector's own.
      const headingBox = readingOrder(detected.map((box) => ({ box })))[0].box;
      expect(lines[0].box.h).toBeCloseTo(headingBox.h * 1.1, 6);
      for (const l of lines.slice(1)) expect(detected.some((b) => b.h === l.box.h && b.w === l.box.w)).toBe(true);
    } finally {
      await reader.close();
    }
  }, SLOW);
});

describe('weak lines', () => {
  it('a box the detector scores weakly is kept when its line reads surely, dropped when it does not', async () => {
    if (paddleMissing()) return;
    const body = ['No. 343, Jalan Kurau, Sungai Rengit', 'Tel: 07-8263254 Fax: 07-8266888', 'Thank you please come again'];
    const drawn = await drawPage(body.map((text, i) => ({ text, x: 12, baselineFromTop: (i + 1) * 18, size: 11 })), { widthPt: 300, heightPt: 70 });
    const img = await decodeRgb(drawn.png);
    // A strong-box threshold no line reaches makes every line weak: they stand or fall by their reading.
    const read = async (confidence: number) => {
      const reader = await PaddleReader.open({ db: { boxThreshold: 0.999 }, weakLines: { floor: 0.3, confidence } });
      try {
        expect(await reader.detect(img)).toEqual([]);
        return readingOrder(await reader.readPage(img)).map((l) => l.words.map((w) => w.text).join(' '));
      } finally {
        await reader.close();
      }
    };
    expect(await read(0.9)).toEqual(body);
    expect(await read(1.01)).toEqual([]);
  }, SLOW);
});
