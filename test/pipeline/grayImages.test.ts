// The OCR images stay gray: sharp writes RGB PNGs unless told otherwise, and tesseract spends about 0.3 s of
// CPU a 300 dpi page turning an RGB image back to gray. A gray page enlarged, turned or cut stays gray with
// the same pixels; a colour page stays colour (the photo reader wants its colours).
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { cropImage, decodeGray, encodeGray, scaleImage, turnImage } from '../../main/pipeline/ocr/preprocess.ts';

/** PNG colour type from the IHDR chunk: 0 gray, 2 RGB, 4 gray with alpha, 6 RGBA. */
const colourType = (png: Uint8Array) => png[25];

async function page(channels: 1 | 3) {
  const width = 60;
  const height = 40;
  const data = Buffer.alloc(width * height * channels);
  for (let i = 0; i < width * height; i++) for (let c = 0; c < channels; c++) data[i * channels + c] = (i * 7 + c * 50) % 256;
  const buf = await sharp(data, { raw: { width, height, channels } }).toColourspace(channels === 1 ? 'b-w' : 'srgb').png().toBuffer();
  return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
}

describe('gray OCR images', () => {
  it('encodeGray writes a gray PNG with the same pixels', async () => {
    const img = { data: Uint8Array.from({ length: 12 }, (_, i) => i * 20), width: 4, height: 3 };
    const png = await encodeGray(img);
    expect(colourType(png)).toBe(0);
    expect(Array.from((await decodeGray(png)).data)).toEqual(Array.from(img.data));
  });

  it('a gray page turned, enlarged or cut stays gray, its pixels those of the gray page turned', async () => {
    const gray = await page(1);
    expect(colourType(gray)).toBe(0);
    const turned = await turnImage(gray, 90);
    const scaled = await scaleImage(gray, 60, 40, 2);
    const cut = await cropImage(gray, { left: 10, top: 5, width: 30, height: 20 }, 270);
    for (const png of [turned, scaled.png, cut]) expect(colourType(png)).toBe(0);
    // The same pixels as sharp turns them in RGB, one channel.
    const rgbTurned = await sharp(gray).rotate(90).extractChannel(0).raw().toBuffer();
    expect(Buffer.from((await decodeGray(turned)).data).equals(rgbTurned)).toBe(true);
    expect({ width: scaled.width, height: scaled.height }).toEqual({ width: 120, height: 80 });
    expect(await sharp(cut).metadata()).toMatchObject({ width: 20, height: 30 });
  });

  it('a colour page stays colour', async () => {
    const colour = await page(3);
    expect(colourType(colour)).toBe(2);
    expect(colourType(await turnImage(colour, 180))).toBe(2);
    expect(colourType((await scaleImage(colour, 60, 40, 1.5)).png)).toBe(2);
    expect(colourType(await cropImage(colour, { left: 0, top: 0, width: 20, height: 20 }))).toBe(2);
  });
});
