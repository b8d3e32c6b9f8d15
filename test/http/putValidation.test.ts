// Issue 31 item 3: PUT (and PATCH, for the fields it carries) validates a body exactly as the matching
// POST does: the same 400 and the same body, field by field. Each row sends one bad body to POST and to
// the PUT of an existing record of that collection (and the same bad field to its PATCH).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, tempDir, type ApiResponse, type TestServer } from '../helpers/testServer.ts';
import { created, makeTaxonomy, pdfWithLettersAtSpans, span, upload, type Taxonomy } from '../helpers/documentFixtures.ts';

let s: TestServer;
let t: Taxonomy;
let other: Taxonomy;
let doc: number;
let annotation: number;
let missing: number;
let bobId: number;
let folderPath: string;
let receipt: number;

beforeAll(async () => {
  folderPath = fs.realpathSync(tempDir('folio-put-folder-'));
  s = await startTestServer({ env: { FOLIO_IMPORT_ROOTS: path.dirname(folderPath) } });
  t = await makeTaxonomy(s.admin, 'PUT as POST');
  other = await makeTaxonomy(s.admin, 'Another project');
  receipt = (await created(s.admin.post('/api/v3/categories/', { project: other.project, name: 'Receipt' }))).id;
  await s.userClient('bob-put@test.local');
  bobId = (await s.core.services.users.byEmail('bob-put@test.local')).id;
  await created(s.admin.post(`/api/v3/projects/${t.project}/members/`, { email: 'bob-put@test.local' }));
  const pdf = await pdfWithLettersAtSpans();
  doc = (await created(upload(s.admin, { project: t.project, category: t.category, sync: 'true' }, { name: 'put.pdf', data: pdf }))).id;
  annotation = (await created(s.admin.post('/api/v3/annotations/', { document: doc, label: t.labels.date, label_set: t.category, span: [span(1)] }))).id;
  missing = (await created(s.admin.post('/api/v3/missing-annotations/', { document: doc, label: t.labels.total, label_set: t.category }))).id;
}, 120_000);
afterAll(async () => {
  await s.close();
  fs.rmSync(folderPath, { recursive: true, force: true });
});

/** Both answers are the same 400, with a body that names a field. */
function same(post: ApiResponse, put: ApiResponse, what: string): void {
  expect(post.status, `POST ${what}: ${post.text}`).toBe(400);
  expect({ status: put.status, body: put.body }, `PUT/PATCH ${what}`).toEqual({ status: 400, body: post.body });
  expect(Object.keys(post.body).length).toBeGreaterThan(0);
}

type Case = [what: string, body: Record<string, unknown>];

describe('projects', () => {
  const project = () => ({ name: 'Valid' });
  const cases: Case[] = [
    ['no name', {}],
    ['blank name', { name: '  ' }],
    ['a number as name', { name: 5 }],
    ['no OCR language', { ...project(), ocr_languages: [] }],
    ['an unknown OCR language', { ...project(), ocr_languages: ['Klingon'] }],
    ['splitting_enabled not a boolean', { ...project(), splitting_enabled: 'maybe' }],
  ];
  it.each(cases)('%s', async (what, body) => {
    same(await s.admin.post('/api/v3/projects/', body), await s.admin.put(`/api/v3/projects/${t.project}/`, body), what);
  });
  it.each(cases.slice(1))('PATCH: %s', async (what, body) => {
    same(await s.admin.post('/api/v3/projects/', body), await s.admin.patch(`/api/v3/projects/${t.project}/`, body), what);
  });
});

describe('categories, labels, label sets', () => {
  const cases: [collection: string, what: string, id: () => number, body: () => Record<string, unknown>][] = [
    ['categories', 'no project', () => t.category, () => ({ name: 'New' })],
    ['categories', 'no name', () => t.category, () => ({ project: t.project })],
    ['categories', 'an unknown project', () => t.category, () => ({ project: 999_999, name: 'New' })],
    ['categories', 'a project id that is no number', () => t.category, () => ({ project: 'abc', name: 'New' })],
    ['categories', 'a name the project has already (case ignored)', () => receipt, () => ({ project: other.project, name: 'INVOICE ' })],
    ['labels', 'no name', () => t.labels.date, () => ({ project: t.project })],
    ['labels', 'an unknown data type', () => t.labels.date, () => ({ project: t.project, name: 'Sum', data_type: 'Money' })],
    ['labels', 'an unknown label set', () => t.labels.date, () => ({ project: t.project, name: 'Sum', label_sets: [999_999] })],
    ['labels', "another project's label set", () => t.labels.date, () => ({ project: t.project, name: 'Sum', label_sets: [other.items] })],
    ['label-sets', 'no name', () => t.items, () => ({ project: t.project })],
    ['label-sets', 'an unknown label', () => t.items, () => ({ project: t.project, name: 'Extra', labels: [999_999] })],
    ['label-sets', 'an unknown category', () => t.items, () => ({ project: t.project, name: 'Extra', categories: [999_999] })],
    ['label-sets', 'has_multiple_sections not a boolean', () => t.items, () => ({ project: t.project, name: 'Extra', has_multiple_sections: 'often' })],
    ['label-sets', 'a name the project has already', () => other.items, () => ({ project: other.project, name: 'invoice' })],
  ];
  it.each(cases)('%s: %s', async (collection, what, id, body) => {
    const post = await s.admin.post(`/api/v3/${collection}/`, body());
    same(post, await s.admin.put(`/api/v3/${collection}/${id()}/`, body()), what);
  });
  it.each(cases.filter(([, what]) => !what.startsWith('no ')))('PATCH %s: %s', async (collection, what, id, body) => {
    const post = await s.admin.post(`/api/v3/${collection}/`, body());
    same(post, await s.admin.patch(`/api/v3/${collection}/${id()}/`, body()), what);
  });
});

