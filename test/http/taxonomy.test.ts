// Categories, labels and label sets through the real server: every verb, aliases of compat.md, the
// id shared by a category and its default label set, access rules, list conventions, and an import
// of the payslips example project's label sets and labels.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type Client, type TestServer } from '../helpers/testServer.ts';
import { sql } from 'kysely';

let s: TestServer;
let api: Client;
let bob: Client;
let project: number; // the admin's main project
let other: number; // another project of the admin
let bobProject: number;

beforeAll(async () => {
  s = await startTestServer();
  api = s.admin;
  project = (await api.post('/api/v3/projects/', { name: 'Taxonomy' })).body.id;
  other = (await api.post('/api/v3/projects/', { name: 'Other' })).body.id;
  bob = await s.userClient('bob-taxonomy@test.local');
  bobProject = (await bob.post('/api/v3/projects/', { name: 'Bob' })).body.id;
});
afterAll(() => s.close());

async function created(r: Promise<{ status: number; body: any; text: string }>): Promise<any> {
  const res = await r;
  expect(res.status, res.text).toBe(201);
  return res.body;
}
const newCategory = (name: string, p = project) => created(api.post('/api/v3/categories/', { project: p, name }));
const newLabel = (body: Record<string, unknown>) => created(api.post('/api/v3/labels/', { project, ...body }));
const newLabelSet = (body: Record<string, unknown>) => created(api.post('/api/v3/label-sets/', { project, ...body }));
const ids = (page: any): number[] => page.results.map((x: any) => x.id);

describe('categories', () => {
  it('creates a category together with its default label set of the same id', async () => {
    const c = await newCategory('Invoice');
    expect(c).toMatchObject({ name: 'Invoice', project, label_sets: [c.id], labels: [] });
    expect(c.created_at).toMatch(/\+00:00$/);
    const set = (await api.get(`/api/v3/label-sets/${c.id}/`)).body;
    expect(set).toMatchObject({ id: c.id, name: 'Invoice', project, categories: [c.id], labels: [], is_default: true, has_multiple_sections: false });
    const links = (await sql`select * from label_set_categories where category_id = ${c.id}`.execute(s.core.store.db)).rows;
    expect(links).toEqual([{ label_set_id: c.id, category_id: c.id }]);
  });

  it('accepts form-encoded bodies and paths without the trailing slash', async () => {
    const r = await api.request('POST', '/api/v3/categories', { body: { project, name: 'Form category' }, form: true });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ project, name: 'Form category' });
    expect((await api.get(`/api/v3/categories/${r.body.id}`)).body.name).toBe('Form category');
  });

  it('PUT needs every required field; renaming renames the default label set', async () => {
    const c = await newCategory('Receipt');
    const missing = await api.put(`/api/v3/categories/${c.id}/`, { name: 'Receipt 2' });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ project: ['This field is required.'] });
    const put = await api.put(`/api/v3/categories/${c.id}/`, { project, name: 'Receipt 2' });
    expect(put.status).toBe(200);
    expect(put.body.name).toBe('Receipt 2');
    expect((await api.get(`/api/v3/label-sets/${c.id}/`)).body.name).toBe('Receipt 2');
  });

  it('PATCH changes only what it names and refuses to move a category to another project', async () => {
    const c = await newCategory('Contract');
    const patched = await api.patch(`/api/v3/categories/${c.id}/`, { name: 'Contract (signed)' });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ id: c.id, project, name: 'Contract (signed)', created_at: c.created_at });
    const empty = await api.patch(`/api/v3/categories/${c.id}/`, {});
    expect(empty.body.name).toBe('Contract (signed)');
    const moved = await api.patch(`/api/v3/categories/${c.id}/`, { project: other });
    expect(moved.status).toBe(400);
    expect(moved.body.project[0]).toMatch(/cannot be moved/);
    expect((await api.patch(`/api/v3/categories/${c.id}/`, { project, name: 'Same project' })).status).toBe(200);
  });

  it('keeps other users out: 404 on detail routes, 400 on a body naming their project', async () => {
    const c = await newCategory('Private');
    for (const [method, body] of [['GET', undefined], ['PUT', { project, name: 'x' }], ['PATCH', { name: 'x' }], ['DELETE', undefined]] as const) {
      const r = await bob.request(method, `/api/v3/categories/${c.id}/`, { body });
      expect(r.status, method).toBe(404);
    }
    expect(ids((await bob.get('/api/v3/categories/')).body)).not.toContain(c.id);
    const r = await bob.post('/api/v3/categories/', { project, name: 'Intruder' });
    expect(r.status).toBe(400);
    expect(r.body.project).toEqual([`Invalid pk "${project}" - object does not exist.`]);
    expect((await s.anonymous().get('/api/v3/categories/')).status).toBe(401);
  });

  it('DELETE removes the default label set and leaves the documents uncategorized', async () => {
    const c = await newCategory('Doomed');
    const label = await newLabel({ name: 'Doomed label', categories: [c.id] });
    const extra = await newLabelSet({ name: 'Doomed section', categories: [c.id], labels: [label.id] });
    // A bare document row (the columns left out have defaults): only its category matters here.
    const t = new Date().toISOString();
    const [doc] = (
      await sql<{ id: number }>`insert into documents (project_id, category_id, data_file_name, blob_key, file_size, created_at, updated_at)
        values (${project}, ${c.id}, 'a.pdf', 'k', 1, ${t}, ${t}) returning id`.execute(s.core.store.db)
    ).rows;

    expect((await api.delete(`/api/v3/categories/${c.id}/`)).status).toBe(204);
    expect((await api.get(`/api/v3/categories/${c.id}/`)).status).toBe(404);
    expect((await api.get(`/api/v3/label-sets/${c.id}/`)).status).toBe(404);
    const [row] = (await sql<{ category_id: number | null }>`select category_id from documents where id = ${doc.id}`.execute(s.core.store.db)).rows;
    expect(row.category_id).toBeNull();
    // The label and the other label set stay, no longer linked to the category.
    expect((await api.get(`/api/v3/labels/${label.id}/`)).body).toMatchObject({ categories: [], label_sets: [extra.id] });
    expect((await api.get(`/api/v3/label-sets/${extra.id}/`)).body).toMatchObject({ categories: [], labels: [label.id] });
  });

  it('filters by project, project_id and name', async () => {
    const a = await newCategory('Filter Alpha', other);
    const b = await newCategory('filter beta', other);
    expect(ids((await api.get(`/api/v3/categories/?project=${other}`)).body)).toEqual([a.id, b.id]);
    expect(ids((await api.get(`/api/v3/categories/?project_id=${other}`)).body)).toEqual([a.id, b.id]);
    expect(ids((await api.get(`/api/v3/categories/?project=${other}&name=BETA`)).body)).toEqual([b.id]);
    expect((await api.get('/api/v3/categories/?project=abc')).status).toBe(400);
  });
});

