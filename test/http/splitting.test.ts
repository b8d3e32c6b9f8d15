// Splitting through the API: splitting AIs refused until the project enables splitting and has training
// documents, trained and polled to "done", a stream of three documents held in status 41 with the proposed
// split, and the post-process endpoint that accepts (splits into a document set), edits (rotates, re-orders)
// or rejects a proposal, refusing anything that would lose or duplicate a page. Born-digital PDFs only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type Client, type TestServer } from '../helpers/testServer.ts';
import { created, upload } from '../helpers/documentFixtures.ts';
import { linesPdf, pollAi, pollDocument } from '../helpers/aiFixtures.ts';

/** An invoice: one page, or two whose second page is its terms and conditions. */
const invoice = (n: number, pages: 1 | 2): string[][] => {
  const first = [
    'Muster Buerobedarf GmbH - Hauptstrasse 5 - 10115 Berlin',
    `RECHNUNG Nr. R-${4700 + n}`,
    `Rechnungsdatum: ${String((n % 27) + 1).padStart(2, '0')}.03.2024`,
    `Kunde: Beispiel AG, Kundennummer ${9100 + n}`,
    `Pos. 1 Druckerpapier A4, Menge ${n + 3}, ${12 + n},50 EUR`,
    `Pos. 2 Toner schwarz, Menge 1, ${60 + n},00 EUR`,
    `Nettobetrag: ${80 + n},00 EUR`,
    `MwSt 19 %: ${15 + n},20 EUR`,
    `Rechnungsbetrag: ${95 + n},20 EUR`,
    'Zahlbar innerhalb von 14 Tagen ohne Abzug.',
    `Seite 1 von ${pages}`,
  ];
  const terms = [
    'Allgemeine Geschaeftsbedingungen (Fortsetzung)',
    'Die gelieferte Ware bleibt bis zur vollstaendigen Bezahlung unser Eigentum.',
    'Beanstandungen sind innerhalb von acht Tagen nach Erhalt schriftlich anzuzeigen.',
    'Gerichtsstand fuer alle Streitigkeiten aus diesem Vertrag ist Berlin.',
    `Es gilt das Recht der Bundesrepublik Deutschland, Fassung ${2020 + (n % 4)}.`,
    'Seite 2 von 2',
  ];
  return pages === 1 ? [first] : [first, terms];
};

/** A service contract: one page, or two whose second page continues its clauses. */
const contract = (n: number, pages: 1 | 2): string[][] => {
  const first = [
    'Hausmeister Service KG - Lindenweg 12 - 80331 Muenchen',
    `VERTRAG ueber Wartungsleistungen Nr. V-${300 + n}`,
    `zwischen der Hausverwaltung Sonnenhof ${n} (Auftraggeber)`,
    'und der Hausmeister Service KG (Auftragnehmer)',
    '1. Gegenstand: Reinigung der Treppenhaeuser und Pflege der Aussenanlagen.',
    `2. Verguetung: monatlich ${400 + 10 * n},00 EUR zuzueglich Umsatzsteuer.`,
    `3. Beginn: ${String((n % 27) + 1).padStart(2, '0')}.04.2024, Laufzeit zwoelf Monate.`,
    `Seite 1 von ${pages}`,
  ];
  const rest = [
    '4. Kuendigung: drei Monate zum Ende eines Kalendervierteljahres.',
    '5. Haftung: der Auftragnehmer haftet fuer Schaeden aus Vorsatz.',
    '6. Schlussbestimmungen: Aenderungen beduerfen der Schriftform.',
    `Muenchen, den ${String((n % 27) + 1).padStart(2, '0')}.03.2024`,
    'Unterschrift Auftraggeber            Unterschrift Auftragnehmer',
    'Seite 2 von 2',
  ];
  return pages === 1 ? [first] : [first, rest];
};

const DONE = [2, 'Done'];

