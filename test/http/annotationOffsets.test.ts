// Annotation spans take their text and offsets from the document (spec 2.10: start_offset, end_offset and
// offset_string_original are read-only): whatever a client sends, a processed document's characters
// inside the rectangle decide; a sent offset_string is a correction. Unprocessed documents keep rectangles.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { startTestServer, type TestServer } from '../helpers/testServer.ts';
import { countQueries, created, makeTaxonomy, upload, type Taxonomy } from '../helpers/documentFixtures.ts';

let s: TestServer;
let t: Taxonomy;
let doc: number;
let text: string;
let bbox: Record<string, { x0: number; x1: number; y0: number; y1: number; page_index: number }>;

async function makePdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const p1 = pdf.addPage([595, 842]);
  p1.drawText('Invoice 2024-001', { x: 72, y: 770, size: 12, font });
  p1.drawText('Total 1.234,56 EUR', { x: 72, y: 750, size: 12, font });
  p1.drawText('Paid 8 days ago', { x: 72, y: 730, size: 12, font });
  pdf.addPage([595, 842]).drawText('Thank you', { x: 100, y: 400, size: 12, font });
  return pdf.save();
}

/** A rectangle drawn a point around the characters of the `nth` occurrence of `word` in the text. */
function around(word: string, nth = 0) {
  let start = -1;
  for (let i = 0; i <= nth; i++) start = text.indexOf(word, start + 1);
  if (start < 0) throw new Error(`"${word}" is not in the document text`);
  const boxes = [...word].map((_, i) => bbox[String(start + i)]).filter(Boolean);
  return {
    page_index: boxes[0].page_index,
    x0: Math.min(...boxes.map((b) => b.x0)) - 1,
    x1: Math.max(...boxes.map((b) => b.x1)) + 1,
    y0: Math.min(...boxes.map((b) => b.y0)) - 1,
    y1: Math.max(...boxes.map((b) => b.y1)) + 1,
    start,
  };
}
const rect = (word: string, extra: Record<string, unknown> = {}) => {
  const { start: _start, ...r } = around(word);
  return { ...r, ...extra };
};

const annotate = (body: Record<string, unknown>, documentId = doc) => s.admin.post(`/api/v3/documents/${documentId}/annotations/`, body);

beforeAll(async () => {
  s = await startTestServer();
  t = await makeTaxonomy(s.admin, 'Offsets');
  doc = (await created(upload(s.admin, { project: t.project, category: t.category, sync: 'true' }, { name: 'offsets.pdf', data: await makePdf() }))).id;
  text = (await s.admin.get(`/api/v3/documents/${doc}/`)).body.text;
  bbox = (await s.admin.get(`/api/v3/documents/${doc}/bbox/`)).body.bbox;
});
afterAll(() => s.close());

