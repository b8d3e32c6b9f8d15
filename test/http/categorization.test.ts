// Categorization through the API: category AIs refused without something to learn from, trained and polled
// to "done" with an accuracy evaluation, uploads without a category categorized by the active AI (v3 and
// the v2 upload's category_template), uploads with one left alone, the documented fallback before any AI
// exists, and the requester's email. Documents are short born-digital invoices and payslips, processed for real.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/testServer.ts';
import { created, upload } from '../helpers/documentFixtures.ts';
import { linesPdf, pollAi } from '../helpers/aiFixtures.ts';

/** An invoice, German or English, with its own numbers (n). */
const invoice = (n: number, english = n % 2 === 1) =>
  english
    ? [`Northwind Supplies Ltd`, `INVOICE No. INV-${3100 + n}`, `Invoice date: 0${(n % 9) + 1}/03/2024`, `Customer: Contoso ${n}`,
        `Item: Office chairs, quantity ${n + 2}`, `Net amount: ${120 + n}.00 GBP`, `VAT 20%: ${24 + n}.00 GBP`, `Amount due: ${144 + 2 * n}.00 GBP`,
        `Payment terms: 30 days, bank transfer`]
    : [`Muster Buerobedarf GmbH`, `RECHNUNG Nr. R-${4700 + n}`, `Rechnungsdatum: 0${(n % 9) + 1}.03.2024`, `Kunde: Beispiel AG ${n}`,
        `Artikel: Druckerpapier, Menge ${n + 3}`, `Nettobetrag: ${80 + n},00 EUR`, `MwSt 19 %: ${15 + n},20 EUR`, `Rechnungsbetrag: ${95 + n},20 EUR`,
        `Zahlbar innerhalb von 14 Tagen ohne Abzug`];

/** A payslip, German or English, with its own numbers (n). */
const payslip = (n: number, english = n % 2 === 1) =>
  english
    ? [`Acme Engineering plc`, `PAYSLIP for period 0${(n % 9) + 1}/2024`, `Employee: J. Smith, employee number ${5500 + n}`, `Tax code: 1257L`,
        `Gross pay: ${2800 + 10 * n}.00`, `Income tax: ${410 + n}.00`, `National Insurance: ${190 + n}.00`, `Pension contribution: ${110 + n}.00`,
        `Net pay: ${2090 + 9 * n}.00`]
    : [`Beispiel Maschinenbau AG`, `Verdienstabrechnung Monat 0${(n % 9) + 1}/2024`, `Personalnummer: ${6600 + n}, Steuerklasse 1`,
        `Bruttolohn: ${3100 + 10 * n},00`, `Lohnsteuer: ${420 + n},50`, `Solidaritaetszuschlag: 0,00`, `Krankenversicherung: ${250 + n},10`,
        `Rentenversicherung: ${290 + n},30`, `Auszahlungsbetrag: ${2140 + 9 * n},10`];

