// Annotations, annotation sets, missing annotations and the review workflow through the real server:
// every row of spec 2.8's table, the transitions of 3.2, the review gate of 3.1, the lock of reviewed
// documents, and the invalid conditions of spec 7.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type Client, type TestServer } from '../helpers/testServer.ts';
import { countQueries, created, makeTaxonomy, pdfWithLettersAtSpans, span, SPAN_LETTERS, upload, type Taxonomy } from '../helpers/documentFixtures.ts';
import { sql } from 'kysely';

let s: TestServer;
let api: Client;
let bob: Client;
let t: Taxonomy;
let adminId: number;

beforeAll(async () => {
  s = await startTestServer();
  api = s.admin;
  t = await makeTaxonomy(api, 'Annotations');
  adminId = (await api.get('/api/v3/auth/me/')).body.id;
  bob = await s.userClient('bob-annotations@test.local');
});
afterAll(() => s.close());

/** Processed documents whose text lies where `span(n)` draws: a letter in each rectangle. */
const LETTERS_PDF = await pdfWithLettersAtSpans();
const newDoc = async (fields: Record<string, string | number> = {}) =>
  (await created(upload(api, { project: t.project, category: t.category, sync: 'true', ...fields }, { name: 'invoice.pdf', data: LETTERS_PDF }))).id as number;
const annotate = (doc: number, body: Record<string, unknown>, c: Client = api) => c.post(`/api/v3/documents/${doc}/annotations/`, body);
const detail = async (doc: number) => (await api.get(`/api/v3/documents/${doc}/`)).body;
/** The label's entry in the document tree: [annotation set id, status, annotation ids]. */
const labelIn = async (doc: number, labelId: number, setId?: number | null) => {
  const sets = (await detail(doc)).annotation_sets.filter((x: any) => setId === undefined || x.id === setId);
  const [set, label] = sets.flatMap((x: any) => x.labels.filter((l: any) => l.id === labelId).map((l: any) => [x, l]))[0];
  return { set: set.id, status: label.status as string, missing: label.missing_annotation as number | null, annotations: label.annotations.map((a: any) => a.id) };
};
const setsOf = async (doc: number, labelSet: number) =>
  (await sql<{ id: number }>`select id from annotation_sets where document_id = ${doc} and label_set_id = ${labelSet} order by id`.execute(s.core.store.db)).rows.map((r) => r.id);
const machine = (doc: number, label: number, n: number, extra: { labelSetId?: number; annotationSetId?: number; confidence?: number } = {}) =>
  s.core.uow((r) => s.core.services.annotations.createMachineAnnotation(r, {
    documentId: doc, labelId: label, spans: [span(n, `m${n}`)], confidence: extra.confidence ?? 0.8,
    ...(extra.annotationSetId ? { annotationSetId: extra.annotationSetId } : { labelSetId: extra.labelSetId ?? t.category }),
  }));

