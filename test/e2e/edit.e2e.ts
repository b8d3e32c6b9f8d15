// Edit mode: a reviewer turns page 2 of a three-page PDF, drags page 3 to the front, splits after the first
// page, names the first document and confirms. The API then holds two documents of one document set with
// the pages in that order, the turned page on its side; the screen lists both as they are processed.
// Then the splitting AI (trained on the AI tab) proposes splits of uploads: one is confirmed, one rejected.
import { expect, test, type Page } from '@playwright/test';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { api, logIn, snapshot } from './helpers.ts';

/** A born-digital A4 PDF: one page per entry, each a list of lines from the top down. */
async function linesPdf(pages: string[][]): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (const lines of pages) {
    const page = pdf.addPage([595, 842]);
    lines.forEach((line, i) => page.drawText(line, { x: 60, y: 780 - 18 * i, size: 11, font }));
  }
  return pdf.save({ useObjectStreams: false });
}

const threePagePdf = () => linesPdf(['one', 'two', 'three'].map((word) => [`Letter page ${word}`, `Reference ${word.toUpperCase()}-2024`]));

/** An invoice of one page, or two whose second page holds its terms (as in test/http/splitting.test.ts). */
const invoice = (n: number, pages: 1 | 2): string[][] => {
  const first = [
    'Muster Buerobedarf GmbH - Hauptstrasse 5 - 10115 Berlin',
    `RECHNUNG Nr. R-${4700 + n}`,
    `Rechnungsdatum: ${String((n % 27) + 1).padStart(2, '0')}.03.2024`,
    `Kunde: Beispiel AG, Kundennummer ${9100 + n}`,
    `Pos. 1 Druckerpapier A4, Menge ${n + 3}, ${12 + n},50 EUR`,
    `Rechnungsbetrag: ${95 + n},20 EUR`,
    'Zahlbar innerhalb von 14 Tagen ohne Abzug.',
    `Seite 1 von ${pages}`,
  ];
  const terms = ['Allgemeine Geschaeftsbedingungen (Fortsetzung)', 'Die gelieferte Ware bleibt bis zur vollstaendigen Bezahlung unser Eigentum.', `Gerichtsstand ist Berlin, Fassung ${2020 + (n % 4)}.`, 'Seite 2 von 2'];
  return pages === 1 ? [first] : [first, terms];
};

/** A service contract of one page, or two whose second page continues its clauses. */
const contract = (n: number, pages: 1 | 2): string[][] => {
  const first = [
    'Hausmeister Service KG - Lindenweg 12 - 80331 Muenchen',
    `VERTRAG ueber Wartungsleistungen Nr. V-${300 + n}`,
    `zwischen der Hausverwaltung Sonnenhof ${n} (Auftraggeber)`,
    '1. Gegenstand: Reinigung der Treppenhaeuser und Pflege der Aussenanlagen.',
    `2. Verguetung: monatlich ${400 + 10 * n},00 EUR zuzueglich Umsatzsteuer.`,
    `Seite 1 von ${pages}`,
  ];
  const rest = ['4. Kuendigung: drei Monate zum Ende eines Kalendervierteljahres.', '6. Schlussbestimmungen: Aenderungen beduerfen der Schriftform.', `Muenchen, den ${String((n % 27) + 1).padStart(2, '0')}.03.2024`, 'Seite 2 von 2'];
  return pages === 1 ? [first] : [first, rest];
};

/** The page buttons of the strip, in their order on screen. */
const stripOrder = (page: Page) => page.getByRole('group', { name: 'Pages in their new order' }).locator('button.thumb').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));