describe('categorization AIs', () => {
  let s: TestServer;
  let project: number;
  const category = { invoice: 0, payslip: 0 };

  async function send(lines: string[], fields: Record<string, string | number>, url?: string) {
    return created(upload(s.admin, { project, sync: 'true', ...fields }, { name: `${lines[1].replace(/\W+/g, '-')}.pdf`, data: await linesPdf([lines]) }, url));
  }

  beforeAll(async () => {
    s = await startTestServer();
    project = (await created(s.admin.post('/api/v3/projects/', { name: 'Mailroom' }))).id;
    category.invoice = (await created(s.admin.post('/api/v3/categories/', { project, name: 'Invoice' }))).id;
    category.payslip = (await created(s.admin.post('/api/v3/categories/', { project, name: 'Payslip' }))).id;
    const uploads: Promise<any>[] = [];
    for (let n = 0; n < 5; n++) {
      uploads.push(send(invoice(n), { category: category.invoice, dataset_status: 2 }));
      uploads.push(send(payslip(n), { category: category.payslip, dataset_status: 2 }));
    }
    for (let n = 10; n < 12; n++) {
      uploads.push(send(invoice(n), { category: category.invoice, dataset_status: 3 }));
      uploads.push(send(payslip(n), { category: category.payslip, dataset_status: 3 }));
    }
    for (const doc of await Promise.all(uploads)) expect(doc.status_data).toBe(2);
  }, 120_000);
  afterAll(() => s?.close());

  it('refuses a training without a project, with an unknown one, or one without categorized training documents', async () => {
    const missing = await s.admin.post('/api/v3/category-ais/', {});
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ project: ['This field is required.'] });
    const unknown = await s.admin.post('/api/v3/category-ais/', { project: 999999 });
    expect(unknown.status).toBe(400);
    expect(unknown.body.project[0]).toMatch(/Invalid pk "999999"/);
    const outsider = await s.userClient('outsider@test.local');
    expect((await outsider.post('/api/v3/category-ais/', { project })).body.project[0]).toMatch(/Invalid pk/);

    // A project whose training document has no category, and another with categorized documents that are
    // only test documents: neither has anything to learn from.
    const bare = (await created(s.admin.post('/api/v3/projects/', { name: 'Bare' }))).id;
    await created(s.admin.post('/api/v3/categories/', { project: bare, name: 'Letter' }));
    await created(s.admin.post('/api/v3/categories/', { project: bare, name: 'Memo' }));
    const uncategorized = await created(upload(s.admin, { project: bare, dataset_status: 2, sync: 'true' }, { name: 'x.pdf', data: await linesPdf([['Nothing to see here', 'at all']]) }));
    expect(uncategorized.category).toBeNull();
    const refused = await s.admin.post('/api/v3/category-ais/', { project: bare });
    expect(refused.status).toBe(400);
    expect(refused.body.project[0]).toMatch(/no categorized training document.*dataset_status 2/);
    expect((await s.admin.get(`/api/v3/category-ais/?project_id=${bare}`)).body.count).toBe(0);
  });

  it('trains in the background, evaluates by accuracy, activates, categorizes uploads without a category, and mails the requester', async () => {
    const start = await created(s.admin.post('/api/v3/category-ais/', { project }));
    expect(start).toMatchObject({ kind: 'categorization', project, category: null, status: 'queued', active: false });
    const ai = await pollAi(s.admin, 'category-ais', start.id);
    expect(ai.status, ai.error).toBe('done');
    expect(ai).toMatchObject({ progress: 100, active: true, origin: 'trained', file_url: `/aimodel/file/${ai.id}/` });
    expect(ai.training.documents).toBe(10);
    expect(ai.evaluation).toMatchObject({ metric: 'accuracy', documents: 4 });
    expect(ai.evaluation.score).toBeGreaterThanOrEqual(0);
    expect(ai.evaluation.score).toBeLessThanOrEqual(1);
    // Wordings this different are told apart on every test document.
    expect(ai.evaluation.score).toBe(1);

    for (const [lines, expected] of [[invoice(40), category.invoice], [payslip(41), category.payslip], [invoice(43), category.invoice], [payslip(44), category.payslip]] as const) {
      const doc = await send(lines, {});
      expect(doc.status_data).toBe(2);
      expect(doc.status).toEqual([2, 'Done']);
      expect(doc.category, lines[1]).toBe(expected);
      expect(doc.category_confidence).toBeGreaterThan(0.5);
      expect(doc.category_confidence).toBeLessThanOrEqual(1);
      expect(doc.category_is_revised).toBe(false);
      // The stored document says the same as the upload's answer.
      expect((await s.admin.get(`/api/v3/documents/${doc.id}/`)).body).toMatchObject({ category: expected, category_confidence: doc.category_confidence });
    }

    // A category named at upload is kept, even against the text: categorization is skipped.
    const named = await send(payslip(50), { category: category.invoice });
    expect(named).toMatchObject({ status_data: 2, category: category.invoice, category_confidence: null });

    const mail = (await s.admin.get('/api/v3/outbox/?kind=training')).body.results.find((m: any) => /Categorization AI ready/.test(m.subject));
    expect(mail, 'training email').toBeDefined();
    expect(mail.subject).toBe('Categorization AI ready: Mailroom');
    expect(mail.to).toBe('admin@test.local');
    expect(mail.text).toMatch(new RegExp(`category-ais/${ai.id}`));
  }, 120_000);

  it('answers a v2 upload (sync) with the detected category as category_template', async () => {
    const doc = await send(payslip(60), {}, '/api/v2/docs/');
    expect(doc.status_data).toBe(2);
    expect(doc.category).toBe(category.payslip);
    expect(doc.category_template).toBe(category.payslip);
    expect(doc.category_confidence).toBeGreaterThan(0.5);
    const named = await send(invoice(61), { category_template: category.invoice }, '/api/v2/docs/');
    expect(named).toMatchObject({ category: category.invoice, category_template: category.invoice, category_confidence: null });
  });
});

describe('categorization before any categorization AI (the fallback)', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s?.close());

  const categorized = async (project: number, lines: string[]) =>
    created(upload(s.admin, { project, sync: 'true' }, { name: 'doc.pdf', data: await linesPdf([lines]) }));

  it("takes a one-category project's category", async () => {
    const project = (await created(s.admin.post('/api/v3/projects/', { name: 'Single' }))).id;
    const only = (await created(s.admin.post('/api/v3/categories/', { project, name: 'Contract' }))).id;
    const doc = await categorized(project, payslip(1));
    expect(doc).toMatchObject({ status_data: 2, category: only, category_confidence: null });
  });

  it('takes the category whose name words occur in the text, else none', async () => {
    const project = (await created(s.admin.post('/api/v3/projects/', { name: 'Several' }))).id;
    const rechnung = (await created(s.admin.post('/api/v3/categories/', { project, name: 'Rechnung' }))).id;
    const verdienst = (await created(s.admin.post('/api/v3/categories/', { project, name: 'Verdienstabrechnung' }))).id;

    // invoice(0) says "RECHNUNG" (case is folded); payslip(0) says "Verdienstabrechnung".
    expect(await categorized(project, invoice(0))).toMatchObject({ status_data: 2, category: rechnung, category_confidence: null });
    expect(await categorized(project, payslip(0))).toMatchObject({ status_data: 2, category: verdienst, category_confidence: null });
    // Name words count as whole words only: "Rechnungsdatum" and "Rechnungsbetrag" are not "Rechnung".
    const partOnly = invoice(2).filter((l) => !/RECHNUNG Nr/.test(l));
    expect(await categorized(project, partOnly)).toMatchObject({ status_data: 2, category: null, category_confidence: null });
    // Neither name: no category, and the document is still processed.
    expect(await categorized(project, invoice(1, true))).toMatchObject({ status_data: 2, category: null, category_confidence: null });
    // Both names as often: a tie decides nothing.
    expect(await categorized(project, ['Rechnung', 'Verdienstabrechnung'])).toMatchObject({ status_data: 2, category: null, category_confidence: null });
  });
});