describe('annotation set rules (spec 2.8, 7.1, 7.2)', () => {
  it('repeating label set, new set wanted: label_set creates a new annotation set each time', async () => {
    const doc = await newDoc();
    const a = await created(annotate(doc, { label: t.labels.item, label_set: t.items, span: [span(1, 'Pen')] }));
    // The path of the spec has no trailing slash.
    const b = await created(api.post(`/api/v3/documents/${doc}/annotations`, { label: t.labels.item, label_set: t.items, span: [span(2, 'Ink')] }));
    expect(a.annotation_set).not.toBe(b.annotation_set);
    expect(await setsOf(doc, t.items)).toEqual([a.annotation_set, b.annotation_set]);
    expect(a.label_set).toMatchObject({ id: t.items, name: 'Line items', has_multiple_sections: true, has_multiple_annotation_sets: true, is_default: false });
  });

  it('a set of a repeating label set emptied by deletes leaves the tree (and the review), not the store', async () => {
    const doc = await newDoc();
    const a = await created(annotate(doc, { label: t.labels.item, label_set: t.items, span: [span(1, 'Pen')] }));
    const b = await created(annotate(doc, { label: t.labels.item, label_set: t.items, span: [span(2, 'Ink')] }));
    expect((await api.delete(`/api/v3/annotations/${b.id}/`)).status).toBe(204);
    const itemSets = async () => (await detail(doc)).annotation_sets.filter((x: any) => x.label_set.id === t.items).map((x: any) => x.id);
    expect(await itemSets()).toEqual([a.annotation_set]);
    expect(await setsOf(doc, t.items)).toEqual([a.annotation_set, b.annotation_set]);
    // A request naming the emptied set still works, and shows it again.
    const c = await created(annotate(doc, { label: t.labels.item, annotation_set: b.annotation_set, span: [span(3, 'Cap')] }));
    expect(await itemSets()).toEqual([a.annotation_set, b.annotation_set]);
    // With every set emptied, the label set is a potential set again (id null), as before its first annotation.
    for (const id of [a.id, c.id]) expect((await api.delete(`/api/v3/annotations/${id}/`)).status).toBe(204);
    expect(await itemSets()).toEqual([null]);
  });

  it('repeating label set, existing set B: annotation_set re-uses B (id or object)', async () => {
    const doc = await newDoc();
    const a = await created(annotate(doc, { label: t.labels.item, label_set: t.items, span: [span(1, 'Pen')] }));
    const b = await created(annotate(doc, { label: t.labels.amount, annotation_set: a.annotation_set, span: [span(2, '3.50')] }));
    const c = await created(annotate(doc, { label: { id: t.labels.amount, name: 'Amount' }, annotation_set: { id: a.annotation_set }, span: [span(3, '4.00')] }));
    expect([b.annotation_set, c.annotation_set]).toEqual([a.annotation_set, a.annotation_set]);
    expect(await setsOf(doc, t.items)).toEqual([a.annotation_set]);
  });

  it('non-repeating label set with its set B: annotation_set=B re-uses it', async () => {
    const doc = await newDoc();
    const a = await created(annotate(doc, { label: t.labels.date, label_set: t.category, span: [span(1, '1.1.2024')] }));
    const b = await created(annotate(doc, { label: t.labels.total, annotation_set: a.annotation_set, span: [span(2, '10')] }));
    expect(b.annotation_set).toBe(a.annotation_set);
  });

  it('non-repeating label set with its set B: label_set re-uses B, never a second set (7.2)', async () => {
    const doc = await newDoc();
    const a = await created(annotate(doc, { label: t.labels.date, label_set: t.category, span: [span(1, '1.1.2024')] }));
    const b = await created(annotate(doc, { label: t.labels.total, label_set: t.category, span: [span(2, '10')] }));
    const c = await created(annotate(doc, { label: t.labels.total, label_set_id: t.category, span: [span(3, '11')] }));
    expect([b.annotation_set, c.annotation_set]).toEqual([a.annotation_set, a.annotation_set]);
    expect(await setsOf(doc, t.category)).toEqual([a.annotation_set]);
  });

  it('non-repeating label set without a set: label_set creates it, and the potential set becomes real', async () => {
    const doc = await newDoc();
    const before = await detail(doc);
    expect(before.annotation_sets.map((x: any) => x.id)).toEqual([null, null]);
    const a = await created(annotate(doc, { label: t.labels.date, label_set_id: t.category, span: [span(1, '1.1.2024')] }));
    expect(await setsOf(doc, t.category)).toEqual([a.annotation_set]);
    const after = await detail(doc);
    expect(after.annotation_sets.map((x: any) => [x.id, x.label_set.id])).toEqual([[a.annotation_set, t.category], [null, t.items]]);
  });

  it('refuses a request with neither annotation_set nor label_set (7.1)', async () => {
    const doc = await newDoc();
    const r = await annotate(doc, { label: t.labels.date, span: [span(1, 'x')] });
    expect(r.status).toBe(400);
    expect(r.body.annotation_set[0]).toMatch(/annotation_set.*label_set/);
    expect(await setsOf(doc, t.category)).toEqual([]);
  });

  it('refuses an annotation set of another document, and a label outside the set\'s label set', async () => {
    const doc = await newDoc();
    const other = await newDoc();
    const a = await created(annotate(other, { label: t.labels.date, label_set: t.category, span: [span(1, 'x')] }));
    const foreignSet = await annotate(doc, { label: t.labels.total, annotation_set: a.annotation_set, span: [span(2, 'y')] });
    expect(foreignSet.status).toBe(400);
    expect(foreignSet.body.annotation_set[0]).toMatch(/not an annotation set of document/);
    const wrongLabel = await annotate(other, { label: t.labels.item, annotation_set: a.annotation_set, span: [span(3, 'z')] });
    expect(wrongLabel.status).toBe(400);
    expect(wrongLabel.body.label[0]).toMatch(/not in label set "Invoice"/);
    const mismatch = await annotate(other, { label: t.labels.total, annotation_set: a.annotation_set, label_set: t.items, span: [span(4, 'z')] });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.label_set).toBeDefined();
  });

  it('refuses label sets and labels that are not of the document\'s category or project', async () => {
    const doc = await newDoc();
    const receipt = (await created(api.post('/api/v3/categories/', { project: t.project, name: 'Receipt' }))).id;
    const shop = (await created(api.post('/api/v3/labels/', { project: t.project, name: 'Shop', label_sets: [receipt] }))).id;
    const otherCategory = await annotate(doc, { label: shop, label_set: receipt, span: [span(1, 'x')] });
    expect(otherCategory.status).toBe(400);
    expect(otherCategory.body.label_set[0]).toMatch(/not a label set of the document's category/);

    const elsewhere = await makeTaxonomy(api, 'Elsewhere');
    const otherProjectSet = await annotate(doc, { label: t.labels.date, label_set: elsewhere.category, span: [span(1, 'x')] });
    expect(otherProjectSet.status).toBe(400);
    expect(otherProjectSet.body.label_set).toEqual([`Invalid pk "${elsewhere.category}" - object does not exist.`]);
    const otherProjectLabel = await annotate(doc, { label: elsewhere.labels.date, label_set: t.category, span: [span(1, 'x')] });
    expect(otherProjectLabel.status).toBe(400);
    expect(otherProjectLabel.body.label).toEqual([`Invalid pk "${elsewhere.labels.date}" - object does not exist.`]);
    const unknown = await annotate(doc, { label: 99999, label_set: t.category, span: [span(1, 'x')] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.label[0]).toMatch(/Invalid pk/);
    const unknownSet = await annotate(doc, { label: t.labels.date, label_set: 99999, span: [span(1, 'x')] });
    expect(unknownSet.status).toBe(400);
    expect(unknownSet.body.label_set[0]).toMatch(/Invalid pk/);
  });

  it('POST /annotations/ takes the document from the body: another user\'s document is a 400 there, a 404 in the path', async () => {
    const doc = await newDoc();
    const viaBody = await created(api.post('/api/v3/annotations/', { document: doc, label: t.labels.date, label_set: t.category, span: [span(1, 'x')] }));
    expect(viaBody.document).toBe(doc);
    const noDoc = await api.post('/api/v3/annotations/', { label: t.labels.date, label_set: t.category, span: [span(2, 'x')] });
    expect(noDoc.status).toBe(400);
    expect(noDoc.body.document).toEqual(['This field is required.']);
    const foreign = await bob.post('/api/v3/annotations/', { document: doc, label: t.labels.date, label_set: t.category, span: [span(3, 'x')] });
    expect(foreign.status).toBe(400);
    expect(foreign.body.document[0]).toMatch(/Invalid pk/);
    expect((await annotate(doc, { label: t.labels.date, label_set: t.category, span: [span(3, 'x')] }, bob)).status).toBe(404);
    expect((await annotate(99999, { label: t.labels.date, label_set: t.category, span: [span(3, 'x')] })).status).toBe(404);
  });

  it('refuses wrong types and malformed bodies with 400, never 500', async () => {
    const doc = await newDoc();
    const ok = { label: t.labels.date, label_set: t.category, span: [span(1, 'x')] };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...ok, label: 'abc' }, 'label'],
      [{ ...ok, span: 'here' }, 'span'],
      [{ ...ok, span: [] }, 'span'],
      [{ ...ok, span: [{ ...span(1), x1: 1 }] }, 'span.0.x1'],
      [{ ...ok, span: [{ x0: 1, x1: 2, y0: 1, y1: 2 }] }, 'span.0.page_index'],
      [{ ...ok, span: [{ ...span(1), page_index: -1 }] }, 'span.0.page_index'],
      [{ ...ok, is_correct: 'maybe' }, 'is_correct'],
      [{ ...ok, confidence: 2 }, 'confidence'],
      [{ ...ok, annotation_set: 'B' }, 'annotation_set'],
    ];
    for (const [body, field] of cases) {
      const r = await annotate(doc, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body[field], `${field} in ${r.text}`).toBeDefined();
    }
    // Once the pages are known (processing sets number_of_pages), a span must lie on one of them.
    await sql`update documents set number_of_pages = 2 where id = ${doc}`.execute(s.core.store.db);
    const offPage = await annotate(doc, { ...ok, span: [span(1, 'x'), { ...span(2, 'y'), page_index: 2 }] });
    expect(offPage.status).toBe(400);
    expect(offPage.body['span.1.page_index'][0]).toMatch(/has 2 pages/);
    const badJson = await api.request('POST', `/api/v3/documents/${doc}/annotations/`, { raw: { data: '{"label": ', contentType: 'application/json' } });
    expect(badJson.status).toBe(400);
    expect((await api.post('/api/v3/annotations/', [1, 2])).status).toBe(400);
    expect(await setsOf(doc, t.category)).toEqual([]);
  });
});