test('turn, re-order and split a document in edit mode', async ({ page }, info) => {
  const server = await api();
  const project = await server.post('/api/v3/projects/', { name: `Edit mode ${Date.now()}` });
  const letter = await server.post('/api/v3/categories/', { project: project.id, name: 'Letter' });
  const doc = await server.upload('/api/v3/documents/', { project: project.id, category: letter.id, sync: 'true' }, { name: 'letters.pdf', data: await threePagePdf() });
  expect(doc.status_data, JSON.stringify(doc)).toBe(2);
  expect(doc.number_of_pages).toBe(3);

  await logIn(page);
  await page.goto(`/#/documents/${doc.id}/edit`);
  await expect(page.getByRole('heading', { name: 'Edit letters.pdf' })).toBeVisible();
  expect(await stripOrder(page)).toEqual(['Page 1', 'Page 2', 'Page 3']);

  // Turn page 2 a quarter to the right.
  await page.getByRole('button', { name: 'Turn page 2 right' }).click();
  await expect(page.getByText('Page 2 · turned 90°')).toBeVisible();

  // Drag page 3 to the left half of page 1: it goes first.
  await page.getByRole('button', { name: 'Page 3', exact: true }).dragTo(page.getByRole('button', { name: 'Page 1', exact: true }), { targetPosition: { x: 8, y: 60 } });
  await expect.poll(() => stripOrder(page)).toEqual(['Page 3', 'Page 1', 'Page 2']);

  // The keyboard moves pages too: page 1 one step right and back, keeping the focus.
  const page1 = page.getByRole('button', { name: 'Page 1', exact: true });
  await page1.focus();
  await page.keyboard.press('Alt+ArrowRight');
  await expect.poll(() => stripOrder(page)).toEqual(['Page 3', 'Page 2', 'Page 1']);
  await expect(page1).toBeFocused();
  await page.keyboard.press('Alt+ArrowLeft');
  await expect.poll(() => stripOrder(page)).toEqual(['Page 3', 'Page 1', 'Page 2']);

  // Split after the first page (now page 3) and name the first document.
  const split = page.getByRole('button', { name: 'Split between page 3 and page 1' });
  await split.click();
  await expect(split).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('heading', { name: '2 documents' })).toBeVisible();
  await page.getByLabel('Name of document 1').fill('cover.pdf');
  await expect(page.getByLabel('Category of document 2')).toHaveValue(String(letter.id));
  await snapshot(page, info, 'edit-before-confirm');

  await page.getByRole('button', { name: 'Confirm: 2 documents' }).click();
  await expect(page.getByRole('heading', { name: 'Split into 2 documents' })).toBeVisible();
  const table = page.getByRole('table', { name: 'Documents of the set' });
  await expect(table.getByRole('link', { name: 'cover.pdf' })).toBeVisible();
  await expect(table.getByRole('row').filter({ hasText: 'Done' })).toHaveCount(2, { timeout: 60_000 });
  await snapshot(page, info, 'edit-results');

  // What the API holds: the original is gone; two documents of one set, pages in the new order.
  expect((await server.get(`/api/v3/documents/${doc.id}/`)).detail).toBeTruthy();
  const list = await server.get(`/api/v3/documents/?project=${project.id}&ordering=id`);
  expect(list.count).toBe(2);
  const [cover, rest] = list.results;
  expect(cover.document_set).not.toBeNull();
  expect(rest.document_set).toBe(cover.document_set);
  const set = await server.get(`/api/v3/document-sets/${cover.document_set}/`);
  expect(set).toMatchObject({ original_file_name: 'letters.pdf', original_number_of_pages: 3 });
  expect([...set.documents].sort()).toEqual([cover.id, rest.id].sort());
  expect(cover).toMatchObject({ data_file_name: 'cover.pdf', number_of_pages: 1, category: letter.id });
  expect(rest.number_of_pages).toBe(2);
  expect((await server.get(`/api/v3/documents/${cover.id}/`)).text).toContain('Letter page three');
  const restDetail = await server.get(`/api/v3/documents/${rest.id}/`);
  expect(restDetail.text.indexOf('page one')).toBeLessThan(restDetail.text.indexOf('page two'));
  const pages = (await server.get(`/api/v3/documents/${rest.id}/pages/`)).results;
  expect(pages.map((p: any) => p.original_size)).toEqual([
    [595, 842],
    [842, 595],
  ]);

  // The links lead on to the new documents.
  await table.getByRole('link', { name: 'cover.pdf' }).click();
  await expect(page).toHaveURL(new RegExp(`#/documents/${cover.id}$`));
});

