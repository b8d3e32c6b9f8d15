// The response cache of heavy GETs must never serve an answer the handler would not give now:
// writes through the API, writes by another process (the CLI) and access changes all show at once.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/testServer.ts';
import { created, makeTaxonomy, pdfWithText, textLineSpan, upload, type Taxonomy } from '../helpers/documentFixtures.ts';
import { runFolio } from '../helpers/processes.ts';

let s: TestServer;
let t: Taxonomy;
let doc: number;

beforeAll(async () => {
  s = await startTestServer();
  t = await makeTaxonomy(s.admin, 'Cache');
  // Processed before the tests start (sync): a worker changing the document's status between two reads
  // would make the second answer differ for a reason of its own.
  doc = (await created(upload(s.admin, { project: t.project, category: t.category, sync: 'true' }))).id;
});
afterAll(() => s.close());

const annotationCount = (detail: any) =>
  detail.annotation_sets.reduce((n: number, set: any) => n + set.labels.reduce((m: number, l: any) => m + l.annotations.length, 0), 0);

describe('cached document detail', () => {
  it('shows an API write on the next read', async () => {
    const before = await s.admin.get(`/api/v3/documents/${doc}/`);
    expect(annotationCount(before.body)).toBe(0);
    expect((await s.admin.get(`/api/v3/documents/${doc}/`)).text).toBe(before.text);

    const a = await created(s.admin.post('/api/v3/annotations/', { document: doc, label: t.labels.date, label_set: t.category, span: [textLineSpan('01.02.2024')] }));
    const after = await s.admin.get(`/api/v3/documents/${doc}/`);
    expect(annotationCount(after.body)).toBe(1);

    await s.admin.patch(`/api/v3/annotations/${a.id}/`, { revised: true, is_correct: false });
    const declined = await s.admin.get(`/api/v3/documents/${doc}/`);
    const ann = declined.body.annotation_sets.flatMap((x: any) => x.labels).flatMap((l: any) => l.annotations)[0];
    expect(ann.review_state).toBe('Declined');
  });

  it('keeps answers apart per caller: a non-member still gets 404', async () => {
    await s.admin.get(`/api/v3/documents/${doc}/`);
    const eve = await s.userClient('eve@test.local');
    expect((await eve.get(`/api/v3/documents/${doc}/`)).status).toBe(404);
    expect((await eve.get(`/api/v3/annotations/?document=${doc}&limit=1000`)).body.count).toBe(0);
  });

  it('sees a write made by another process (the CLI) on the same database', async () => {
    const carol = await s.userClient('carol@test.local');
    await s.admin.post(`/api/v3/projects/${t.project}/members/`, { email: 'carol@test.local' });
    expect((await carol.get(`/api/v3/documents/${doc}/`)).status).toBe(200);
    const r = await runFolio(['member', 'remove', String(t.project), 'carol@test.local'], { dataDir: s.dataDir });
    expect(r.code, r.stderr).toBe(0);
    expect((await carol.get(`/api/v3/documents/${doc}/`)).status).toBe(404);
  });
});

describe('blob store at start-up', () => {
  it('removes files no document refers to and keeps the others', async () => {
    const other = await startTestServer();
    const keptPdf = await pdfWithText('kept');
    const kept = await created(upload(other.admin, { project: (await created(other.admin.post('/api/v3/projects/', { name: 'B' }))).id }, { name: 'kept.pdf', data: keptPdf }));
    const stray = await other.core.blobs.put(Buffer.from('left behind by a crash'));
    expect(await other.core.blobs.exists(stray.key)).toBe(true);
    fs.writeFileSync(path.join(other.core.blobs.tmpDir, 'half-upload'), 'x');
    await other.close();

    const again = await startTestServer({ dataDir: other.dataDir });
    try {
      expect(await again.core.blobs.exists(stray.key)).toBe(false);
      // The half-written upload is gone. (The restarted server resumes processing "kept", which may be
      // writing a temporary file of its own right now: the folder need not be empty.)
      expect(fs.readdirSync(again.core.blobs.tmpDir)).not.toContain('half-upload');
      const original = await again.admin.get(`/doc/show-original/${kept.id}/`);
      expect(original.status).toBe(200);
      expect(original.text).toBe(Buffer.from(keptPdf).toString());
    } finally {
      await again.close();
    }
  });
});
