// The extraction AI's evaluation as a reviewer reads it through the API: near misses counted apart (overall
// and per label) and, per test document, which labels were wrong with the expected text beside the found
// one; and the OpenAPI document that describes those fields. Documents are small born-digital invoices.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/testServer.ts';
import { created, makeTaxonomy, upload, type Taxonomy } from '../helpers/documentFixtures.ts';
import { linesPdf, pollAi } from '../helpers/aiFixtures.ts';

const invoiceLines = (n: number) => [
  `Rechnung Nr. ${4700 + n}`,
  `Kunde: Muster GmbH ${n}`,
  `Rechnungsdatum: ${String(n + 1).padStart(2, '0')}.0${(n % 9) + 1}.2024`,
  `Lieferdatum: ${String(n + 2).padStart(2, '0')}.0${(n % 9) + 1}.2023`,
  `Gesamtbetrag: ${100 + 17 * n},${String(10 + n).slice(-2)} EUR`,
  `Zahlbar innerhalb von 14 Tagen`,
];

describe('extraction AI evaluation', () => {
  let s: TestServer;
  let t: Taxonomy;
  const testDocs: { id: number; name: string }[] = [];

  /** An invoice with its date and total labelled where a search finds them; `date` overrides the labelled text. */
  async function invoice(n: number, datasetStatus: number, date?: string): Promise<number> {
    const lines = invoiceLines(n);
    const name = `inv${n}.pdf`;
    const doc = await created(upload(s.admin, { project: t.project, category: t.category, dataset_status: datasetStatus, sync: 'true' }, { name, data: await linesPdf([lines]) }));
    expect(doc.status_data).toBe(2);
    for (const [label, text] of [[t.labels.date, date ?? lines[2].split(': ')[1]], [t.labels.total, lines[4].split(': ')[1].replace(' EUR', '')]] as const) {
      const found = await s.admin.post(`/api/v3/documents/${doc.id}/search/`, { q: text });
      expect(found.body.span.length).toBe(1);
      await created(s.admin.post('/api/v3/annotations/', { document: doc.id, label, label_set: t.category, span: found.body.span, is_correct: true, revised: true }));
    }
    if (datasetStatus === 3) testDocs.push({ id: doc.id, name });
    return doc.id;
  }

  beforeAll(async () => {
    s = await startTestServer();
    t = await makeTaxonomy(s.admin, 'Invoices');
    for (let n = 0; n < 6; n++) await invoice(n, 2);
    await invoice(10, 3);
    // The reviewer labelled this date one character short: the AI's full date is a near miss, not a hit.
    await invoice(11, 3, invoiceLines(11)[2].split(': ')[1].slice(0, -1));
  }, 120_000);
  afterAll(() => s?.close());

  it('counts near misses apart and lists per test document the wrong labels, expected beside found', async () => {
    const start = await created(s.admin.post('/api/v3/extraction-ais/', { category: t.category }));
    const ai = await pollAi(s.admin, 'extraction-ais', start.id);
    expect(ai.status, ai.error).toBe('done');
    const e = ai.evaluation;
    // The fields that were there before keep their meaning.
    expect(e).toMatchObject({ metric: 'f1', documents: 2, rule: 'exact' });
    expect(e.near_miss_rule).toMatch(/Levenshtein/);

    const shortDate = invoiceLines(11)[2].split(': ')[1];
    const results = e.document_results as any[];
    expect(results.map((d) => [d.document, d.name]).sort()).toEqual(testDocs.map((d) => [d.id, d.name]).sort());
    const second = results.find((d) => d.document === testDocs[1].id);
    expect(second.errors).toContainEqual({ label: t.labels.date, name: 'Date', kind: 'near_miss', expected: shortDate.slice(0, -1), found: shortDate, distance: 1 });
    expect(second.near_misses).toBeGreaterThanOrEqual(1);

    // Every count agrees with the list: right ones are true positives; each false negative is a near miss,
    // a wrong or a missed row, each false positive a near miss, a wrong or an extra row.
    const rows = results.flatMap((d) => d.errors);
    const kinds = (...k: string[]) => rows.filter((r) => k.includes(r.kind)).length;
    expect(results.reduce((sum, d) => sum + d.right, 0)).toBe(e.overall.true_positives);
    expect(kinds('near_miss', 'wrong', 'missed')).toBe(e.overall.false_negatives);
    expect(kinds('near_miss', 'wrong', 'extra')).toBe(e.overall.false_positives);
    expect(e.overall.near_misses).toBe(kinds('near_miss'));
    const dateScore = e.labels.find((l: any) => l.label === t.labels.date);
    expect(dateScore.near_misses).toBe(rows.filter((r) => r.kind === 'near_miss' && r.label === t.labels.date).length);
  });

  it('describes the new evaluation fields in the OpenAPI document', async () => {
    const doc = (await s.admin.get('/api/v3/openapi.json')).body;
    const text = JSON.stringify(doc);
    for (const field of ['near_misses', 'near_miss_rule', 'document_results', 'expected', 'found']) expect(text).toContain(`"${field}"`);
  });
});