describe('annotations', () => {
  const cases: Case[] = [
    ['no label', { span: [span(3)], label_set: 0 }],
    ['neither annotation_set nor label_set (spec 7.1)', { label: 0, span: [span(3)] }],
    ['no span', { label: 0, label_set: 0 }],
    ['an empty span list', { label: 0, label_set: 0, span: [] }],
    ['a span without coordinates', { label: 0, label_set: 0, span: [{ page_index: 0 }] }],
    ['an unknown label', { label: 999_999, label_set: 0, span: [span(3)] }],
    ['a label set of another project', { label: 0, label_set: -1, span: [span(3)] }],
    ['is_correct not a boolean', { label: 0, label_set: 0, span: [span(3)], is_correct: 'sure' }],
  ];
  const fill = (body: Record<string, unknown>) => ({
    document: doc,
    ...body,
    ...(body.label === 0 ? { label: t.labels.total } : {}),
    ...(body.label_set === 0 ? { label_set: t.category } : body.label_set === -1 ? { label_set: other.category } : {}),
  });
  it.each(cases)('%s', async (what, body) => {
    same(await s.admin.post('/api/v3/annotations/', fill(body)), await s.admin.put(`/api/v3/annotations/${annotation}/`, fill(body)), what);
  });
});

describe('missing annotations', () => {
  const cases: Case[] = [
    ['no label_set (spec 2.9)', { label: 0 }],
    ['no label_set, naming the label the mark has (PUT answered 200)', { label: -2 }],
    ['no label', { label_set: 0 }],
    ['an unknown label set', { label: 0, label_set: 999_999 }],
    ['a label set of another project', { label: 0, label_set: -1 }],
    ['a label id that is no number', { label: 'total', label_set: 0 }],
  ];
  const fill = (body: Record<string, unknown>) => ({
    document: doc,
    ...body,
    ...(body.label === 0 ? { label: t.labels.amount } : body.label === -2 ? { label: t.labels.total } : {}),
    ...(body.label_set === 0 ? { label_set: t.items } : body.label_set === -1 ? { label_set: other.items } : {}),
  });
  it.each(cases)('%s', async (what, body) => {
    same(await s.admin.post('/api/v3/missing-annotations/', fill(body)), await s.admin.put(`/api/v3/missing-annotations/${missing}/`, fill(body)), what);
    // the mark is where it was
    expect((await s.admin.get(`/api/v3/missing-annotations/${missing}/`)).body).toMatchObject({ label: t.labels.total, label_set: t.category });
  });
  it.each(cases.filter(([what]) => !what.startsWith('no ')))('PATCH: %s', async (what, body) => {
    same(await s.admin.post('/api/v3/missing-annotations/', fill(body)), await s.admin.patch(`/api/v3/missing-annotations/${missing}/`, fill(body)), what);
  });
});

describe('documents: the fields the upload shares with PUT and PATCH', () => {
  const cases: Case[] = [
    ['a category of another project', { category: -1 }],
    ['an unknown category', { category: 999_999 }],
    ['an assignee who is not a member', { assignee: 'nobody@test.local' }],
    ['an unknown assignee id', { assignee: 999_999 }],
    ['a callback URL that is no http URL', { callback_url: 'ftp://example.org/hook' }],
    ['a callback URL to a metadata service', { callback_url: 'http://169.254.169.254/latest/' }],
    ['a dataset status out of range', { dataset_status: 9 }],
  ];
  const fill = (body: Record<string, unknown>) => ({ ...body, ...(body.category === -1 ? { category: other.category } : {}) });
  it.each(cases)('%s', async (what, body) => {
    const fields = Object.fromEntries(Object.entries(fill(body)).map(([k, v]) => [k, String(v)]));
    const post = await upload(s.admin, { project: t.project, ...fields }, { name: 'bad.pdf', data: await pdfWithLettersAtSpans() });
    same(post, await s.admin.put(`/api/v3/documents/${doc}/`, { project: t.project, data_file_name: 'put.pdf', ...fill(body) }), what);
    same(post, await s.admin.patch(`/api/v3/documents/${doc}/`, fill(body)), `PATCH ${what}`);
  });
});

describe('members', () => {
  it('an unknown role is the same 400 on POST and PATCH', async () => {
    const post = await s.admin.post(`/api/v3/projects/${t.project}/members/`, { email: 'bob-put@test.local', role: 'boss' });
    same(post, await s.admin.patch(`/api/v3/projects/${t.project}/members/${bobId}/`, { role: 'boss' }), 'role boss');
  });
});

describe('import folders', () => {
  const cases: Case[] = [
    ['a relative path', { path: 'relative/folder' }],
    ['a blank path', { path: ' ' }],
    ['a folder that does not exist', { path: '/nonexistent/folio-put' }],
    ['a category of another project', { path: '', category: -1 }],
    ['enabled not a boolean', { path: '', enabled: 'sometimes' }],
  ];
  it.each(cases)('%s', async (what, body) => {
    const base = `/api/v3/projects/${t.project}/import-folders/`;
    const folder = (await s.admin.get(base)).body.results[0] ?? (await created(s.admin.post(base, { path: folderPath })));
    // A valid folder that is not watched yet, so POST's only mistake is the one of the row.
    const fresh = fs.mkdtempSync(path.join(path.dirname(folderPath), 'folio-put-fresh-'));
    const fill = { ...body, ...(body.path === '' ? { path: fresh } : {}), ...(body.category === -1 ? { category: other.category } : {}) };
    const post = await s.admin.post(base, fill);
    same(post, await s.admin.patch(`${base}${folder.id}/`, fill), what);
    fs.rmSync(fresh, { recursive: true, force: true });
  });
});
