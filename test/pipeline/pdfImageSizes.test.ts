// The declared sizes of the images inside a PDF (pdfImageSizes.ts), read from headers only, and the render
// size of a page of extreme shape, which must stay within the viewer image's bounds.
import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { jbig2Size, jpegSize, jpxSize, oversizedImage } from '../../main/pipeline/pdfImageSizes.ts';
import { renderPages } from '../../main/pipeline/render.ts';
import { imageBombs, jbig2Header, jpegHeader, jpxHeader } from '../fixtures/pdfImageBombs.ts';
import { scannedPdf } from '../fixtures/pdfSamples.ts';

describe('image headers', () => {
  it('reads the size a JPEG, JPEG 2000 and JBIG2 header declares, and nothing from other bytes', () => {
    expect(jpegSize(jpegHeader(40000, 30000))).toMatchObject({ widthPx: 40000, heightPx: 30000 });
    expect(jpxSize(jpxHeader(1234, 5678))).toMatchObject({ widthPx: 1234, heightPx: 5678 });
    expect(jbig2Size(jbig2Header(2480, 3508))).toMatchObject({ widthPx: 2480, heightPx: 3508 });
    for (const read of [jpegSize, jpxSize]) expect(read(Buffer.from('not an image at all'))).toBeUndefined();
  });

  it('finds every kind of oversized image, and passes a real scan', async () => {
    for (const bomb of imageBombs()) expect(await oversizedImage(bomb.pdf, 100_000_000), bomb.name).toMatch(/40000 x 40000 pixels/);
    for (const bomb of imageBombs(100)) expect(await oversizedImage(bomb.pdf, 100_000_000), bomb.name).toBeUndefined();
    expect(await oversizedImage(await scannedPdf('Invoice 42'), 100_000_000)).toBeUndefined();
    expect(await oversizedImage(await scannedPdf('Invoice 42'), 1000)).toMatch(/FOLIO_MAX_IMAGE_PIXELS/);
  });
});

describe('render size', () => {
  it('keeps the thumbnail of a page a point wide and 200 inches tall within the image bounds', async () => {
    const doc = await PDFDocument.create();
    doc.addPage([1, 14400]);
    const [page] = await (async () => {
      const out = [];
      for await (const p of renderPages(await doc.save())) out.push(p);
      return out;
    })();
    expect(page.thumbnail!.heightPx).toBeLessThanOrEqual(2000);
    expect(page.image!.heightPx).toBeLessThanOrEqual(2000);
  });
});
