// glyphBoxes (main/pipeline/ocr/preprocess.ts) labels runs of ink, not pixels, for speed: it must find exactly
// the 8-connected components a plain flood fill finds, box for box and in the same order, on pages of text
// and on noise that joins and splits blobs in every way runs can (diagonals, U shapes, the image's edges).
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { glyphBoxes, otsuThreshold, type GlyphBox, type GrayImage } from '../../main/pipeline/ocr/preprocess.ts';
import { bodyText, drawPage } from '../helpers/ocrPages.ts';
// The project's seeded generator (mulberry32), so a failure reproduces.
import { random } from '../../main/ai/extraction/forest.ts';

/** The specification: ink pixels flood-filled in 8-connected components, found in raster order, kept by the same rules. */
function floodFillBoxes(img: GrayImage): GlyphBox[] {
  const { data, width, height } = img;
  const threshold = otsuThreshold(img);
  const seen = new Uint8Array(width * height);
  const maxH = Math.max(8, Math.round(Math.max(width, height) * 0.025));
  const out: GlyphBox[] = [];
  const stack: number[] = [];
  for (let first = 0; first < data.length; first++) {
    if (seen[first] || data[first] > threshold) continue;
    seen[first] = 1;
    stack.push(first);
    let [x0, y0, x1, y1, px] = [width, height, -1, -1, 0];
    while (stack.length) {
      const i = stack.pop()!;
      const x = i % width;
      const y = (i - x) / width;
      [x0, y0, x1, y1, px] = [Math.min(x0, x), Math.min(y0, y), Math.max(x1, x), Math.max(y1, y), px + 1];
      for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) {
        const nx = x + dx;
        const ny = y + dy;
        const j = ny * width + nx;
        if (nx < 0 || ny < 0 || nx >= width || ny >= height || seen[j] || data[j] > threshold) continue;
        seen[j] = 1;
        stack.push(j);
      }
    }
    const h = y1 - y0 + 1;
    const w = x1 - x0 + 1;
    if (h < 4 || h > maxH || w > 2.5 * h || px < 0.15 * w * h) continue;
    out.push({ x0, y0, x1: x1 + 1, y1: y1 + 1 });
  }
  return out;
}

describe('glyphBoxes', () => {
  it('finds the flood fill\'s letters on a rendered page of text', async () => {
    const { png } = await drawPage(bodyText(7), { dpi: 150 });
    const { data, info } = await sharp(png).toColourspace('b-w').raw().toBuffer({ resolveWithObject: true });
    const img = { data: new Uint8Array(data), width: info.width, height: info.height };
    const boxes = glyphBoxes(img);
    expect(boxes.length).toBeGreaterThan(500);
    expect(boxes).toEqual(floodFillBoxes(img));
  });

  it('finds the flood fill\'s blobs on noise of every density, ink at the edges included', () => {
    for (const [seed, ink, width, height] of [[1, 0.2, 97, 61], [2, 0.45, 64, 64], [3, 0.6, 50, 80], [4, 0.35, 1, 40], [5, 0.35, 40, 1], [6, 0.5, 333, 17]]) {
      const next = random(seed);
      // Two gray levels either side of Otsu's threshold, so ink is exactly the pixels drawn dark.
      const data = Uint8Array.from({ length: width * height }, () => (next() < ink ? 30 : 220));
      const img = { data, width, height };
      const boxes = glyphBoxes(img);
      expect(boxes, `seed ${seed}`).toEqual(floodFillBoxes(img));
    }
  });

  it('joins blobs through diagonals and U shapes whose arms meet rows later', () => {
    // Row by row ('#' ink): a U whose arms are separate runs until the bottom joins them, a diagonal
    // staircase, and a blob touching only by a corner.
    const rows = [
      '#..#..#.......',
      '#..#...#....##',
      '#..#....#...##',
      '####.....#.#..',
      '..........#...',
    ];
    const width = rows[0].length;
    const data = Uint8Array.from(rows.join(''), (c) => (c === '#' ? 0 : 255));
    const img = { data, width, height: rows.length };
    expect(glyphBoxes(img)).toEqual(floodFillBoxes(img));
    // The U is one blob 4 high; the staircase and the corner-touching square are one blob 5 high.
    expect(glyphBoxes(img)).toEqual([{ x0: 0, y0: 0, x1: 4, y1: 4 }, { x0: 6, y0: 0, x1: 14, y1: 5 }]);
  });

  it('finds nothing on blank paper', () => {
    expect(glyphBoxes({ data: new Uint8Array(100 * 50).fill(255), width: 100, height: 50 })).toEqual([]);
  });
});