describe('labels', () => {
  it('creates a label with both spellings of its fields on output', async () => {
    const c = await newCategory('Payslip');
    const l = await newLabel({ name: 'Net pay', data_type: 'Number', categories: [c.id], description: 'paid out', threshold: 0.3 });
    expect(l).toMatchObject({
      name: 'Net pay', text: 'Net pay', project, data_type: 'Number', get_data_type_display: 'Number',
      categories: [c.id], label_sets: [c.id], templates: [c.id], description: 'paid out', threshold: 0.3,
    });
    expect((await api.get(`/api/v3/categories/${c.id}/`)).body.labels).toEqual([l.id]);
    expect((await api.get(`/api/v3/label-sets/${c.id}/`)).body.labels).toEqual([l.id]);
  });

  it('accepts the legacy text and fills the defaults', async () => {
    const l = await newLabel({ text: 'Legacy name' });
    expect(l).toMatchObject({ name: 'Legacy name', data_type: 'Text', description: '', threshold: 0.1, categories: [], label_sets: [] });
    const none = await api.post('/api/v3/labels/', { project });
    expect(none.status).toBe(400);
    expect(none.body).toEqual({ name: ['This field is required.'] });
  });

  it('accepts the display names and the spec names of data types, and refuses others', async () => {
    const cases: [string, string][] = [
      ['Positive Number', 'Positive Number'], ['positive_number', 'Positive Number'], ['absolute', 'Positive Number'],
      ['percentage', 'Percentage'], ['date', 'Date'], ['True/False', 'True/False'], ['boolean', 'True/False'], ['text', 'Text'],
    ];
    for (const [i, [given, stored]] of cases.entries()) {
      const l = await newLabel({ name: `Typed ${i}`, data_type: given });
      expect(l.data_type, given).toBe(stored);
    }
    const bad = await api.post('/api/v3/labels/', { project, name: 'Bad type', data_type: 'Currency' });
    expect(bad.status).toBe(400);
    expect(bad.body.data_type[0]).toContain('"Currency" is not a valid choice');
    expect(bad.body.data_type[0]).toContain('Text, Number, Positive Number, Percentage, Date, True/False');
  });

  it('keeps label names unique per project, without regard to case', async () => {
    await newLabel({ name: 'Gehalt Äquivalent' });
    const dup = await api.post('/api/v3/labels/', { project, text: 'gehalt äQUIVALENT' });
    expect(dup.status).toBe(400);
    expect(dup.body.name[0]).toMatch(/already exists/);
    await created(api.post('/api/v3/labels/', { project: other, name: 'Gehalt Äquivalent' }));
    const l = await newLabel({ name: 'Rename me' });
    const clash = await api.patch(`/api/v3/labels/${l.id}/`, { name: 'GEHALT äquivalent' });
    expect(clash.status).toBe(400);
    expect(clash.body.name[0]).toMatch(/already exists/);
    expect((await api.patch(`/api/v3/labels/${l.id}/`, { name: 'RENAME ME' })).body.name).toBe('RENAME ME');
  });

  it('makes a label part of a category when its templates name the category id', async () => {
    const c = await newCategory('Templates');
    const l = await newLabel({ name: 'Via template', templates: [c.id] });
    expect(l).toMatchObject({ categories: [c.id], label_sets: [c.id], templates: [c.id] });
    expect((await api.get(`/api/v3/categories/${c.id}/`)).body.labels).toEqual([l.id]);
  });

  it('refuses unknown ids and ids of another project, naming them, and writes nothing', async () => {
    const foreign = await newCategory('Foreign', other);
    const before = (await api.get(`/api/v3/labels/?project=${project}`)).body.count;
    const r = await api.post('/api/v3/labels/', { project, name: 'Half', categories: [999999, foreign.id], label_sets: [888888] });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      label_sets: ['Invalid pk "888888" - object does not exist.'],
      categories: ['Invalid pk "999999" - object does not exist.', `Invalid pk "${foreign.id}" - object belongs to another project.`],
    });
    const t = await api.post('/api/v3/labels/', { project, name: 'Half', templates: [foreign.id] });
    expect(t.status).toBe(400);
    expect(Object.keys(t.body)).toEqual(['templates']);
    expect((await api.get(`/api/v3/labels/?project=${project}`)).body.count).toBe(before);
    const bobs = await bob.post('/api/v3/labels/', { project, name: 'x' });
    expect(bobs.body.project).toBeDefined();
  });

  it('PUT replaces the whole label; PATCH changes only what it names', async () => {
    const c = await newCategory('Replace');
    const l = await newLabel({ name: 'Replaced', data_type: 'Date', description: 'd', threshold: 0.5, categories: [c.id] });
    const missing = await api.put(`/api/v3/labels/${l.id}/`, { project, data_type: 'Number' });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ name: ['This field is required.'] });
    const noProject = await api.put(`/api/v3/labels/${l.id}/`, { name: 'Replaced' });
    expect(noProject.body).toEqual({ project: ['This field is required.'] });

    const patched = (await api.patch(`/api/v3/labels/${l.id}/`, { description: 'changed' })).body;
    expect(patched).toMatchObject({ name: 'Replaced', data_type: 'Date', description: 'changed', threshold: 0.5, categories: [c.id] });

    const put = await api.put(`/api/v3/labels/${l.id}/`, { project, name: 'Replaced 2' });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ name: 'Replaced 2', data_type: 'Text', description: '', threshold: 0.1, categories: [], label_sets: [] });
    const moved = await api.patch(`/api/v3/labels/${l.id}/`, { project: other });
    expect(moved.status).toBe(400);
    expect(moved.body.project[0]).toMatch(/cannot be moved/);
  });

  it('categories replace default-set memberships and leave label set memberships alone', async () => {
    const c1 = await newCategory('Memberships 1');
    const c2 = await newCategory('Memberships 2');
    const section = await newLabelSet({ name: 'Section of 1', categories: [c1.id] });
    const l = await newLabel({ name: 'Member', label_sets: [section.id] });
    expect(l).toMatchObject({ categories: [c1.id], label_sets: [section.id] });

    // Sending back the derived categories changes nothing: c1 is covered through the section.
    const same = (await api.patch(`/api/v3/labels/${l.id}/`, { categories: [c1.id] })).body;
    expect(same.label_sets).toEqual([section.id]);

    const more = (await api.patch(`/api/v3/labels/${l.id}/`, { categories: [c1.id, c2.id] })).body;
    expect(more).toMatchObject({ categories: [c1.id, c2.id], label_sets: [c2.id, section.id].sort((a, b) => a - b) });
    const fewer = (await api.patch(`/api/v3/labels/${l.id}/`, { categories: [] })).body;
    expect(fewer).toMatchObject({ categories: [c1.id], label_sets: [section.id] });
    const explicit = (await api.patch(`/api/v3/labels/${l.id}/`, { label_sets: [c2.id] })).body;
    expect(explicit).toMatchObject({ categories: [c2.id], label_sets: [c2.id] });
  });

  it('accepts form-encoded bodies with list fields as repeated keys', async () => {
    const c1 = await newCategory('Form 1');
    const c2 = await newCategory('Form 2');
    const r = await api.request('POST', '/api/v3/labels/', {
      body: { project, name: 'Form label', data_type: 'percentage', threshold: '0.25', categories: [c1.id, c2.id] },
      form: true,
    });
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject({ data_type: 'Percentage', threshold: 0.25, categories: [c1.id, c2.id] });
    const p = await api.request('PATCH', `/api/v3/labels/${r.body.id}/`, { body: { templates: [c2.id] }, form: true });
    expect(p.body).toMatchObject({ label_sets: [c2.id], categories: [c2.id], data_type: 'Percentage' });
  });

  it('filters by project, category, label_set and name; DELETE removes the label', async () => {
    const p = (await api.post('/api/v3/projects/', { name: 'Label filters' })).body.id;
    const c = await newCategory('LF', p);
    const set = await created(api.post('/api/v3/label-sets/', { project: p, name: 'LF set', categories: [c.id] }));
    const a = await created(api.post('/api/v3/labels/', { project: p, name: 'Amount', categories: [c.id] }));
    const b = await created(api.post('/api/v3/labels/', { project: p, name: 'Amount due', label_sets: [set.id] }));
    const d = await created(api.post('/api/v3/labels/', { project: p, name: 'Date' }));
    expect(ids((await api.get(`/api/v3/labels/?project=${p}`)).body)).toEqual([a.id, b.id, d.id]);
    expect(ids((await api.get(`/api/v3/labels/?project_id=${p}&category=${c.id}`)).body)).toEqual([a.id, b.id]);
    expect(ids((await api.get(`/api/v3/labels/?label_set=${set.id}`)).body)).toEqual([b.id]);
    expect(ids((await api.get(`/api/v3/labels/?project=${p}&name=amount`)).body)).toEqual([a.id, b.id]);
    expect(ids((await bob.get(`/api/v3/labels/?project=${p}`)).body)).toEqual([]);
    expect((await bob.get(`/api/v3/labels/${a.id}/`)).status).toBe(404);

    expect((await api.delete(`/api/v3/labels/${a.id}/`)).status).toBe(204);
    expect((await api.get(`/api/v3/labels/${a.id}/`)).status).toBe(404);
    expect((await api.get(`/api/v3/categories/${c.id}/`)).body.labels).toEqual([]);
  });
});

