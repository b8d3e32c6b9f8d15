// Reading again: a scanned page turned in edit mode is read by OCR the way it now stands, a document is
// read again on request, a drawn region is read again at a higher resolution, and a value nobody can
// read is typed. Real OCR on pages drawn with a real font (helpers/ocrPages.ts); every check goes
// through the API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { startTestServer, type Client, type TestServer } from '../helpers/testServer.ts';
import { created, upload } from '../helpers/documentFixtures.ts';
import { drawPage, type DrawnLine } from '../helpers/ocrPages.ts';

/** A till receipt: a narrow page of a few lines of 10 pt text. */
const RECEIPT: DrawnLine[] = [
  { text: 'CORNER MARKET', x: 40, baselineFromTop: 50, size: 12 },
  { text: 'Bread 2.40', x: 30, baselineFromTop: 90, size: 10 },
  { text: 'Cheese 5.95', x: 30, baselineFromTop: 110, size: 10 },
  { text: 'Apples 3.10', x: 30, baselineFromTop: 130, size: 10 },
  { text: 'TOTAL 11.45', x: 30, baselineFromTop: 170, size: 11 },
];
const RECEIPT_SIZE = { widthPt: 230, heightPt: 260 };

async function waitDone(c: Client, id: number): Promise<any> {
  for (let i = 0; i < 600; i++) {
    const d = (await c.get(`/api/v3/documents/${id}/`)).body;
    if (d.status_data === 2 || d.status_data === 111) return d;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`document ${id} did not finish`);
}

/** Words of a page as the pages endpoint serves them. */
async function words(c: Client, id: number, number = 1): Promise<{ offset_string: string; x0: number; x1: number; y0: number; y1: number }[]> {
  const page = (await c.get(`/api/v3/documents/${id}/pages/${number}/`)).body;
  return page.entities;
}

describe('read again', () => {
  let s: TestServer;
  let project: number;

  beforeAll(async () => {
    s = await startTestServer();
    project = (await created(s.admin.post('/api/v3/projects/', { name: 'Receipts', ocr_languages: ['eng'] }))).id;
  });
  afterAll(() => s?.close());

  it('a scanned page turned in edit mode is read again upright: text and boxes match an upright upload', async () => {
    const page = await drawPage(RECEIPT, RECEIPT_SIZE);
    const sideways = await sharp(page.png).rotate(90).png().toBuffer();
    const upright = await created(upload(s.admin, { project, sync: 'true' }, { name: 'upright.png', data: page.png }));
    const turned = await created(upload(s.admin, { project, sync: 'true' }, { name: 'sideways.png', data: sideways }));
    expect(upright.text).toMatch(/TOTAL +11\.45/);
    // Sideways, OCR finds the words but one under the other, not as the receipt's lines.
    expect(turned.text).not.toMatch(/TOTAL +11\.45/);

    const pageId = (await s.admin.get(`/api/v3/documents/${turned.id}/pages/1/`)).body.id;
    const r = await s.admin.post(`/api/v3/documents/${turned.id}/postprocess/`, [{ pages: [{ id: pageId, number: 1, angle: -90 }] }]);
    expect(r.status, r.text).toBe(200);
    const done = await waitDone(s.admin, r.body[0].id);
    expect(done.status_data).toBe(2);
    expect(done.text.trim().split(/\s+/)).toEqual(upright.text.trim().split(/\s+/));

    const readPage = (await s.admin.get(`/api/v3/documents/${done.id}/pages/1/`)).body;
    expect(readPage.ocr).toBe(true);
    expect(readPage.original_size.map(Math.round)).toEqual([230, 260]);
    const expected = await words(s.admin, upright.id);
    const got = await words(s.admin, done.id);
    expect(got.map((w) => w.offset_string)).toEqual(expected.map((w) => w.offset_string));
    got.forEach((w, i) => {
      for (const k of ['x0', 'x1', 'y0', 'y1'] as const) expect(Math.abs(w[k] - expected[i][k]), `${w.offset_string}.${k}`).toBeLessThan(2);
    });

  });
});