describe('spans and duplicates', () => {
  it('stores each span with the text, offsets and top/bottom of its place in the document; sent offsets are ignored', async () => {
    const doc = await newDoc();
    const text: string = (await detail(doc)).text;
    const at = (n: number) => text.indexOf(SPAN_LETTERS[n - 1]);
    const a = await created(annotate(doc, {
      label: t.labels.total, label_set: t.category,
      span: [span(1, undefined, { top: 80, bottom: 92, start_offset: 10, end_offset: 15 }), span(2, '100,00', { start_offset: 20, end_offset: 26 })],
    }));
    expect(a.span[0]).toMatchObject({ offset_string: 'a', offset_string_original: 'a', custom_offset_string: false, top: 842 - 712, bottom: 842 - 700, start_offset: at(1), end_offset: at(1) + 1 });
    expect(a.span[1]).toMatchObject({ offset_string: '100,00', offset_string_original: 'b', custom_offset_string: true, start_offset: at(2), end_offset: at(2) + 1 });
    expect(a).toMatchObject({ offset_string: 'a 100,00', start_offset: at(1), end_offset: at(2) + 1, custom_offset_string: true });
    const [{ spans }] = (await sql<{ spans: string }>`select spans from annotations where id = ${a.id}`.execute(s.core.store.db)).rows;
    const stored = JSON.parse(spans);
    expect(stored).toHaveLength(2);
  });

  it('a corrected text keeps the original and sets custom_offset_string', async () => {
    const doc = await newDoc();
    const a = await created(annotate(doc, { label: t.labels.total, label_set: t.category, span: [span(1)] }));
    expect(a).toMatchObject({ offset_string: 'a', offset_string_original: 'a', custom_offset_string: false });
    const r = await api.patch(`/api/v3/annotations/${a.id}/`, { span: [span(1, '100,00')] });
    expect(r.status, r.text).toBe(200);
    expect(r.body.span[0]).toMatchObject({ offset_string: '100,00', offset_string_original: 'a', custom_offset_string: true, top: 842 - 712, bottom: 842 - 700 });
    expect(r.body).toMatchObject({ offset_string: '100,00', offset_string_original: 'a', custom_offset_string: true });
    // Sent back without text, the place keeps its correction.
    const again = await api.patch(`/api/v3/annotations/${a.id}/`, { span: [span(1)] });
    expect(again.body).toMatchObject({ offset_string: '100,00', offset_string_original: 'a', custom_offset_string: true });
    const moved = await api.patch(`/api/v3/annotations/${a.id}/`, { span: [span(4)] });
    expect(moved.body.span[0]).toMatchObject({ offset_string: 'd', offset_string_original: 'd', custom_offset_string: false });
  });

  it('refuses the same label on the same place twice, with a message that says so', async () => {
    const doc = await newDoc();
    const a = await created(annotate(doc, { label: t.labels.total, label_set: t.category, span: [span(1, '10')] }));
    const again = await annotate(doc, { label: t.labels.total, label_set: t.category, span: [span(1, '10')] });
    expect(again.status).toBe(400);
    expect(again.body.non_field_errors[0]).toMatch(new RegExp(`already labelled "Total" \\(annotation ${a.id}\\)`));
    // The same characters are the same place, whatever rectangle encloses them.
    const byOffsets1 = await created(annotate(doc, { label: t.labels.date, label_set: t.category, span: [span(5, 'd')] }));
    const byOffsets2 = await annotate(doc, { label: t.labels.date, label_set: t.category, span: [span(5, 'd', { x0: 49, x1: 59.5 })] });
    expect(byOffsets2.status).toBe(400);
    expect(byOffsets2.body.non_field_errors[0]).toContain(`annotation ${byOffsets1.id}`);
    // Another label on the same place, or the same label elsewhere, is fine.
    expect((await annotate(doc, { label: t.labels.date, label_set: t.category, span: [span(1, '10')] })).status).toBe(201);
    expect((await annotate(doc, { label: t.labels.total, label_set: t.category, span: [span(2, '10')] })).status).toBe(201);
    // Moving an annotation onto a duplicate place is refused too.
    const c = await created(annotate(doc, { label: t.labels.total, label_set: t.category, span: [span(3, '10')] }));
    expect((await api.patch(`/api/v3/annotations/${c.id}/`, { span: [span(1, '10')] })).status).toBe(400);
  });
});

