// AnnotationService's rules without HTTP: which annotation set an annotation goes into (spec 2.8, 7),
// spans read against the document's characters (offsets, corrections, typed values, pages), values
// normalized by the label's data type, no duplicates, review flags, the lock of a reviewed document,
// missing annotations (spec 3.2), bulk review, and annotations kept to the project's members; the AI
// never proposes a declined value again; a drawn box on a typed value leaves out edge punctuation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotFoundError, PermissionError, ValidationError } from '../../main/domain/errors.ts';
import type { UserRow } from '../../main/store/schema.ts';
import { stateOf } from '../../main/services/annotationService.ts';
import { openFixture, refused, type Box, type Fixture, type ProcessedDocument, type Taxonomy } from './fixture.ts';

let f: Fixture;
let owner: UserRow;
let stranger: UserRow;
let t: Taxonomy;
let otherLabel: number;

beforeAll(async () => {
  f = await openFixture();
  owner = await f.user('owner@annotations.test');
  stranger = await f.user('stranger@annotations.test');
  t = await f.taxonomy(owner, (await f.project(owner, 'Annotations')).id);
  otherLabel = (await f.taxonomy(stranger, (await f.project(stranger, 'Other')).id)).labels.date;
});
afterAll(() => f?.close());

const PAGES = [['Invoice 2024-001', 'Date 12.03.2024', 'Total 12,50 EUR', 'Pen 3,00', 'Ink 4,50']];
const newDoc = (): Promise<ProcessedDocument> => f.processed(owner, { project: t.project, category: t.category }, PAGES);
const annotate = (doc: number, label: number, span: Box[], extra: Record<string, unknown> = {}) =>
  f.services.annotations.createForDocument(owner, doc, { label, span, ...extra });
const fields = async (call: Promise<unknown>) => (await refused(call, ValidationError)).fields;
/** A machine proposal awaiting feedback, as the extraction AI writes it. */
/** A machine proposal; null when it was not proposed (declined before, or already there). */
const proposal = (doc: number, label: number, span: Box & { offset_string: string }) =>
  f.core.uow((r) => f.services.annotations.createMachineAnnotation(r, { documentId: doc, labelId: label, labelSetId: t.category, spans: [span], confidence: 0.8 }));

/** A machine proposal that was made. */
const machine = async (doc: number, label: number, span: Box & { offset_string: string }): Promise<number> => {
  const id = await proposal(doc, label, span);
  if (id === null) throw new Error(`not proposed: ${span.offset_string}`);
  return id;
};

describe('AnnotationService: annotation sets', () => {
  it('opens a new set of a repeating label set each time, and re-uses the only set of a non-repeating one', async () => {
    const p = await newDoc();
    const pen = await annotate(p.doc.id, t.labels.item, [p.box('Pen')], { label_set: t.items });
    const ink = await annotate(p.doc.id, t.labels.item, [p.box('Ink')], { label_set: t.items });
    expect(pen.row.annotation_set_id).not.toBe(ink.row.annotation_set_id);
    const date = await annotate(p.doc.id, t.labels.date, [p.box('12.03.2024')], { label_set: t.category });
    const total = await annotate(p.doc.id, t.labels.total, [p.box('12,50')], { label_set: t.category });
    expect(total.row.annotation_set_id).toBe(date.row.annotation_set_id);
    // A missing annotation opens no set of its own: with two sets of the repeating label set it must name one.
    expect(Object.keys(await fields(f.services.annotations.createMissing(owner, [{ document: p.doc.id, label: t.labels.amount, label_set: t.items }], false)))).toEqual(['annotation_set']);
    const [mark] = await f.services.annotations.createMissing(owner, [{ document: p.doc.id, label: t.labels.amount, annotation_set: pen.row.annotation_set_id }], false);
    expect(mark.annotation_set_id).toBe(pen.row.annotation_set_id);
  });

  it('refuses requests naming no set, a set of another document, a label outside the set, or a label of another project', async () => {
    const p = await newDoc();
    const other = await newDoc();
    const set = (await annotate(other.doc.id, t.labels.date, [other.box('12.03.2024')], { label_set: t.category })).row.annotation_set_id;
    expect(await fields(annotate(p.doc.id, t.labels.date, [p.box('12.03.2024')]))).toEqual({ annotation_set: ['Send annotation_set (an annotation set of this document) or label_set (its label set).'] });
    expect(await fields(annotate(p.doc.id, t.labels.date, [p.box('12.03.2024')], { annotation_set: set }))).toEqual({ annotation_set: [`Annotation set ${set} is not an annotation set of document ${p.doc.id}.`] });
    expect(await fields(annotate(p.doc.id, t.labels.item, [p.box('Pen')], { label_set: t.category }))).toEqual({ label: [`Label "Item" (${t.labels.item}) is not in label set "Invoice" (${t.category}).`] });
    expect(await fields(annotate(p.doc.id, otherLabel, [p.box('Pen')], { label_set: t.category }))).toEqual({ label: [`Invalid pk "${otherLabel}" - object does not exist.`] });
  });
});

