// The pixel limit (FOLIO_MAX_IMAGE_PIXELS) holds for the images inside a PDF too: a PDF of under 1 KB whose
// image declares 40000 × 40000 pixels (by its dictionary, its JPEG, JPEG 2000 or JBIG2 header, or as an inline
// image) is refused at upload with 413 and a message naming the size and the setting, and the server's memory
// does not grow by the gigabytes the declaration asks for.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/testServer.ts';
import { created, upload } from '../helpers/documentFixtures.ts';
import { imageBombs } from '../fixtures/pdfImageBombs.ts';

let s: TestServer;
let project: number;

beforeAll(async () => {
  s = await startTestServer();
  project = (await s.admin.post('/api/v3/projects/', { name: 'Image bombs' })).body.id;
});
afterAll(() => s.close());

describe('images inside PDFs', () => {
  it.each(imageBombs().map((b) => [b.name, b.pdf] as const))('refuses %s, whose image declares 40000 x 40000 pixels, with 413 and little memory', async (name, pdf) => {
    expect(pdf.length).toBeLessThan(2000);
    const before = process.memoryUsage().rss;
    const r = await upload(s.admin, { project, sync: 'true' }, { name, data: pdf });
    const grown = process.memoryUsage().rss - before;
    expect(r.status, r.text).toBe(413);
    expect(r.body.data_file[0]).toMatch(/image of 40000 x 40000 pixels \(1600 Mpx.*at most 100 Mpx per image \(FOLIO_MAX_IMAGE_PIXELS\)/);
    // Decoding the declared pixels takes 4.8 GB and more; the check reads headers only.
    expect(grown).toBeLessThan(400 * 2 ** 20);
  });

  it('stores nothing for the refused files, and reads the same PDFs with small images', async () => {
    expect((await s.admin.get(`/api/v3/documents/?project=${project}`)).body.count).toBe(0);
    const small = imageBombs(60).find((b) => b.name === 'flate.pdf')!;
    const doc = await created(upload(s.admin, { project, sync: 'true' }, { name: 'small.pdf', data: small.pdf }));
    expect(doc.status_data).toBe(2);
  });
});
