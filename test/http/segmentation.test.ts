// Layout segmentation (spec 2.12) of born-digital PDFs of known structure, processed for real: every drawn
// title, paragraph, list, table and figure comes back with its label and a box where it was drawn.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import { startTestServer, type TestServer } from '../helpers/testServer.ts';
import { created, makeTaxonomy, upload, type Taxonomy } from '../helpers/documentFixtures.ts';

type Label = 'text' | 'title' | 'list' | 'table' | 'figure';
/** PDF points, origin bottom left. */
interface PtBox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}
interface Expected {
  label: Label;
  box: PtBox;
  what: string;
}

const W = 595;
const H = 842;
const BODY = 11;
const LEADING = 14;

const union = (boxes: PtBox[]): PtBox => ({
  x0: Math.min(...boxes.map((b) => b.x0)),
  y0: Math.min(...boxes.map((b) => b.y0)),
  x1: Math.max(...boxes.map((b) => b.x1)),
  y1: Math.max(...boxes.map((b) => b.y1)),
});

/** Draws a line of text and returns its box (pdf.js boxes run from 0.21 em below the baseline to 0.79 above;
 * pdf-lib draws without kerning, so the width is the sum of the glyphs'). */
function line(page: PDFPage, text: string, x: number, y: number, font: PDFFont, size = BODY): PtBox {
  page.drawText(text, { x, y, size, font });
  const width = [...text].reduce((w, ch) => w + font.widthOfTextAtSize(ch, size), 0);
  return { x0: x, y0: y - 0.21 * size, x1: x + width, y1: y + 0.79 * size };
}

function paragraph(page: PDFPage, lines: string[], x: number, y: number, font: PDFFont): PtBox {
  return union(lines.map((t, i) => line(page, t, x, y - i * LEADING, font)));
}

const PARAGRAPH = [
  'Sales grew in every region during the fourth quarter, led by the north where two',
  'new branches opened in October. Costs stayed flat, so the margin improved by three',
  'points compared with the same quarter of the previous year, the best result since',
  'the company started to publish quarterly figures.',
];

/** Page 1: title, two paragraphs, a bulleted list, a table without rules, a figure with a caption and a
 * narrow text column beside it. Page 2: nothing. Page 3: a heading, a numbered list, a ruled table, a drawn
 * image and a paragraph. */