test('the splitting AI proposes splits: one confirmed as proposed, one rejected', async ({ page }, info) => {
  test.setTimeout(240_000);
  const server = await api();
  const project = await server.post('/api/v3/projects/', { name: `Splitting ${Date.now()}`, splitting_enabled: true });
  expect(project.splitting_enabled).toBe(true);
  const rechnung = await server.post('/api/v3/categories/', { project: project.id, name: 'Rechnung' });
  const vertrag = await server.post('/api/v3/categories/', { project: project.id, name: 'Vertrag' });
  const send = async (pages: string[][], fields: Record<string, string | number>) =>
    server.upload('/api/v3/documents/', { project: project.id, sync: 'true', ...fields }, { name: 'scan.pdf', data: await linesPdf(pages) });
  const uploads: Promise<any>[] = [];
  for (let n = 0; n < 8; n++) {
    const pages = n % 2 === 0 ? 1 : 2;
    uploads.push(send(invoice(n, pages), { category: rechnung.id, dataset_status: 2 }), send(contract(n, pages), { category: vertrag.id, dataset_status: 2 }));
  }
  uploads.push(send(invoice(20, 2), { category: rechnung.id, dataset_status: 3 }), send(contract(21, 1), { category: vertrag.id, dataset_status: 3 }));
  for (const doc of await Promise.all(uploads)) expect(doc.status_data, JSON.stringify(doc)).toBe(2);

  // Train the splitting AI on the AI tab and read its evaluation.
  await logIn(page);
  await page.goto(`/#/projects/${project.id}/ai`);
  const splitting = page.getByRole('region', { name: 'Splitting AI' });
  await expect(splitting.getByText('No AI trained yet.')).toBeVisible();
  await splitting.getByRole('button', { name: 'Train a new AI' }).click();
  await expect(splitting.getByRole('heading', { name: /^Evaluation of AI #\d+ Active$/ })).toBeVisible({ timeout: 120_000 });
  await expect(splitting.getByRole('img', { name: /^Split points found: Precision \d+%, Recall \d+%, F1 \d+%$/ })).toBeVisible();
  await snapshot(page, info, 'splitting-ai');

  // A stream of three documents waits for confirmation; edit mode starts from the proposal.
  const stream = (n: number) => [...invoice(n, 1), ...contract(n, 2), ...invoice(n + 1, 1)];
  const waiting = await send(stream(40), {});
  expect(waiting.status_data, JSON.stringify(waiting.status)).toBe(41);
  await page.goto(`/#/documents/${waiting.id}/edit`);
  await expect(page.getByText(/The splitting AI proposes 3 documents/)).toBeVisible();
  const parts = page.getByRole('list', { name: 'Resulting documents' }).getByRole('listitem');
  await expect(parts).toHaveCount(3);
  await expect(parts.nth(1)).toContainText('pages 2, 3');
  await expect(parts.nth(1)).toContainText(/Proposed by the AI: Vertrag/);
  await expect(page.getByLabel('Category of document 2')).toHaveValue(String(vertrag.id));
  await snapshot(page, info, 'proposal');
  await page.getByRole('button', { name: 'Confirm: 3 documents' }).click();
  await expect(page.getByRole('heading', { name: 'Split into 3 documents' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Documents of the set' }).getByRole('row').filter({ hasText: 'Done' })).toHaveCount(3, { timeout: 60_000 });
  const made = await server.get(`/api/v3/documents/?project=${project.id}&dataset_status=0&ordering=id`);
  const parts3 = made.results.filter((d: any) => d.document_set !== null);
  expect(parts3.map((d: any) => [d.number_of_pages, d.category])).toEqual([
    [1, rechnung.id],
    [2, vertrag.id],
    [1, rechnung.id],
  ]);
  expect(new Set(parts3.map((d: any) => d.document_set)).size).toBe(1);

  // Another stream: the proposal rejected, the document goes on whole.
  const second = await send(stream(50), {});
  expect(second.status_data).toBe(41);
  await page.goto(`/#/documents/${second.id}/edit`);
  await page.getByRole('button', { name: 'Reject proposal' }).click();
  await expect(page.getByRole('heading', { name: 'Kept as one document' })).toBeVisible();
  await expect.poll(async () => (await server.get(`/api/v3/documents/${second.id}/`)).status_data, { timeout: 60_000 }).toBe(2);
  expect(await server.get(`/api/v3/documents/${second.id}/`)).toMatchObject({ number_of_pages: 4, document_set: null, proposed_split: null });
});