describe('splitting AIs and post-processing', () => {
  let s: TestServer;
  let project: number;
  const category = { invoice: 0, contract: 0 };

  const send = async (pages: string[][], fields: Record<string, string | number> = {}, c: Client = s.admin, to = project) =>
    created(upload(c, { project: to, sync: 'true', ...fields }, { name: 'scan.pdf', data: await linesPdf(pages) }));
  const pageIds = async (doc: number): Promise<number[]> =>
    (await s.admin.get(`/api/v3/documents/${doc}/pages/`)).body.results.map((p: any) => p.id);
  const pageWords = async (doc: number, number: number): Promise<string[]> => {
    const r = await s.admin.get(`/api/v3/documents/${doc}/pages/${number}/`);
    expect(r.status, r.text).toBe(200);
    return r.body.entities.map((w: any) => w.offset_string);
  };

  /** A stream of three documents back to back: invoice (1 page), contract (2 pages), invoice (1 page). */
  const stream = (n: number) => [...invoice(n, 1), ...contract(n, 2), ...invoice(n + 1, 1)];
  /** Uploads a stream without category; it waits for splitting confirmation. */
  async function waitingStream(n: number): Promise<{ doc: any; pages: number[] }> {
    const doc = await send(stream(n), {});
    expect(doc.status_data, JSON.stringify(doc.status)).toBe(41);
    return { doc, pages: await pageIds(doc.id) };
  }

  beforeAll(async () => {
    s = await startTestServer();
    project = (await created(s.admin.post('/api/v3/projects/', { name: 'Scanning' }))).id;
    category.invoice = (await created(s.admin.post('/api/v3/categories/', { project, name: 'Rechnung' }))).id;
    category.contract = (await created(s.admin.post('/api/v3/categories/', { project, name: 'Vertrag' }))).id;
    const uploads: Promise<any>[] = [];
    for (let n = 0; n < 8; n++) {
      const pages = n % 2 === 0 ? 1 : 2;
      uploads.push(send(invoice(n, pages), { category: category.invoice, dataset_status: 2 }));
      uploads.push(send(contract(n, pages), { category: category.contract, dataset_status: 2 }));
    }
    uploads.push(send(invoice(20, 2), { category: category.invoice, dataset_status: 3 }));
    uploads.push(send(contract(21, 1), { category: category.contract, dataset_status: 3 }));
    uploads.push(send(invoice(22, 1), { category: category.invoice, dataset_status: 3 }));
    for (const doc of await Promise.all(uploads)) expect(doc.status_data).toBe(2);
  }, 120_000);
  afterAll(() => s?.close());

  it('refuses a training until splitting is enabled, and without training documents', async () => {
    const off = await s.admin.post('/api/v3/splitting-ais/', { project });
    expect(off.status).toBe(400);
    expect(off.body.project[0]).toMatch(/splitting is not enabled.*splitting_enabled/);
    expect((await s.admin.post('/api/v3/splitting-ais/', {})).body).toEqual({ project: ['This field is required.'] });
    expect((await s.admin.post('/api/v3/splitting-ais/', { project: 999999 })).body.project[0]).toMatch(/Invalid pk "999999"/);

    const empty = (await created(s.admin.post('/api/v3/projects/', { name: 'Empty' }))).id;
    const enabled = await s.admin.patch(`/api/v3/projects/${empty}/`, { splitting_enabled: true });
    expect(enabled.status, enabled.text).toBe(200);
    expect(enabled.body.splitting_enabled).toBe(true);
    // A processed document that is not a training document does not count.
    await send(invoice(1, 2), {}, s.admin, empty);
    const none = await s.admin.post('/api/v3/splitting-ais/', { project: empty });
    expect(none.status).toBe(400);
    expect(none.body.project[0]).toMatch(/no training document.*dataset_status 2/);
    expect((await s.admin.get(`/api/v3/splitting-ais/?project_id=${empty}`)).body.count).toBe(0);
  });

  it('trains once splitting is enabled, and holds a multi-document upload for confirmation', async () => {
    expect((await s.admin.patch(`/api/v3/projects/${project}/`, { splitting_enabled: true })).body.splitting_enabled).toBe(true);
    expect((await s.admin.get(`/api/v3/projects/${project}/`)).body.splitting_enabled).toBe(true);
    const start = await created(s.admin.post('/api/v3/splitting-ais/', { project }));
    expect(start).toMatchObject({ kind: 'splitting', project, category: null, status: 'queued', active: false });
    const ai = await pollAi(s.admin, 'splitting-ais', start.id);
    expect(ai.status, ai.error).toBe('done');
    expect(ai).toMatchObject({ progress: 100, active: true, origin: 'trained' });
    expect(ai.training).toMatchObject({ documents: 16, pages: 24 });
    expect(ai.evaluation).toMatchObject({ metric: 'f1', documents: 3 });
    expect(ai.evaluation.score).toBeGreaterThanOrEqual(0);
    expect(ai.evaluation.score).toBeLessThanOrEqual(1);

    const { doc, pages } = await waitingStream(40);
    expect(doc.number_of_pages).toBe(4);
    expect(doc.status).toEqual([41, 'Waiting for splitting confirmation']);
    expect(doc.labeling_available).toBe(0);
    expect(doc.proposed_split.map((p: any) => p.pages)).toEqual([[pages[0]], [pages[1], pages[2]], [pages[3]]]);
    for (const part of doc.proposed_split) {
      expect(part.confidence).toBeGreaterThanOrEqual(0.5);
      expect(part.confidence).toBeLessThanOrEqual(1);
    }
    // Each proposed document is categorized on its own (here by the fallback: no categorization AI).
    expect(doc.proposed_split.map((p: any) => p.category)).toEqual([category.invoice, category.contract, category.invoice]);
    const detail = (await s.admin.get(`/api/v3/documents/${doc.id}/`)).body;
    expect(detail).toMatchObject({ status_data: 41, proposed_split: doc.proposed_split, document_set: null });

    // One document of two pages is not held: it is categorized and done.
    const single = await send(contract(41, 2), {});
    expect(single).toMatchObject({ status_data: 2, status: DONE, proposed_split: null, category: category.contract, number_of_pages: 2 });
  }, 120_000);

  it('splits into a document set of new documents, rotating and re-ordering pages on the way', async () => {
    const { doc, pages } = await waitingStream(50);
    const before = { contractFirst: await pageWords(doc.id, 2), lastInvoice: await pageWords(doc.id, 4) };
    const original = (await s.admin.get(`/api/v3/documents/${doc.id}/pages/4/`)).body.original_size as [number, number];

    const r = await s.admin.post(`/api/v3/documents/${doc.id}/postprocess/`, [
      { pages: [pages[0]] },
      // Pages given back to front, as objects, with the category named.
      { name: 'contract.pdf', category: category.contract, pages: [{ id: pages[2], number: 3 }, { id: pages[1], number: 2, angle: 0 }] },
      { pages: [{ id: pages[3], number: 4, angle: 90 }] },
    ]);
    expect(r.status, r.text).toBe(200);
    expect(r.body).toHaveLength(3);
    const set = r.body[0].document_set;
    expect(set).toEqual(expect.any(Number));
    for (const d of r.body) {
      expect(d.document_set).toBe(set);
      expect(d.project).toBe(project);
      expect(d.id).not.toBe(doc.id);
      expect([0, 10]).toContain(d.status_data); // queued for processing
    }
    expect(r.body[1].data_file_name).toBe('contract.pdf');
    expect((await s.admin.get(`/api/v3/documents/${doc.id}/`)).status).toBe(404);

    const [inv, con, turned] = await Promise.all(r.body.map((d: any) => pollDocument(s.admin, d.id)));
    expect(inv).toMatchObject({ status: DONE, number_of_pages: 1, category: category.invoice, category_confidence: null, proposed_split: null, document_set: set });
    expect(con).toMatchObject({ status: DONE, number_of_pages: 2, category: category.contract, proposed_split: null, document_set: set });
    expect(turned).toMatchObject({ status: DONE, number_of_pages: 1, category: category.invoice, document_set: set });
    expect(inv.text).toMatch(/RECHNUNG\s+Nr\. R-4750/);
    expect(turned.text).toMatch(/RECHNUNG\s+Nr\. R-4751/);

    // Re-ordered: the contract's first page is now its second.
    expect(await pageWords(con.id, 2)).toEqual(before.contractFirst);
    expect(con.text.indexOf('Seite 2 von 2')).toBeLessThan(con.text.indexOf('Seite 1 von 2'));
    // Turned by 90 degrees: the page is as wide as it was high, and reads the same words.
    const page = (await s.admin.get(`/api/v3/documents/${turned.id}/pages/1/`)).body;
    expect(page.original_size).toEqual([original[1], original[0]]);
    expect(await pageWords(turned.id, 1)).toEqual(before.lastInvoice);

    const listed = await s.admin.get(`/api/v3/document-sets/${set}/`);
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body).toMatchObject({ id: set, project, original_file_name: 'scan.pdf', original_number_of_pages: 4 });
    expect(listed.body.documents).toEqual([inv.id, con.id, turned.id]);
    expect(typeof listed.body.original_file_url).toBe('string');
    const file = await s.admin.get(listed.body.original_file_url);
    expect(file.status).toBe(200);
    expect(file.text.startsWith('%PDF')).toBe(true);
    const expanded = (await s.admin.get(`/api/v3/document-sets/${set}/?expand=documents`)).body;
    expect(expanded.documents.map((d: any) => [d.id, d.document_set, d.status_data])).toEqual([[inv.id, set, 2], [con.id, set, 2], [turned.id, set, 2]]);
    expect((await s.admin.get(`/api/v3/documents/?document_set=${set}`)).body.count).toBe(3);
    expect((await (await s.userClient('stranger@test.local')).get(`/api/v3/document-sets/${set}/`)).status).toBe(404);
  }, 120_000);

  it('rejects the proposal with one document of all pages as they were: the same document goes on', async () => {
    const { doc, pages } = await waitingStream(60);
    const r = await s.admin.post(`/api/v3/documents/${doc.id}/postprocess/`, { pages });
    expect(r.status, r.text).toBe(200);
    expect(r.body.map((d: any) => d.id)).toEqual([doc.id]);
    expect(r.body[0].status_data).not.toBe(41);
    const done = await pollDocument(s.admin, doc.id);
    expect(done).toMatchObject({ status: DONE, proposed_split: null, document_set: null, number_of_pages: 4 });
    expect(await pageIds(doc.id)).toEqual(pages);
  }, 60_000);

  it('refuses a post-process that loses, repeats or borrows a page, turns by other than 90 degrees, or names nothing', async () => {
    const { doc, pages } = await waitingStream(70);
    const other = (await waitingStream(71)).pages;
    const refusals: unknown[] = [
      [{ pages: [pages[0], pages[1]] }, { pages: [pages[2], other[3]] }],
      [{ pages: [pages[0], pages[1]] }, { pages: [pages[1], pages[2], pages[3]] }],
      [{ pages: [pages[0]] }, { pages: [pages[1], pages[2]] }],
      [{ pages: [{ id: pages[0], angle: 45 }, pages[1], pages[2], pages[3]] }],
      [],
    ];
    for (const body of refusals) {
      const r = await s.admin.post(`/api/v3/documents/${doc.id}/postprocess/`, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      const messages = Object.values(r.body as Record<string, string[]>).flat();
      expect(messages.length, r.text).toBeGreaterThan(0);
      for (const m of messages) expect(typeof m).toBe('string');
    }
    // What the messages say, for the cases whose cause a client must be told.
    const said = async (body: unknown) => JSON.stringify((await s.admin.post(`/api/v3/documents/${doc.id}/postprocess/`, body)).body);
    expect(await said(refusals[0])).toMatch(/not a page of document/);
    expect(await said(refusals[1])).toMatch(/used twice/);
    expect(await said(refusals[2])).toMatch(new RegExp(`${pages[3]}.*in no document`));
    expect(await said(refusals[3])).toMatch(/multiples of 90 degrees/);

    // Nothing changed: the document still waits with its proposal and its pages.
    const after = (await s.admin.get(`/api/v3/documents/${doc.id}/`)).body;
    expect(after).toMatchObject({ status_data: 41, proposed_split: doc.proposed_split, document_set: null });
    expect(await pageIds(doc.id)).toEqual(pages);

    const outsider = await s.userClient('outsider@test.local');
    expect((await outsider.post(`/api/v3/documents/${doc.id}/postprocess/`, { pages })).status).toBe(404);
    expect((await s.admin.get(`/api/v3/documents/${doc.id}/`)).body.status_data).toBe(41);
  }, 60_000);

  it('splits a document once when two reviewers confirm the same proposal at the same moment', async () => {
    const { doc } = await waitingStream(80);
    const count = async () => (await s.admin.get(`/api/v3/documents/?project=${project}`)).body.count as number;
    const before = await count();
    const body = doc.proposed_split.map((p: any) => ({ pages: p.pages }));
    const answers = await Promise.all([1, 2].map(() => s.admin.post(`/api/v3/documents/${doc.id}/postprocess/`, body)));
    const won = answers.filter((r) => r.status === 200);
    expect(won, answers.map((r) => `${r.status} ${r.text.slice(0, 80)}`).join(' | ')).toHaveLength(1);
    expect([400, 404]).toContain(answers.find((r) => r.status !== 200)!.status);
    // The original made way for three documents, not six: no second set of copies of the same pages.
    expect(await count()).toBe(before - 1 + 3);
    expect((await s.admin.get(`/api/v3/documents/?document_set=${won[0].body[0].document_set}`)).body.count).toBe(3);
  }, 60_000);
});
