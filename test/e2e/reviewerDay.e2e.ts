// Issue 5's acceptance walk: one reviewer, one browser session, a working day in order — a project set up
// with labels, a scan and a born-digital PDF uploaded through the file chooser, a box drawn and labelled,
// machine annotations accepted and declined, a label marked missing and undone, the review finished, a
// two-document PDF split in edit mode, an extraction AI trained and its evaluation read, that AI's own
// annotations on a new upload accepted and declined from the keyboard, the CSV exported.
// Everything is done in the UI; the API is only asked what it holds after each step (and prepares the
// machine annotations and the AI's training documents, which a reviewer would not type in by hand).
import { expect, test, type Page } from '@playwright/test';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { drawPage } from '../helpers/ocrPages.ts';
import { api, logIn, snapshot, drawAround } from './helpers.ts';
import { parseCsv } from '../helpers/csv.ts';

type Server = Awaited<ReturnType<typeof api>>;
interface Span {
  page_index: number;
  x0: number;
  x1: number;
  y0: number;
  y1: number;
}

/** A born-digital A4 PDF: one page per entry, each a list of lines from the top down. */
async function linesPdf(pages: string[][]): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (const lines of pages) {
    const page = pdf.addPage([595, 842]);
    lines.forEach((line, i) => page.drawText(line, { x: 60, y: 780 - 20 * i, size: i === 0 ? 16 : 12, font }));
  }
  return Buffer.from(await pdf.save({ useObjectStreams: false }));
}

/** An image-only PDF of one A4 page at 150 dpi, as a scanner makes it: Folio has to OCR it. */
async function scannedPdf(lines: string[]): Promise<Buffer> {
  const drawn = await drawPage(lines.map((text, i) => ({ text, x: 72, baselineFromTop: 110 + 36 * i, size: 16 })), { dpi: 150 });
  const pdf = await PDFDocument.create();
  const png = await pdf.embedPng(drawn.png);
  const page = pdf.addPage([drawn.widthPt, drawn.heightPt]);
  page.drawImage(png, { x: 0, y: 0, width: drawn.widthPt, height: drawn.heightPt });
  return Buffer.from(await pdf.save());
}

/** A training or test invoice for the extraction AI: the date and the total are what it learns to find. */
const trainingInvoice = (n: number) => [
  `Rechnung Nr. ${4700 + n}`,
  `Kunde: Muster GmbH ${n}`,
  `Rechnungsdatum: ${String(n + 1).padStart(2, '0')}.0${(n % 9) + 1}.2024`,
  `Lieferdatum: ${String(n + 2).padStart(2, '0')}.0${(n % 9) + 1}.2023`,
  `Gesamtbetrag: ${100 + 17 * n},${String(10 + n).slice(-2)} EUR`,
  'Zahlbar innerhalb von 14 Tagen',
];

/** Where a text is on a document, as the API's search finds it (its first line). */
async function spanOf(server: Server, doc: number, q: string): Promise<Span> {
  const found = await server.post(`/api/v3/documents/${doc}/search/`, { q });
  expect(found.span?.length, `"${q}" on document ${doc}`).toBeGreaterThan(0);
  const { page_index, x0, x1, y0, y1 } = found.span[0];
  return { page_index, x0, x1, y0, y1 };
}

/** The document's labels as the API holds them: name -> status, missing annotation and annotations. */
async function labelsOf(server: Server, doc: number): Promise<Record<string, { status: string; missing: number | null; annotations: any[] }>> {
  const detail = await server.get(`/api/v3/documents/${doc}/`);
  const out: Record<string, { status: string; missing: number | null; annotations: any[] }> = {};
  // A label of a repeating set appears in its potential set too: the set that exists wins.
  for (const set of detail.annotation_sets) for (const l of set.labels) if (set.id !== null || !out[l.name]) out[l.name] = { status: l.status, missing: l.missing_annotation, annotations: l.annotations };
  return out;
}

/** Chooses files with the documents tab's "Upload files…" button, through the browser's file chooser. */
async function chooseFiles(page: Page, files: { name: string; buffer: Buffer }[]): Promise<void> {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Upload files…' }).click();
  await (await chooser).setFiles(files.map((f) => ({ ...f, mimeType: 'application/pdf' })));
}