async function makePdf(): Promise<{ bytes: Uint8Array; expected: Expected[][] }> {
  const pdf = await PDFDocument.create();
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const e1: Expected[] = [];
  const p1 = pdf.addPage([W, H]);
  e1.push({ label: 'title', what: 'title', box: line(p1, 'Quarterly Report 2024', 72, 770, bold, 24) });
  e1.push({ label: 'text', what: 'first paragraph', box: paragraph(p1, PARAGRAPH, 72, 730, regular) });
  e1.push({ label: 'text', what: 'second paragraph', box: paragraph(p1, PARAGRAPH.slice(0, 3), 72, 664, regular) });
  const bullets = [
    [600, '•', 'Two new branches in the north'],
    [586, '•', 'A new warehouse that replaces the two old ones and serves'],
    [572, '', 'all shops of the region from January on'],
    [558, '•', 'Lower energy costs'],
  ] as const;
  e1.push({
    label: 'list',
    what: 'bulleted list',
    box: union(bullets.flatMap(([y, b, t]) => [line(p1, t, 86, y, regular), ...(b ? [line(p1, b, 72, y, regular)] : [])])),
  });
  const rows = [['Region', 'Units', 'Revenue'], ['North', '1 204', '96 320.00'], ['South', '987', '78 960.00'], ['West', '1 530', '122 400.00']];
  e1.push({
    label: 'table',
    what: 'table without rules',
    box: union(rows.flatMap((r, i) => r.map((cell, j) => line(p1, cell, [72, 250, 420][j]!, 505 - 20 * i, i === 0 ? bold : regular)))),
  });
  p1.drawRectangle({ x: 72, y: 170, width: 220, height: 230, color: rgb(0.2, 0.4, 0.7) });
  e1.push({ label: 'figure', what: 'filled rectangle', box: { x0: 72, y0: 170, x1: 292, y1: 400 } });
  e1.push({ label: 'text', what: 'caption', box: line(p1, 'Figure 1: revenue by region', 72, 152, regular, 10) });
  const column = ['The figure shows the revenue', 'of each region in thousands', 'of euros, before taxes and', 'after returns. The west grew', 'fastest of all regions.'];
  e1.push({ label: 'text', what: 'text column beside the figure', box: paragraph(p1, column, 330, 390, regular) });

  pdf.addPage([W, H]);

  const e3: Expected[] = [];
  const p3 = pdf.addPage([W, H]);
  e3.push({ label: 'title', what: 'heading', box: line(p3, 'Appendix', 72, 770, bold, 18) });
  e3.push({
    label: 'list',
    what: 'numbered list',
    box: union(['Count the stock', 'Compare it with the books', 'Report the differences'].flatMap((t, i) => [
      line(p3, `${i + 1}.`, 72, 730 - i * LEADING, regular),
      line(p3, t, 90, 730 - i * LEADING, regular),
    ])),
  });
  const lefts = [72, 230, 400];
  const ruled = [['Item', 'Count', 'Booked'], ['Chairs', '40', '42'], ['Tables', '12', '12'], ['Lamps', '25', '24'], ['Desks', '8', '8']];
  const cells = ruled.flatMap((r, i) => r.map((cell, j) => line(p3, cell, lefts[j]!, 640 - 22 * i, i === 0 ? bold : regular)));
  for (let i = 0; i <= ruled.length; i++) {
    p3.drawLine({ start: { x: 66, y: 655 - 22 * i }, end: { x: 520, y: 655 - 22 * i }, thickness: 0.75, color: rgb(0, 0, 0) });
  }
  for (const x of [66, 224, 394, 520]) p3.drawLine({ start: { x, y: 655 }, end: { x, y: 655 - 22 * ruled.length }, thickness: 0.75, color: rgb(0, 0, 0) });
  e3.push({ label: 'table', what: 'ruled table', box: union(cells) });
  e3.push({ label: 'text', what: 'paragraph under the table', box: paragraph(p3, PARAGRAPH.slice(1), 72, 500, regular) });
  const photo = await pdf.embedPng(await photoPng());
  p3.drawImage(photo, { x: 72, y: 150, width: 240, height: 160 });
  e3.push({ label: 'figure', what: 'drawn image', box: { x0: 72, y0: 150, x1: 312, y1: 310 } });

  return { bytes: await pdf.save(), expected: [e1, [], e3] };
}

/** A photo-like image: a colour gradient with a darker disc, no white in it. */
function photoPng(): Promise<Buffer> {
  const w = 240;
  const h = 160;
  const px = Buffer.alloc(w * h * 3);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const disc = (x - 150) ** 2 + (y - 70) ** 2 < 45 ** 2;
      const i = (y * w + x) * 3;
      px[i] = disc ? 120 : 40 + x / 2;
      px[i + 1] = disc ? 30 : 90 + y / 2;
      px[i + 2] = disc ? 40 : 160;
    }
  }
  return sharp(px, { raw: { width: w, height: h, channels: 3 } }).png().toBuffer();
}

interface Element {
  label: Label;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

const iou = (a: Omit<Element, 'label'>, b: Omit<Element, 'label'>) => {
  const inter = Math.max(0, Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0)) * Math.max(0, Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0));
  const area = (r: typeof a) => (r.x1 - r.x0) * (r.y1 - r.y0);
  return inter / (area(a) + area(b) - inter);
};

let s: TestServer;
let t: Taxonomy;
let doc: any;
let expected: Expected[][];
let segmentation: Element[][];
const path = (project: number, document: number) => `/api/projects/${project}/docs/${document}/segmentation/`;

beforeAll(async () => {
  s = await startTestServer();
  t = await makeTaxonomy(s.admin, 'Segmentation');
  const made = await makePdf();
  expected = made.expected;
  doc = await created(upload(s.admin, { project: t.project, category: t.category, sync: 'true' }, { name: 'report.pdf', data: made.bytes }));
  const r = await s.admin.get(path(t.project, doc.id));
  expect(r.status, r.text).toBe(200);
  segmentation = r.body;
});
afterAll(() => s.close());

