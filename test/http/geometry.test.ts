// A born-digital PDF through processing, then the geometry endpoints of compat.md: character boxes,
// characters in rectangles, search, pages with words, the searchable PDF, and spans that become
// annotations directly.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { startTestServer, type TestServer } from '../helpers/testServer.ts';
import { created, makeTaxonomy, upload, type Taxonomy } from '../helpers/documentFixtures.ts';

let s: TestServer;
let t: Taxonomy;
let doc: any;
const SIZE = 12;
let helvetica: Awaited<ReturnType<PDFDocument['embedFont']>>;

/** Two pages: "Invoice 2024-001" and "Total 1.234,56 EUR" on page 1, "Thank you" on page 2. */
async function makePdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  helvetica = await pdf.embedFont(StandardFonts.Helvetica);
  const p1 = pdf.addPage([595, 842]);
  p1.drawText('Invoice 2024-001', { x: 72, y: 770, size: SIZE, font: helvetica });
  p1.drawText('Total 1.234,56 EUR', { x: 72, y: 700, size: SIZE, font: helvetica });
  const p2 = pdf.addPage([595, 842]);
  p2.drawText('Thank you', { x: 100, y: 400, size: SIZE, font: helvetica });
  return pdf.save();
}

beforeAll(async () => {
  s = await startTestServer();
  t = await makeTaxonomy(s.admin, 'Geometry');
  const bytes = await makePdf();
  doc = await created(upload(s.admin, { project: t.project, category: t.category, sync: 'true' }, { name: 'invoice.pdf', data: bytes }));
});
afterAll(() => s.close());

describe('processing a born-digital PDF', () => {
  it('answers a sync upload with the processed document: text with a form feed between pages', async () => {
    expect(doc.status).toEqual([2, 'Done']);
    expect(doc.number_of_pages).toBe(2);
    const detail = (await s.admin.get(`/api/v3/documents/${doc.id}/`)).body;
    expect(detail.text.split('\f')).toHaveLength(2);
    expect(detail.text).toContain('Invoice 2024-001');
    expect(detail.text.split('\f')[1].trim()).toBe('Thank you');
    expect(detail.labeling_available).toBe(1);
    expect(detail.processing_time).toBeGreaterThan(0);
  });

  it('serves the searchable PDF (the upload itself, as its pages carry text)', async () => {
    const r = await fetch(`${s.url}/doc/show/${doc.id}/`, { headers: { Authorization: `Token ${s.admin.token}` } });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/pdf');
    expect(Buffer.from(await r.arrayBuffer()).subarray(0, 5).toString()).toBe('%PDF-');
    expect((await s.anonymous().get(`/doc/show/${doc.id}/`)).status).toBe(401);
  });
});

describe('character boxes', () => {
  it('GET bbox keys every non-space character by offset, in PDF points with top/bottom', async () => {
    const detail = (await s.admin.get(`/api/v3/documents/${doc.id}/`)).body;
    const r = await s.admin.get(`/api/v3/documents/${doc.id}/bbox`);
    expect(r.status).toBe(200);
    const bbox = r.body.bbox;
    const offset = detail.text.indexOf('Invoice');
    const I = bbox[String(offset)];
    expect(I).toMatchObject({ text: 'I', page_index: 0 });
    expect(I.x0).toBeCloseTo(72, 2);
    expect(I.x1).toBeCloseTo(72 + helvetica.widthOfTextAtSize('I', SIZE), 3);
    expect(I.y1).toBeGreaterThan(770);
    expect(I.top).toBeCloseTo(842 - I.y1, 3);
    expect(I.bottom).toBeCloseTo(842 - I.y0, 3);
    const nonSpace = [...detail.text].filter((c: string) => !/\s/.test(c)).length;
    expect(Object.keys(bbox)).toHaveLength(nonSpace);
    const thank = bbox[String(detail.text.indexOf('Thank'))];
    expect(thank.page_index).toBe(1);
    expect(thank.line_index).toBeGreaterThan(I.line_index);
  });

  it('POST bbox returns the characters fully inside the rectangles, one span per line', async () => {
    // pdf-lib draws without kerning, but its widthOfTextAtSize kerns: add the glyphs one by one.
    const width = [...'Total'].reduce((w, ch) => w + helvetica.widthOfTextAtSize(ch, SIZE), 0);
    const r = await s.admin.post(`/api/v3/documents/${doc.id}/bbox/`, {
      span: [{ page_index: 0, x0: 70, x1: 73 + width, y0: 690, y1: 715 }, { page_index: 1, x0: 90, x1: 200, y0: 390, y1: 420 }],
    });
    expect(r.status).toBe(200);
    expect(r.body.span.map((x: any) => x.offset_string)).toEqual(['Total', 'Thank you']);
    const total = r.body.span[0];
    expect(total.x0).toBeCloseTo(72, 2);
    expect(total.x1).toBeCloseTo(72 + width, 2);
    expect(total.end_offset - total.start_offset).toBe(5);
  });

  it('refuses rectangles of pages the document does not have, and malformed bodies', async () => {
    const far = await s.admin.post(`/api/v3/documents/${doc.id}/bbox/`, { span: [{ page_index: 5, x0: 0, x1: 1, y0: 0, y1: 1 }] });
    expect(far.status).toBe(400);
    expect(far.body['span.0.page_index'][0]).toMatch(/2 page/);
    expect((await s.admin.post(`/api/v3/documents/${doc.id}/bbox/`, { span: [] })).status).toBe(400);
    expect((await s.admin.post(`/api/v3/documents/${doc.id}/bbox/`, { span: [{ page_index: 0, x0: 'a' }] })).status).toBe(400);
  });
});