describe('a span on a processed document', () => {
  it('sent as a rectangle only gets the text and offsets of the characters inside it', async () => {
    const { start, ...r } = around('2024-001');
    const a = await created(s.admin.post('/api/v3/annotations/', { document: doc, label: t.labels.date, label_set: t.category, span: [r] }));
    expect(a).toMatchObject({ offset_string: '2024-001', offset_string_original: '2024-001', custom_offset_string: false, start_offset: start, end_offset: start + 8 });
    expect(a.span).toEqual([expect.objectContaining({ ...r, offset_string: '2024-001', offset_string_original: '2024-001', start_offset: start, end_offset: start + 8 })]);
    // top and bottom follow from the page height (compat.md "Coordinates").
    expect(a.span[0].top).toBeCloseTo(842 - r.y1, 6);
    expect(a.span[0].bottom).toBeCloseTo(842 - r.y0, 6);
    expect((await s.admin.get(`/api/v3/annotations/${a.id}/`)).body.offset_string).toBe('2024-001');
  });

  it('ignores sent offsets and keeps a sent text as a correction of the found one', async () => {
    const { start, ...r } = around('8');
    const a = await created(annotate({ label: t.labels.total, label_set: t.category, span: [{ ...r, start_offset: 0, end_offset: 3, offset_string: 'lie' }] }));
    expect(a).toMatchObject({ offset_string: 'lie', offset_string_original: '8', custom_offset_string: true, start_offset: start, end_offset: start + 1 });
    expect(a.span[0]).toMatchObject({ offset_string: 'lie', offset_string_original: '8', start_offset: start, end_offset: start + 1 });
    // Sending back the found text undoes the correction; the offsets stay the document's.
    const undone = (await s.admin.patch(`/api/v3/annotations/${a.id}/`, { span: [{ ...r, offset_string: '8', start_offset: 40, end_offset: 41 }] })).body;
    expect(undone).toMatchObject({ offset_string: '8', offset_string_original: '8', custom_offset_string: false, start_offset: start, end_offset: start + 1 });
    await s.admin.delete(`/api/v3/annotations/${a.id}/`);
  });

  it('derives the text again when PATCH or PUT moves the span, keeping a correction of a place it already had', async () => {
    const a = await created(annotate({ label: t.labels.item, label_set: t.items, span: [rect('Total', { offset_string: 'Totall' })] }));
    expect(a).toMatchObject({ offset_string: 'Totall', offset_string_original: 'Total', custom_offset_string: true });
    const moved = await s.admin.patch(`/api/v3/annotations/${a.id}/`, { span: [rect('EUR')] });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body).toMatchObject({ offset_string: 'EUR', offset_string_original: 'EUR', custom_offset_string: false, start_offset: text.indexOf('EUR') });
    const corrected = (await s.admin.patch(`/api/v3/annotations/${a.id}/`, { span: [rect('EUR', { offset_string: 'Euro' })] })).body;
    // Sent back without text (a client re-sending every span), the place keeps its correction.
    const replaced = await s.admin.put(`/api/v3/annotations/${a.id}/`, { document: doc, label: t.labels.item, annotation_set: corrected.annotation_set, span: [rect('EUR'), rect('Paid')] });
    expect(replaced.status, replaced.text).toBe(200);
    expect(replaced.body.span.map((x: any) => [x.offset_string, x.offset_string_original])).toEqual([['Euro', 'EUR'], ['Paid', 'Paid']]);
    expect(replaced.body).toMatchObject({ offset_string: 'Euro Paid', custom_offset_string: true, start_offset: text.indexOf('EUR'), end_offset: text.indexOf('Paid') + 4 });
  });

  it('splits a rectangle over two lines into one span per line (a span never crosses a line break)', async () => {
    const first = around('Invoice');
    const second = around('Total');
    const r = { page_index: 0, x0: first.x0, x1: Math.max(first.x1, second.x1), y0: second.y0, y1: first.y1 };
    const a = await created(annotate({ label: t.labels.item, label_set: t.items, span: [r] }));
    // The rectangle ends right of "Invoice", so it also holds the "1" of "1.234,56".
    // The same characters as POST bbox finds in the rectangle, line by line, with their lines' boxes.
    const found = (await s.admin.post(`/api/v3/documents/${doc}/bbox/`, { span: [r] })).body.span;
    expect(found.map((x: any) => x.offset_string)).toEqual(['Invoice', 'Total 1']);
    const keys = ['page_index', 'x0', 'x1', 'y0', 'y1', 'offset_string', 'offset_string_original', 'start_offset', 'end_offset'];
    const pick = (x: any) => Object.fromEntries(keys.map((k) => [k, x[k]]));
    expect(a.span.map(pick)).toEqual(found.map(pick));
    expect(a.span[0].start_offset).toBe(first.start);
    expect(a).toMatchObject({ offset_string: 'Invoice Total 1', start_offset: first.start, end_offset: second.start + 7, custom_offset_string: false });
    const corrected = await annotate({ label: t.labels.amount, label_set: t.items, span: [{ ...r, offset_string: 'Invoice Totals 1' }] });
    expect(corrected.status).toBe(400);
    expect(corrected.body['span.0.offset_string'][0]).toMatch(/2 lines/);
  });

  it('answers 400 on the span when no text lies inside its rectangle', async () => {
    const r = await annotate({ label: t.labels.date, label_set: t.category, span: [rect('Thank'), { page_index: 0, x0: 300, x1: 400, y0: 100, y1: 200, offset_string: 'x' }] });
    expect(r.status).toBe(400);
    expect(Object.keys(r.body)).toEqual(['span.1']);
    expect(r.body['span.1'][0]).toMatch(/No text lies inside this rectangle on page 1/);
    const onPageTwo = await s.admin.post('/api/v3/annotations/', { document: doc, label: t.labels.date, label_set: t.category, span: [{ page_index: 1, x0: 10, x1: 20, y0: 10, y1: 20 }] });
    expect(onPageTwo.status).toBe(400);
    expect(onPageTwo.body['span.0'][0]).toMatch(/on page 2/);
  });

  it('refuses the same characters twice with one label, whatever rectangles enclose them', async () => {
    const a = await created(annotate({ label: t.labels.total, label_set: t.category, span: [rect('1.234,56')] }));
    const wider = { ...rect('1.234,56'), x0: rect('1.234,56').x0 - 2 };
    const again = await annotate({ label: t.labels.total, annotation_set: a.annotation_set, span: [wider] });
    expect(again.status).toBe(400);
    expect(again.body.non_field_errors[0]).toMatch(/already labelled "Total"/);
  });

  it('reads the characters once per request, whatever the number of spans', async () => {
    const words = ['Invoice', 'Total', 'Paid', 'days', 'ago'];
    // The store's query counter sees every caller: stop the job runners' polling so it counts the requests only.
    await s.core.processor.stop();
    await s.core.training.stop();
    const one = await countQueries(s.core.store, () => created(annotate({ label: t.labels.item, label_set: t.items, span: [rect('Thank')] })));
    const five = await countQueries(s.core.store, () => created(annotate({ label: t.labels.amount, label_set: t.items, span: words.map((w) => rect(w)) })));
    expect(five).toBe(one);
  });
});

describe('a span on a document not processed yet', () => {
  it('is accepted as sent, with null offsets', async () => {
    // With the processor stopped the upload stays queued (last test of the file).
    await s.core.processor.stop();
    const queued = await created(upload(s.admin, { project: t.project, category: t.category }));
    expect(queued.status).toEqual([0, 'Queuing for OCR']);
    const r = { page_index: 0, x0: 10, x1: 50, y0: 700, y1: 712 };
    const a = await created(annotate({ label: t.labels.date, label_set: t.category, span: [{ ...r, offset_string: '01.02.2024', start_offset: 3, end_offset: 13 }] }, queued.id));
    expect(a).toMatchObject({ offset_string: '01.02.2024', offset_string_original: '01.02.2024', custom_offset_string: false, start_offset: null, end_offset: null });
    expect(a.span[0]).toMatchObject({ ...r, start_offset: null, end_offset: null });
  });
});