describe('GET /api/projects/<p>/docs/<d>/segmentation/', () => {
  it('answers one list of elements per page, boxes inside the page image', async () => {
    expect(doc.status).toEqual([2, 'Done']);
    expect(segmentation).toHaveLength(3);
    const pages = (await s.admin.get(`/api/v3/documents/${doc.id}/pages/`)).body.results;
    for (const [i, elements] of segmentation.entries()) {
      const [w, h] = pages[i].size;
      for (const e of elements) {
        expect(Object.keys(e).sort()).toEqual(['label', 'x0', 'x1', 'y0', 'y1']);
        expect(e.x0).toBeGreaterThanOrEqual(0);
        expect(e.y0).toBeGreaterThanOrEqual(0);
        expect(e.x1).toBeLessThanOrEqual(w);
        expect(e.y1).toBeLessThanOrEqual(h);
        expect(e.x0).toBeLessThan(e.x1);
        expect(e.y0).toBeLessThan(e.y1);
      }
      // Reading order: top to bottom.
      const tops = elements.map((e) => e.y0);
      expect(tops).toEqual([...tops].sort((a, b) => a - b));
    }
  });

  it('finds every drawn element with its label where it was drawn (IoU > 0.5 in pixels)', async () => {
    const pages = (await s.admin.get(`/api/v3/documents/${doc.id}/pages/`)).body.results;
    for (const [i, wanted] of expected.entries()) {
      const [w, h] = pages[i].size;
      const sx = w / W;
      const sy = h / H;
      const got = segmentation[i]!;
      for (const e of wanted) {
        const px = { x0: e.box.x0 * sx, x1: e.box.x1 * sx, y0: (H - e.box.y1) * sy, y1: (H - e.box.y0) * sy };
        const best = got.filter((g) => g.label === e.label).reduce((m, g) => Math.max(m, iou(g, px)), 0);
        expect(best, `page ${i + 1}: ${e.what} (${e.label}) in ${JSON.stringify(got)}`).toBeGreaterThan(0.5);
      }
      // Nothing else: no stray figure from the table rules, no paragraph split in two.
      expect(got.map((g) => g.label).sort(), `page ${i + 1}`).toEqual(wanted.map((e) => e.label).sort());
    }
  });

  it('gives an empty list for a page with nothing on it', () => {
    expect(segmentation[1]).toEqual([]);
  });

  it('answers the same again (deterministic)', async () => {
    const again = await s.admin.get(path(t.project, doc.id));
    expect(again.body).toEqual(segmentation);
  });
});

describe('access', () => {
  it('needs authentication', async () => {
    expect((await s.anonymous().get(path(t.project, doc.id))).status).toBe(401);
  });

  it("is 404 for another user's project, for a document of another project and for unknown ids", async () => {
    const bob = await s.userClient('bob-segmentation@test.local');
    expect((await bob.get(path(t.project, doc.id))).status).toBe(404);
    const bobsProject = (await created(bob.post('/api/v3/projects/', { name: 'Bob' }))).id;
    expect((await bob.get(path(bobsProject, doc.id))).status).toBe(404);
    const other = (await created(s.admin.post('/api/v3/projects/', { name: 'Other' }))).id;
    const wrong = await s.admin.get(path(other, doc.id));
    expect(wrong.status).toBe(404);
    expect(wrong.body.detail).toBeTruthy();
    expect((await s.admin.get(path(t.project, 999_999))).status).toBe(404);
    expect((await s.admin.get(path(999_999, doc.id))).status).toBe(404);
    expect((await s.admin.get(`/api/projects/${t.project}/docs/abc/segmentation/`)).status).toBe(404);
  });

  it('is described in the OpenAPI document', async () => {
    const api = (await s.admin.get('/api/v3/openapi.json')).body;
    expect(api.paths['/api/projects/{projectId}/docs/{documentId}/segmentation/']?.get).toBeTruthy();
  });
});

describe('a document not processed yet', () => {
  it('answers 200 with an empty list (it has no pages yet)', async () => {
    // With the processor stopped the upload stays queued (last test of the file: nothing else needs it).
    await s.core.processor.stop();
    const queued = await created(upload(s.admin, { project: t.project, category: t.category }));
    expect(queued.status).toEqual([0, 'Queuing for OCR']);
    const r = await s.admin.get(path(t.project, queued.id));
    expect(r.status).toBe(200);
    expect(r.body).toEqual([]);
  });
});