async function addLabel(page: Page, name: string, dataType: string, set: string): Promise<void> {
  const form = page.getByRole('form', { name: 'New label', exact: true });
  await form.getByLabel('Label name').fill(name);
  await form.getByLabel('Data type').selectOption(dataType);
  await form.getByRole('checkbox', { name: set, exact: true }).check();
  await form.getByRole('button', { name: 'Add label' }).click();
  await expect(page.getByRole('button', { name: `Edit label ${name}`, exact: true })).toBeVisible();
  await expect(form.getByLabel('Label name')).toHaveValue('');
}

const LABELS: [name: string, dataType: string, set: string][] = [
  ['Customer', 'Text', 'Invoice (category)'],
  ['Invoice date', 'Date', 'Invoice (category)'],
  ['Total', 'Number', 'Invoice (category)'],
  ['Invoice number', 'Text', 'Invoice (category)'],
  ['Description', 'Text', 'Line items (repeats)'],
  ['Amount', 'Number', 'Line items (repeats)'],
];

test("a reviewer's day: set up, upload, label, review, split, train, export", async ({ page }, info) => {
  test.setTimeout(150_000);
  const server = await api();
  const projectName = `Reviewer day ${Date.now()}`;
  let project!: { id: number };
  let invoiceCategory!: number;
  const labelIds: Record<string, number> = {};
  const docs = { scan: 0, invoice: 0 };
  let drawnAnnotation!: number;

  await test.step('1. create a project with a category, labels of several data types and a repeating label set', async () => {
    await logIn(page);
    await page.getByLabel('New project').fill(projectName);
    await page.getByRole('button', { name: 'Create project' }).click();
    await page.getByRole('link', { name: projectName }).click();
    await expect(page.getByRole('heading', { name: projectName })).toBeVisible();
    await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Setup' }).click();

    await page.getByLabel('New category').fill('Invoice');
    await page.getByRole('button', { name: 'Add category' }).click();
    await expect(page.getByRole('button', { name: 'Rename category Invoice' })).toBeVisible();

    const setForm = page.getByRole('form', { name: 'New label set', exact: true });
    await setForm.getByLabel('Label set name').fill('Line items');
    await setForm.getByLabel('Repeats (several per document)').check();
    await setForm.getByRole('checkbox', { name: 'Invoice', exact: true }).check();
    await setForm.getByRole('button', { name: 'Add label set' }).click();
    await expect(page.getByRole('button', { name: 'Edit label set Line items' })).toBeVisible();

    for (const [name, dataType, set] of LABELS) await addLabel(page, name, dataType, set);
    await snapshot(page, info, '01-project-setup');

    const listed = await server.get(`/api/v3/projects/?name=${encodeURIComponent(projectName)}`);
    expect(listed.count).toBe(1);
    project = listed.results[0];
    const categories = (await server.get(`/api/v3/categories/?project=${project.id}`)).results;
    expect(categories.map((c: any) => c.name)).toEqual(['Invoice']);
    invoiceCategory = categories[0].id;
    const sets = (await server.get(`/api/v3/label-sets/?project=${project.id}`)).results as any[];
    const lineItems = sets.find((s) => s.name === 'Line items');
    expect(lineItems).toMatchObject({ is_default: false, has_multiple_sections: true, categories: [invoiceCategory] });
    const labels = (await server.get(`/api/v3/labels/?project=${project.id}`)).results as any[];
    expect(Object.fromEntries(labels.map((l) => [l.name, l.data_type]))).toEqual(Object.fromEntries(LABELS.map(([name, type]) => [name, type])));
    for (const l of labels) {
      labelIds[l.name] = l.id;
      const inLineItems = LABELS.find(([name]) => name === l.name)![2].startsWith('Line items');
      expect(l.label_sets, l.name).toEqual([inLineItems ? lineItems.id : invoiceCategory]);
    }
  });

  await test.step('2. upload a scanned and a born-digital PDF through the file chooser and wait for processing', async () => {
    await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Documents' }).click();
    await expect(page.getByText('No documents yet.')).toBeVisible();
    await page.getByLabel('Category for uploads').selectOption({ label: 'Invoice' });
    await chooseFiles(page, [
      { name: 'delivery-scan.pdf', buffer: await scannedPdf(['Globex Limited', 'Delivery note 8841', 'Hauptstrasse 5, Berlin']) },
      { name: 'acme-invoice.pdf', buffer: await linesPdf([['ACME Corporation', 'Date: 2024-03-15', 'Total: 12,50 EUR', 'Paper A4, 3 packs']]) },
    ]);
    for (const name of ['delivery-scan.pdf', 'acme-invoice.pdf']) {
      const row = page.getByTestId('upload').filter({ hasText: name });
      await expect(row).toContainText('Done', { timeout: 60_000 });
      await expect(row.getByRole('link', { name: `Open ${name}` })).toBeVisible();
    }
    await expect(page.getByRole('table').getByRole('row').filter({ hasText: 'Done' })).toHaveCount(2);
    await snapshot(page, info, '02-uploaded');

    const listed = (await server.get(`/api/v3/documents/?project=${project.id}&ordering=id`)).results as any[];
    const byName = Object.fromEntries(listed.map((d) => [d.data_file_name, d]));
    expect(Object.keys(byName).sort()).toEqual(['acme-invoice.pdf', 'delivery-scan.pdf']);
    for (const d of listed) expect(d, d.data_file_name).toMatchObject({ status_data: 2, category: invoiceCategory });
    docs.scan = byName['delivery-scan.pdf'].id;
    docs.invoice = byName['acme-invoice.pdf'].id;
    const scan = await server.get(`/api/v3/documents/${docs.scan}/`);
    expect(scan.text).toMatch(/Globex\s+Limited/);
    expect(scan.text).toMatch(/Delivery\s+note\s+8841/);
    expect((await server.get(`/api/v3/documents/${docs.invoice}/`)).text).toMatch(/ACME\s+Corporation/);
  });

  await test.step('3. open the born-digital document, draw a box over a word and label it', async () => {
    // Machine annotations awaiting feedback (for step 4), as an extraction AI would leave them.
    for (const [label, q] of [['Invoice date', '2024-03-15'], ['Total', '12,50']]) {
      const made = await server.post('/api/v3/annotations/', { document: docs.invoice, label: labelIds[label], label_set: invoiceCategory, span: [await spanOf(server, docs.invoice, q)], is_correct: false, revised: false, confidence: 0.8 });
      expect(made.review_state, JSON.stringify(made)).toBe('Feedback required');
    }

    await page.getByRole('table').getByRole('link', { name: 'acme-invoice.pdf' }).click();
    await expect(page).toHaveURL(new RegExp(`#/documents/${docs.invoice}$`));
    const panel = page.getByRole('complementary', { name: 'Review' });
    await expect(panel.getByRole('heading', { name: 'Invoice' })).toBeVisible();
    await expect(page.locator('.viewer-page[data-page-number="1"]')).toHaveAttribute('data-rendered', /canvas|image/);

    await page.getByRole('button', { name: 'Draw box' }).click();
    const pages = await server.get(`/api/v3/documents/${docs.invoice}/pages/`);
    await drawAround(page, await spanOf(server, docs.invoice, 'ACME'), pages.results[0].original_size);
    const dialog = page.getByRole('dialog', { name: 'New annotation' });
    await expect(dialog.locator('q')).toHaveText('ACME');
    await dialog.getByRole('combobox', { name: 'Label' }).fill('cust');
    await page.keyboard.press('Enter'); // picks the only match
    await expect(dialog.getByRole('option', { name: /^Customer/ })).toHaveAttribute('aria-selected', 'true');
    await dialog.getByRole('button', { name: 'Create annotation' }).click();
    await expect(panel.getByRole('listitem', { name: /^Customer “ACME”/ })).toContainText('Created by human');
    await page.keyboard.press('Escape'); // leaves draw mode
    await expect(page.getByRole('button', { name: 'Draw box' })).toHaveAttribute('aria-pressed', 'false');
    await snapshot(page, info, '03-box-labelled');

    await expect.poll(async () => (await labelsOf(server, docs.invoice)).Customer.annotations.map((a) => [a.offset_string, a.review_state])).toEqual([['ACME', 'Created by human']]);
    drawnAnnotation = (await labelsOf(server, docs.invoice)).Customer.annotations[0].id;
    const drawn = await server.get(`/api/v3/annotations/${drawnAnnotation}/`);
    expect(drawn).toMatchObject({ offset_string: 'ACME', label: { id: labelIds.Customer }, document: docs.invoice, review_state: 'Created by human' });
  });

  await test.step('4. accept and decline machine annotations, mark a label missing, undo, finish the review', async () => {
    const panel = page.getByRole('complementary', { name: 'Review' });
    const dateRow = panel.getByRole('listitem', { name: /^Invoice date “2024-03-15”/ });
    await expect(dateRow).toContainText('Feedback required');
    await expect(page.getByRole('button', { name: 'Finish review' })).toBeDisabled();

    await panel.getByRole('button', { name: 'Accept Invoice date “2024-03-15”' }).click();
    await expect(dateRow).toContainText('Accepted');
    await panel.getByRole('button', { name: 'Decline Total “12,50”' }).click();
    await expect(panel.getByRole('listitem', { name: /^Total “12,50”/ })).toContainText('Declined');
    await expect.poll(async () => {
      const l = await labelsOf(server, docs.invoice);
      return [l['Invoice date'].annotations[0]?.review_state, l.Total.annotations[0]?.review_state];
    }).toEqual(['Accepted', 'Declined']);
    await snapshot(page, info, '04a-accepted-declined');

    await panel.getByRole('button', { name: 'Mark Invoice number missing' }).click();
    await expect(panel.getByRole('listitem', { name: 'Invoice number, Not found' })).toBeVisible();
    await expect.poll(async () => (await labelsOf(server, docs.invoice))['Invoice number'].status).toBe('Not found');
    await page.getByRole('button', { name: 'Undo' }).click();
    await expect(panel.getByRole('listitem', { name: 'Invoice number, Unfilled' })).toBeVisible();
    await expect.poll(async () => (await labelsOf(server, docs.invoice))['Invoice number']).toMatchObject({ status: 'Unfilled', missing: null });
    await snapshot(page, info, '04b-missing-undone');

    // The declined total and the invoice number block finishing until both are marked missing.
    await expect(page.getByText('Still to do: 2 labels are unfilled.')).toBeVisible();
    await panel.getByRole('button', { name: 'Mark Invoice number missing' }).click();
    await panel.getByRole('button', { name: 'Mark Total missing' }).click();
    const finish = page.getByRole('button', { name: 'Finish review' });
    await expect(finish).toBeEnabled();
    await snapshot(page, info, '04c-ready-to-finish');
    await finish.click();

    // Recorded, and the next unreviewed document of the project (the scan) opens.
    await expect(page).toHaveURL(new RegExp(`#/documents/${docs.scan}$`));
    await expect(page.getByRole('heading', { name: 'delivery-scan.pdf' })).toBeVisible();
    await snapshot(page, info, '04d-next-document');
    expect((await server.get(`/api/v3/documents/${docs.invoice}/`)).is_reviewed).toBe(true);
    const tree = await labelsOf(server, docs.invoice);
    expect(Object.fromEntries(['Customer', 'Invoice date', 'Total', 'Invoice number'].map((n) => [n, tree[n].status]))).toEqual({
      Customer: 'Created by human',
      'Invoice date': 'Accepted',
      Total: 'Not found',
      'Invoice number': 'Not found',
    });
  });

  await test.step('5. split a two-document PDF in edit mode', async () => {
    await page.getByRole('link', { name: '← Documents' }).click();
    await chooseFiles(page, [
      {
        name: 'two-documents.pdf',
        buffer: await linesPdf([
          ['Initech Invoice', 'Date: 2024-04-02', 'Total: 310,00 EUR'],
          ['Service contract', 'between Initech and Hausmeister Service KG', 'Term: twelve months'],
        ]),
      },
    ]);
    const row = page.getByTestId('upload').filter({ hasText: 'two-documents.pdf' });
    await expect(row).toContainText('Done', { timeout: 60_000 });
    await row.getByRole('link', { name: 'Open two-documents.pdf' }).click();
    await expect(page.getByRole('heading', { name: 'two-documents.pdf' })).toBeVisible();
    const original = Number(page.url().match(/#\/documents\/(\d+)$/)![1]);
    expect((await server.get(`/api/v3/documents/${original}/`)).number_of_pages).toBe(2);

    await page.getByRole('link', { name: 'Edit pages' }).click();
    await expect(page.getByRole('heading', { name: 'Edit two-documents.pdf' })).toBeVisible();
    await page.getByRole('button', { name: 'Split between page 1 and page 2' }).click();
    await expect(page.getByRole('heading', { name: '2 documents' })).toBeVisible();
    await snapshot(page, info, '05a-split-marked');
    await page.getByRole('button', { name: 'Confirm: 2 documents' }).click();
    await expect(page.getByRole('heading', { name: 'Split into 2 documents' })).toBeVisible();
    const table = page.getByRole('table', { name: 'Documents of the set' });
    await expect(table.getByRole('row').filter({ hasText: 'Done' })).toHaveCount(2, { timeout: 60_000 });
    await snapshot(page, info, '05b-split-done');

    expect((await server.get(`/api/v3/documents/${original}/`)).detail).toBeTruthy();
    const parts = ((await server.get(`/api/v3/documents/?project=${project.id}&ordering=id`)).results as any[]).filter((d) => d.document_set !== null);
    expect(parts.map((d) => [d.number_of_pages, d.status_data])).toEqual([
      [1, 2],
      [1, 2],
    ]);
    expect(parts[1].document_set).toBe(parts[0].document_set);
    const set = await server.get(`/api/v3/document-sets/${parts[0].document_set}/`);
    expect(set).toMatchObject({ original_file_name: 'two-documents.pdf', original_number_of_pages: 2 });
    expect([...set.documents].sort()).toEqual(parts.map((d) => d.id).sort());
    expect((await server.get(`/api/v3/documents/${parts[0].id}/`)).text).toMatch(/Initech\s+Invoice/);
    expect((await server.get(`/api/v3/documents/${parts[1].id}/`)).text).toMatch(/Service\s+contract/);
  });

  await test.step('6. train an extraction AI on the AI tab and read its evaluation', async () => {
    // Training and test invoices with accepted annotations, as reviewers before this one left them.
    const prepare = async (n: number, datasetStatus: number) => {
      const lines = trainingInvoice(n);
      const doc = await server.upload('/api/v3/documents/', { project: project.id, category: invoiceCategory, dataset_status: datasetStatus, sync: 'true' }, { name: `training-${n}.pdf`, data: await linesPdf([lines]) });
      expect(doc.status_data, JSON.stringify(doc)).toBe(2);
      for (const [label, text] of [['Invoice date', lines[2].split(': ')[1]], ['Total', lines[4].split(': ')[1].replace(' EUR', '')]]) {
        const made = await server.post('/api/v3/annotations/', { document: doc.id, label: labelIds[label], label_set: invoiceCategory, span: [await spanOf(server, doc.id, text)], is_correct: true, revised: true });
        expect(made.review_state, JSON.stringify(made)).toBe('Accepted');
      }
    };
    await Promise.all([...[0, 1, 2, 3, 4].map((n) => prepare(n, 2)), prepare(10, 3)]);

    await page.getByRole('link', { name: 'Back to the project’s documents' }).click();
    await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'AI' }).click();
    const extraction = page.getByRole('region', { name: 'Extraction AI for Invoice' });
    await expect(extraction.getByText('No AI trained yet.')).toBeVisible();
    await extraction.getByRole('button', { name: 'Train a new AI' }).click();
    await expect(extraction.getByRole('heading', { name: /^Evaluation of AI #\d+ Active$/ })).toBeVisible({ timeout: 120_000 });
    const chart = extraction.getByRole('img', { name: /^F1 per label: / });
    await expect(chart).toHaveAccessibleName(/Invoice date \d+%/);
    await expect(chart).toHaveAccessibleName(/Total \d+%/);
    await snapshot(page, info, '06-ai-evaluation');

    const ais = await server.get(`/api/v3/extraction-ais/?project_id=${project.id}`);
    expect(ais.count).toBe(1);
    const [ai] = ais.results;
    expect(ai).toMatchObject({ category: invoiceCategory, status: 'done', active: true, progress: 100 });
    expect(ai.evaluation).toMatchObject({ metric: 'f1', documents: 1 });
    await expect(extraction.getByRole('heading', { name: `Evaluation of AI #${ai.id} Active` })).toBeVisible();
  });

  await test.step("6b. the new AI's annotations on the next upload await feedback: one accepted, one declined from the keyboard", async () => {
    await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Documents' }).click();
    await chooseFiles(page, [{ name: 'rechnung-4720.pdf', buffer: await linesPdf([trainingInvoice(20)]) }]);
    const row = page.getByTestId('upload').filter({ hasText: 'rechnung-4720.pdf' });
    await expect(row).toContainText('Done', { timeout: 60_000 });
    await row.getByRole('link', { name: 'Open rechnung-4720.pdf' }).click();
    const doc = Number(page.url().match(/#\/documents\/(\d+)$/)![1]);
    const extracted = await labelsOf(server, doc);
    const [date] = extracted['Invoice date'].annotations;
    const [total] = extracted.Total.annotations;
    expect([date?.offset_string, date?.review_state, date?.origin]).toEqual(['21.03.2024', 'Feedback required', 'machine']);
    expect([total?.offset_string, total?.review_state, total?.origin]).toEqual(['440,30', 'Feedback required', 'machine']);

    // The cursor on an annotation: Enter accepts it, Delete declines it.
    const panel = page.getByRole('complementary', { name: 'Review' });
    // (The row's first button carries the text and, where it differs, the normalized value.)
    await panel.getByRole('listitem', { name: 'Invoice date “21.03.2024”, Feedback required' }).getByRole('button').first().click();
    await page.keyboard.press('Enter');
    await expect(panel.getByRole('listitem', { name: 'Invoice date “21.03.2024”, Accepted' })).toBeVisible();
    await panel.getByRole('listitem', { name: 'Total “440,30”, Feedback required' }).getByRole('button').first().click();
    await page.keyboard.press('Delete');
    await expect(panel.getByRole('listitem', { name: 'Total “440,30”, Declined' })).toBeVisible();
    await snapshot(page, info, '06b-ai-annotations-reviewed');
    await expect.poll(async () => [(await server.get(`/api/v3/annotations/${date.id}/`)).review_state, (await server.get(`/api/v3/annotations/${total.id}/`)).review_state]).toEqual(['Accepted', 'Declined']);
    await page.getByRole('link', { name: '← Documents' }).click();
  });

  await test.step('7. export the CSV: a row per annotation of the project, the drawn one with its text', async () => {
    const href = await page.getByRole('link', { name: 'Export CSV' }).getAttribute('href');
    expect(href).toContain(`/api/v3/projects/${project.id}/export/all.csv?fk=`);
    expect(href).not.toContain('token=');
    const res = await page.request.get(href!);
    expect(res.status()).toBe(200);
    expect(res.headers()['content-type']).toContain('text/csv');
    const [header, ...rows] = parseCsv(await res.text());
    const column = (name: string) => {
      const i = header.indexOf(name);
      expect(i, `CSV column ${name}`).toBeGreaterThanOrEqual(0);
      return i;
    };
    const [idCol, textCol, labelCol, stateCol] = ['annotation_id', 'text', 'label', 'review_state'].map(column);

    const annotations = (await server.get(`/api/v3/annotations/?project=${project.id}&limit=1000`)).results as any[];
    // Two on each of the AI's six training and test invoices, three on the reviewed invoice (the accepted
    // date, the declined total, the drawn customer), the AI's on the last upload; a missing label is none.
    expect(annotations.length).toBeGreaterThanOrEqual(17);
    expect(rows.map((r) => Number(r[idCol])).sort((a, b) => a - b)).toEqual(annotations.map((a) => a.id).sort((a, b) => a - b));
    const drawn = rows.find((r) => Number(r[idCol]) === drawnAnnotation)!;
    expect([drawn[labelCol], drawn[textCol], drawn[stateCol]]).toEqual(['Customer', 'ACME', 'Created by human']);
    await snapshot(page, info, '07-export');
  });
});