describe('label sets', () => {
  it('creates a label set linked to categories and labels of its project', async () => {
    const c = await newCategory('Sets');
    const l1 = await newLabel({ name: 'Set label 1' });
    const l2 = await newLabel({ name: 'Set label 2' });
    const set = await newLabelSet({ name: 'Positions', categories: [c.id], labels: [l2.id, l1.id], has_multiple_annotation_sets: true });
    expect(set).toMatchObject({
      name: 'Positions', project, categories: [c.id], labels: [l1.id, l2.id],
      has_multiple_sections: true, has_multiple_annotation_sets: true, is_default: false,
    });
    expect((await api.get(`/api/v3/categories/${c.id}/`)).body.label_sets).toEqual([c.id, set.id]);
    expect((await api.get(`/api/v3/labels/${l1.id}/`)).body).toMatchObject({ categories: [c.id], label_sets: [set.id] });
  });

  it('refuses categories and labels of another project or unknown, and writes nothing', async () => {
    const foreignCat = await newCategory('Foreign set cat', other);
    const foreignLabel = await created(api.post('/api/v3/labels/', { project: other, name: 'Foreign label' }));
    const before = (await api.get(`/api/v3/label-sets/?project=${project}`)).body.count;
    const r = await api.post('/api/v3/label-sets/', { project, name: 'Bad', categories: [foreignCat.id], labels: [foreignLabel.id, 777777] });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      categories: [`Invalid pk "${foreignCat.id}" - object belongs to another project.`],
      labels: [`Invalid pk "${foreignLabel.id}" - object belongs to another project.`, 'Invalid pk "777777" - object does not exist.'],
    });
    // A label set id is not a category id unless it is a default label set.
    const section = await newLabelSet({ name: 'Not a category' });
    const notCat = await api.post('/api/v3/label-sets/', { project, name: 'Bad 2', categories: [section.id] });
    expect(notCat.body.categories).toEqual([`Invalid pk "${section.id}" - object does not exist.`]);
    expect((await api.get(`/api/v3/label-sets/?project=${project}`)).body.count).toBe(before + 1);
    expect((await bob.post('/api/v3/label-sets/', { project, name: 'x' })).status).toBe(400);
  });

  it('PUT needs a name and resets the rest; PATCH changes only what it names', async () => {
    const c = await newCategory('Set verbs');
    const l = await newLabel({ name: 'Set verbs label' });
    const set = await newLabelSet({ name: 'Verbs', categories: [c.id], labels: [l.id], has_multiple_sections: true });
    const missing = await api.put(`/api/v3/label-sets/${set.id}/`, { project });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ name: ['This field is required.'] });
    const patched = (await api.patch(`/api/v3/label-sets/${set.id}/`, { has_multiple_sections: false })).body;
    expect(patched).toMatchObject({ name: 'Verbs', categories: [c.id], labels: [l.id], has_multiple_sections: false });
    const put = (await api.put(`/api/v3/label-sets/${set.id}/`, { project, name: 'Verbs 2' })).body;
    expect(put).toMatchObject({ name: 'Verbs 2', categories: [], labels: [], has_multiple_sections: false });
    const form = await api.request('PATCH', `/api/v3/label-sets/${set.id}/`, { body: { labels: [l.id], categories: [c.id], has_multiple_sections: 'true' }, form: true });
    expect(form.body).toMatchObject({ labels: [l.id], categories: [c.id], has_multiple_sections: true });
    expect((await api.patch(`/api/v3/label-sets/${set.id}/`, { project: other })).status).toBe(400);
    expect((await bob.patch(`/api/v3/label-sets/${set.id}/`, { name: 'x' })).status).toBe(404);
  });

  it('lets the labels of a default label set change, not its categories, and never deletes it', async () => {
    const c = await newCategory('Default set');
    const c2 = await newCategory('Default set 2');
    const l = await newLabel({ name: 'Default set label' });
    const withLabel = await api.patch(`/api/v3/label-sets/${c.id}/`, { labels: [l.id] });
    expect(withLabel.body).toMatchObject({ labels: [l.id], categories: [c.id], is_default: true });
    expect((await api.get(`/api/v3/labels/${l.id}/`)).body.categories).toEqual([c.id]);
    expect((await api.patch(`/api/v3/label-sets/${c.id}/`, { categories: [c.id] })).status).toBe(200);
    const recat = await api.patch(`/api/v3/label-sets/${c.id}/`, { categories: [c2.id] });
    expect(recat.status).toBe(400);
    expect(recat.body.categories[0]).toMatch(/default label set.*category instead/);
    const del = await api.delete(`/api/v3/label-sets/${c.id}/`);
    expect(del.status).toBe(400);
    expect(del.body.detail).toMatch(/delete the category instead/);
    // Renaming the default label set renames its category, which carries the same name.
    await api.patch(`/api/v3/label-sets/${c.id}/`, { name: 'Default set renamed' });
    expect((await api.get(`/api/v3/categories/${c.id}/`)).body.name).toBe('Default set renamed');
  });

  it('lists default and other label sets with filters; DELETE removes a label set only', async () => {
    const p = (await api.post('/api/v3/projects/', { name: 'Set filters' })).body.id;
    const c = await newCategory('SF', p);
    const l = await created(api.post('/api/v3/labels/', { project: p, name: 'SF label' }));
    const a = await created(api.post('/api/v3/label-sets/', { project: p, name: 'Alpha', categories: [c.id], labels: [l.id] }));
    const b = await created(api.post('/api/v3/label-sets/', { project: p, name: 'Beta' }));
    expect(ids((await api.get(`/api/v3/label-sets/?project=${p}`)).body)).toEqual([c.id, a.id, b.id]);
    expect(ids((await api.get(`/api/v3/label-sets/?project_id=${p}&is_default=true`)).body)).toEqual([c.id]);
    expect(ids((await api.get(`/api/v3/label-sets/?project=${p}&is_default=false`)).body)).toEqual([a.id, b.id]);
    expect(ids((await api.get(`/api/v3/label-sets/?category=${c.id}`)).body)).toEqual([c.id, a.id]);
    expect(ids((await api.get(`/api/v3/label-sets/?project=${p}&name=ET`)).body)).toEqual([b.id]);
    expect((await bob.get(`/api/v3/label-sets/?project=${p}`)).body.count).toBe(0);

    expect((await api.delete(`/api/v3/label-sets/${a.id}/`)).status).toBe(204);
    expect((await api.get(`/api/v3/label-sets/${a.id}/`)).status).toBe(404);
    expect((await api.get(`/api/v3/labels/${l.id}/`)).body).toMatchObject({ label_sets: [], categories: [] });
    expect((await api.get(`/api/v3/categories/${c.id}/`)).body.label_sets).toEqual([c.id]);
  });
});

