// Image preparation before OCR, for photographed and faded pages: each step is a switch, so the OCR
// quality benchmark (test/bench/ocrQuality.bench.ts) can measure it alone; the defaults are the steps that
// measured better on real receipts without making clean pages worse (figures in that benchmark's notes).
import sharp from 'sharp';

export interface PreprocessOptions {
  /** Detect each page's orientation (OSD, checked by OCR confidence when unsure) and read it upright. */
  orientation: boolean;
  /** Divide by an estimate of the paper's brightness: shadows, uneven light and yellowed paper become white. */
  normalize: boolean;
  /** Black and white at a global threshold after normalizing (tesseract binarizes by itself otherwise). */
  binarize: boolean;
  /** Enlarge a page whose print is small (median letter height from the ink's blobs below ~24 px) to ~30 px
   * before reading it: no extra pass. */
  upscale: boolean;
  /** Tesseract page segmentation mode of the first pass (3: automatic layout, 4: one column, 6: one block, 11: sparse). */
  psm: number;
}

export const DEFAULT_PREPROCESS: Readonly<PreprocessOptions> = Object.freeze({
  orientation: true,
  normalize: false,
  binarize: false,
  upscale: true,
  psm: 6,
});

/** A grayscale image as raw bytes, one per pixel. */
export interface GrayImage {
  data: Uint8Array;
  width: number;
  height: number;
}

export async function decodeGray(png: Uint8Array): Promise<GrayImage> {
  const { data, info } = await sharp(png).removeAlpha().toColourspace('b-w').raw().toBuffer({ resolveWithObject: true });
  // toColourspace('b-w') gives one channel; a decoder that kept more is reduced to its first.
  if (info.channels === 1) return { data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), width: info.width, height: info.height };
  const out = new Uint8Array(info.width * info.height);
  for (let i = 0; i < out.length; i++) out[i] = data[i * info.channels];
  return { data: out, width: info.width, height: info.height };
}

export async function encodeGray(img: GrayImage): Promise<Uint8Array> {
  // Told 'b-w' explicitly: sharp writes a one-channel raw image as an RGB PNG otherwise, which tesseract
  // turns back to gray at about 0.3 s of CPU a 300 dpi page.
  const buf = await sharp(img.data, { raw: { width: img.width, height: img.height, channels: 1 } }).toColourspace('b-w').png({ compressionLevel: 1, adaptiveFiltering: false }).toBuffer();
  return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
}

/**
 * A PNG encoded from `img` (sharp, the same pipeline that read `png`), gray if `png` was gray: sharp writes
 * its output as RGB unless told, and a gray page stays gray for OCR (see encodeGray).
 */
async function pngLike(png: Uint8Array, img: sharp.Sharp, compressionLevel = 1): Promise<Uint8Array> {
  const { channels } = await sharp(png).metadata();
  const out = channels === 1 || channels === 2 ? img.toColourspace('b-w') : img;
  const buf = await out.png({ compressionLevel, adaptiveFiltering: false }).toBuffer();
  return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
}

/**
 * Background division: the paper's brightness is estimated on a grid of cells (the brightest pixels of each
 * cell and its neighbours, so that text does not darken it), smoothed, and every pixel divided by it. Ink
 * keeps its contrast to the paper around it while shadows and gradients vanish; a page already white stays
 * as it is (division by ~255). The cell is ~2.5 % of the long side, larger than any letter's stroke.
 */
export async function normalizeBackground(img: GrayImage): Promise<GrayImage> {
  const { data, width, height } = img;
  const { cells: bg, gw, gh } = paperGrid(img);
  const smooth = await sharp(bg, { raw: { width: gw, height: gh, channels: 1 } }).blur(1).resize(width, height, { kernel: 'linear', fit: 'fill' }).extractChannel(0).raw().toBuffer();
  const out = new Uint8Array(width * height);
  for (let i = 0; i < out.length; i++) out[i] = Math.min(255, Math.round((data[i] * 255) / smooth[i]));
  return { data: out, width, height };
}

