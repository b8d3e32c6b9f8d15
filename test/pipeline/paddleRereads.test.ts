// PP-OCRv4's rereads of doubtful lines (paddle/reader.ts ReaderOptions.rereads), with the real models on a
// generated page faded, blurred and compressed like a poor photograph of a receipt: lines the recognizer reads unsurely are read
// again from other crops of the page (narrower and wider letters, a toned crop, more and less margin) and
// each keeps its surest reading; lines read surely are left as they were. And the toned crop's contrast.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PaddleReader, READER_DEFAULTS, type ReadLine } from '../../main/pipeline/ocr/paddle/reader.ts';
import { decodeRgb, toned, type LineImage, type RgbImage } from '../../main/pipeline/ocr/paddle/raster.ts';
import { drawPage, type DrawnLine } from '../helpers/ocrPages.ts';

const SLOW = 300_000;
// Small print the recognizer reads unsurely on the degraded page, and a large line it reads surely.
const LINES = ['MOUNTAIN HARDWARE (M) SDN BHD', 'NO. 17-G, JALAN SETIA INDAH', 'TAX INVOICE 18287/102/T0049', 'CASHIER MOHD IBRAHIM 21:28', 'TOTAL AMOUNT RM 174.90', 'THANK YOU'];

let readers: PaddleReader[] = [];
let img: RgbImage;

beforeAll(async () => {
  const lines: DrawnLine[] = LINES.map((text, i) => ({ text, x: 16, baselineFromTop: 30 + i * 18 + (i === 5 ? 8 : 0), size: i === 5 ? 16 : 8 }));
  const page = await drawPage(lines, { widthPt: 260, heightPt: 150, dpi: 120 });
  // Faded ink (black to gray), a soft focus and a coarse JPEG, as photographed receipts come.
  const poor = await sharp(page.png).linear(0.4, 150).blur(0.6).jpeg({ quality: 12 }).toBuffer();
  img = await decodeRgb(poor);
  readers = [await PaddleReader.open({ rereads: { below: 0, crops: [] } }), await PaddleReader.open()];
});
afterAll(async () => {
  await Promise.all(readers.map((r) => r.close()));
});

const text = (l: ReadLine) => l.words.map((w) => w.text).join(' ');

describe('rereads of doubtful lines', () => {
  it('each doubtful line keeps its surest reading of the crops; sure lines stay as read', async () => {
    const [once, again] = readers;
    const boxes = await once.detect(img);
    expect(boxes.length).toBe(LINES.length);
    const first = await once.read(img, boxes);
    const second = await again.read(img, boxes);
    expect(second).toHaveLength(first.length);
    const { below } = READER_DEFAULTS.rereads;
    const doubtful = first.filter((l) => l.confidence < below);
    // The degraded page has both kinds of line: small print read unsurely, the large line surely.
    expect(doubtful.length).toBeGreaterThan(0);
    expect(doubtful.length).toBeLessThan(first.length);
    let surer = 0;
    first.forEach((l, i) => {
      const r = second[i];
      if (l.confidence >= below) {
        expect(text(r)).toBe(text(l));
        expect(r.box).toEqual(l.box);
        expect(r.confidence).toBe(l.confidence);
      } else {
        expect(r.confidence, text(l)).toBeGreaterThanOrEqual(l.confidence);
        if (r.confidence > l.confidence) surer++;
      }
    });
    expect(surer).toBeGreaterThan(0);
    // The rereads read the drawn text at least as well: each line's characters found in order in its drawn line.
    const hits = (lines: ReadLine[]) => lines.reduce((a, l) => a + Math.max(...LINES.map((drawn) => common(drawn, text(l)))), 0);
    expect(hits(second)).toBeGreaterThanOrEqual(hits(first));
  }, SLOW);

  it('the toned crop stretches a faded line to black and white, the gray for ink left as cut', () => {
    const [width, height] = [50, 4];
    const gray = new Uint8Array(width * height).map((_, i) => (i % width < 10 ? 150 : 200));
    const line: LineImage = { gray, rgb: Uint8Array.from({ length: 3 * gray.length }, (_, i) => gray[Math.floor(i / 3)]), width, height };
    const t = toned(line);
    expect(t.gray).toBe(line.gray);
    expect(t.rgb[0]).toBe(0);
    expect(t.rgb[3 * 20]).toBe(255);
  });
});

/** Length of the longest common subsequence of two strings. */
function common(a: string, b: string): number {
  let prev = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    const cur = [0];
    for (let j = 1; j <= b.length; j++) cur[j] = a[i - 1] === b[j - 1] ? prev[j - 1] + 1 : Math.max(prev[j], cur[j - 1]);
    prev = cur;
  }
  return prev[b.length];
}
