// TaxonomyService's rules without HTTP: a category is its default label set, names are unique per
// project without regard to case, data types take every spelling, ids of other projects are refused
// with nothing written, records stay in their project, and a default label set goes only with its category.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpError, NotFoundError, ValidationError } from '../../main/domain/errors.ts';
import type { UserRow } from '../../main/store/schema.ts';
import { listParams, openFixture, refused, type Fixture, type Taxonomy } from './fixture.ts';

let f: Fixture;
let owner: UserRow;
let stranger: UserRow;
let t: Taxonomy;
let other: Taxonomy;

beforeAll(async () => {
  f = await openFixture();
  owner = await f.user('owner@taxonomy.test');
  stranger = await f.user('stranger@taxonomy.test');
  t = await f.taxonomy(owner, (await f.project(owner, 'Taxonomy')).id);
  other = await f.taxonomy(stranger, (await f.project(stranger, 'Elsewhere')).id);
});
afterAll(() => f?.close());

describe('TaxonomyService', () => {
  it('makes a category together with its default label set of the same id and name', async () => {
    const c = await f.services.taxonomy.createCategory(owner, { project: t.project, name: 'Receipt' });
    const ls = await f.services.taxonomy.getLabelSet(owner, c.id);
    expect([ls.name, ls.is_default, ls.category_ids]).toEqual(['Receipt', true, [c.id]]);
    await f.services.taxonomy.updateCategory(owner, c.id, { name: 'Till receipt' });
    expect((await f.services.taxonomy.getLabelSet(owner, c.id)).name).toBe('Till receipt');
  });

  it('keeps category and label set names unique per project in one name space, without regard to case', async () => {
    const tx = f.services.taxonomy;
    expect((await refused(tx.createCategory(owner, { project: t.project, name: ' line ITEMS ' }), ValidationError)).fields).toEqual({
      name: ['A label set named "Line items" already exists in this project: choose another name for the category.'],
    });
    expect((await refused(tx.createLabelSet(owner, { project: t.project, name: 'invoice' }), ValidationError)).fields).toEqual({
      name: ['A category named "Invoice" already exists in this project: choose another name for the label set.'],
    });
    await refused(tx.updateLabelSet(owner, t.items, { name: 'INVOICE' }, false), ValidationError);
    // Another project has its own names.
    expect((await tx.createCategory(stranger, { project: other.project, name: 'Line Items 2' })).name).toBe('Line Items 2');
  });

  it('keeps label names unique per project without regard to case', async () => {
    expect((await refused(f.services.taxonomy.createLabel(owner, { project: t.project, name: 'TOTAL' }), ValidationError)).fields).toEqual({
      name: ['A label named "Total" already exists in this project.'],
    });
    await refused(f.services.taxonomy.updateLabel(owner, t.labels.item, { name: 'date' }, false), ValidationError);
  });

  it("stores a label's data type by its display name, whichever spelling was sent, with the defaults", async () => {
    const tx = f.services.taxonomy;
    const spelled = await tx.createLabel(owner, { project: t.project, name: 'Tax rate', data_type: 'percentage' });
    expect([spelled.data_type, spelled.threshold, spelled.description]).toEqual(['Percentage', 0.1, '']);
    const legacy = await tx.createLabel(owner, { project: t.project, text: 'Paid', get_data_type_display: 'boolean' });
    expect([legacy.name, legacy.data_type]).toEqual(['Paid', 'True/False']);
    expect((await tx.updateLabel(owner, legacy.id, { data_type: 'positive_number' }, false)).data_type).toBe('Positive Number');
  });

  it("refuses label sets and labels of another project, naming them, and writes nothing", async () => {
    const tx = f.services.taxonomy;
    const before = (await tx.listLabels(owner, listParams())).count;
    const err = await refused(tx.createLabel(owner, { project: t.project, name: 'Borrowed', label_sets: [other.items, 999_999] }), ValidationError);
    expect(err.fields).toEqual({ label_sets: [`Invalid pk "${other.items}" - object belongs to another project.`, 'Invalid pk "999999" - object does not exist.'] });
    expect((await tx.listLabels(owner, listParams())).count).toBe(before);
    await refused(tx.createLabelSet(owner, { project: t.project, name: 'Mixed', labels: [other.labels.item] }), ValidationError);
    await refused(tx.createLabelSet(owner, { project: t.project, name: 'Mixed', categories: [other.category] }), ValidationError);
    expect((await tx.listLabelSets(owner, listParams())).items.map((s) => s.name)).not.toContain('Mixed');
  });

  it('keeps records in their project and out of strangers\' sight', async () => {
    const tx = f.services.taxonomy;
    // A project the owner cannot see does not exist for them, as in POST (PUT validation as POST's, issue 31).
    expect((await refused(tx.updateLabel(owner, t.labels.date, { project: other.project }, false), ValidationError)).fields.project).toEqual([
      `Invalid pk "${other.project}" - object does not exist.`,
    ]);
    await refused(tx.updateCategory(owner, t.category, { project: other.project }), ValidationError);
    expect((await refused(tx.getCategory(stranger, t.category), NotFoundError)).message).toBe('Category not found.');
    await refused(tx.getLabel(stranger, t.labels.date), NotFoundError);
    await refused(tx.removeLabelSet(stranger, t.items), NotFoundError);
    expect((await refused(tx.createCategory(stranger, { project: t.project, name: 'Intruder' }), ValidationError)).fields).toEqual({ project: [`Invalid pk "${t.project}" - object does not exist.`] });
  });

  it('lets a default label set change its labels, never its categories, and go only with its category', async () => {
    const tx = f.services.taxonomy;
    const c = await tx.createCategory(owner, { project: t.project, name: 'Contract' });
    expect((await tx.updateLabelSet(owner, c.id, { labels: [t.labels.date] }, false)).label_ids).toEqual([t.labels.date]);
    expect(Object.keys((await refused(tx.updateLabelSet(owner, c.id, { categories: [t.category] }, false), ValidationError)).fields)).toEqual(['categories']);
    const err = await refused(tx.removeLabelSet(owner, c.id), HttpError);
    expect([err.status, err.message]).toEqual([400, `Label set ${c.id} is the default label set of category "Contract": delete the category instead.`]);
    await tx.removeCategory(owner, c.id);
    await refused(tx.getLabelSet(owner, c.id), NotFoundError);
  });

  it('leaves the documents of a deleted category in place, uncategorized', async () => {
    const c = await f.services.taxonomy.createCategory(owner, { project: t.project, name: 'Short-lived' });
    const doc = await f.upload(owner, { project: t.project, category: c.id });
    await f.services.taxonomy.removeCategory(owner, c.id);
    expect((await f.services.documents.get(owner, doc.id)).category_id).toBeNull();
  });
});