describe('AnnotationService: spans and values', () => {
  it('reads text and offsets from the characters inside the box, ignoring sent offsets; a corrected text keeps the original', async () => {
    const p = await newDoc();
    const a = (await annotate(p.doc.id, t.labels.date, [{ ...p.box('12.03.2024'), start_offset: 0, end_offset: 3 } as Box], { label_set: t.category })).row;
    expect(a.offset_string).toBe('12.03.2024');
    expect(p.doc.text!.slice(a.start_offset!, a.end_offset!)).toBe('12.03.2024');
    const corrected = (await annotate(p.doc.id, t.labels.total, [{ ...p.box('12,50'), offset_string: '12,60' } as Box], { label_set: t.category })).row;
    expect([corrected.offset_string, corrected.custom_offset_string, corrected.spans[0].offset_string_original]).toEqual(['12,60', true, '12,50']);
  });

  it('refuses a box with no text in it and a page the document does not have; a typed value needs its text and has no offsets', async () => {
    const p = await newDoc();
    const blank: Box = { page_index: 0, x0: 300, x1: 400, y0: 100, y1: 120 };
    expect(Object.keys(await fields(annotate(p.doc.id, t.labels.date, [blank], { label_set: t.category })))).toEqual(['span.0']);
    expect(await fields(annotate(p.doc.id, t.labels.date, [{ ...p.box('12.03.2024'), page_index: 1 }], { label_set: t.category }))).toEqual({
      'span.0.page_index': [`Document ${p.doc.id} has 1 page (page_index 0 to 0).`],
    });
    expect(Object.keys(await fields(annotate(p.doc.id, t.labels.date, [blank], { label_set: t.category, is_typed: true })))).toEqual(['span.0.offset_string']);
    const typed = (await annotate(p.doc.id, t.labels.date, [{ ...blank, offset_string: '01.04.2024' } as Box], { label_set: t.category, is_typed: true })).row;
    expect([typed.offset_string, typed.start_offset, typed.is_typed, typed.normalized]).toEqual(['01.04.2024', null, true, '2024-04-01']);
  });

  it("normalizes the value by the label's data type, again when the annotation is relabelled", async () => {
    const p = await newDoc();
    const total = (await annotate(p.doc.id, t.labels.total, [p.box('12,50')], { label_set: t.category })).row;
    expect(total.normalized).toBe(12.5);
    const date = (await annotate(p.doc.id, t.labels.date, [p.box('12.03.2024')], { label_set: t.category })).row;
    expect(date.normalized).toBe('2024-03-12');
    await f.services.annotations.remove(owner, total.id);
    const amount = await annotate(p.doc.id, t.labels.item, [p.box('3,00')], { label_set: t.items });
    expect(amount.row.normalized).toBe('3,00');
    expect((await f.services.annotations.patch(owner, amount.row.id, { label: t.labels.amount })).row.normalized).toBe(3);
  });

  it('refuses the same label on the same place twice, pointing at accepting a declined one', async () => {
    const p = await newDoc();
    const id = await machine(p.doc.id, t.labels.date, { ...p.box('12.03.2024'), offset_string: '12.03.2024' });
    await f.services.annotations.patch(owner, id, { revised: true, is_correct: false });
    expect(await fields(annotate(p.doc.id, t.labels.date, [p.box('12.03.2024')], { label_set: t.category }))).toEqual({
      non_field_errors: [`This text is already labelled "Date" (annotation ${id}): it was declined, accept it instead.`],
    });
  });
});