/**
 * The paper's brightness on a grid of cells about 2.5 % of the long side: per cell a high percentile (not the
 * maximum: one speck of glare would whiten the cell's ink), then the brightest of the cell and its
 * neighbours, since a cell full of ink (a bold heading, a logo) has no paper in it.
 */
export function paperGrid(img: GrayImage): { cells: Uint8Array; gw: number; gh: number } {
  const { data, width, height } = img;
  const cell = Math.max(8, Math.round(Math.max(width, height) / 40));
  const gw = Math.ceil(width / cell);
  const gh = Math.ceil(height / cell);
  const grid = new Uint8Array(gw * gh);
  const hist = new Uint32Array(256);
  for (let gy = 0; gy < gh; gy++) {
    for (let gx = 0; gx < gw; gx++) {
      hist.fill(0);
      const x0 = gx * cell;
      const y0 = gy * cell;
      const x1 = Math.min(width, x0 + cell);
      const y1 = Math.min(height, y0 + cell);
      for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) hist[data[y * width + x]]++;
      const n = (x1 - x0) * (y1 - y0);
      let seen = 0;
      let v = 255;
      for (; v > 0; v--) {
        seen += hist[v];
        if (seen >= n * 0.1) break;
      }
      grid[gy * gw + gx] = v;
    }
  }
  const cells = new Uint8Array(gw * gh);
  for (let gy = 0; gy < gh; gy++) {
    for (let gx = 0; gx < gw; gx++) {
      let m = 0;
      for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) {
        const x = gx + dx;
        const y = gy + dy;
        if (x >= 0 && y >= 0 && x < gw && y < gh) m = Math.max(m, grid[y * gw + x]);
      }
      cells[gy * gw + gx] = Math.max(m, 32);
    }
  }
  return { cells, gw, gh };
}

/** How unevenly lit the paper is: the spread (90th minus 10th percentile) of paperGrid's cells, 0 for a
 * page of one even white, tens of levels for a photo with shadows or a receipt on a darker background. */
export function paperSpread(img: GrayImage): number {
  const cells = [...paperGrid(img).cells].sort((a, b) => a - b);
  return cells[Math.floor(cells.length * 0.9)] - cells[Math.floor(cells.length * 0.1)];
}

/** Otsu's threshold of the image's histogram: the level that best separates ink from paper. */
export function otsuThreshold(img: GrayImage): number {
  // Whole counts in an indexed loop: iterating the array (for...of) took nearly twice as long on a 300 dpi
  // page (33 against 18 ms), counting in a Float64Array instead of a Uint32Array half as long again (10 ms).
  // Four histograms filled in turn, then added: consecutive pixels of the same level (most of a page) do not
  // wait on each other's count, which halves the time again (7 ms for a 300 dpi page).
  const hist = new Uint32Array(256);
  const hist1 = new Uint32Array(256);
  const hist2 = new Uint32Array(256);
  const hist3 = new Uint32Array(256);
  const { data } = img;
  let i = 0;
  for (; i + 3 < data.length; i += 4) {
    hist[data[i]]++;
    hist1[data[i + 1]]++;
    hist2[data[i + 2]]++;
    hist3[data[i + 3]]++;
  }
  for (; i < data.length; i++) hist[data[i]]++;
  for (let v = 0; v < 256; v++) hist[v] += hist1[v] + hist2[v] + hist3[v];
  const total = data.length;
  let sumAll = 0;
  for (let i = 0; i < 256; i++) sumAll += i * hist[i];
  let sumB = 0;
  let wB = 0;
  let best = 0;
  let threshold = 128;
  for (let t = 0; t < 256; t++) {
    wB += hist[t];
    if (wB === 0) continue;
    const wF = total - wB;
    if (wF === 0) break;
    sumB += t * hist[t];
    const mB = sumB / wB;
    const mF = (sumAll - sumB) / wF;
    const between = wB * wF * (mB - mF) ** 2;
    if (between > best) {
      best = between;
      threshold = t;
    }
  }
  return threshold;
}

