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

  /**
   * An invoice with its date and total labelled where a search finds them; `date` overrides the labelled text.
   * `paidOnSameDay`: a last line repeats the invoice date, and the reviewer labelled that occurrence.
   */
  async function invoice(n: number, datasetStatus: number, date?: string, paidOnSameDay = false): Promise<number> {
    const lines = invoiceLines(n);
    if (paidOnSameDay) lines.push(`Bezahlt am ${lines[2].split(': ')[1]}`);
    const name = `inv${n}.pdf`;
    const doc = await created(upload(s.admin, { project: t.project, category: t.category, dataset_status: datasetStatus, sync: 'true' }, { name, data: await linesPdf([lines]) }));
    expect(doc.status_data).toBe(2);
    for (const [label, text] of [[t.labels.date, date ?? lines[2].split(': ')[1]], [t.labels.total, lines[4].split(': ')[1].replace(' EUR', '')]] as const) {
      const found = await s.admin.post(`/api/v3/documents/${doc.id}/search/`, { q: text });
      const repeated = paidOnSameDay && label === t.labels.date;
      expect(found.body.span.length).toBe(repeated ? 2 : 1);
      const span = repeated ? found.body.span.slice(-1) : found.body.span;
      await created(s.admin.post('/api/v3/annotations/', { document: doc.id, label, label_set: t.category, span, is_correct: true, revised: true }));
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
    await invoice(12, 3, undefined, true);
  }, 120_000);
  afterAll(() => s?.close());

  it('counts near misses apart and lists per test document the wrong labels, expected beside found', async () => {
    const start = await created(s.admin.post('/api/v3/extraction-ais/', { category: t.category }));
    const ai = await pollAi(s.admin, 'extraction-ais', start.id);
    expect(ai.status, ai.error).toBe('done');
    const e = ai.evaluation;
    // The fields that were there before keep their meaning.
    expect(e).toMatchObject({ metric: 'f1', documents: 3, rule: 'exact' });
    expect(e.near_miss_rule).toMatch(/Levenshtein/);

    const shortDate = invoiceLines(11)[2].split(': ')[1];
    const results = e.document_results as any[];
    expect(results.map((d) => [d.document, d.name]).sort()).toEqual(testDocs.map((d) => [d.id, d.name]).sort());
    const second = results.find((d) => d.document === testDocs[1].id);
    expect(second.errors).toContainEqual({ label: t.labels.date, name: 'Date', kind: 'near_miss', expected: shortDate.slice(0, -1), found: shortDate, distance: 1, right_by_value: false });
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

  it('scores by value beside the position: the right date at another place is right by value, and 3 test documents decide nothing', async () => {
    const ai = (await s.admin.get('/api/v3/extraction-ais/')).body.results.find((x: any) => x.status === 'done');
    const e = ai.evaluation;
    const paid = (e.document_results as any[]).find((d) => d.document === testDocs[2].id);
    const date = invoiceLines(12)[2].split(': ')[1];
    // Position-based: the AI's date (the invoice date line) is not the labelled one (the "Bezahlt am" line) ...
    const row = paid.errors.find((x: any) => x.label === t.labels.date);
    expect(row).toMatchObject({ kind: 'near_miss', expected: date, found: date, distance: 0, right_by_value: true });
    // ... by value it is right; each document's by-value count is at least its position count.
    expect(paid.right_by_value).toBe(paid.right + 1);
    for (const d of e.document_results) expect(d.right_by_value).toBeGreaterThanOrEqual(d.right);
    expect(e.by_value.rule).toMatch(/same value anywhere/);
    expect(e.by_value.overall.true_positives).toBe((e.document_results as any[]).reduce((n, d) => n + d.right_by_value, 0));
    expect(e.by_value.overall.true_positives).toBeGreaterThan(e.overall.true_positives);
    expect(e.by_value.overall.f1).toBeGreaterThan(e.overall.f1);
    const byValueDate = e.by_value.labels.find((l: any) => l.label === t.labels.date);
    expect(byValueDate.true_positives).toBeGreaterThan(e.labels.find((l: any) => l.label === t.labels.date).true_positives);
    // The score that decides which model is active stays the position-based F1.
    expect(e.score).toBe(e.overall.f1);

    expect(e.test_set).toMatchObject({ documents: 3, values: 6, right_by_value: e.by_value.overall.true_positives, enough: false });
    expect(e.test_set.interval[0]).toBeLessThan(e.test_set.interval[1]);
    expect(e.test_set.warning).toMatch(/^Too few test documents to decide: 3 test documents, 6 expected values;/);
    expect(e.test_set.rule).toMatch(/at least 10 test documents/);
  });

  it('describes the new evaluation fields in the OpenAPI document', async () => {
    const doc = (await s.admin.get('/api/v3/openapi.json')).body;
    const text = JSON.stringify(doc);
    for (const field of ['near_misses', 'near_miss_rule', 'document_results', 'expected', 'found', 'by_value', 'test_set', 'right_by_value']) expect(text).toContain(`"${field}"`);
  });
});
