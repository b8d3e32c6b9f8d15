// PostprocessService's rules without HTTP: only a processed document (or one waiting for its split to be
// confirmed) is post-processed; every page of it goes to exactly one resulting document; categories are
// the project's. A document kept as it was stays; turned or re-ordered it stays the same document with its
// annotations moved along and is read again; split, it makes way for new documents that take the
// annotations on their pages, and a document set remembers the original. The jobs are queued, not run.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotFoundError, ValidationError } from '../../main/domain/errors.ts';
import { DocumentStatus } from '../../main/domain/documentStatus.ts';
import type { UserRow } from '../../main/store/schema.ts';
import { openFixture, refused, type Fixture, type Taxonomy } from './fixture.ts';

let f: Fixture;
let owner: UserRow;
let stranger: UserRow;
let t: Taxonomy;
let otherCategory: number;

beforeAll(async () => {
  f = await openFixture();
  owner = await f.user('owner@postprocess.test');
  stranger = await f.user('stranger@postprocess.test');
  t = await f.taxonomy(owner, (await f.project(owner, 'Postprocess')).id);
  otherCategory = (await f.taxonomy(stranger, (await f.project(stranger, 'Other')).id)).category;
});
afterAll(() => f?.close());

const PAGES = [['First page', 'Date 12.03.2024'], ['Second page', 'Total 12,50 EUR']];

/** A processed two-page document with a Total annotation on its second page, and its page ids. */
async function twoPages() {
  const p = await f.processed(owner, { project: t.project, category: t.category }, PAGES);
  const a = await f.services.annotations.createForDocument(owner, p.doc.id, { label: t.labels.total, label_set: t.category, span: [p.box('12,50')] });
  const [one, two] = (await f.services.geometry.pages(owner, p.doc.id)).map((x) => x.id);
  return { ...p, annotation: a.row.id, one, two };
}

const fields = async (call: Promise<unknown>) => (await refused(call, ValidationError)).fields;

describe('PostprocessService', () => {
  it('refuses a document that is not processed yet', async () => {
    const queued = await f.upload(owner, { project: t.project });
    expect(await fields(f.services.postprocess.postprocess(owner, queued.id, [{ pages: [] }]))).toEqual({
      non_field_errors: ['The document cannot be post-processed while it is "Queuing for OCR": wait until it is done.'],
    });
  });

  it('sends every page of the document to exactly one result, and takes only categories of its project', async () => {
    const d = await twoPages();
    const other = await twoPages();
    const pp = (outputs: Parameters<typeof f.services.postprocess.postprocess>[2]) => fields(f.services.postprocess.postprocess(owner, d.doc.id, outputs));
    expect(await pp([{ pages: [{ id: d.one, angle: 0 }, { id: other.two, angle: 0 }] }])).toEqual({
      '0.pages.1': [`Invalid pk "${other.two}" - object does not exist. Page ${other.two} is not a page of document ${d.doc.id}.`],
    });
    expect(Object.keys(await pp([{ pages: [{ id: d.one, angle: 0 }] }, { pages: [{ id: d.one, angle: 0 }, { id: d.two, angle: 0 }] }]))).toEqual(['1.pages.0']);
    expect(await pp([{ pages: [{ id: d.two, angle: 0 }] }])).toEqual({ pages: [`Pages ${d.one} are in no document: a split keeps every page (to drop pages, upload anew).`] });
    expect(await pp([{ pages: [{ id: d.one, angle: 0 }, { id: d.two, angle: 0 }], category: otherCategory }])).toEqual({ '0.category': [`Invalid pk "${otherCategory}" - object does not exist.`] });
    expect((await f.services.documents.get(owner, d.doc.id)).status).toBe(DocumentStatus.DONE);
  });

  it('keeps a document sent back as it was: the same document, renamed if asked', async () => {
    const d = await twoPages();
    const [kept] = await f.services.postprocess.postprocess(owner, d.doc.id, [{ name: 'kept.pdf', pages: [{ id: d.one, angle: 0 }, { id: d.two, angle: 0 }] }]);
    expect([kept.id, kept.data_file_name, kept.status]).toEqual([d.doc.id, 'kept.pdf', DocumentStatus.DONE]);
  });

  it('turns and re-orders a processed document in place: its annotations move with their pages, and it is read again', async () => {
    const d = await twoPages();
    const [same] = await f.services.postprocess.postprocess(owner, d.doc.id, [{ pages: [{ id: d.two, angle: 0 }, { id: d.one, angle: 0 }] }]);
    expect([same.id, same.status]).toEqual([d.doc.id, DocumentStatus.QUEUING_FOR_OCR]);
    expect(same.searchable_blob_key).not.toBe(d.doc.searchable_blob_key);
    const moved = (await f.services.annotations.get(owner, d.annotation)).row;
    expect(moved.spans.map((s) => s.page_index)).toEqual([0]);
  });

  it('splits a document into new ones that take the annotations on their pages; a document set keeps the original', async () => {
    const d = await twoPages();
    const parts = await f.services.postprocess.postprocess(owner, d.doc.id, [{ pages: [{ id: d.one, angle: 0 }] }, { pages: [{ id: d.two, angle: 90 }], name: 'totals.pdf' }]);
    expect(parts.map((x) => [x.data_file_name, x.status])).toEqual([['invoice (1 of 2).pdf', DocumentStatus.QUEUING_FOR_OCR], ['totals.pdf', DocumentStatus.QUEUING_FOR_OCR]]);
    await refused(f.services.documents.get(owner, d.doc.id), NotFoundError);
    const tree = (await f.services.documents.detail(owner, parts[1].id)).tree;
    const totals = tree.sets.flatMap((s) => s.labels).filter((l) => l.label.id === t.labels.total).flatMap((l) => l.annotations);
    expect(totals.map((a) => [a.offset_string, a.spans[0].page_index, a.start_offset])).toEqual([['12,50', 0, null]]);
    expect((await f.services.documents.detail(owner, parts[0].id)).tree.sets.flatMap((s) => s.labels).flatMap((l) => l.annotations)).toEqual([]);

    const setId = parts[0].document_set_id!;
    const { set, documents } = await f.services.postprocess.documentSet(owner, setId);
    expect([set.original_file_name, set.original_number_of_pages, documents]).toEqual(['invoice.pdf', 2, parts.map((x) => x.id)]);
    expect((await f.services.postprocess.originalFile(owner, setId)).name).toBe('invoice.pdf');
    expect((await refused(f.services.postprocess.documentSet(stranger, setId), NotFoundError)).message).toBe('Document set not found.');
  });
});