describe('search and pages', () => {
  it('finds every occurrence, case-insensitive, as spans', async () => {
    const r = await s.admin.post(`/api/v3/documents/${doc.id}/search/`, { q: 'total 1.234,56' });
    expect(r.status).toBe(200);
    expect(r.body.span).toHaveLength(1);
    expect(r.body.span[0].offset_string).toBe('Total 1.234,56');
    expect(r.body.hits).toEqual([r.body.span]);
    expect((await s.admin.post(`/api/v3/documents/${doc.id}/search/`, { q: 'nowhere' })).body.span).toEqual([]);
    expect((await s.admin.post(`/api/v3/documents/${doc.id}/search/`, { q: ' ' })).status).toBe(400);
  });

  it('finds a text over two lines as one hit, a span per line (hits groups span by occurrence)', async () => {
    const r = await s.admin.post(`/api/v3/documents/${doc.id}/search/`, { q: '2024-001 total' });
    expect(r.status).toBe(200);
    expect(r.body.hits.map((h: any[]) => h.map((x) => x.offset_string))).toEqual([['2024-001', 'Total']]);
    expect(r.body.span).toEqual(r.body.hits.flat());
  });

  it('lists pages and shows a page with its words (1-based number)', async () => {
    const list = await s.admin.get(`/api/v3/documents/${doc.id}/pages/`);
    expect(list.body.count).toBe(2);
    expect(list.body.results[0]).toMatchObject({ number: 1, original_size: [595, 842], rotation: 0, ocr: false });
    const page = await s.admin.get(`/api/v3/documents/${doc.id}/pages/2/`);
    expect(page.status).toBe(200);
    expect(page.body.entities.map((w: any) => w.offset_string)).toEqual(['Thank', 'you']);
    expect((await s.admin.get(`/api/v3/documents/${doc.id}/pages/3/`)).status).toBe(404);
    expect((await s.anonymous().get(`/api/v3/documents/${doc.id}/pages/1/`)).status).toBe(401);
  });

  it('turns a search hit into an annotation directly', async () => {
    const hit = (await s.admin.post(`/api/v3/documents/${doc.id}/search/`, { q: '2024-001' })).body.span;
    const a = await s.admin.post(`/api/v3/documents/${doc.id}/annotations/`, { label: t.labels.date, label_set: t.category, span: hit });
    expect(a.status, a.text).toBe(201);
    expect(a.body.offset_string).toBe('2024-001');
  });

  it('keeps other users out of every geometry endpoint (404)', async () => {
    const eve = await s.userClient('eve-geometry@test.local');
    expect((await eve.get(`/api/v3/documents/${doc.id}/bbox/`)).status).toBe(404);
    expect((await eve.post(`/api/v3/documents/${doc.id}/search/`, { q: 'Total' })).status).toBe(404);
    expect((await eve.get(`/api/v3/documents/${doc.id}/pages/1/`)).status).toBe(404);
  });
});

describe('failures', () => {
  it('takes a file that is no PDF it can read, and fails it with the reason (the one failure path of damaged files)', async () => {
    const bad = await upload(s.admin, { project: t.project, sync: 'true' }, { name: 'broken.pdf', data: '%PDF-1.7\nthis is not really a PDF' });
    expect(bad.status, bad.text).toBe(201);
    expect(bad.body.status_data).toBe(111);
    expect(bad.body.status_reason).toMatch(/damaged/);
  });
});
