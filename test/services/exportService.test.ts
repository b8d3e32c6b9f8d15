// ExportService's rules without HTTP: the exports are for the project's members; the project CSV has one
// row per annotation with its value in the CSV form of its data type (spec 2.14), its review state, its
// page counted from 1 and its box; the per-document table has a row per document of the project (or of
// one of its categories) with the values it counts in a column per label.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotFoundError, ValidationError } from '../../main/domain/errors.ts';
import { DatasetStatus } from '../../main/domain/documentStatus.ts';
import type { UserRow } from '../../main/store/schema.ts';
import { parseCsv } from '../helpers/csv.ts';
import { openFixture, refused, type Fixture, type Taxonomy } from './fixture.ts';

let f: Fixture;
let owner: UserRow;
let stranger: UserRow;
let t: Taxonomy;

beforeAll(async () => {
  f = await openFixture();
  owner = await f.user('owner@export.test');
  stranger = await f.user('stranger@export.test');
  t = await f.taxonomy(owner, (await f.project(owner, 'Export')).id);
});
afterAll(() => f?.close());

describe('ExportService', () => {
  it('exports one row per annotation with the normalized value, review state, page and box', async () => {
    const p = await f.processed(owner, { project: t.project, category: t.category });
    const total = p.box('12,50');
    const a = (await f.services.annotations.createForDocument(owner, p.doc.id, { label: t.labels.total, label_set: t.category, span: [total] })).row;
    await f.services.annotations.createForDocument(owner, p.doc.id, { label: t.labels.date, label_set: t.category, span: [p.box('12.03.2024')] });
    const [header, ...rows] = parseCsv(await f.services.exports.projectCsv(owner, t.project));
    expect(header).toEqual(['document_id', 'data_file_name', 'category', 'label_set', 'annotation_set', 'label', 'annotation_id', 'text', 'normalized', 'confidence', 'review_state', 'page', 'x0', 'y0', 'x1', 'y1']);
    const row = Object.fromEntries(header.map((h, i) => [h, rows.find((r) => r[6] === String(a.id))![i]]));
    const round = (v: number) => String(Math.round(v * 1000) / 1000);
    expect(row).toEqual({
      document_id: String(p.doc.id), data_file_name: 'invoice.pdf', category: 'Invoice', label_set: 'Invoice', annotation_set: String(a.annotation_set_id),
      label: 'Total', annotation_id: String(a.id), text: '12,50', normalized: '12.5', confidence: '', review_state: 'Created by human',
      page: '1', x0: round(total.x0), y0: round(total.y0), x1: round(total.x1), y1: round(total.y1),
    });
    expect(rows.map((r) => [r[5], r[8]]).sort()).toEqual([['Date', '2024-03-12'], ['Total', '12.5']]);
  });

  it('tables the documents of the project or of one of its categories, counting no declined value', async () => {
    const p = await f.processed(owner, { project: t.project, category: t.category, dataset_status: DatasetStatus.TEST });
    await f.services.annotations.createForDocument(owner, p.doc.id, { label: t.labels.total, label_set: t.category, span: [p.box('12,50')] });
    const declined = (await f.services.annotations.createForDocument(owner, p.doc.id, { label: t.labels.date, label_set: t.category, span: [p.box('12.03.2024')] })).row;
    await f.services.annotations.patch(owner, declined.id, { revised: true, is_correct: false });
    const uncategorized = await f.upload(owner, { project: t.project });

    const all = await f.services.exports.documentTable(owner, t.project, {}, 'http://folio.test/');
    expect(all.rows.map((r) => r.document.id)).toEqual(expect.arrayContaining([p.doc.id, uncategorized.id]));
    const row = all.rows.find((r) => r.document.id === p.doc.id)!;
    expect([row.document.link, row.values.get(`${t.category}:${t.labels.total}`), row.values.get(`${t.category}:${t.labels.date}`)]).toEqual([
      `http://folio.test/#/documents/${p.doc.id}`, { text: '12.5', number: 12.5, review: 'Created by human' }, { text: '', number: null, review: 'Declined' },
    ]);
    const narrowed = await f.services.exports.documentTable(owner, t.project, { filters: { category: String(t.category), dataset_status: String(DatasetStatus.TEST) } }, '');
    expect(narrowed.rows.map((r) => r.document.id)).toEqual([p.doc.id]);
    const otherProject = await f.project(owner, 'Other');
    const foreign = (await f.services.taxonomy.createCategory(owner, { project: otherProject.id, name: 'Foreign' })).id;
    expect((await refused(f.services.exports.documentTable(owner, t.project, { filters: { category: String(foreign) } }, ''), ValidationError)).fields).toEqual({
      category: [`Invalid pk "${foreign}" - object does not exist in this project.`],
    });
  });

  it("exports a project only for its members: others get the project's 404", async () => {
    for (const u of [stranger, f.admin]) {
      expect((await refused(f.services.exports.projectCsv(u, t.project), NotFoundError)).message).toBe('Project not found.');
      await refused(f.services.exports.documentTable(u, t.project, {}, ''), NotFoundError);
    }
  });
});
