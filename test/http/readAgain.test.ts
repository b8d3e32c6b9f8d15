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

    // Turned upright in edit mode. Where processing turns sideways scans upright itself (orientation
    // detection), the page is already upright: turning it upside down must then be read again too.
    const stored = (await s.admin.get(`/api/v3/documents/${turned.id}/pages/1/`)).body;
    const angle = stored.original_size[0] > stored.original_size[1] ? -90 : 180;
    const r = await s.admin.post(`/api/v3/documents/${turned.id}/postprocess/`, [{ pages: [{ id: stored.id, number: 1, angle }] }]);
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

  /** A receipt with labels to annotate it with; `turn`: uploaded turned clockwise by that many degrees. */
  async function labelled(turn = 0): Promise<{ doc: any; label: number; labelSet: number }> {
    const category = await created(s.admin.post('/api/v3/categories/', { name: `Till ${Math.random()}`, project }));
    const label = await created(s.admin.post('/api/v3/labels/', { name: `Amount ${Math.random()}`, project, data_type: 'Text' }));
    await s.admin.patch(`/api/v3/label-sets/${category.id}/`, { labels: [label.id] });
    const page = await drawPage(RECEIPT, RECEIPT_SIZE);
    const png = turn ? await sharp(page.png).rotate(turn).png().toBuffer() : page.png;
    const doc = await created(upload(s.admin, { project, category: category.id, sync: 'true' }, { name: 'receipt.png', data: png }));
    expect(doc.status_data).toBe(2);
    return { doc, label: label.id, labelSet: category.id };
  }

  /** Every annotation's spans point at their text: the consistency a text change must keep. */
  async function expectOffsetsConsistent(id: number): Promise<any[]> {
    const doc = (await s.admin.get(`/api/v3/documents/${id}/`)).body;
    const annotations = (await s.admin.get(`/api/v3/documents/${id}/annotations/`)).body.results;
    const points = Array.from(doc.text as string);
    for (const a of annotations) {
      for (const sp of a.span) {
        if (sp.start_offset === null) continue;
        expect(points.slice(sp.start_offset, sp.end_offset).join(''), `annotation ${a.id}`).toBe(sp.offset_string_original);
      }
      if (a.start_offset !== null && !a.custom_offset_string && a.span.length === 1) expect(points.slice(a.start_offset, a.end_offset).join('')).toBe(a.offset_string);
    }
    return annotations;
  }

  /** The box of the words of one line in the document text. */
  async function lineBox(id: number, needle: string): Promise<{ x0: number; x1: number; y0: number; y1: number }> {
    const ws = (await words(s.admin, id)).filter((w) => needle.split(' ').includes(w.offset_string));
    expect(ws.length, needle).toBe(needle.split(' ').length);
    return { x0: Math.min(...ws.map((w) => w.x0)), x1: Math.max(...ws.map((w) => w.x1)), y0: Math.min(...ws.map((w) => w.y0)), y1: Math.max(...ws.map((w) => w.y1)) };
  }

  it('reads a region again: its text becomes an annotation and every offset stays consistent', async () => {
    const { doc, label, labelSet } = await labelled();
    const total = await lineBox(doc.id, 'TOTAL 11.45');
    const bread = await lineBox(doc.id, 'Bread 2.40');
    for (const box of [total, bread]) {
      const r = await s.admin.post(`/api/v3/documents/${doc.id}/annotations/`, { label, label_set: labelSet, span: [{ page_index: 0, ...box }] });
      expect(r.status, r.text).toBe(201);
    }
    const cheese = await lineBox(doc.id, 'Cheese 5.95');
    const region = { page_index: 0, x0: cheese.x0 - 4, x1: cheese.x1 + 4, y0: cheese.y0 - 3, y1: cheese.y1 + 3 };
    const r = await s.admin.post(`/api/v3/documents/${doc.id}/read-region/`, { ...region, label, label_set: labelSet });
    expect(r.status, r.text).toBe(200);
    expect(r.body.found).toBe(true);
    expect(r.body.dpi).toBeGreaterThanOrEqual(300);
    expect(r.body.text).toMatch(/Cheese\s+5\.95/);
    expect(r.body.annotation.offset_string).toMatch(/Cheese\s+5\.95/);
    expect(r.body.annotation.is_typed).toBe(false);
    const annotations = await expectOffsetsConsistent(doc.id);
    expect(annotations.map((a: any) => a.offset_string.replace(/\s+/g, ' ')).sort()).toEqual(['Bread 2.40', 'Cheese 5.95', 'TOTAL 11.45']);
    const after = (await s.admin.get(`/api/v3/documents/${doc.id}/`)).body.text;
    expect(after.split('\n').map((l: string) => l.trim().replace(/\s+/g, ' '))).toEqual(['CORNER MARKET', 'Bread 2.40', 'Cheese 5.95', 'Apples 3.10', 'TOTAL 11.45']);
  });

  it('a dry run reads the region and writes nothing: the text as a real read finds it, the document text unchanged', async () => {
    const { doc, label, labelSet } = await labelled();
    const cheese = await lineBox(doc.id, 'Cheese 5.95');
    const region = { page_index: 0, x0: cheese.x0 - 4, x1: cheese.x1 + 4, y0: cheese.y0 - 3, y1: cheese.y1 + 3 };
    const before = (await s.admin.get(`/api/v3/documents/${doc.id}/`)).body;
    const dry = await s.admin.post(`/api/v3/documents/${doc.id}/read-region/`, { ...region, dry_run: true });
    expect(dry.status, dry.text).toBe(200);
    expect(dry.body).toMatchObject({ found: true, span: [], annotation: null });
    expect(dry.body.text).toMatch(/Cheese\s+5\.95/);
    const after = (await s.admin.get(`/api/v3/documents/${doc.id}/`)).body;
    expect(after.text).toBe(before.text);
    expect(after.updated_at).toBe(before.updated_at);
    // What the dry run said is what the real read then stores.
    const real = await s.admin.post(`/api/v3/documents/${doc.id}/read-region/`, { ...region, label, label_set: labelSet });
    expect(real.body.text).toBe(dry.body.text);
    const refused = await s.admin.post(`/api/v3/documents/${doc.id}/read-region/`, { ...region, label, label_set: labelSet, dry_run: true });
    expect(refused.status).toBe(400);
    expect(refused.body.label[0]).toMatch(/dry run makes no annotation/);
    expect((await s.admin.post(`/api/v3/documents/${doc.id}/read-region/`, { ...region, dry_run: 'yes' })).body.dry_run[0]).toMatch(/true or false/);
  });

  it('a region with nothing to read answers found: false and changes nothing; the typed value is stored as typed', async () => {
    const { doc, label, labelSet } = await labelled();
    const empty = { page_index: 0, x0: 150, x1: 220, y0: 10, y1: 40 };
    const r = await s.admin.post(`/api/v3/documents/${doc.id}/read-region/`, { ...empty, label, label_set: labelSet });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ found: false, text: '', annotation: null });
    expect((await s.admin.get(`/api/v3/documents/${doc.id}/`)).body.text).toBe(doc.text);

    // Without typing there is nothing to store; with it, the box and the text, no offsets.
    const untyped = await s.admin.post(`/api/v3/documents/${doc.id}/annotations/`, { label, label_set: labelSet, is_typed: true, span: [empty] });
    expect(untyped.status).toBe(400);
    expect(untyped.body['span.0.offset_string'][0]).toMatch(/Type the value/);
    const typed = await s.admin.post(`/api/v3/documents/${doc.id}/annotations/`, { label, label_set: labelSet, is_typed: true, span: [{ ...empty, offset_string: 'Cashier 7' }] });
    expect(typed.status, typed.text).toBe(201);
    expect(typed.body).toMatchObject({ is_typed: true, offset_string: 'Cashier 7', start_offset: null, end_offset: null, origin: 'human' });
    expect(typed.body.span[0]).toMatchObject({ x0: 150, x1: 220, start_offset: null, offset_string: 'Cashier 7' });
    expect((await s.admin.get(`/api/v3/documents/${doc.id}/`)).body.text).toBe(doc.text);
    await expectOffsetsConsistent(doc.id);
  });

  it('refuses bad regions and strangers with clear errors', async () => {
    const { doc } = await labelled();
    const post = (body: unknown, c: Client = s.admin) => c.post(`/api/v3/documents/${doc.id}/read-region/`, body);
    expect((await post({ page_index: 1, x0: 0, x1: 10, y0: 0, y1: 10 })).body.page_index[0]).toMatch(/has 1 page/);
    expect((await post({ page_index: 0, x0: 10, x1: 5, y0: 0, y1: 10 })).body.x1[0]).toMatch(/greater than x0/);
    expect((await post({ page_index: 0, x0: 500, x1: 600, y0: 0, y1: 10 })).body.non_field_errors[0]).toMatch(/must lie on page 1/);
    expect((await post({ page_index: 0, x0: 0, x1: 10, y0: 0, y1: 10, ocr_languages: ['Klingon'] })).body.ocr_languages[0]).toMatch(/Klingon/);
    expect((await post({ page_index: 0 })).status).toBe(400);
    const stranger = await s.userClient(`stranger-region-${Math.random()}@test.local`);
    expect((await post({ page_index: 0, x0: 0, x1: 10, y0: 0, y1: 10 }, stranger)).status).toBe(404);
  });

  it('reads a whole document again as a job: status goes through processing and back; annotations keep their boxes', async () => {
    const { doc, label, labelSet } = await labelled();
    const total = await lineBox(doc.id, 'TOTAL 11.45');
    const made = await s.admin.post(`/api/v3/documents/${doc.id}/annotations/`, { label, label_set: labelSet, span: [{ page_index: 0, ...total }] });
    expect(made.status, made.text).toBe(201);

    expect((await s.admin.post(`/api/v3/documents/${doc.id}/read-again/`, { ocr_languages: ['Klingon'] })).body.ocr_languages[0]).toMatch(/Klingon/);
    expect((await s.admin.post(`/api/v3/documents/${doc.id}/read-again/`, { ocr_languages: 'eng' })).status).toBe(400);
    const stranger = await s.userClient(`stranger-again-${Math.random()}@test.local`);
    expect((await stranger.post(`/api/v3/documents/${doc.id}/read-again/`, {})).status).toBe(404);
    expect((await s.admin.post(`/api/v3/documents/999999/read-again/`, {})).status).toBe(404);

    const r = await s.admin.post(`/api/v3/documents/${doc.id}/read-again/`, { ocr_languages: ['English'] });
    expect(r.status, r.text).toBe(202);
    expect([0, 10, 2]).toContain(r.body.status_data);
    // A second request while it reads is refused, not queued twice.
    const second = await s.admin.post(`/api/v3/documents/${doc.id}/read-again/`, {});
    if (second.status !== 202) expect(second.body.non_field_errors[0]).toMatch(/cannot be read again while/);
    const done = await waitDone(s.admin, doc.id);
    expect(done.status_data).toBe(2);
    expect(done.status_reason ?? null).toBeNull();
    expect(done.text.trim().split(/\s+/)).toEqual(doc.text.trim().split(/\s+/));
    expect((await s.admin.get(`/api/v3/documents/${doc.id}/pages/1/`)).body.ocr).toBe(true);
    const [a] = await expectOffsetsConsistent(doc.id);
    expect(a.offset_string.replace(/\s+/g, ' ')).toBe('TOTAL 11.45');
    expect(a.span[0]).toMatchObject({ x0: made.body.span[0].x0, x1: made.body.span[0].x1 });
  });

  // Issue 29: after a turn in edit mode OCR reads the page again and may turn it itself (orientation
  // detection). Whatever it decides, the boxes turn exactly as the page's final picture did.
  for (const [name, uploadTurn] of [['an upright upload', 0], ['a sideways upload OCR turned upright', 90]] as const) {
    it(`a reviewed page of ${name} turned right in edit mode keeps every annotation on its words and its review`, async () => {
      const { doc, label, labelSet } = await labelled(uploadTurn);
      const before = (await s.admin.get(`/api/v3/documents/${doc.id}/pages/1/`)).body;
      for (const line of ['CORNER MARKET', 'TOTAL 11.45']) {
        const r = await s.admin.post(`/api/v3/documents/${doc.id}/annotations/`, { label, label_set: labelSet, span: [{ page_index: 0, ...(await lineBox(doc.id, line)) }] });
        expect(r.status, r.text).toBe(201);
      }
      expect((await s.admin.patch(`/api/v3/documents/${doc.id}/`, { is_reviewed: true })).status).toBe(200);
      const r = await s.admin.post(`/api/v3/documents/${doc.id}/postprocess/`, [{ pages: [{ id: before.id, number: 1, angle: 90 }] }]);
      expect(r.status, r.text).toBe(200);
      const done = await waitDone(s.admin, doc.id);
      expect(done.status_data).toBe(2);
      expect(done.is_reviewed).toBe(true);
      const page = (await s.admin.get(`/api/v3/documents/${doc.id}/pages/1/`)).body;
      const [width, height] = page.original_size;
      const annotations = await expectOffsetsConsistent(doc.id);
      expect(annotations.map((a: any) => a.offset_string.replace(/\s+/g, ' ')).sort()).toEqual(['CORNER MARKET', 'TOTAL 11.45']);
      for (const a of annotations) {
        const [span] = a.span;
        expect(span.start_offset, a.offset_string).not.toBeNull();
        expect(span.x0).toBeGreaterThanOrEqual(-1);
        expect(span.y0).toBeGreaterThanOrEqual(-1);
        expect(span.x1).toBeLessThanOrEqual(width + 1);
        expect(span.y1).toBeLessThanOrEqual(height + 1);
        // On the same words as the page now shows them.
        const words = await lineBox(doc.id, a.offset_string.replace(/\s+/g, ' '));
        for (const k of ['x0', 'x1', 'y0', 'y1'] as const) expect(Math.abs(span[k] - words[k]), `${a.offset_string}.${k}`).toBeLessThan(3);
      }
    });
  }
});