export function binarize(img: GrayImage, threshold = otsuThreshold(img)): GrayImage {
  const out = new Uint8Array(img.data.length);
  for (let i = 0; i < out.length; i++) out[i] = img.data[i] > threshold ? 255 : 0;
  return { data: out, width: img.width, height: img.height };
}

/** Turns the image clockwise by a multiple of 90 degrees. */
export async function turnImage(png: Uint8Array, turn: number, compressionLevel = 1): Promise<Uint8Array> {
  if (turn % 360 === 0) return png;
  return pngLike(png, sharp(png).rotate(turn), compressionLevel);
}

/** Enlarges by `factor` (Lanczos): letters get the pixels tesseract's network was trained on. */
export async function scaleImage(png: Uint8Array, width: number, height: number, factor: number): Promise<{ png: Uint8Array; width: number; height: number }> {
  const w = Math.round(width * factor);
  const h = Math.round(height * factor);
  return { png: await pngLike(png, sharp(png).resize(w, h, { kernel: 'lanczos3', fit: 'fill' })), width: w, height: h };
}

/** A blob of ink shaped like a letter, in pixels of the image it was found in. */
export interface GlyphBox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/**
 * The blobs of a page shaped like letters: ink (darker than Otsu's threshold) labelled in 8-connected
 * components, kept when 2.5 % of the page high at most, not a long rule, not a speck. No OCR pass: about
 * 20 ms for a 300 dpi A4 page, where labelling pixel by pixel took 90 ms and a 35 MB array, on the worker's
 * main thread before every page's OCR. Runs of ink are labelled instead of pixels, in three steps, each a
 * function of its own so that V8 optimizes each loop once rather than the whole again at every step.
 */
export function glyphBoxes(img: GrayImage): GlyphBox[] {
  const runs = inkRuns(img, otsuThreshold(img));
  const boxes = componentBoxes(runs, joinRuns(runs));
  const maxH = Math.max(8, Math.round(Math.max(img.width, img.height) * 0.025));
  const out: GlyphBox[] = [];
  for (let b = 0; b < boxes.px.length; b++) {
    const { x0, y0, x1, y1, px } = boxes;
    const h = y1[b] - y0[b] + 1;
    const w = x1[b] - x0[b] + 1;
    if (h < 4 || h > maxH || w > 2.5 * h || px[b] < 0.15 * w * h) continue;
    out.push({ x0: x0[b], y0: y0[b], x1: x1[b] + 1, y1: y1[b] + 1 });
  }
  return out;
}

/** Each row's runs of ink, [start, end) on x, rows one after the other: row y's are rowStart[y] to rowStart[y + 1]. */
interface InkRuns {
  start: Int32Array;
  end: Int32Array;
  count: number;
  rowStart: Int32Array;
}

function inkRuns(img: GrayImage, threshold: number): InkRuns {
  const { data, width, height } = img;
  // A 300 dpi page of text has a few hundred thousand runs; the arrays double when full.
  let start = new Int32Array(Math.max(1 << 12, height * 64));
  let end = new Int32Array(start.length);
  let count = 0;
  const rowStart = new Int32Array(height + 1);
  for (let y = 0; y < height; y++) {
    rowStart[y] = count;
    const row = y * width;
    let x = 0;
    while (x < width) {
      while (x < width && data[row + x] > threshold) x++;
      if (x === width) break;
      if (count === start.length) [start, end] = [doubled(start), doubled(end)];
      start[count] = x;
      while (x < width && data[row + x] <= threshold) x++;
      end[count++] = x;
    }
  }
  rowStart[height] = count;
  return { start, end, count, rowStart };
}

function doubled(a: Int32Array): Int32Array<ArrayBuffer> {
  const b = new Int32Array(a.length * 2);
  b.set(a);
  return b;
}

/** Union-find over the runs: a run joins every run of the row above that touches it, diagonals included
 * (8-connectivity: [s, e) and [s', e') touch when s' <= e and e' >= s). A component's root is its first
 * run in raster order. Returns each run's parent. */
