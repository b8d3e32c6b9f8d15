// Public documents read without credentials (spec 5.1), everything the renderer's public viewer loads:
// the detail with its annotations, a page with its words, and the page image and thumbnail. A private
// document and one that does not exist answer an anonymous caller alike (401), so the public viewer cannot
// tell, and neither can anyone probing ids. A reader outside the project gets the public shape: the
// document, its pages and values, nothing of the project's workings (callback URL, assignee, user ids).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/testServer.ts';
import { created, makeTaxonomy, pdfWithText, upload, type Taxonomy } from '../helpers/documentFixtures.ts';

let s: TestServer;
let t: Taxonomy;

beforeAll(async () => {
  s = await startTestServer();
  t = await makeTaxonomy(s.admin, 'Public');
});
afterAll(() => s.close());

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47];

/** An anonymous GET of a file: status, content type and the first bytes. */
async function anonymousFile(path: string) {
  const res = await fetch(`${s.url}${path}`);
  const bytes = new Uint8Array(await res.arrayBuffer());
  return { status: res.status, type: res.headers.get('content-type'), head: [...bytes.slice(0, 4)], text: new TextDecoder().decode(bytes) };
}

async function processedDocument(text: string) {
  const d = await created(upload(s.admin, { project: t.project, category: t.category, sync: 'true' }, { name: `${text}.pdf`, data: await pdfWithText(text) }));
  expect(d.status_data).toBe(2);
  expect(d.pages[0].image_url).toBe(`/page/show-image/${d.pages[0].id}/`);
  return d;
}

describe('the public viewer reads a public document without credentials', () => {
  it('serves the detail with its annotation values, the page and its words, and the page image and thumbnail', async () => {
    const d = await processedDocument('Total 42,50');
    const found = await s.admin.post(`/api/v3/documents/${d.id}/search/`, { q: '42,50' });
    await created(s.admin.post('/api/v3/annotations/', { document: d.id, label: t.labels.total, label_set: t.category, span: found.body.span, is_correct: true, revised: true }));
    expect((await s.admin.patch(`/api/v3/documents/${d.id}/`, { is_public: true })).body.is_public).toBe(true);

    const anon = s.anonymous();
    const detail = await anon.get(`/api/v3/documents/${d.id}/`);
    expect(detail.status, detail.text).toBe(200);
    const total = detail.body.annotation_sets.flatMap((x: any) => x.labels).find((l: any) => l.id === t.labels.total);
    expect(total.annotations.map((a: any) => a.offset_string)).toEqual(['42,50']);
    // Other documents of the project are not an anonymous reader's business (the public shape has no such field).
    expect(detail.body.duplicate_of).toBeUndefined();

    const page = await anon.get(`/api/v3/documents/${d.id}/pages/1/`);
    expect(page.status, page.text).toBe(200);
    expect(page.body.entities.map((w: any) => w.offset_string)).toContain('42,50');

    for (const url of [page.body.image_url, page.body.thumbnail_url]) {
      const file = await anonymousFile(url);
      expect(file.status, `${url}: ${file.text.slice(0, 200)}`).toBe(200);
      expect(file.type).toBe('image/png');
      expect(file.head).toEqual(PNG_SIGNATURE);
    }

    // Made private again: every one of these needs credentials once more.
    await s.admin.patch(`/api/v3/documents/${d.id}/`, { is_public: false });
    expect((await anon.get(`/api/v3/documents/${d.id}/`)).status).toBe(401);
    expect((await anon.get(`/api/v3/documents/${d.id}/pages/1/`)).status).toBe(401);
    expect((await anonymousFile(page.body.image_url)).status).toBe(401);
    expect((await anonymousFile(page.body.thumbnail_url)).status).toBe(401);
  });

  it('answers a private document and a missing one alike, and a member still reads the private one', async () => {
    const d = await processedDocument('Private');
    const anon = s.anonymous();
    const missingId = d.id + 100_000;
    const privateDetail = await anon.get(`/api/v3/documents/${d.id}/`);
    const missingDetail = await anon.get(`/api/v3/documents/${missingId}/`);
    expect([privateDetail.status, missingDetail.status]).toEqual([401, 401]);
    expect(missingDetail.body).toEqual(privateDetail.body);

    const privateImage = await anonymousFile(`/page/show-image/${d.pages[0].id}/`);
    const missingImage = await anonymousFile(`/page/show-image/${d.pages[0].id + 100_000}/`);
    expect([privateImage.status, missingImage.status]).toEqual([401, 401]);
    expect(missingImage.text).toBe(privateImage.text);

    // With credentials nothing changes: the member reads it, a missing page is a 404 that says so.
    expect((await s.admin.get(`/api/v3/documents/${d.id}/`)).status).toBe(200);
    const image = await fetch(`${s.url}/page/show-image/${d.pages[0].id}/?token=${s.admin.token}`);
    expect(image.status).toBe(200);
    const missing = await s.admin.get(`/page/show-image/${d.pages[0].id + 100_000}/`);
    expect(missing.status).toBe(404);
    expect(missing.body.detail).toBe('Page not found.');
  });
});