describe('review states (spec 3.2)', () => {
  it('(none) -> Created by human: a person\'s annotation is correct and not revised', async () => {
    const doc = await newDoc();
    const a = await created(annotate(doc, { label: t.labels.date, label_set: t.category, span: [span(1, '2024-01-01')] }));
    expect(a).toMatchObject({ is_correct: true, revised: false, is_revised: false, origin: 'human', review_state: 'Created by human', created_by: adminId, revised_by: null });
    expect(await labelIn(doc, t.labels.date)).toMatchObject({ status: 'Created by human', annotations: [a.id] });
  });

  it('(none) -> Feedback required: extraction makes machine annotations awaiting review', async () => {
    const doc = await newDoc();
    const id = await machine(doc, t.labels.date, 1);
    const a = (await api.get(`/api/v3/annotations/${id}/`)).body;
    expect(a).toMatchObject({ is_correct: false, revised: false, origin: 'machine', review_state: 'Feedback required', confidence: 0.8, created_by: null });
    expect((await labelIn(doc, t.labels.date)).status).toBe('Feedback required');
  });

  it('Feedback required -> Accepted with revised true, is_correct true', async () => {
    const doc = await newDoc();
    const id = await machine(doc, t.labels.date, 1);
    const r = await api.patch(`/api/v3/annotations/${id}/`, { revised: true, is_correct: true });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ review_state: 'Accepted', revised: true, is_correct: true, revised_by: adminId });
    expect((await labelIn(doc, t.labels.date)).status).toBe('Accepted');
  });

  it('Feedback required -> Declined with revised true, is_correct false (is_revised spelling)', async () => {
    const doc = await newDoc();
    const id = await machine(doc, t.labels.date, 1);
    const r = await api.patch(`/api/v3/annotations/${id}/`, { is_revised: true, is_correct: false });
    expect(r.body).toMatchObject({ review_state: 'Declined', revised: true, is_correct: false, revised_by: adminId });
  });

  it('Declined -> Unfilled when the label has no accepted annotation', async () => {
    const doc = await newDoc();
    const id = await machine(doc, t.labels.date, 1);
    await api.patch(`/api/v3/annotations/${id}/`, { revised: true, is_correct: false });
    expect(await labelIn(doc, t.labels.date)).toMatchObject({ status: 'Unfilled', annotations: [id] });
  });

  it('(none) -> Unfilled when extraction finds nothing for a label', async () => {
    const doc = await newDoc();
    await machine(doc, t.labels.date, 1);
    expect((await labelIn(doc, t.labels.total)).status).toBe('Unfilled');
  });

  it('Unfilled -> Created by human with an annotation; a declined one at the same place points at accepting it', async () => {
    const doc = await newDoc();
    const id = await machine(doc, t.labels.date, 1);
    await api.patch(`/api/v3/annotations/${id}/`, { revised: true, is_correct: false });
    const same = await annotate(doc, { label: t.labels.date, label_set: t.category, span: [span(1, 'm1')] });
    expect(same.status).toBe(400);
    expect(same.body.non_field_errors[0]).toMatch(/declined, accept it instead/);
    const a = await created(annotate(doc, { label: t.labels.date, label_set: t.category, span: [span(2, '2024')] }));
    expect(await labelIn(doc, t.labels.date)).toMatchObject({ status: 'Created by human', annotations: [id, a.id] });
  });

  it('Unfilled -> Not found with a missing annotation; deleting it restores Unfilled', async () => {
    const doc = await newDoc();
    const m = await created(api.post('/api/v3/missing-annotations/', { document: doc, label: t.labels.total, label_set: t.category }));
    expect(await labelIn(doc, t.labels.total)).toMatchObject({ status: 'Not found', missing: m.id, set: m.annotation_set });
    expect((await api.delete(`/api/v3/missing-annotations/${m.id}/`)).status).toBe(204);
    expect(await labelIn(doc, t.labels.total)).toMatchObject({ status: 'Unfilled', missing: null });
  });

  it('Not found -> Created by human: an annotation for the label drops its missing record', async () => {
    const doc = await newDoc();
    const m = await created(api.post('/api/v3/missing-annotations/', { document: doc, label: t.labels.total, label_set: t.category }));
    await created(annotate(doc, { label: t.labels.total, annotation_set: m.annotation_set, span: [span(1, '5')] }));
    expect(await labelIn(doc, t.labels.total)).toMatchObject({ status: 'Created by human', missing: null });
    expect((await api.get(`/api/v3/missing-annotations/${m.id}/`)).status).toBe(404);
  });

  it('a human annotation may be created awaiting review (revised false, is_correct false) and accepted later', async () => {
    const doc = await newDoc();
    const a = await created(annotate(doc, { label: t.labels.date, label_set: t.category, span: [span(1, 'x')], is_correct: false, revised: false }));
    expect(a.review_state).toBe('Feedback required');
    const r = await api.patch(`/api/v3/annotations/${a.id}/`, { revised: true, is_correct: true });
    expect(r.body.review_state).toBe('Accepted');
  });
});