describe('list conventions', () => {
  let p: number;
  let made: any[];
  beforeAll(async () => {
    p = (await api.post('/api/v3/projects/', { name: 'Conventions' })).body.id;
    made = [];
    // Names are unique per project (issue 12), so "Alpha 2" rather than a second "Alpha".
    for (const name of ['Beta', 'Alpha', 'Gamma', 'Alpha 2']) made.push(await newCategory(name, p));
  });

  it('orders by several fields, with - for descending', async () => {
    const [beta, alpha1, gamma, alpha2] = made.map((c) => c.id);
    expect(ids((await api.get(`/api/v3/categories/?project=${p}&ordering=name,-id`)).body)).toEqual([alpha1, alpha2, beta, gamma]);
    expect(ids((await api.get(`/api/v3/categories/?project=${p}&ordering=-name,id`)).body)).toEqual([gamma, beta, alpha2, alpha1]);
    expect(ids((await api.get(`/api/v3/label-sets/?project=${p}&ordering=-created_at,-id`)).body)).toEqual([alpha2, gamma, alpha1, beta]);
    const bad = await api.get(`/api/v3/label-sets/?ordering=updated_at`);
    expect(bad.status).toBe(400);
    expect(bad.body.ordering[0]).toMatch(/Cannot order by "updated_at"/);
  });

  it('pages with limit and offset and absolute next/previous links', async () => {
    const first = (await api.get(`/api/v3/categories/?project=${p}&limit=3`)).body;
    expect(first.count).toBe(4);
    expect(first.results).toHaveLength(3);
    expect(first.previous).toBeNull();
    expect(first.next).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v3\/categories\/\?/);
    const second = (await api.get(first.next)).body;
    expect(ids(second)).toEqual([made[3].id]);
    expect(second.next).toBeNull();
    expect(ids((await api.get(second.previous)).body)).toEqual(ids(first));
  });

  it('limits fields with fields=', async () => {
    const r = (await api.get(`/api/v3/labels/?project=${project}&limit=2&fields=id,name`)).body;
    for (const item of r.results) expect(Object.keys(item).sort()).toEqual(['id', 'name']);
    const one = (await api.get(`/api/v3/categories/${made[0].id}/?fields=id,name`)).body;
    expect(one).toEqual({ id: made[0].id, name: 'Beta' });
  });

  it('bounds created_at with exclusive dates', async () => {
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const count = async (q: string) => (await api.get(`/api/v3/categories/?project=${p}&${q}`)).body.count;
    expect(await count(`created_at_after=${day(-1)}`)).toBe(4);
    expect(await count(`created_at_after=${day(0)}`)).toBe(0);
    expect(await count(`created_at_before=${day(1)}`)).toBe(4);
    expect(await count(`created_at_before=${day(0)}`)).toBe(0);
    expect(await count(`created_at_after=${day(-1)}&created_at_before=${day(1)}`)).toBe(4);
  });
});