describe('AnnotationService: review', () => {
  it("records a person's annotation as correct, a machine one as awaiting feedback, and who reviewed it", async () => {
    const p = await newDoc();
    const human = (await annotate(p.doc.id, t.labels.total, [p.box('12,50')], { label_set: t.category })).row;
    expect([human.origin, human.is_correct, human.revised, human.created_by]).toEqual(['human', true, false, owner.id]);
    const id = await machine(p.doc.id, t.labels.date, { ...p.box('12.03.2024'), offset_string: '12.03.2024' });
    expect((await f.services.annotations.get(owner, id)).row).toMatchObject({ origin: 'machine', is_correct: false, revised: false, created_by: null });
    expect((await f.services.annotations.patch(owner, id, { revised: true, is_correct: true })).row).toMatchObject({ is_correct: true, revised: true, revised_by: owner.id });
  });

  it('locks the annotations and missing annotations of a reviewed document until it is reopened', async () => {
    const p = await newDoc();
    const date = (await annotate(p.doc.id, t.labels.date, [p.box('12.03.2024')], { label_set: t.category })).row;
    const missing = (await f.services.annotations.createMissing(owner, [{ document: p.doc.id, label: t.labels.total, label_set: t.category }], false))[0];
    await f.services.documents.patch(owner, p.doc.id, { is_reviewed: true });
    const a = f.services.annotations;
    // One call at a time: a call started before its refusal is awaited would reject unhandled meanwhile.
    for (const call of [
      () => a.patch(owner, date.id, { revised: true }),
      () => a.remove(owner, date.id),
      () => annotate(p.doc.id, t.labels.item, [p.box('Pen')], { label_set: t.items }),
      () => a.bulkReview(owner, p.doc.id, { ids: [date.id], is_correct: true }),
      () => a.removeMissing(owner, missing.id),
    ]) {
      expect((await refused(call(), PermissionError)).message).toBe(`Document ${p.doc.id} is reviewed and its annotations are locked: set is_reviewed to false first.`);
    }
    await f.services.documents.patch(owner, p.doc.id, { is_reviewed: false });
    await a.remove(owner, date.id);
  });

  it('marks a label missing only where it is not filled and not marked yet; an annotation for it drops the mark', async () => {
    const p = await newDoc();
    const a = f.services.annotations;
    const date = (await annotate(p.doc.id, t.labels.date, [p.box('12.03.2024')], { label_set: t.category })).row;
    expect(Object.keys(await fields(a.createMissing(owner, [{ document: p.doc.id, label: t.labels.date, label_set: t.category }], false)))).toEqual(['label']);
    const [mark] = await a.createMissing(owner, [{ document: p.doc.id, label: t.labels.total, label_set: t.category }], false);
    expect((await fields(a.createMissing(owner, [{ document: p.doc.id, label: t.labels.total, label_set: t.category }], false))).label).toEqual([
      `Label "Total" is already marked missing in annotation set ${date.annotation_set_id}.`,
    ]);
    // A list is all or nothing, with errors keyed by the item's index.
    expect(Object.keys(await fields(a.createMissing(owner, [{ document: p.doc.id, label: t.labels.item, label_set: t.items }, { document: p.doc.id, label: t.labels.total, label_set: t.category }], true)))).toEqual(['1.label']);
    await annotate(p.doc.id, t.labels.total, [p.box('12,50')], { label_set: t.category });
    await refused(a.getMissing(owner, mark.id), NotFoundError);
  });

  it('reviews many annotations of one document at once, refusing ids of other documents and empty changes', async () => {
    const p = await newDoc();
    const other = await newDoc();
    const ids = [
      await machine(p.doc.id, t.labels.date, { ...p.box('12.03.2024'), offset_string: '12.03.2024' }),
      await machine(p.doc.id, t.labels.total, { ...p.box('12,50'), offset_string: '12,50' }),
    ];
    const foreign = await machine(other.doc.id, t.labels.date, { ...other.box('12.03.2024'), offset_string: '12.03.2024' });
    const a = f.services.annotations;
    expect(await fields(a.bulkReview(owner, p.doc.id, { ids: [...ids, foreign], revised: true }))).toEqual({ ids: [`Not annotations of document ${p.doc.id}: ${foreign}.`] });
    expect(Object.keys(await fields(a.bulkReview(owner, p.doc.id, { ids })))).toEqual(['non_field_errors']);
    expect((await a.get(owner, ids[0])).row.revised).toBe(false);
    const { rows } = await a.bulkReview(owner, p.doc.id, { ids, revised: true, is_correct: true });
    expect(rows.map((r) => [r.revised, r.is_correct])).toEqual([[true, true], [true, true]]);
  });
});