describe('marking a document reviewed (spec 3.1) and the lock', () => {
  it('refuses is_reviewed true while annotations await feedback or labels are unfilled, naming them', async () => {
    const doc = await newDoc();
    const pending = await machine(doc, t.labels.date, 1);
    const r = await api.patch(`/api/v3/documents/${doc}/`, { is_reviewed: true, data_file_name: 'not-applied.pdf' });
    expect(r.status).toBe(400);
    expect(r.body.is_reviewed).toHaveLength(2);
    expect(r.body.is_reviewed[0]).toMatch(new RegExp(`1 annotation awaits feedback.*${pending}`));
    expect(r.body.is_reviewed[1]).toMatch(/Invoice > Total/);
    expect(r.body.is_reviewed.join(' ')).not.toMatch(/Line items/); // a repeating section may be absent
    const d = await detail(doc);
    expect(d).toMatchObject({ is_reviewed: false, data_file_name: 'invoice.pdf' });

    await api.patch(`/api/v3/annotations/${pending}/`, { revised: true, is_correct: true });
    const stillUnfilled = await api.patch(`/api/v3/documents/${doc}/`, { is_reviewed: true });
    expect(stillUnfilled.status).toBe(400);
    expect(stillUnfilled.body.is_reviewed).toEqual([expect.stringMatching(/Total/)]);

    await created(api.post('/api/v3/missing-annotations/', { document: doc, label: t.labels.total, label_set: t.category }));
    const ok = await api.patch(`/api/v3/documents/${doc}/`, { is_reviewed: true });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.is_reviewed).toBe(true);
  });

  it('counts the labels of a potential non-repeating set as unfilled', async () => {
    const doc = await newDoc();
    const r = await api.patch(`/api/v3/documents/${doc}/`, { is_reviewed: true });
    expect(r.status).toBe(400);
    expect(r.body.is_reviewed[0]).toMatch(/Invoice > Date \(no annotation set yet\)/);
  });

  it('locks annotations and missing annotations of a reviewed document (403) until is_reviewed is false', async () => {
    const doc = await newDoc();
    const a = await created(annotate(doc, { label: t.labels.date, label_set: t.category, span: [span(1, 'd')] }));
    const m = await created(api.post('/api/v3/missing-annotations/', { document: doc, label: t.labels.total, label_set: t.category }));
    expect((await api.patch(`/api/v3/documents/${doc}/`, { is_reviewed: true })).status).toBe(200);

    const attempts = [
      annotate(doc, { label: t.labels.total, label_set: t.category, span: [span(2, 't')] }),
      api.post('/api/v3/annotations/', { document: doc, label: t.labels.total, label_set: t.category, span: [span(2, 't')] }),
      api.patch(`/api/v3/annotations/${a.id}/`, { revised: true, is_correct: false }),
      api.put(`/api/v3/annotations/${a.id}/`, { document: doc, label: t.labels.date, label_set: t.category, span: [span(1, 'd')] }),
      api.delete(`/api/v3/annotations/${a.id}/`),
      api.patch(`/api/v3/documents/${doc}/update-annotations/`, { ids: [a.id], revised: true, is_correct: true }),
      api.post('/api/v3/missing-annotations/', { document: doc, label: t.labels.item, label_set: t.items }),
      api.delete(`/api/v3/missing-annotations/${m.id}/`),
    ];
    for (const r of await Promise.all(attempts)) {
      expect(r.status, r.text).toBe(403);
      expect(r.body.detail).toMatch(/set is_reviewed to false first\.$/);
    }
    expect((await api.get(`/api/v3/annotations/${a.id}/`)).body.review_state).toBe('Created by human');

    expect((await api.patch(`/api/v3/documents/${doc}/`, { is_reviewed: false })).status).toBe(200);
    expect((await api.delete(`/api/v3/annotations/${a.id}/`)).status).toBe(204);
  });
});

describe('bulk review (PATCH /documents/<id>/update-annotations/)', () => {
  it('accepts many annotations at once and answers their list', async () => {
    const doc = await newDoc();
    const ids = [await machine(doc, t.labels.date, 1), await machine(doc, t.labels.total, 2)];
    const r = await api.patch(`/api/v3/documents/${doc}/update-annotations/`, { ids, is_correct: true, revised: true });
    expect(r.status, r.text).toBe(200);
    expect(r.body.map((a: any) => [a.id, a.review_state, a.revised_by])).toEqual(ids.map((id) => [id, 'Accepted', adminId]));
    expect(r.body[0].label).toMatchObject({ id: t.labels.date, name: 'Date' });
  });

  it('refuses ids of other documents or unknown ids, naming them, and changes nothing', async () => {
    const doc = await newDoc();
    const other = await newDoc();
    const mine = await machine(doc, t.labels.date, 1);
    const theirs = await machine(other, t.labels.date, 1);
    const r = await api.patch(`/api/v3/documents/${doc}/update-annotations/`, { ids: [mine, theirs, 99999], revised: true, is_correct: true });
    expect(r.status).toBe(400);
    expect(r.body.ids[0]).toBe(`Not annotations of document ${doc}: ${theirs}, 99999.`);
    expect((await api.get(`/api/v3/annotations/${mine}/`)).body.review_state).toBe('Feedback required');
    const nothing = await api.patch(`/api/v3/documents/${doc}/update-annotations/`, { ids: [mine] });
    expect(nothing.status).toBe(400);
    const empty = await api.patch(`/api/v3/documents/${doc}/update-annotations/`, { ids: [], revised: true });
    expect(empty.status).toBe(400);
    expect((await bob.patch(`/api/v3/documents/${doc}/update-annotations/`, { ids: [mine], revised: true })).status).toBe(404);
  });
});

