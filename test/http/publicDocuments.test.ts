// Public documents read without credentials (spec 5.1), everything the renderer's public viewer loads:
// the detail with its annotations, a page with its words, and the page image and thumbnail. A private
// document and one that does not exist answer an anonymous caller alike (401), so the public viewer cannot
// tell, and neither can anyone probing ids.
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
    // Other documents of the project are not an anonymous reader's business.
    expect(detail.body.duplicate_of).toEqual([]);

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
