// Pixels for the PaddleOCR models: the page decoded to RGB, the detector's input tensor, and text lines
// cut out of the page along their rotated boxes (any skew) at the recognizer's height.
import sharp from 'sharp';
import { boxPoint, type Point, type RotatedBox } from './geometry.ts';
import { otsuThreshold } from '../preprocess.ts';

/** Interleaved RGB, 3 bytes a pixel. */
export interface RgbImage {
  data: Uint8Array;
  width: number;
  height: number;
}

export async function decodeRgb(image: Uint8Array): Promise<RgbImage> {
  const { data, info } = await sharp(image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const px = info.width * info.height;
  if (info.channels === 3) return { data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), width: info.width, height: info.height };
  const out = new Uint8Array(px * 3);
  for (let i = 0; i < px; i++) {
    const v = data[i * info.channels];
    out[3 * i] = out[3 * i + 1] = out[3 * i + 2] = v;
  }
  return { data: out, width: info.width, height: info.height };
}

/** PP-OCR's detector input: ImageNet mean and deviation, applied (as PaddleOCR does, on OpenCV's BGR
 * pixels) in B, G, R order; CHW. */
const DET_MEAN = [0.485, 0.456, 0.406];
const DET_STD = [0.229, 0.224, 0.225];

/**
 * The detector's input: the page scaled so its long side is at most `maxSide` (never enlarged), both
 * sides rounded to multiples of 32 as the network's strides need.
 */
export async function detectorInput(img: RgbImage, maxSide: number): Promise<{ tensor: Float32Array; width: number; height: number }> {
  const scale = Math.min(1, maxSide / Math.max(img.width, img.height));
  const width = Math.max(32, Math.round((img.width * scale) / 32) * 32);
  const height = Math.max(32, Math.round((img.height * scale) / 32) * 32);
  const raw = await sharp(img.data, { raw: { width: img.width, height: img.height, channels: 3 } }).resize(width, height, { fit: 'fill', kernel: 'linear' }).raw().toBuffer();
  const plane = width * height;
  const tensor = new Float32Array(3 * plane);
  for (let c = 0; c < 3; c++) {
    // Channel c of the tensor is B, G, R: RGB channel 2 - c.
    const src = 2 - c;
    const mean = DET_MEAN[c];
    const std = DET_STD[c];
    for (let i = 0; i < plane; i++) tensor[c * plane + i] = (raw[3 * i + src] / 255 - mean) / std;
  }
  return { tensor, width, height };
}

/** How a box is laid into a line image: upright as read along the box, or turned. */
export type CropTurn = 0 | 90 | 180;

/** A line image: gray (for ink) and RGB samples, `width` × `height`. */
export interface LineImage {
  rgb: Uint8Array;
  gray: Uint8Array;
  width: number;
  height: number;
}

/**
 * The part of the page under a rotated box, resampled to `height` pixels high (width in proportion,
 * at most `maxWidth`; `stretch` widens or narrows the letters by that factor). `turn` 90 lays a box whose
 * text runs down the page (a page turned a quarter counter-clockwise) so that the text reads left to right;
 * 180 turns the line over. Each output pixel averages a grid of bilinear samples, so strongly reduced lines
 * (large headings) do not alias.
 */
export function cropLine(img: RgbImage, box: RotatedBox, height: number, turn: CropTurn = 0, maxWidth = 4096, stretch = 1): LineImage {
  const corners = { tl: boxPoint(box, 0, 0), tr: boxPoint(box, 1, 0), br: boxPoint(box, 1, 1), bl: boxPoint(box, 0, 1) };
  // Origin, then the vectors across and down the output image.
  const sub = (a: Point, b: Point) => ({ x: a.x - b.x, y: a.y - b.y });
  const [o, across, down] =
    turn === 0 ? [corners.tl, sub(corners.tr, corners.tl), sub(corners.bl, corners.tl)]
      : turn === 180 ? [corners.br, sub(corners.bl, corners.br), sub(corners.tr, corners.br)]
        : [corners.bl, sub(corners.tl, corners.bl), sub(corners.br, corners.bl)];
  const srcW = Math.hypot(across.x, across.y);
  const srcH = Math.hypot(down.x, down.y);
  const width = Math.max(1, Math.min(maxWidth, Math.round((stretch * height * srcW) / Math.max(1e-6, srcH))));
  const k = Math.max(1, Math.min(4, Math.ceil(srcH / height)));
  const rgb = new Uint8Array(width * height * 3);
  const gray = new Uint8Array(width * height);
  const acc = [0, 0, 0];
  for (let v = 0; v < height; v++) {
    for (let u = 0; u < width; u++) {
      acc[0] = acc[1] = acc[2] = 0;
      for (let j = 0; j < k; j++) {
        const t = (v + (j + 0.5) / k) / height;
        for (let i = 0; i < k; i++) {
          const s = (u + (i + 0.5) / k) / width;
          sample(img, o.x + s * across.x + t * down.x - 0.5, o.y + s * across.y + t * down.y - 0.5, acc);
        }
      }
      const at = v * width + u;
      const n = k * k;
      for (let c = 0; c < 3; c++) rgb[3 * at + c] = Math.round(acc[c] / n);
      gray[at] = Math.round((acc[0] + acc[1] + acc[2]) / (3 * n));
    }
  }
  return { rgb, gray, width, height };
}