describe('what a reader outside the project sees of a public document', () => {
  const SECRET = 's3cr3t-hook-token-4711';
  const PUBLIC_FIELDS = ['id', 'number_of_pages', 'data_file_name', 'thumbnail_url', 'status', 'status_data', 'labeling_available', 'is_public', 'text', 'pages', 'ocr_engine', 'annotation_sets'];
  const PUBLIC_ANNOTATION_FIELDS = ['id', 'document', 'label', 'label_set', 'annotation_set', 'span', 'offset_string', 'start_offset', 'end_offset', 'confidence', 'is_typed', 'review_state', 'normalized'];

  it('leaves out the callback URL, the assignee, user and project ids, review business and declined values', async () => {
    const d = await processedDocument('Total 99,00 Datum 01.02.2024');
    const member = await s.userClient('assignee-public@test.local');
    expect((await s.admin.post(`/api/v3/projects/${t.project}/members/`, { email: 'assignee-public@test.local' })).status).toBeLessThan(300);
    const patched = await s.admin.patch(`/api/v3/documents/${d.id}/`, {
      is_public: true, callback_url: `https://hooks.example.org/folio?secret=${SECRET}`, assignee: 'assignee-public@test.local', dataset_status: 2,
    });
    expect(patched.status, patched.text).toBe(200);
    const found = await s.admin.post(`/api/v3/documents/${d.id}/search/`, { q: '99,00' });
    await created(s.admin.post('/api/v3/annotations/', { document: d.id, label: t.labels.total, label_set: t.category, span: found.body.span, is_correct: true, revised: true }));
    const date = await s.admin.post(`/api/v3/documents/${d.id}/search/`, { q: '01.02.2024' });
    const declined = await created(s.admin.post('/api/v3/annotations/', { document: d.id, label: t.labels.date, label_set: t.category, span: date.body.span }));
    expect((await s.admin.patch(`/api/v3/annotations/${declined.id}/`, { revised: true, is_correct: false })).body.review_state).toBe('Declined');

    const outsider = await s.userClient('outsider-public@test.local');
    for (const [who, client] of [['anonymous', s.anonymous()], ['a signed-in non-member', outsider]] as const) {
      for (const path of [`/api/v3/documents/${d.id}/`, `/api/v2/docs/${d.id}/`]) {
        const r = await client.get(path);
        expect(r.status, `${who} ${path}: ${r.text}`).toBe(200);
        expect(Object.keys(r.body).sort(), `${who} ${path}`).toEqual([...PUBLIC_FIELDS].sort());
        // Nowhere in the answer: the hook's secret, the assignee's or uploader's email, the project's id as a field.
        expect(r.text).not.toContain(SECRET);
        expect(r.text).not.toContain('hooks.example.org');
        expect(r.text).not.toContain('assignee-public@test.local');
        expect(r.text).not.toContain('admin@test.local');
        expect(r.text).not.toMatch(/"(project|created_by|revised_by|assignee|callback_url|extraction_ai|document_set|missing_annotation)":/);
        const labels = r.body.annotation_sets.flatMap((x: any) => x.labels);
        const annotations = labels.flatMap((l: any) => l.annotations);
        expect(annotations.map((a: any) => a.offset_string)).toEqual(['99,00']);
        expect(Object.keys(annotations[0]).sort()).toEqual([...PUBLIC_ANNOTATION_FIELDS].sort());
        expect(labels.map((l: any) => Object.keys(l).sort())).toContainEqual(['annotations', 'data_type', 'id', 'name']);
        expect(r.body.pages[0].image_url).toBe(`/page/show-image/${r.body.pages[0].id}/`);
      }
    }

    // A member of the project still reads everything, the declined value and the callback URL included.
    const full = await member.get(`/api/v3/documents/${d.id}/`);
    expect(full.status).toBe(200);
    expect(full.body).toMatchObject({ project: t.project, assignee: patched.body.assignee, assignee_email: 'assignee-public@test.local', callback_url: `https://hooks.example.org/folio?secret=${SECRET}` });
    expect(typeof full.body.assignee).toBe('number');
    expect(full.body.annotation_sets.flatMap((x: any) => x.labels).flatMap((l: any) => l.annotations)).toHaveLength(2);
  });
});