function joinRuns({ start, end, count, rowStart }: InkRuns): Int32Array {
  const parent = new Int32Array(count);
  for (let i = 0; i < count; i++) parent[i] = i;
  for (let y = 1; y < rowStart.length - 1; y++) {
    let above = rowStart[y - 1];
    const aboveEnd = rowStart[y];
    for (let r = rowStart[y]; r < rowStart[y + 1]; r++) {
      // Runs above that end left of this one touch neither it nor any later run of this row.
      while (above < aboveEnd && end[above] < start[r]) above++;
      for (let a = above; a < aboveEnd && start[a] <= end[r]; a++) {
        const ra = findRoot(parent, a);
        const rr = findRoot(parent, r);
        if (ra < rr) parent[rr] = ra;
        else if (rr < ra) parent[ra] = rr;
      }
    }
  }
  return parent;
}

/** A module function, not a closure made per call: V8's optimized joinRuns keeps calling the same one. */
function findRoot(parent: Int32Array, i: number): number {
  while (parent[i] !== i) {
    parent[i] = parent[parent[i]];
    i = parent[i];
  }
  return i;
}

/** Each component's box (inclusive pixel bounds) and ink, in the order of its first run (top to bottom, left to right). */
function componentBoxes({ start, end, count, rowStart }: InkRuns, parent: Int32Array) {
  const slot = new Int32Array(count);
  const x0: number[] = [];
  const y0: number[] = [];
  const x1: number[] = [];
  const y1: number[] = [];
  const px: number[] = [];
  for (let y = 0; y < rowStart.length - 1; y++) {
    for (let r = rowStart[y]; r < rowStart[y + 1]; r++) {
      // Roots come before their runs in raster order, and parents were compressed towards them: a run's
      // root is its parent's root, already found.
      const root = parent[r] === r ? r : (parent[r] = parent[parent[r]]);
      let b: number;
      if (root === r) {
        b = slot[r] = px.length;
        x0.push(start[r]);
        x1.push(end[r] - 1);
        y0.push(y);
        y1.push(y);
        px.push(0);
      } else b = slot[root];
      if (start[r] < x0[b]) x0[b] = start[r];
      if (end[r] - 1 > x1[b]) x1[b] = end[r] - 1;
      y1[b] = y;
      px[b] += end[r] - start[r];
    }
  }
  return { x0, y0, x1, y1, px };
}

/** The median height (px) of the letter-like blobs: on printed text between the x-height and the capital
 * height (receipts print mostly capitals and digits). Undefined when too few are found to tell. */
export function medianGlyphHeight(glyphs: GlyphBox[], sideways = false): number | undefined {
  if (glyphs.length < 20) return undefined;
  // On a page turned by 90 or 270 degrees the letters' height runs along the image's x axis.
  const hs = glyphs.map((g) => (sideways ? g.x1 - g.x0 : g.y1 - g.y0)).sort((a, b) => a - b);
  return hs[hs.length >> 1];
}

/** Enlarges a grayscale image by `factor` (Lanczos). */
export async function scaleGray(img: GrayImage, factor: number): Promise<GrayImage> {
  const width = Math.round(img.width * factor);
  const height = Math.round(img.height * factor);
  const buf = await sharp(img.data, { raw: { width: img.width, height: img.height, channels: 1 } }).resize(width, height, { kernel: 'lanczos3', fit: 'fill' }).extractChannel(0).raw().toBuffer();
  return { data: new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength), width, height };
}

/** A rectangle of a PNG, turned clockwise by `turn`. */
export async function cropImage(png: Uint8Array, rect: { left: number; top: number; width: number; height: number }, turn = 0): Promise<Uint8Array> {
  let img = sharp(png).extract(rect);
  if (turn % 360 !== 0) img = sharp(await img.png({ compressionLevel: 1, adaptiveFiltering: false }).toBuffer()).rotate(turn);
  return pngLike(png, img);
}