describe('missing annotations', () => {
  it('creates one from a single body and several from a list (201)', async () => {
    const doc = await newDoc();
    const one = await created(api.post('/api/v3/missing-annotations/', { document: doc, label: t.labels.date, label_set_id: t.category }));
    expect(one).toMatchObject({ document: doc, label: t.labels.date, label_set: t.category, created_by: adminId });
    expect(await setsOf(doc, t.category)).toEqual([one.annotation_set]);
    const list = await created(api.post('/api/v3/missing-annotations/', [
      { document: doc, label: t.labels.total, label_set: t.category },
      { document: doc, label: t.labels.item, label_set: t.items },
    ]));
    expect(list.map((m: any) => [m.label, m.annotation_set])).toEqual([[t.labels.total, one.annotation_set], [t.labels.item, (await setsOf(doc, t.items))[0]]]);
  });

  it('takes a list all or nothing, with errors keyed by the item index', async () => {
    const doc = await newDoc();
    const r = await api.post('/api/v3/missing-annotations/', [
      { document: doc, label: t.labels.date, label_set: t.category },
      { document: doc, label: t.labels.item, label_set: t.category },
    ]);
    expect(r.status).toBe(400);
    expect(r.body['1.label'][0]).toMatch(/not in label set/);
    const shape = await api.post('/api/v3/missing-annotations/', [{ document: doc, label: t.labels.date, label_set: t.category }, { document: doc }]);
    expect(shape.status).toBe(400);
    expect(shape.body['1.label']).toEqual(['This field is required.']);
    expect((await api.get(`/api/v3/missing-annotations/?document=${doc}`)).body.count).toBe(0);
    expect(await setsOf(doc, t.category)).toEqual([]);
  });

  it('needs annotation_set for a repeating label set the document holds several sets of', async () => {
    const doc = await newDoc();
    const a = await created(annotate(doc, { label: t.labels.item, label_set: t.items, span: [span(1, 'Pen')] }));
    const b = await created(annotate(doc, { label: t.labels.item, label_set: t.items, span: [span(2, 'Ink')] }));
    const r = await api.post('/api/v3/missing-annotations/', { document: doc, label: t.labels.amount, label_set: t.items });
    expect(r.status).toBe(400);
    expect(r.body.annotation_set[0]).toMatch(/2 annotation sets/);
    const ok = await created(api.post('/api/v3/missing-annotations/', { document: doc, label: t.labels.amount, label_set: t.items, annotation_set: b.annotation_set }));
    expect(ok.annotation_set).toBe(b.annotation_set);
    expect(await labelIn(doc, t.labels.amount, a.annotation_set)).toMatchObject({ status: 'Unfilled' });
    expect(await labelIn(doc, t.labels.amount, b.annotation_set)).toMatchObject({ status: 'Not found', missing: ok.id });
  });

  it('refuses a label with an accepted annotation, a label already missing, and bodies without a label set', async () => {
    const doc = await newDoc();
    const id = await machine(doc, t.labels.date, 1);
    await api.patch(`/api/v3/annotations/${id}/`, { revised: true, is_correct: true });
    const accepted = await api.post('/api/v3/missing-annotations/', { document: doc, label: t.labels.date, label_set: t.category });
    expect(accepted.status).toBe(400);
    expect(accepted.body.label[0]).toMatch(/accepted annotation/);
    await created(api.post('/api/v3/missing-annotations/', { document: doc, label: t.labels.total, label_set: t.category }));
    const twice = await api.post('/api/v3/missing-annotations/', { document: doc, label: t.labels.total, label_set: t.category });
    expect(twice.status).toBe(400);
    expect(twice.body.label[0]).toMatch(/already marked missing/);
    const noSet = await api.post('/api/v3/missing-annotations/', { document: doc, label: t.labels.total });
    expect(noSet.status).toBe(400);
    expect(noSet.body.label_set).toEqual(['This field is required.']);
    const foreign = await bob.post('/api/v3/missing-annotations/', { document: doc, label: t.labels.total, label_set: t.category });
    expect(foreign.status).toBe(400);
    expect(foreign.body.document[0]).toMatch(/Invalid pk/);
  });

  it('lists with filters, shows details to members only, deletes', async () => {
    const doc = await newDoc();
    const [m1, m2] = await created(api.post('/api/v3/missing-annotations/', [
      { document: doc, label: t.labels.total, label_set: t.category },
      { document: doc, label: t.labels.item, label_set: t.items },
    ]));
    const ids = async (q: string) => (await api.get(`/api/v3/missing-annotations/?document=${doc}&${q}`)).body.results.map((m: any) => m.id);
    expect(await ids('')).toEqual([m1.id, m2.id]);
    expect(await ids(`label=${t.labels.item}`)).toEqual([m2.id]);
    expect(await ids(`label_set=${t.category}`)).toEqual([m1.id]);
    expect(await ids(`annotation_set=${m2.annotation_set}`)).toEqual([m2.id]);
    expect(await ids('ordering=-id')).toEqual([m2.id, m1.id]);
    expect((await api.get(`/api/v3/missing-annotations/${m1.id}/`)).body).toEqual(m1);
    expect((await bob.get(`/api/v3/missing-annotations/${m1.id}/`)).status).toBe(404);
    expect((await bob.get(`/api/v3/missing-annotations/?document=${doc}`)).body.count).toBe(0);
    expect((await bob.delete(`/api/v3/missing-annotations/${m1.id}/`)).status).toBe(404);
    expect((await api.delete(`/api/v3/missing-annotations/${m1.id}/`)).status).toBe(204);
    expect((await api.get(`/api/v3/missing-annotations/${m1.id}/`)).status).toBe(404);
  });
});