describe('AnnotationService: access', () => {
  it("keeps annotations to the project's members: 404 by their own id, 400 for a document named in the body", async () => {
    const p = await newDoc();
    const a = (await annotate(p.doc.id, t.labels.date, [p.box('12.03.2024')], { label_set: t.category })).row;
    expect((await refused(f.services.annotations.get(stranger, a.id), NotFoundError)).message).toBe('Annotation not found.');
    await refused(f.services.annotations.remove(stranger, a.id), NotFoundError);
    await refused(f.services.annotations.createForDocument(stranger, p.doc.id, { label: t.labels.total, label_set: t.category, span: [p.box('12,50')] }), NotFoundError);
    expect(await fields(f.services.annotations.create(stranger, { document: p.doc.id, label: t.labels.total, label_set: t.category, span: [p.box('12,50')] }))).toEqual({
      document: [`Invalid pk "${p.doc.id}" - object does not exist.`],
    });
    expect((await f.services.annotations.list(stranger, { limit: 1000, offset: 0, ordering: [], filters: {} })).page.items.map((x) => x.id)).not.toContain(a.id);
  });
});

describe('AnnotationService: what the AI may propose (issue 29)', () => {
  it('never proposes a declined value again: not where it was (however a new reading drew it), not the same value elsewhere', async () => {
    const p = await newDoc();
    const declined = await machine(p.doc.id, t.labels.date, { ...p.box('12.03.2024'), offset_string: '12.03.2024' });
    await f.services.annotations.patch(owner, declined, { revised: true, is_correct: false });
    const box = p.box('12.03.2024');
    // The same words read again: a box a little wider and lower, the text read differently.
    expect(await proposal(p.doc.id, t.labels.date, { ...box, x0: box.x0 - 1.5, y0: box.y0 - 1, y1: box.y1 - 1, offset_string: '12.03.2O24' })).toBeNull();
    // The same value at another place of the document.
    expect(await proposal(p.doc.id, t.labels.date, { ...p.box('Invoice 2024-001'), offset_string: '12.03.2024' })).toBeNull();
    // Another label may take those words; the date label another value.
    expect(await proposal(p.doc.id, t.labels.total, { ...p.box('12.03.2024'), offset_string: '12.03.2024' })).not.toBeNull();
    expect(await proposal(p.doc.id, t.labels.date, { ...p.box('Invoice 2024-001'), offset_string: '2024-001' })).not.toBeNull();
    const dates = (await f.core.repos.annotations.annotationsOfLabel(p.doc.id, t.labels.date)).map((a) => [a.offset_string, stateOf(a)]);
    expect(dates).toEqual([['12.03.2024', 'Declined'], ['2024-001', 'Feedback required']]);
  });

  it('does not propose what the label already has there, and leaves values of repeating label sets to their place', async () => {
    const p = await newDoc();
    await annotate(p.doc.id, t.labels.total, [p.box('12,50')], { label_set: t.category });
    expect(await proposal(p.doc.id, t.labels.total, { ...p.box('12,50 EUR'), offset_string: '12,50 EUR' })).toBeNull();
    const item = (r: Parameters<Parameters<typeof f.core.uow>[0]>[0], words: string) =>
      f.services.annotations.createMachineAnnotation(r, { documentId: p.doc.id, labelId: t.labels.amount, labelSetId: t.items, spans: [{ ...p.box(words), offset_string: '3,00' }], confidence: 0.5 });
    const first = await f.core.uow((r) => item(r, '3,00'));
    await f.services.annotations.patch(owner, first!, { revised: true, is_correct: false });
    // The same amount on another line of a line-item set is another value.
    expect(await f.core.uow((r) => item(r, '4,50'))).not.toBeNull();
  });

  it('a box drawn on a date, number or yes/no value leaves out the punctuation tokens at its edges; a text label keeps them', async () => {
    const p = await f.processed(owner, { project: t.project, category: t.category }, [['Invoice 2024-001', 'Date : 12.03.2024 ;', 'Total 12,50 EUR']]);
    const drawn = p.box(': 12.03.2024 ;');
    const date = (await annotate(p.doc.id, t.labels.date, [drawn], { label_set: t.category })).row;
    expect([date.offset_string, date.normalized]).toEqual(['12.03.2024', '2024-03-12']);
    const kept = p.box('12.03.2024');
    expect(date.spans[0].x0).toBeCloseTo(kept.x0 + 0.5, 1);
    expect(date.spans[0].x1).toBeCloseTo(kept.x1 - 0.5, 1);
    const text = (await annotate(p.doc.id, t.labels.item, [drawn], { label_set: t.items })).row;
    expect(text.offset_string).toBe(': 12.03.2024 ;');
  });
});