describe('payslips example project', () => {
  interface SourceSet { id: number; name: string; is_default: boolean; has_multiple_sections: boolean; labels: number[]; default_section_labels: number[] }
  interface SourceLabel { id: number; text: string; get_data_type_display: string; description: string; threshold: number }
  // The files are JSON5 by name; they hold plain JSON, which JSON.parse reads (checked with node -e).
  const dataset = '/work/shared/datasets/payslips';
  const read = <T>(file: string): T => JSON.parse(fs.readFileSync(path.join(dataset, file), 'utf8')) as T;

  it('imports its label sets and labels through the API with the same memberships', async () => {
    const sets = read<SourceSet[]>('label_sets.json5');
    const labels = read<SourceLabel[]>('labels.json5');
    const p = (await api.post('/api/v3/projects/', { name: 'Payslips' })).body.id;
    const setId = new Map<number, number>(); // source label set id -> new id
    const labelId = new Map<number, number>();

    // Categories first (their default label sets keep the category's id), then labels, then the others.
    for (const set of sets.filter((x) => x.is_default)) {
      setId.set(set.id, (await created(api.post('/api/v3/categories/', { project: p, name: set.name }))).id);
    }
    for (const l of labels) {
      const made = await created(
        api.post('/api/v3/labels/', { project: p, text: l.text, data_type: l.get_data_type_display, description: l.description, threshold: l.threshold }),
      );
      labelId.set(l.id, made.id);
    }
    for (const set of sets) {
      const body = { labels: set.labels.map((id) => labelId.get(id)!), has_multiple_annotation_sets: set.has_multiple_sections };
      if (set.is_default) {
        await api.patch(`/api/v3/label-sets/${setId.get(set.id)}/`, body);
      } else {
        const categories = set.default_section_labels.map((id) => setId.get(id)!);
        setId.set(set.id, (await created(api.post('/api/v3/label-sets/', { project: p, name: set.name, categories, ...body }))).id);
      }
    }

    expect((await api.get(`/api/v3/categories/?project=${p}`)).body.count).toBe(sets.filter((x) => x.is_default).length);
    expect((await api.get(`/api/v3/label-sets/?project=${p}`)).body.count).toBe(sets.length);
    expect((await api.get(`/api/v3/labels/?project=${p}&limit=1`)).body.count).toBe(labels.length);

    const gotSets = (await api.get(`/api/v3/label-sets/?project=${p}`)).body.results;
    const byId = new Map<number, any>(gotSets.map((x: any) => [x.id, x]));
    for (const set of sets) {
      const got = byId.get(setId.get(set.id)!);
      expect(got.name).toBe(set.name);
      expect(got.is_default).toBe(set.is_default);
      expect(got.has_multiple_sections).toBe(set.has_multiple_sections);
      expect(got.labels).toEqual(set.labels.map((id) => labelId.get(id)!).sort((a, b) => a - b));
      // A default set's source links list its sections; a section's list its categories.
      const cats = set.is_default ? [set.id] : set.default_section_labels;
      expect(got.categories).toEqual(cats.map((id) => setId.get(id)!).sort((a, b) => a - b));
    }

    const gotLabels = (await api.get(`/api/v3/labels/?project=${p}`)).body.results;
    const labelById = new Map<number, any>(gotLabels.map((x: any) => [x.id, x]));
    const categoryOf = new Map<number, number[]>(sets.map((x) => [x.id, x.is_default ? [x.id] : x.default_section_labels]));
    for (const l of labels) {
      const got = labelById.get(labelId.get(l.id)!);
      expect(got).toMatchObject({ name: l.text, data_type: l.get_data_type_display, threshold: l.threshold });
      const holding = sets.filter((x) => x.labels.includes(l.id));
      expect(got.label_sets).toEqual(holding.map((x) => setId.get(x.id)!).sort((a, b) => a - b));
      const cats = [...new Set(holding.flatMap((x) => categoryOf.get(x.id)!))].map((id) => setId.get(id)!).sort((a, b) => a - b);
      expect(got.categories).toEqual(cats);
    }
    // Spot check: the Lohnabrechnung category lists its five label sets.
    const lohn = sets.find((x) => x.name === 'Lohnabrechnung')!;
    const cat = (await api.get(`/api/v3/categories/${setId.get(lohn.id)}/`)).body;
    expect(cat.label_sets).toHaveLength(5);
    expect(cat.labels).toHaveLength(lohn.labels.length);
  });
});