describe('annotation list and detail', () => {
  let doc: number;
  let ids: number[];
  beforeAll(async () => {
    doc = await newDoc();
    ids = [
      // Offsets come from the letters: the first annotation lies after the third (ordering by start_offset).
      (await created(annotate(doc, { label: t.labels.date, label_set: t.category, span: [span(3, 'd')], confidence: 0.2 }))).id,
      await machine(doc, t.labels.total, 2, { confidence: 0.9 }),
      (await created(annotate(doc, { label: t.labels.item, label_set: t.items, span: [span(1, 'i')] }))).id,
    ];
  });
  const listIds = async (q: string) => {
    const r = await api.get(`/api/v3/annotations/?document=${doc}&${q}`);
    expect(r.status, r.text).toBe(200);
    return r.body.results.map((a: any) => a.id);
  };

  it('carries label and label_set as objects and annotation_set as an integer', async () => {
    const r = await api.get(`/api/v3/annotations/?document=${doc}`);
    expect(r.body.count).toBe(3);
    const a = r.body.results[0];
    expect(a.label).toEqual({ id: t.labels.date, name: 'Date', data_type: 'Text' });
    expect(a.label_set).toMatchObject({ id: t.category, name: 'Invoice', is_default: true });
    expect(Number.isInteger(a.annotation_set)).toBe(true);
  });

  it('filters and orders', async () => {
    expect(await listIds(`label=${t.labels.total}`)).toEqual([ids[1]]);
    expect(await listIds(`label_set=${t.items}`)).toEqual([ids[2]]);
    const set = (await api.get(`/api/v3/annotations/${ids[0]}/`)).body.annotation_set;
    expect(await listIds(`annotation_set=${set}`)).toEqual([ids[0], ids[1]]);
    expect(await listIds('is_correct=false')).toEqual([ids[1]]);
    expect(await listIds('revised=false')).toEqual(ids);
    expect(await listIds(`project=${t.project}&ordering=-id`)).toEqual([...ids].reverse());
    expect(await listIds('ordering=-confidence')).toEqual([ids[1], ids[0], ids[2]]);
    expect(await listIds('ordering=start_offset')).toEqual([ids[1], ids[2], ids[0]]);
    expect((await api.get('/api/v3/annotations/?ordering=spans')).status).toBe(400);
    expect((await api.get('/api/v3/annotations/?is_correct=perhaps')).status).toBe(400);
    const perDocument = await api.get(`/api/v3/documents/${doc}/annotations/?label=${t.labels.item}`);
    expect(perDocument.body.results.map((a: any) => a.id)).toEqual([ids[2]]);
  });

  it('shows annotations to project members only', async () => {
    expect((await bob.get(`/api/v3/annotations/?document=${doc}`)).body.count).toBe(0);
    expect((await bob.get(`/api/v3/annotations/${ids[0]}/`)).status).toBe(404);
    expect((await bob.patch(`/api/v3/annotations/${ids[0]}/`, { revised: true })).status).toBe(404);
    expect((await bob.delete(`/api/v3/annotations/${ids[0]}/`)).status).toBe(404);
    expect((await bob.get(`/api/v3/documents/${doc}/annotations/`)).status).toBe(404);
    expect((await api.get('/api/v3/annotations/99999/')).status).toBe(404);
  });

  it('shows the tree in the document detail: sets, labels with status, annotations', async () => {
    const d = await detail(doc);
    expect(d.annotation_sets.map((x: any) => [x.label_set.name, x.labels.map((l: any) => [l.name, l.status, l.annotations.length])])).toEqual([
      ['Invoice', [['Date', 'Created by human', 1], ['Total', 'Feedback required', 1]]],
      ['Line items', [['Item', 'Created by human', 1], ['Amount', 'Unfilled', 0]]],
    ]);
    expect(d.annotation_sets[0].labels[1].annotations[0]).toMatchObject({ id: ids[1], review_state: 'Feedback required', origin: 'machine' });
  });
});

