// DocumentService's rules without HTTP: documents are their project's members' (public ones anyone's
// to read), what an upload must name and carry, dataset status and PUT defaults, duplicates sharing one
// file until the last goes, the review gate, and when a document may be extracted again.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotFoundError, ValidationError } from '../../main/domain/errors.ts';
import { FileRejectedError } from '../../main/pipeline/errors.ts';
import { DatasetStatus, DocumentStatus } from '../../main/domain/documentStatus.ts';
import type { UserRow } from '../../main/store/schema.ts';
import { listParams, openFixture, refused, type Fixture, type Taxonomy } from './fixture.ts';

let f: Fixture;
let owner: UserRow;
let member: UserRow;
let stranger: UserRow;
let t: Taxonomy;
let otherCategory: number;

beforeAll(async () => {
  f = await openFixture();
  owner = await f.user('owner@documents.test');
  member = await f.user('member@documents.test');
  stranger = await f.user('stranger@documents.test');
  t = await f.taxonomy(owner, (await f.project(owner, 'Documents', [member])).id);
  otherCategory = (await f.services.taxonomy.createCategory(stranger, { project: (await f.project(stranger, 'Other')).id, name: 'Theirs' })).id;
});
afterAll(() => f?.close());

/** Writes `bytes` where multer would leave an upload. */
const tempFile = (bytes: Uint8Array | string) => {
  const file = f.core.blobs.tempPath('.upload');
  fs.writeFileSync(file, bytes);
  return { path: file, originalname: 'x.pdf', size: fs.statSync(file).size };
};

