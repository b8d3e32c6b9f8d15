// Public documents read without credentials (spec 5.1) through their public link, a random token with an
// optional expiry (issue 29 item 4, migration 0015): everything the renderer's public viewer loads, the detail
// with its annotations, a page with its words, and the page image and thumbnail. Never by id: a public
// document, a private one and one that does not exist answer an anonymous caller alike (401), so nobody can
// walk the ids. Made public again it gets a new link and the old one is a 404; an expired link is a 410. The
// link's reader gets the public shape: the document, its pages and values, nothing of the project's workings.
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

/** Makes `id` public and answers its link, as the member's detail shows it. */
async function publish(id: number, extra: Record<string, unknown> = {}) {
  const r = await s.admin.patch(`/api/v3/documents/${id}/`, { is_public: true, ...extra });
  expect(r.status, r.text).toBe(200);
  expect(r.body.is_public).toBe(true);
  return r.body.public_link as { token: string; url: string; expires_at: string | null; expired: boolean };
}

describe('the public viewer reads a public document by its link, without credentials', () => {
  it('serves the detail with its annotation values, the page and its words, and the page image and thumbnail', async () => {
    const d = await processedDocument('Total 42,50');
    const found = await s.admin.post(`/api/v3/documents/${d.id}/search/`, { q: '42,50' });
    await created(s.admin.post('/api/v3/annotations/', { document: d.id, label: t.labels.total, label_set: t.category, span: found.body.span, is_correct: true, revised: true }));
    expect((await s.admin.get(`/api/v3/documents/${d.id}/`)).body.public_link).toBeNull();
    const link = await publish(d.id);
    // At least 128 random bits: 32 base64url characters are 192.
    expect(link.token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(link).toEqual({ token: link.token, url: `/api/v3/public/${link.token}/`, expires_at: null, expired: false });

    const anon = s.anonymous();
    const detail = await anon.get(link.url);
    expect(detail.status, detail.text).toBe(200);
    const total = detail.body.annotation_sets.flatMap((x: any) => x.labels).find((l: any) => l.id === t.labels.total);
    expect(total.annotations.map((a: any) => a.offset_string)).toEqual(['42,50']);
    // Other documents of the project are not an anonymous reader's business (the public shape has no such field).
    expect(detail.body.duplicate_of).toBeUndefined();
    // Its images by the link, never by page id.
    expect(detail.body.pages[0].image_url).toBe(`/api/v3/public/${link.token}/pages/1/image/`);
    expect(detail.body.thumbnail_url).toBe(`/api/v3/public/${link.token}/pages/1/thumbnail/`);

    const page = await anon.get(`${link.url}pages/1/`);
    expect(page.status, page.text).toBe(200);
    expect(page.body.entities.map((w: any) => w.offset_string)).toContain('42,50');

    for (const url of [page.body.image_url, page.body.thumbnail_url]) {
      const file = await anonymousFile(url);
      expect(file.status, `${url}: ${file.text.slice(0, 200)}`).toBe(200);
      expect(file.type).toBe('image/png');
      expect(file.head).toEqual(PNG_SIGNATURE);
    }

    // By its id the public document answers an anonymous reader as a private one does: the id links stopped working.
    expect((await anon.get(`/api/v3/documents/${d.id}/`)).status).toBe(401);
    expect((await anon.get(`/api/v2/docs/${d.id}/`)).status).toBe(401);
    expect((await anon.get(`/api/v3/documents/${d.id}/pages/1/`)).status).toBe(401);
    expect((await anonymousFile(`/page/show-image/${d.pages[0].id}/`)).status).toBe(401);
    expect((await anonymousFile(`/page/show-thumbnail/${d.pages[0].id}/`)).status).toBe(401);
    // A signed-in reader outside the project too: by id it is a document of another project (404).
    const outsider = await s.userClient('outsider-by-id@test.local');
    expect((await outsider.get(`/api/v3/documents/${d.id}/`)).status).toBe(404);

    // Made private again: the link is gone, and with it every page and image.
    await s.admin.patch(`/api/v3/documents/${d.id}/`, { is_public: false });
    expect((await s.admin.get(`/api/v3/documents/${d.id}/`)).body.public_link).toBeNull();
    const gone = await anon.get(link.url);
    expect(gone.status).toBe(404);
    expect(gone.body.detail).toMatch(/^No public document has this link/);
    expect((await anon.get(`${link.url}pages/1/`)).status).toBe(404);
    expect((await anonymousFile(page.body.image_url)).status).toBe(404);
    expect((await anonymousFile(page.body.thumbnail_url)).status).toBe(404);
  });

  it('gives a document made public again a new link, and the old link stops working; saying public again keeps it', async () => {
    const d = await processedDocument('Republished');
    const anon = s.anonymous();
    const first = await publish(d.id);
    expect((await publish(d.id)).token).toBe(first.token);
    await s.admin.patch(`/api/v3/documents/${d.id}/`, { is_public: false });
    const second = await publish(d.id);
    expect(second.token).not.toBe(first.token);
    expect((await anon.get(first.url)).status).toBe(404);
    expect((await anon.get(second.url)).status).toBe(200);

    // A new link on demand: the one before stops working at once.
    const third = await s.admin.post(`/api/v3/documents/${d.id}/public-link/`, {});
    expect(third.status, third.text).toBe(200);
    expect(third.body.token).not.toBe(second.token);
    expect((await anon.get(second.url)).status).toBe(404);
    expect((await anon.get(third.body.url)).status).toBe(200);
    // Only members make links; a made-up or malformed token is the same 404 as an old one.
    const outsider = await s.userClient('outsider-link@test.local');
    expect((await outsider.post(`/api/v3/documents/${d.id}/public-link/`, {})).status).toBe(404);
    expect((await anon.post(`/api/v3/documents/${d.id}/public-link/`, {})).status).toBe(401);
    for (const token of ['A'.repeat(32), 'short', `${third.body.token}x`]) expect((await anon.get(`/api/v3/public/${token}/`)).status, token).toBe(404);
  });

  it('answers an expired link with 410 that says so, and refuses expiries in the past or on a private document', async () => {
    const d = await processedDocument('Expiring');
    const anon = s.anonymous();
    const soon = new Date(Date.now() + 1500).toISOString();
    const link = await publish(d.id, { public_expires_at: soon });
    // ISO 8601 with its offset, as every timestamp of the API.
    expect(link.expires_at).toBe(soon.replace('Z', '+00:00'));
    expect(link.expired).toBe(false);
    expect((await anon.get(link.url)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 1600));
    for (const path of [link.url, `${link.url}pages/1/`, `${link.url}pages/1/image/`]) {
      const r = await anon.get(path);
      expect(r.status, path).toBe(410);
      expect(r.body).toEqual({ detail: `This public link expired at ${soon}. Ask whoever shared it for a new link.`, code: 'public_link_expired' });
    }
    expect((await s.admin.get(`/api/v3/documents/${d.id}/`)).body.public_link).toMatchObject({ token: link.token, expired: true });

    // A later expiry brings the same link back; null makes it never expire.
    const later = new Date(Date.now() + 3_600_000).toISOString();
    expect((await s.admin.patch(`/api/v3/documents/${d.id}/`, { public_expires_at: later })).body.public_link).toMatchObject({ token: link.token, expires_at: later.replace('Z', '+00:00'), expired: false });
    expect((await anon.get(link.url)).status).toBe(200);
    expect((await s.admin.patch(`/api/v3/documents/${d.id}/`, { public_expires_at: null })).body.public_link.expires_at).toBeNull();

    const past = await s.admin.patch(`/api/v3/documents/${d.id}/`, { public_expires_at: '2020-01-01T00:00:00Z' });
    expect(past.status).toBe(400);
    expect(past.body.public_expires_at[0]).toMatch(/is in the past/);
    const garbled = await s.admin.patch(`/api/v3/documents/${d.id}/`, { public_expires_at: 'tomorrow' });
    expect(garbled.status).toBe(400);
    expect(garbled.body.public_expires_at[0]).toMatch(/is not a date-time with its offset/);
    const privateDoc = await processedDocument('Private expiry');
    const refused = await s.admin.patch(`/api/v3/documents/${privateDoc.id}/`, { public_expires_at: later });
    expect(refused.status).toBe(400);
    expect(refused.body.public_expires_at[0]).toMatch(/Only a public document has a link to expire/);
    const newLink = await s.admin.post(`/api/v3/documents/${privateDoc.id}/public-link/`, { expires_at: '2020-01-01T00:00:00Z' });
    expect(newLink.status).toBe(400);
    expect(newLink.body.expires_at[0]).toMatch(/is in the past/);
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

    const link = (await s.admin.get(`/api/v3/documents/${d.id}/`)).body.public_link;
    const outsider = await s.userClient('outsider-public@test.local');
    for (const [who, client] of [['anonymous', s.anonymous()], ['a signed-in non-member', outsider], ['a member', member]] as const) {
      for (const path of [link.url]) {
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
        expect(r.body.pages[0].image_url).toBe(`/api/v3/public/${link.token}/pages/1/image/`);
        // The link's token is the reader's already; the member's detail alone shows it as a field.
        expect(r.body.public_link).toBeUndefined();
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
