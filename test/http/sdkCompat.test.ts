// What the service's own Python SDK reads and sends (compat.md), each gap found by running it unchanged
// against Folio: the pages of a document (detail and callback), category schemas, the legacy data type
// spelling, document thumbnails, PUT/PATCH of missing annotations and AI records, label_set_id on
// annotations, and the version 2 document endpoints a v2 client polls.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type Client, type TestServer } from '../helpers/testServer.ts';
import { startReceiver } from '../helpers/callbackReceiver.ts';
import { created, makeTaxonomy, pdfWithText, upload, type Taxonomy } from '../helpers/documentFixtures.ts';

let s: TestServer;
let api: Client;
let t: Taxonomy;
let doc: any;

beforeAll(async () => {
  s = await startTestServer();
  api = s.admin;
  t = await makeTaxonomy(api, 'SDK');
  doc = await created(upload(api, { project: t.project, category: t.category, sync: 'true' }, { name: 'two-pages.pdf', data: await pdfWithText('Invoice 7 Total 3,50') }));
  expect(doc.status_data).toBe(2);
});
afterAll(() => s.close());

describe('document pages', () => {
  it('the detail lists the pages exactly as the page endpoint does, one per page of text', async () => {
    const detail = (await api.get(`/api/v3/documents/${doc.id}/`)).body;
    const listed = (await api.get(`/api/v3/documents/${doc.id}/pages/`)).body.results;
    expect(detail.pages).toHaveLength(detail.text.split('\f').length);
    expect(detail.pages).toEqual(listed);
    expect(detail.pages[0]).toMatchObject({ number: 1, original_size: [595, 842], image_url: `/page/show-image/${listed[0].id}/` });
    expect(detail.pages[0].size[0]).toBeGreaterThan(0);
  });

  it('the thumbnail URL of a document is its first page thumbnail, in the list and the detail, and it serves a PNG', async () => {
    const detail = (await api.get(`/api/v3/documents/${doc.id}/`)).body;
    const item = (await api.get(`/api/v3/documents/?id=${doc.id}`)).body.results[0];
    expect(detail.thumbnail_url).toBe(detail.pages[0].thumbnail_url);
    expect(item.thumbnail_url).toBe(detail.thumbnail_url);
    const png = await api.get(detail.thumbnail_url);
    expect(png.status).toBe(200);
    expect(png.headers.get('content-type')).toBe('image/png');
  });

  it('a document not processed yet has no pages and no thumbnail', async () => {
    const queued = await created(upload(api, { project: t.project }, { name: 'queued.pdf', data: await pdfWithText('queued one') }));
    expect(queued.pages).toEqual([]);
    expect(queued.thumbnail_url).toBeNull();
  });

  it('the completion callback carries the pages too', async () => {
    const receiver = await startReceiver([{ status: 200 }]);
    try {
      const d = await created(upload(api, { project: t.project, callback_url: `${receiver.origin}/done` }, { name: 'cb.pdf', data: await pdfWithText('callback pages') }));
      await vi.waitFor(() => expect(receiver.received).toHaveLength(1), { timeout: 20_000 });
      const body = JSON.parse(receiver.received[0].body);
      expect(body.id).toBe(d.id);
      expect(body.pages.map((p: any) => p.number)).toEqual([1]);
      expect(body.pages[0].image_url).toMatch(/^\/page\/show-image\/\d+\/$/);
    } finally {
      await receiver.close();
    }
  });
});

describe('category schema', () => {
  it('lists the label sets of a category, default first, with their labels, data types and API names', async () => {
    const category = (await api.get(`/api/v3/categories/${t.category}/`)).body;
    expect(category.schema.map((ls: any) => [ls.id, ls.name, ls.api_name, ls.has_multiple_annotation_sets])).toEqual([
      [t.category, 'Invoice', 'Invoice', false],
      [t.items, 'Line items', 'Line_items', true],
    ]);
    expect(category.schema[0].labels).toEqual([
      { id: t.labels.date, name: 'Date', api_name: 'Date', data_type: 'Text', get_data_type_display: 'Text', description: '', has_multiple_top_candidates: false, threshold: expect.any(Number) },
      { id: t.labels.total, name: 'Total', api_name: 'Total', data_type: 'Text', get_data_type_display: 'Text', description: '', has_multiple_top_candidates: false, threshold: expect.any(Number) },
    ]);
    expect(category.schema[1].labels.map((l: any) => l.id)).toEqual([t.labels.item, t.labels.amount]);
    const listed = (await api.get(`/api/v3/categories/?project=${t.project}`)).body.results.find((c: any) => c.id === t.category);
    expect(listed.schema).toEqual(category.schema);
  });

  it('makes identifiers of names with spaces, punctuation and leading digits', async () => {
    const c = await created(api.post('/api/v3/categories/', { project: t.project, name: '2024 Rechnung / Übersicht' }));
    await created(api.post('/api/v3/labels/', { project: t.project, name: 'Net amount (EUR)', label_sets: [c.id] }));
    const schema = (await api.get(`/api/v3/categories/${c.id}/`)).body.schema;
    expect(schema[0].api_name).toBe('_2024_Rechnung_Übersicht');
    expect(schema[0].labels[0].api_name).toBe('Net_amount_EUR');
  });
});

