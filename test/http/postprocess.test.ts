// Post-process without a splitting AI: a reviewer splits, turns and re-orders a processed document's
// pages. The parts are new documents of one document set, processed for real; bad requests change nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { startTestServer, type Client, type TestServer } from '../helpers/testServer.ts';
import { created, upload } from '../helpers/documentFixtures.ts';

async function threePages(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (const word of ['Alpha', 'Bravo', 'Charlie']) pdf.addPage([595, 842]).drawText(`Page ${word} text`, { x: 72, y: 770, size: 14, font });
  return pdf.save();
}

async function waitDone(c: Client, id: number): Promise<any> {
  for (let i = 0; i < 300; i++) {
    const d = (await c.get(`/api/v3/documents/${id}/`)).body;
    if (d.status_data === 2 || d.status_data === 111) return d;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`document ${id} did not finish`);
}

describe('post-process', () => {
  let s: TestServer;
  let project: number;

  beforeAll(async () => {
    s = await startTestServer();
    project = (await created(s.admin.post('/api/v3/projects/', { name: 'Post' }))).id;
  });
  afterAll(() => s?.close());

  async function document(): Promise<{ id: number; pages: number[] }> {
    const doc = await created(upload(s.admin, { project, sync: 'true' }, { name: 'stack.pdf', data: await threePages() }));
    expect(doc.status_data).toBe(2);
    const pages = [];
    for (let n = 1; n <= 3; n++) pages.push((await s.admin.get(`/api/v3/documents/${doc.id}/pages/${n}/`)).body.id);
    return { id: doc.id, pages };
  }

  it('refuses what cannot be done, and changes nothing', async () => {
    const { id, pages } = await document();
    const other = await document();
    const post = (body: unknown) => s.admin.post(`/api/v3/documents/${id}/postprocess/`, body);
    expect((await post([])).status).toBe(400);
    expect((await post([{ pages: [pages[0], pages[1], other.pages[2]] }])).body['0.pages.2'][0]).toMatch(/not a page of document/);
    expect((await post([{ pages: [pages[0], pages[1]] }, { pages: [pages[1], pages[2]] }])).body['1.pages.0'][0]).toMatch(/used twice/);
    expect((await post([{ pages: [pages[0], pages[1]] }])).body.pages[0]).toMatch(/in no document/);
    expect((await post([{ pages: [{ id: pages[0], angle: 45 }, pages[1], pages[2]] }])).status).toBe(400);
    expect((await post([{ pages: pages, category: 999999 }])).body['0.category'][0]).toMatch(/Invalid pk/);
    const stranger = await s.userClient('stranger-pp@test.local');
    expect((await stranger.post(`/api/v3/documents/${id}/postprocess/`, [{ pages }])).status).toBe(404);
    expect((await s.admin.get(`/api/v3/documents/${id}/`)).body.number_of_pages).toBe(3);
  });

  it('splits, turns and re-orders into a document set; the parts are processed', async () => {
    const { id, pages } = await document();
    const r = await s.admin.post(`/api/v3/documents/${id}/postprocess/`, [
      { name: 'first.pdf', pages: [{ id: pages[2], number: 3, angle: 0 }, { id: pages[0], number: 1, angle: 0 }] },
      { pages: [{ id: pages[1], number: 2, angle: 90 }] },
    ]);
    expect(r.status, r.text).toBe(200);
    expect(r.body).toHaveLength(2);
    const set = r.body[0].document_set;
    expect(set).toEqual(r.body[1].document_set);
    expect(r.body[0].data_file_name).toBe('first.pdf');
    expect((await s.admin.get(`/api/v3/documents/${id}/`)).status).toBe(404);

    const [a, b] = await Promise.all(r.body.map((d: any) => waitDone(s.admin, d.id)));
    expect(a.number_of_pages).toBe(2);
    expect(a.text.split('\f').map((t: string) => t.trim())).toEqual(['Page Charlie text', 'Page Alpha text']);
    expect(b.text.trim()).toBe('Page Bravo text');
    const turned = (await s.admin.get(`/api/v3/documents/${b.id}/pages/1/`)).body;
    expect(turned.original_size.map(Math.round)).toEqual([842, 595]);

    const listed = (await s.admin.get(`/api/v3/document-sets/${set}/`)).body;
    expect(listed).toMatchObject({ id: set, original_file_name: 'stack.pdf', original_number_of_pages: 3, documents: [a.id, b.id] });
    const expanded = (await s.admin.get(`/api/v3/document-sets/${set}/?expand=documents`)).body;
    expect(expanded.documents.map((d: any) => d.id)).toEqual([a.id, b.id]);
    const original = await s.admin.request('GET', listed.original_file_url);
    expect(original.status).toBe(200);
  });

  it('one document with every page as it was keeps the document', async () => {
    const { id, pages } = await document();
    const r = await s.admin.post(`/api/v3/documents/${id}/postprocess/`, { pages });
    expect(r.status, r.text).toBe(200);
    expect(r.body.map((d: any) => d.id)).toEqual([id]);
    expect(r.body[0].document_set).toBeNull();
  });
});
