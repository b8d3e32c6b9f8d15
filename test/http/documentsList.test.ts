// Issue 12, the server side of the documents list: full-text search (`?q=`, incl. input that is FTS5 syntax
// or nothing searchable), duplicate uploads (content_hash, duplicate_of), extract-again with the active
// extraction AI, the new orderings, and unique category and label set names. Real server, real SQLite.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/testServer.ts';
import { created, makeTaxonomy, upload, type Taxonomy } from '../helpers/documentFixtures.ts';
import { linesPdf, pollAi, pollDocument } from '../helpers/aiFixtures.ts';

const invoiceLines = (n: number) => [
  `Rechnung Nr. ${4700 + n}`,
  `Kunde: Muster GmbH ${n}`,
  `Rechnungsdatum: ${String(n + 1).padStart(2, '0')}.0${(n % 9) + 1}.2024`,
  `Gesamtbetrag: ${100 + 17 * n},${String(10 + n).slice(-2)} EUR`,
  `Zahlbar innerhalb von 14 Tagen`,
];

describe('documents list (issue 12)', () => {
  let s: TestServer;
  let t: Taxonomy;

  beforeAll(async () => {
    s = await startTestServer();
    t = await makeTaxonomy(s.admin, 'List');
  }, 60_000);
  afterAll(() => s?.close());

  const ids = async (query: string) => {
    const r = await s.admin.get(`/api/v3/documents/?project=${t.project}&${query}`);
    expect(r.status, r.text).toBe(200);
    return (r.body.results as { id: number }[]).map((d) => d.id).sort((a, b) => a - b);
  };

  describe('full-text search', () => {
    let zurich: number;
    let berlin: number;
    let named: number;
    beforeAll(async () => {
      const doc = async (name: string, lines: string[]) => (await created(upload(s.admin, { project: t.project, sync: 'true' }, { name, data: await linesPdf([lines]) }))).id as number;
      zurich = await doc('a.pdf', ['Lieferschein Zuerich Hauptbahnhof', 'Artikel Schraubenzieher 12 Stueck']);
      berlin = await doc('b.pdf', ['Rechnung Berlin Mitte', 'Artikel Hammer 3 Stueck']);
      named = await doc('hammer-quote.pdf', ['Angebot ohne Werkzeug']);
    }, 60_000);

    it('finds documents by words of their text, as prefixes, in any order and case', async () => {
      expect(await ids('q=zuerich')).toEqual([zurich]);
      expect(await ids('q=SCHRAUBEN')).toEqual([zurich]);
      expect(await ids('q=stueck%20artikel')).toEqual([zurich, berlin]);
      expect(await ids('q=stueck%20berlin')).toEqual([berlin]);
      expect(await ids('q=nowhere')).toEqual([]);
    });

    it('also finds q in the file name, and combines with the other filters', async () => {
      expect(await ids('q=hammer')).toEqual([berlin, named]);
      expect(await ids('q=hammer-quote')).toEqual([named]);
      expect(await ids(`q=hammer&id=${berlin}`)).toEqual([berlin]);
      expect(await ids('q=')).toEqual(await ids(''));
    });

    it('treats FTS5 syntax and odd input as plain text, never a 500', async () => {
      for (const q of ['"', '""', '*', 'AND', 'OR NOT', 'NEAR(a b)', 'zuerich"', '-', "'; drop table documents; --", ')(', 'a:b', '^x', '{x}', 'ß€😀', 'x'.repeat(5000), '% _ \\', 'column:text']) {
        const r = await s.admin.get(`/api/v3/documents/?project=${t.project}&q=${encodeURIComponent(q)}`);
        expect(r.status, `${q}: ${r.text}`).toBe(200);
      }
      expect(await ids(`q=${encodeURIComponent('"zuerich"')}`)).toEqual([zurich]);
      expect(await ids(`q=${encodeURIComponent('zuerich AND berlin')}`)).toEqual([]); // AND is a word here, not an operator
    });

    it('forgets a deleted document', async () => {
      const gone = (await created(upload(s.admin, { project: t.project, sync: 'true' }, { name: 'gone.pdf', data: await linesPdf([['Einmaliges Wort Quokka']]) }))).id;
      expect(await ids('q=quokka')).toEqual([gone]);
      expect((await s.admin.delete(`/api/v3/documents/${gone}/`)).status).toBe(204);
      expect(await ids('q=quokka')).toEqual([]);
    });

    it('is described in the OpenAPI document', async () => {
      const spec = (await s.admin.get('/api/v3/openapi.json')).body;
      const names = spec.paths['/api/v3/documents/'].get.parameters.map((p: { name: string }) => p.name);
      expect(names).toEqual(expect.arrayContaining(['q', 'content_hash']));
    });
  });

  describe('duplicates', () => {
    it('names earlier uploads of the same bytes in the project, and finds them by content_hash', async () => {
      const bytes = await linesPdf([['Doppelt hochgeladen 77']]);
      const first = await created(upload(s.admin, { project: t.project }, { name: 'once.pdf', data: bytes }));
      expect(first.duplicate_of).toEqual([]);
      expect(first.content_hash).toMatch(/^[0-9a-f]{64}$/);
      const second = await created(upload(s.admin, { project: t.project }, { name: 'again.pdf', data: bytes }));
      expect(second.duplicate_of).toEqual([first.id]);
      expect(second.content_hash).toBe(first.content_hash);
      expect((await s.admin.get(`/api/v3/documents/${first.id}/`)).body.duplicate_of).toEqual([second.id]);
      expect(await ids(`content_hash=${first.content_hash.toUpperCase()}`)).toEqual([first.id, second.id]);

      // Another project's copy is not a duplicate here, and the other project's members do not see it.
      const other = await makeTaxonomy(s.admin, 'Elsewhere');
      const third = await created(upload(s.admin, { project: other.project }, { name: 'once.pdf', data: bytes }));
      expect(third.duplicate_of).toEqual([]);
      const outsider = await s.userClient('dup-outsider@test.local');
      expect((await outsider.get(`/api/v3/documents/?content_hash=${first.content_hash}`)).body.count).toBe(0);
    });

    it('refuses a content_hash that is not a SHA-256', async () => {
      for (const bad of ['abc', 'g'.repeat(64), '']) {
        const r = await s.admin.get(`/api/v3/documents/?content_hash=${bad}`);
        expect(r.status, bad).toBe(400);
        expect(r.body.content_hash[0]).toMatch(/SHA-256/);
      }
    });
  });

  it('orders by reviewed, category and assignee', async () => {
    for (const field of ['is_reviewed', '-category', 'assignee', '-assignee,id']) {
      const r = await s.admin.get(`/api/v3/documents/?project=${t.project}&ordering=${field}`);
      expect(r.status, r.text).toBe(200);
    }
    const member = await s.userClient('orderer@test.local');
    await created(s.admin.post(`/api/v3/projects/${t.project}/members/`, { email: 'orderer@test.local' }));
    const doc = await created(upload(s.admin, { project: t.project, assignee: 'orderer@test.local' }, { name: 'assigned.pdf', data: await linesPdf([['Zugewiesen']]) }));
    const first = (await s.admin.get(`/api/v3/documents/?project=${t.project}&ordering=-assignee&limit=1`)).body.results[0];
    expect(first.id).toBe(doc.id);
    expect((await member.get(`/api/v3/documents/?project=${t.project}&assignee=orderer@test.local`)).body.results.map((d: { id: number }) => d.id)).toEqual([doc.id]);
  });

  describe('extract again', () => {
    const annotated = async (n: number, datasetStatus: number) => {
      const lines = invoiceLines(n);
      const doc = await created(upload(s.admin, { project: t.project, category: t.category, dataset_status: datasetStatus, sync: 'true' }, { name: `r${n}.pdf`, data: await linesPdf([lines]) }));
      for (const [label, text] of [[t.labels.date, lines[2].split(': ')[1]], [t.labels.total, lines[3].split(': ')[1].replace(' EUR', '')]] as const) {
        const found = await s.admin.post(`/api/v3/documents/${doc.id}/search/`, { q: text });
        await created(s.admin.post('/api/v3/annotations/', { document: doc.id, label, label_set: t.category, span: found.body.span, is_correct: true, revised: true }));
      }
      return doc.id as number;
    };

    it('says why it cannot: no category, no active AI, not done, not visible', async () => {
      const plain = (await created(upload(s.admin, { project: t.project, sync: 'true' }, { name: 'plain.pdf', data: await linesPdf([['Kein Kategorie Text']]) }))).id;
      await s.admin.patch(`/api/v3/documents/${plain}/`, { category: null });
      let r = await s.admin.post(`/api/v3/documents/${plain}/extract-again/`, {});
      expect(r.status).toBe(400);
      expect(r.body.non_field_errors[0]).toMatch(/no category/);
      await s.admin.patch(`/api/v3/documents/${plain}/`, { category: t.category });
      r = await s.admin.post(`/api/v3/documents/${plain}/extract-again/`, {});
      expect(r.status).toBe(400);
      expect(r.body.non_field_errors[0]).toMatch(/"Invoice" has no active extraction AI/);
      const queued = await created(upload(s.admin, { project: t.project }, { name: 'queued.pdf', data: await linesPdf([['Noch nicht fertig']]) }));
      r = await s.admin.post(`/api/v3/documents/${queued.id}/extract-again/`, {});
      if (r.status !== 400) expect((await pollDocument(s.admin, queued.id)).status_data).toBe(2); // processing may already have finished
      else expect(r.body.non_field_errors[0]).toMatch(/wait until it is done/);
      const outsider = await s.userClient('extract-outsider@test.local');
      expect((await outsider.post(`/api/v3/documents/${plain}/extract-again/`, {})).status).toBe(404);
      expect((await s.admin.post('/api/v3/documents/999999/extract-again/', {})).status).toBe(404);
    });

    it('replaces machine annotations awaiting review with the active AI’s, keeping the reviewed ones', async () => {
      for (let n = 0; n < 4; n++) await annotated(n, 2);
      const ai = await pollAi(s.admin, 'extraction-ais', (await created(s.admin.post('/api/v3/extraction-ais/', { category: t.category }))).id);
      expect(ai.status, ai.error).toBe('done');
      expect(ai.active).toBe(true);

      const lines = invoiceLines(20);
      const doc = await created(upload(s.admin, { project: t.project, category: t.category, sync: 'true' }, { name: 'new.pdf', data: await linesPdf([lines]) }));
      const machine = (d: any) => d.annotation_sets.flatMap((set: any) => set.labels.flatMap((l: any) => l.annotations)).filter((a: any) => a.origin === 'machine');
      const before = machine(await pollDocument(s.admin, doc.id));
      expect(before.length).toBeGreaterThan(0);
      // The reviewer accepts one proposal; the others still await review.
      const kept = before[0].id;
      expect((await s.admin.patch(`/api/v3/documents/${doc.id}/update-annotations/`, { ids: [kept], is_correct: true, revised: true })).status).toBe(200);

      const r = await s.admin.post(`/api/v3/documents/${doc.id}/extract-again/`, {});
      expect(r.status, r.text).toBe(202);
      expect(r.body.status_data).toBe(1);
      const after = await pollDocument(s.admin, doc.id);
      expect(after.status_data).toBe(2);
      expect(after.extraction_ai).toBe(ai.id);
      const afterIds = machine(after).map((a: any) => a.id);
      expect(afterIds).toContain(kept);
      for (const a of before.slice(1)) expect(afterIds).not.toContain(a.id);
      expect(afterIds.length).toBeGreaterThan(1);
    }, 120_000);
  });

  describe('unique names', () => {
    it('refuses a second category or label set of the same name in a project, case ignored', async () => {
      const p = await makeTaxonomy(s.admin, 'Names');
      let r = await s.admin.post('/api/v3/categories/', { project: p.project, name: 'invoice' });
      expect(r.status).toBe(400);
      expect(r.body.name[0]).toBe('A category named "Invoice" already exists in this project: choose another name for the category.');
      r = await s.admin.post('/api/v3/label-sets/', { project: p.project, name: 'LINE ITEMS' });
      expect(r.status).toBe(400);
      expect(r.body.name[0]).toMatch(/label set named "Line items" already exists/);
      // A category is its default label set: the two share the names.
      expect((await s.admin.post('/api/v3/label-sets/', { project: p.project, name: 'Invoice' })).body.name[0]).toMatch(/category named "Invoice"/);
      expect((await s.admin.post('/api/v3/categories/', { project: p.project, name: 'Line Items' })).body.name[0]).toMatch(/label set named "Line items"/);

      const receipt = await created(s.admin.post('/api/v3/categories/', { project: p.project, name: 'Receipt' }));
      expect((await s.admin.patch(`/api/v3/categories/${receipt.id}/`, { name: 'INVOICE' })).status).toBe(400);
      expect((await s.admin.patch(`/api/v3/label-sets/${p.items}/`, { name: 'receipt' })).status).toBe(400);
      // Its own name (another case) is no clash, and another project may use any name.
      expect((await s.admin.patch(`/api/v3/categories/${receipt.id}/`, { name: 'RECEIPT' })).status).toBe(200);
      expect((await s.admin.patch(`/api/v3/label-sets/${p.items}/`, { name: 'Line items' })).status).toBe(200);
      const other = await created(s.admin.post('/api/v3/projects/', { name: 'Names 2' }));
      expect((await s.admin.post('/api/v3/categories/', { project: other.id, name: 'Invoice' })).status).toBe(201);
    });
  });
});