/** Adds the bilinear sample at (x, y) (pixel centres at integers) to acc; outside the page is white. The four
 * neighbours' offsets are found once for the three channels (this runs up to 16 times per output pixel). */
function sample(img: RgbImage, x: number, y: number, acc: number[]): void {
  const x0 = Math.floor(x);
  const y0 = Math.floor(y);
  const fx = x - x0;
  const fy = y - y0;
  const at = (xx: number, yy: number) => (xx < 0 || yy < 0 || xx >= img.width || yy >= img.height ? -1 : 3 * (yy * img.width + xx));
  const i00 = at(x0, y0);
  const i10 = at(x0 + 1, y0);
  const i01 = at(x0, y0 + 1);
  const i11 = at(x0 + 1, y0 + 1);
  const d = img.data;
  for (let c = 0; c < 3; c++) {
    const p00 = i00 < 0 ? 255 : d[i00 + c];
    const p10 = i10 < 0 ? 255 : d[i10 + c];
    const p01 = i01 < 0 ? 255 : d[i01 + c];
    const p11 = i11 < 0 ? 255 : d[i11 + c];
    acc[c] += (p00 * (1 - fx) + p10 * fx) * (1 - fy) + (p01 * (1 - fx) + p11 * fx) * fy;
  }
}

/**
 * Line images as the recognizer (and direction classifier) take them: B, G, R planes of (v/255 - 0.5)/0.5,
 * each image at the left of a `width`-wide slot, the rest padded with 0 (mid gray), as PaddleOCR pads a batch.
 */
export function lineTensor(lines: LineImage[], width: number, height: number): Float32Array {
  const plane = width * height;
  const out = new Float32Array(lines.length * 3 * plane);
  lines.forEach((line, n) => {
    const w = Math.min(width, line.width);
    for (let c = 0; c < 3; c++) {
      const base = (n * 3 + c) * plane;
      const src = 2 - c;
      for (let y = 0; y < Math.min(height, line.height); y++) {
        for (let x = 0; x < w; x++) out[base + y * width + x] = line.rgb[3 * (y * line.width + x) + src] / 127.5 - 1;
      }
    }
  });
  return out;
}

/**
 * A line image with its contrast stretched (the 2nd percentile of its gray to black, the 98th to white) and
 * darkened (gamma 1.5): faded print's thin strokes, which the recognizer may read as background, stand out.
 * Only the RGB samples the recognizer reads change; the gray ones (ink, word breaks) stay as cut.
 */
export function toned(line: LineImage): LineImage {
  const sorted = Uint8Array.from(line.gray).sort();
  const lo = sorted[Math.floor(sorted.length * 0.02)];
  const hi = sorted[Math.floor(sorted.length * 0.98)];
  const lut = new Uint8Array(256);
  for (let v = 0; v < 256; v++) lut[v] = Math.round(255 * Math.pow(Math.max(0, Math.min(1, (v - lo) / Math.max(1, hi - lo))), 1.5));
  return { ...line, rgb: line.rgb.map((v) => lut[v]) };
}

/** Ink of a line image: dark pixels by Otsu's threshold, or undefined when the image has no contrast. */
export function inkMask(line: LineImage): Uint8Array | undefined {
  const hist = new Array<number>(256).fill(0);
  for (const v of line.gray) hist[v]++;
  const total = line.gray.length;
  let lo = 0;
  while (lo < 255 && hist[lo] === 0) lo++;
  let hi = 255;
  while (hi > 0 && hist[hi] === 0) hi--;
  if (hi - lo < 40) return undefined;
  const threshold = otsuThreshold({ data: line.gray, width: line.width, height: line.height });
  const mask = new Uint8Array(total);
  for (let i = 0; i < total; i++) mask[i] = line.gray[i] <= threshold ? 1 : 0;
  return mask;
}

/** The rows of a line's letters (first and last row, inclusive): those holding a tenth or more of the
 * busiest row's ink, so stray specks and rules above or below do not count. */
export function letterRows(mask: Uint8Array, width: number, height: number): { top: number; bottom: number } {
  const rows = new Array<number>(height).fill(0);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) rows[y] += mask[y * width + x];
  const max = Math.max(...rows);
  if (max === 0) return { top: 0, bottom: height - 1 };
  const top = rows.findIndex((r) => r >= max / 10);
  let bottom = height - 1;
  while (bottom > top && rows[bottom] < max / 10) bottom--;
  return { top, bottom };
}

/** Height of a line's letters in its image, pixels. */
export function inkHeight(mask: Uint8Array, width: number, height: number): number {
  const { top, bottom } = letterRows(mask, width, height);
  return bottom - top + 1;
}

/** Columns holding ink within the letters' rows, 1 or 0 per column: the whole letter counts (a T's bar
 * reaches towards its neighbour), the margins' specks do not. */
export function inkColumns(mask: Uint8Array, width: number, height: number): Uint8Array {
  const { top, bottom } = letterRows(mask, width, height);
  const cols = new Uint8Array(width);
  for (let y = top; y <= bottom; y++) for (let x = 0; x < width; x++) if (mask[y * width + x]) cols[x] = 1;
  return cols;
}