describe('PATCH, PUT and DELETE of an annotation', () => {
  it('PATCH relabels within the set and moves between sets of the document', async () => {
    const doc = await newDoc();
    const a = await created(annotate(doc, { label: t.labels.item, label_set: t.items, span: [span(1, 'Pen')] }));
    const b = await created(annotate(doc, { label: t.labels.item, label_set: t.items, span: [span(2, 'Ink')] }));
    const relabel = await api.patch(`/api/v3/annotations/${a.id}/`, { label: t.labels.amount });
    expect(relabel.status, relabel.text).toBe(200);
    expect(relabel.body).toMatchObject({ label: { id: t.labels.amount }, annotation_set: a.annotation_set });
    const move = await api.patch(`/api/v3/annotations/${a.id}/`, { annotation_set: b.annotation_set });
    expect(move.body.annotation_set).toBe(b.annotation_set);
    expect((await api.patch(`/api/v3/annotations/${a.id}/`, { label: t.labels.date })).status).toBe(400);
    const other = await newDoc();
    const c = await created(annotate(other, { label: t.labels.item, label_set: t.items, span: [span(1, 'Pen')] }));
    const foreign = await api.patch(`/api/v3/annotations/${a.id}/`, { annotation_set: c.annotation_set });
    expect(foreign.status).toBe(400);
    expect(foreign.body.annotation_set).toBeDefined();
  });

  it('PUT replaces with the create body; it needs label, span and the same document', async () => {
    const doc = await newDoc();
    const a = await created(annotate(doc, { label: t.labels.date, label_set: t.category, span: [span(1, 'd')] }));
    const missing = await api.put(`/api/v3/annotations/${a.id}/`, { document: doc, label_set: t.category });
    expect(missing.status).toBe(400);
    expect(Object.keys(missing.body).sort()).toEqual(['label', 'span']);
    const other = await newDoc();
    const moved = await api.put(`/api/v3/annotations/${a.id}/`, { document: other, label: t.labels.total, label_set: t.category, span: [span(2, 't')] });
    expect(moved.status).toBe(400);
    expect(moved.body.document).toBeDefined();
    const r = await api.put(`/api/v3/annotations/${a.id}/`, { document: doc, label: t.labels.total, label_set: t.category, span: [span(2, 't')], is_correct: true, is_revised: true });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ id: a.id, label: { id: t.labels.total }, annotation_set: a.annotation_set, offset_string: 't', review_state: 'Accepted' });
    expect(await setsOf(doc, t.category)).toEqual([a.annotation_set]);
  });

  it('DELETE removes it and the label is Unfilled again', async () => {
    const doc = await newDoc();
    const a = await created(annotate(doc, { label: t.labels.date, label_set: t.category, span: [span(1, 'd')] }));
    expect((await api.delete(`/api/v3/annotations/${a.id}/`)).status).toBe(204);
    expect((await api.get(`/api/v3/annotations/${a.id}/`)).status).toBe(404);
    expect(await labelIn(doc, t.labels.date)).toMatchObject({ status: 'Unfilled', annotations: [] });
    expect((await api.delete(`/api/v3/annotations/${a.id}/`)).status).toBe(404);
  });
});

describe('authentication (spec 7.6)', () => {
  it('answers 401 on every annotation endpoint without credentials', async () => {
    const c = s.anonymous();
    for (const [method, url] of [
      ['GET', '/api/v3/annotations/'], ['POST', '/api/v3/annotations/'], ['GET', '/api/v3/annotations/1/'], ['PATCH', '/api/v3/annotations/1/'],
      ['PUT', '/api/v3/annotations/1/'], ['DELETE', '/api/v3/annotations/1/'], ['POST', '/api/v3/documents/1/annotations/'],
      ['GET', '/api/v3/documents/1/annotations/'], ['PATCH', '/api/v3/documents/1/update-annotations/'], ['GET', '/api/v3/missing-annotations/'],
      ['POST', '/api/v3/missing-annotations/'], ['GET', '/api/v3/missing-annotations/1/'], ['DELETE', '/api/v3/missing-annotations/1/'],
    ] as const) {
      const r = await c.request(method, url, method === 'GET' ? {} : { body: {} });
      expect(r.status, `${method} ${url}`).toBe(401);
    }
  });
});

describe('query counts (no per-row queries)', () => {
  it('document detail and annotation list take the same number of queries for 5 and 500 annotations', async () => {
    const small = await newDoc();
    const large = await newDoc();
    const fill = (doc: number, n: number) =>
      s.core.uow(async (r) => {
        let setId: number | undefined;
        for (let i = 0; i < n; i++) {
          const id = await s.core.services.annotations.createMachineAnnotation(r, {
            documentId: doc, labelId: i % 2 ? t.labels.item : t.labels.amount, spans: [span(i + 1, `v${i}`)], confidence: 0.5,
            ...(setId && i % 10 ? { annotationSetId: setId } : { labelSetId: t.items }),
          });
          if (!(i % 10)) setId = (await r.annotations.findAnnotation(id!))!.annotation_set_id;
        }
      });
    await fill(small, 5);
    await fill(large, 500);
    const store = s.core.store;
    // A query string of its own per call: the answer is built, not served from the response cache.
    let call = 0;
    const detailQueries = async (doc: number) => countQueries(store, async () => {
      const r = await api.get(`/api/v3/documents/${doc}/?call=${call++}`);
      expect(r.status).toBe(200);
    });
    const listQueries = async (doc: number) => countQueries(store, async () => {
      const r = await api.get(`/api/v3/annotations/?document=${doc}&limit=1000&call=${call++}`);
      expect(r.status).toBe(200);
    });
    // The job runner polls in the background; the fewest of three runs is the request's own count.
    const fewest = async (measure: () => Promise<number>) => Math.min(await measure(), await measure(), await measure());
    const [dSmall, dLarge, lSmall, lLarge] = [
      await fewest(() => detailQueries(small)),
      await fewest(() => detailQueries(large)),
      await fewest(() => listQueries(small)),
      await fewest(() => listQueries(large)),
    ];
    expect(dLarge).toBe(dSmall);
    expect(lLarge).toBe(lSmall);
    expect(dLarge).toBeGreaterThan(0);
    expect(dLarge).toBeLessThanOrEqual(12);
    const large500 = await api.get(`/api/v3/annotations/?document=${large}&limit=1000`);
    expect(large500.body.results).toHaveLength(500);
  });
});