describe('DocumentService', () => {
  it("keeps a document to its project's members: others get the 404 of a missing document", async () => {
    const doc = await f.upload(owner, { project: t.project });
    const d = f.services.documents;
    expect((await d.get(member, doc.id)).id).toBe(doc.id);
    // One call at a time: a call started before its refusal is awaited would reject unhandled meanwhile.
    for (const call of [() => d.get(stranger, doc.id), () => d.detail(stranger, doc.id), () => d.patch(stranger, doc.id, { is_public: true }), () => d.remove(stranger, doc.id), () => d.originalFile(stranger, doc.id)]) {
      expect((await refused(call(), NotFoundError)).message).toBe('Document not found.');
    }
    expect((await d.list(stranger, listParams())).items.map((x) => x.id)).not.toContain(doc.id);
    expect((await refused(f.upload(stranger, { project: t.project }), ValidationError)).fields).toEqual({ project: [`Invalid pk "${t.project}" - object does not exist.`] });
  });

  it('shows a public document to anyone by its link, without its duplicates, never by its id; each publication a new link', async () => {
    const original = await f.upload(owner, { project: t.project });
    const doc = await f.upload(owner, { project: t.project }, await f.core.blobs.read((await f.services.documents.originalFile(owner, original.id)).key));
    const d = f.services.documents;
    await d.patch(owner, doc.id, { is_public: true });
    const first = (await f.core.repos.documents.findById(doc.id))!.public_token!;
    expect(first).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect((await d.publicDetail(first)).duplicates).toEqual([]);
    // By id it is a document like any other: its members read it (with its duplicates), strangers get a 404.
    expect((await d.detail(member, doc.id)).duplicates).toHaveLength(1);
    await refused(d.detail(stranger, doc.id), NotFoundError);
    // Public again (a PATCH that says so) keeps the link; private then public makes a new one, the old one is gone.
    await d.patch(owner, doc.id, { is_public: true });
    expect((await f.core.repos.documents.findById(doc.id))!.public_token).toBe(first);
    await d.patch(owner, doc.id, { is_public: false });
    expect((await f.core.repos.documents.findById(doc.id))!.public_token).toBeNull();
    await d.patch(owner, doc.id, { is_public: true });
    const second = (await f.core.repos.documents.findById(doc.id))!.public_token!;
    expect(second).not.toBe(first);
    await refused(d.publicDetail(first), NotFoundError);
    expect((await d.publicDetail(second)).doc.id).toBe(doc.id);
    expect((await refused(d.patch(owner, doc.id, { public_expires_at: '2001-01-01T00:00:00Z' }), ValidationError)).fields.public_expires_at[0]).toMatch(/in the past/);
    expect((await refused(d.patch(owner, original.id, { public_expires_at: '2099-01-01T00:00:00Z' }), ValidationError)).fields.public_expires_at[0]).toMatch(/Only a public document/);
  });

  it('needs a file, categories and assignees of the project, and a callback Folio may call', async () => {
    const d = f.services.documents;
    const field = async (call: Promise<unknown>) => (await refused(call, ValidationError)).fields;
    expect(await field(d.upload(owner, { project: t.project }, undefined))).toEqual({ data_file: ['No file was submitted.'] });
    // An empty file is stored; processing ends it in 111 (test/http/damagedFiles.test.ts).
    expect((await d.upload(owner, { project: t.project }, tempFile(''))).status).toBe(DocumentStatus.QUEUING_FOR_OCR);
    expect(await field(f.upload(owner, { project: t.project, category: otherCategory }))).toEqual({ category: [`Invalid pk "${otherCategory}" - object does not exist.`] });
    expect(Object.keys(await field(f.upload(owner, { project: t.project, category_template: otherCategory })))).toEqual(['category_template']);
    expect(await field(f.upload(owner, { project: t.project, assignee: stranger.email }))).toEqual({ assignee: [`stranger@documents.test is not a member of project ${t.project}.`] });
    expect((await field(f.upload(owner, { project: t.project, callback_url: 'http://metadata.google.internal/hook' }))).callback_url[0]).toMatch(/cloud metadata service/);
    const assigned = await f.upload(owner, { project: t.project, assignee: member.email, category: t.category });
    expect([assigned.assignee_id, assigned.category_id, assigned.category_is_revised, assigned.status]).toEqual([member.id, t.category, false, DocumentStatus.QUEUING_FOR_OCR]);
  });

  it('refuses a file processing could never read before storing anything', async () => {
    const before = (await f.services.documents.list(owner, listParams())).count;
    const err = await refused(f.services.documents.upload(owner, { project: t.project }, tempFile('just some text, not a document')), FileRejectedError);
    expect(err.status).toBe(415);
    expect((await f.services.documents.list(owner, listParams())).count).toBe(before);
  });

  it('keeps the dataset status given, and PUT puts omitted fields back to their defaults without moving the document', async () => {
    const doc = await f.upload(owner, { project: t.project, dataset_status: DatasetStatus.TRAINING });
    expect(doc.dataset_status).toBe(DatasetStatus.TRAINING);
    await f.services.documents.patch(owner, doc.id, { is_public: true, category: t.category });
    const put = await f.services.documents.replace(owner, doc.id, { project: t.project, data_file_name: 'renamed.pdf' });
    expect([put.data_file_name, put.dataset_status, put.is_public, put.category_id, put.category_is_revised]).toEqual(['renamed.pdf', DatasetStatus.NONE, false, null, true]);
    expect((await refused(f.services.documents.replace(owner, doc.id, { project: t.project + 1000, data_file_name: 'x.pdf' }), ValidationError)).fields).toEqual({
      project: ['A document cannot be moved to another project.'],
    });
  });

  it('lists uploads of the same bytes as duplicates; their shared file goes with the last of them', async () => {
    const first = await f.upload(owner, { project: t.project });
    const { key } = await f.services.documents.originalFile(owner, first.id);
    const second = await f.upload(member, { project: t.project }, await f.core.blobs.read(key));
    expect(second.blob_key).toBe(first.blob_key);
    expect((await f.services.documents.detail(owner, first.id)).duplicates).toEqual([second.id]);
    await f.services.documents.remove(owner, first.id);
    await refused(f.services.documents.get(owner, first.id), NotFoundError);
    expect(await f.core.blobs.exists(key)).toBe(true);
    await f.services.documents.remove(member, second.id);
    expect(await f.core.blobs.exists(key)).toBe(false);
  });

  it('refuses is_reviewed while labels are unfilled, naming them, and writes nothing of the request', async () => {
    const { doc } = await f.processed(owner, { project: t.project, category: t.category });
    const err = await refused(f.services.documents.patch(owner, doc.id, { is_reviewed: true, data_file_name: 'reviewed.pdf' }), ValidationError);
    expect(err.fields.is_reviewed).toEqual(['2 labels are unfilled (add an annotation or mark missing): Invoice > Date (no annotation set yet), Invoice > Total (no annotation set yet).']);
    const after = await f.services.documents.get(owner, doc.id);
    expect([after.is_reviewed, after.data_file_name]).toEqual([false, 'invoice.pdf']);
    // Without a category there is nothing to fill.
    expect((await f.services.documents.patch(owner, doc.id, { category: null, is_reviewed: true })).is_reviewed).toBe(true);
  });

  it('refuses is_reviewed while a checked date or number is not machine-readable, naming it; a corrected text lets it through', async () => {
    const p = await f.processed(owner, { project: t.project, category: t.category }, [['Invoice 2024-001', 'Date 12.O3.2024', 'Total 12,50 EUR']]);
    const date = (await f.services.annotations.createForDocument(owner, p.doc.id, { label: t.labels.date, label_set: t.category, span: [p.box('12.O3.2024')] })).row;
    expect(date.normalized).toBeNull();
    await f.services.annotations.createForDocument(owner, p.doc.id, { label: t.labels.total, label_set: t.category, span: [p.box('12,50')] });
    const err = await refused(f.services.documents.patch(owner, p.doc.id, { is_reviewed: true }), ValidationError);
    expect(err.fields.is_reviewed).toEqual([`1 value is not machine-readable (correct the text, or decline or delete the annotation): Date “12.O3.2024” (annotation ${date.id}, Date).`]);
    await f.services.annotations.patch(owner, date.id, { span: [{ ...p.box('12.O3.2024'), offset_string: '12.03.2024' }] });
    expect((await f.services.documents.patch(owner, p.doc.id, { is_reviewed: true })).is_reviewed).toBe(true);
  });

  it('extracts again only a processed, categorized document whose category has an active extraction AI', async () => {
    const reason = async (id: number) => (await refused(f.services.documents.extractAgain(owner, id), ValidationError)).fields.non_field_errors[0];
    const queued = await f.upload(owner, { project: t.project, category: t.category });
    expect(await reason(queued.id)).toBe('The document cannot be extracted again while it is "Queuing for OCR": wait until it is done.');
    const { doc } = await f.processed(owner, { project: t.project });
    expect(await reason(doc.id)).toBe('The document has no category: choose its category first, then extract again.');
    await f.services.documents.patch(owner, doc.id, { category: t.category });
    expect(await reason(doc.id)).toBe('The category "Invoice" has no active extraction AI: train one on the AI tab first.');
  });

  it('answers the searchable PDF only once processing made it', async () => {
    const queued = await f.upload(owner, { project: t.project });
    expect((await refused(f.services.documents.searchablePdf(owner, queued.id), NotFoundError)).message).toBe('The searchable PDF is not ready yet (status Queuing for OCR).');
    const { doc } = await f.processed(owner, { project: t.project });
    expect((await f.services.documents.searchablePdf(owner, doc.id)).name).toBe('invoice.pdf');
  });
});