describe('labels: the legacy data type spelling', () => {
  it('takes get_data_type_display on create and update, and data_type wins when both are sent', async () => {
    const l = await created(api.post('/api/v3/labels/', { project: t.project, name: 'Gross', get_data_type_display: 'Positive Number', label_sets: [t.category] }));
    expect(l.data_type).toBe('Positive Number');
    expect((await api.patch(`/api/v3/labels/${l.id}/`, { get_data_type_display: 'Date' })).body.data_type).toBe('Date');
    expect((await api.patch(`/api/v3/labels/${l.id}/`, { data_type: 'Number', get_data_type_display: 'Text' })).body.data_type).toBe('Number');
    const bad = await api.post('/api/v3/labels/', { project: t.project, name: 'Bad', get_data_type_display: 'Currency' });
    expect(bad.status).toBe(400);
    expect(bad.body.get_data_type_display[0]).toMatch(/not a valid choice/);
  });
});

describe('annotations carry label_set_id', () => {
  it('beside label_set, in the list and the document tree', async () => {
    const [line] = (await api.post(`/api/v3/documents/${doc.id}/search/`, { q: 'Invoice' })).body.span;
    const a = await created(api.post('/api/v3/annotations/', { document: doc.id, label: t.labels.date, label_set_id: t.category, span: [line] }));
    expect(a.label_set_id).toBe(t.category);
    expect(a.label_set.id).toBe(t.category);
    const listed = (await api.get(`/api/v3/annotations/?document=${doc.id}`)).body.results;
    expect(listed.map((x: any) => x.label_set_id)).toEqual([t.category]);
    // The SDK builds one span per entry of `bboxes`; without them, one span from the top-level offsets.
    expect(listed[0].bboxes).toEqual(listed[0].span);
  });
});

describe('missing annotations: PUT and PATCH', () => {
  it('move the mark to another label of the same set; the rules of a new mark apply', async () => {
    const m = await created(api.post('/api/v3/missing-annotations/', { document: doc.id, label: t.labels.total, label_set: t.category }));
    const moved = await api.patch(`/api/v3/missing-annotations/${m.id}/`, { label: t.labels.item, label_set: t.items });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body).toMatchObject({ id: m.id, label: t.labels.item, label_set: t.items });
    const tree = (await api.get(`/api/v3/documents/${doc.id}/`)).body.annotation_sets;
    const total = tree.find((s: any) => s.label_set.id === t.category).labels.find((l: any) => l.id === t.labels.total);
    expect(total.status).toBe('Unfilled');

    const put = await api.put(`/api/v3/missing-annotations/${m.id}/`, { document: doc.id, label: t.labels.total, label_set: t.category });
    expect(put.status, put.text).toBe(200);
    expect(put.body).toMatchObject({ id: m.id, label: t.labels.total, label_set: t.category });
  });

  it('refuse a label that is filled there, another document, a PUT without its required fields, and others people\'s marks', async () => {
    const m = await created(api.post('/api/v3/missing-annotations/', { document: doc.id, label: t.labels.amount, label_set: t.items }));
    const filled = await api.patch(`/api/v3/missing-annotations/${m.id}/`, { label: t.labels.date, label_set: t.category });
    expect(filled.status).toBe(400);
    expect(filled.body.label[0]).toMatch(/accepted annotation/);
    const other = await created(upload(api, { project: t.project }, { name: 'other.pdf', data: await pdfWithText('other doc') }));
    const elsewhere = await api.patch(`/api/v3/missing-annotations/${m.id}/`, { document: other.id });
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body.document[0]).toMatch(/stays with its document/);
    const partial = await api.put(`/api/v3/missing-annotations/${m.id}/`, { label: t.labels.item });
    expect(partial.status).toBe(400);
    expect(partial.body.document).toBeDefined();
    const stranger = await s.userClient('stranger-sdk@test.local');
    expect((await stranger.patch(`/api/v3/missing-annotations/${m.id}/`, { label: t.labels.item })).status).toBe(404);
    expect((await api.get(`/api/v3/missing-annotations/${m.id}/`)).body).toMatchObject({ label: t.labels.amount, label_set: t.items });
  });
});

describe('AI records: PUT', () => {
  it('replaces the name and description; a left-out description becomes empty; name is required', async () => {
    expect((await api.patch(`/api/v3/documents/${doc.id}/`, { dataset_status: 2 })).status).toBe(200);
    const ai = await created(api.post('/api/v3/extraction-ais/', { category: t.category, name: 'first', description: 'old words' }));
    const put = await api.put(`/api/v3/extraction-ais/${ai.id}/`, { name: 'renamed' });
    expect(put.status, put.text).toBe(200);
    expect(put.body).toMatchObject({ id: ai.id, name: 'renamed', description: '' });
    const missingName = await api.put(`/api/v3/extraction-ais/${ai.id}/`, { description: 'x' });
    expect(missingName.status).toBe(400);
    expect(missingName.body.name).toBeDefined();
    expect((await api.get(`/api/v3/extraction-ais/${ai.id}/`)).body.name).toBe('renamed');
    expect((await api.put('/api/v3/extraction-ais/999999/', { name: 'x' })).status).toBe(404);
  });
});

describe('version 2 documents', () => {
  it('a v2 client polls the detail and the list, each with category_template', async () => {
    const detail = await api.get(`/api/v2/docs/${doc.id}/`);
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({ id: doc.id, status_data: 2, category: t.category, category_template: t.category });
    expect(detail.body.pages).toHaveLength(1);
    const list = await api.get(`/api/v2/docs/?project=${t.project}&ordering=id`);
    expect(list.status).toBe(200);
    const item = list.body.results.find((d: any) => d.id === doc.id);
    expect(item).toMatchObject({ category_template: t.category, status_data: 2 });
    expect((await api.get('/api/v2/docs/999999/')).status).toBe(404);
    expect((await s.anonymous().get(`/api/v2/docs/${doc.id}/`)).status).toBe(401);
  });
});
