// The review view: a reviewer opens a processed invoice whose annotations await feedback, accepts one
// (keyboard), declines one, marks a label missing, undoes and redoes that, draws a box over a word and
// labels it (undo/redo), corrects its text and its label (each undone), and finishes the review, landing
// on the next unreviewed document. After each step the API holds what the screen shows.
import { expect, test, type Page } from '@playwright/test';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { api, logIn, snapshot, drawAround } from './helpers.ts';

type Server = Awaited<ReturnType<typeof api>>;

async function invoicePdf(customer: string): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const page = pdf.addPage([595, 842]);
  page.drawText(customer, { x: 72, y: 770, size: 16, font });
  page.drawText('Date: 2024-03-15', { x: 72, y: 730, size: 12, font });
  page.drawText('Total: 12,50 EUR', { x: 72, y: 700, size: 12, font });
  return pdf.save({ useObjectStreams: false });
}

/** The place of a text on the document, as the API's search finds it (one span per line). */
async function spansOf(server: Server, doc: number, q: string) {
  const found = await server.post(`/api/v3/documents/${doc}/search/`, { q });
  expect(found.span.length, `"${q}" on document ${doc}`).toBeGreaterThan(0);
  return found.span.slice(0, 1).map((s: any) => ({ page_index: s.page_index, x0: s.x0, x1: s.x1, y0: s.y0, y1: s.y1 }));
}

/** The annotation tree of the document as the API holds it: label name -> its status and annotations. */
async function labelsOf(server: Server, doc: number): Promise<Record<string, { status: string; missing: number | null; annotations: any[] }>> {
  const detail = await server.get(`/api/v3/documents/${doc}/`);
  const out: Record<string, { status: string; missing: number | null; annotations: any[] }> = {};
  for (const set of detail.annotation_sets) for (const l of set.labels) out[l.name] = { status: l.status, missing: l.missing_annotation, annotations: l.annotations };
  return out;
}

test('review a document: accept, decline, mark missing, undo, label a drawn box, finish', async ({ page }, info) => {
  const server = await api();
  const project = await server.post('/api/v3/projects/', { name: `Review ${Date.now()}` });
  const category = await server.post('/api/v3/categories/', { project: project.id, name: 'Invoice' });
  const label = async (name: string, data_type: string) => (await server.post('/api/v3/labels/', { project: project.id, name, data_type, label_sets: [category.id] })).id as number;
  const labels = { customer: await label('Customer', 'Text'), date: await label('Date', 'Date'), total: await label('Total', 'Number'), number: await label('Invoice number', 'Text') };

  const upload = async (name: string, customer: string) => {
    const doc = await server.upload('/api/v3/documents/', { project: project.id, category: category.id, sync: 'true' }, { name, data: await invoicePdf(customer) });
    expect(doc.status_data, JSON.stringify(doc)).toBe(2);
    return doc;
  };
  const doc = await upload('acme-invoice.pdf', 'ACME Corporation');
  const next = await upload('globex-invoice.pdf', 'Globex Limited');

  // Machine-like annotations: they await feedback (revised false, is_correct false).
  const machine = async (labelId: number, q: string) =>
    server.post('/api/v3/annotations/', { document: doc.id, label: labelId, label_set: category.id, span: await spansOf(server, doc.id, q), is_correct: false, revised: false, confidence: 0.8 });
  const date = await machine(labels.date, '2024-03-15');
  const total = await machine(labels.total, '12,50');
  const notADate = await machine(labels.date, 'EUR');
  expect(notADate.normalized).toBeNull();
  expect(date.review_state).toBe('Feedback required');
  expect(total.review_state).toBe('Feedback required');

  await logIn(page);
  await page.goto(`/#/documents/${doc.id}`);
  const panel = page.getByRole('complementary', { name: 'Review' });
  await expect(panel.getByRole('heading', { name: 'Invoice' })).toBeVisible();
  await expect(page.locator('[data-page-number="1"]')).toBeVisible();
  const dateRow = panel.getByRole('listitem', { name: /^Date “2024-03-15”/ });
  await expect(dateRow).toContainText('Feedback required');
  await expect(dateRow).toContainText('80%');
  await expect(page.getByRole('button', { name: 'Finish review' })).toBeDisabled();
  await snapshot(page, info, 'review-opened');

  // The shortcut sheet opens on "?" and closes on Escape.
  await page.keyboard.press('?');
  await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);

  // Accept the date from the keyboard: put the cursor on it, Enter.
  await dateRow.getByRole('button', { name: '2024-03-15', exact: true }).click();
  await page.keyboard.press('Enter');
  await expect(dateRow).toContainText('Accepted');
  await expect.poll(async () => (await server.get(`/api/v3/annotations/${date.id}/`)).review_state).toBe('Accepted');

  // "EUR" is no date: flagged, and declined with the Delete key.
  const eurRow = panel.getByRole('listitem', { name: /^Date “EUR”/ });
  await expect(eurRow).toContainText('Not machine-readable');
  await eurRow.getByRole('button', { name: 'EUR', exact: true }).click();
  await page.keyboard.press('Delete');
  await expect(eurRow).toContainText('Declined');
  await expect.poll(async () => (await server.get(`/api/v3/annotations/${notADate.id}/`)).review_state).toBe('Declined');

  // Decline the total with its button.
  await panel.getByRole('button', { name: 'Decline Total “12,50”' }).click();
  await expect(panel.getByRole('listitem', { name: /^Total “12,50”/ })).toContainText('Declined');
  await expect.poll(async () => (await server.get(`/api/v3/annotations/${total.id}/`)).review_state).toBe('Declined');
  await snapshot(page, info, 'accepted-and-declined');

  // Mark the invoice number missing, undo it (the API shows it restored), redo it.
  await panel.getByRole('button', { name: 'Mark Invoice number missing' }).click();
  await expect(panel.getByRole('listitem', { name: 'Invoice number, Not found' })).toBeVisible();
  await expect.poll(async () => (await labelsOf(server, doc.id))['Invoice number'].status).toBe('Not found');
  await page.keyboard.press('Control+z');
  await expect(panel.getByRole('listitem', { name: 'Invoice number, Unfilled' })).toBeVisible();
  await expect.poll(async () => (await labelsOf(server, doc.id))['Invoice number']).toMatchObject({ status: 'Unfilled', missing: null });
  await snapshot(page, info, 'missing-undone');
  await page.keyboard.press('Control+Shift+z');
  await expect(panel.getByRole('listitem', { name: 'Invoice number, Not found' })).toBeVisible();
  await expect.poll(async () => (await labelsOf(server, doc.id))['Invoice number'].status).toBe('Not found');

  // Search: "/" goes to the search field; the hit is counted (and highlighted in the viewer).
  await page.keyboard.press('/');
  await page.keyboard.type('eur');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('search')).toContainText('1 of 1');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('search')).not.toContainText('1 of 1');

  // In draw mode a click on a word offers that word; Escape lets it go.
  await page.getByRole('button', { name: 'Draw box' }).click();
  const pages = await server.get(`/api/v3/documents/${doc.id}/pages/`);
  const [word] = await spansOf(server, doc.id, 'Corporation');
  const pageBox = (await page.locator(`[data-page-number="${word.page_index + 1}"]`).boundingBox())!;
  const [pw, ph] = pages.results[0].original_size;
  await page.mouse.click(pageBox.x + ((word.x0 + word.x1) / 2) * (pageBox.width / pw), pageBox.y + (ph - (word.y0 + word.y1) / 2) * (pageBox.height / ph));
  const offered = page.getByRole('dialog', { name: 'New annotation' });
  await expect(offered.locator('q')).toHaveText('Corporation');
  await page.keyboard.press('Escape');
  await expect(offered).toHaveCount(0);

  // Draw a box over "ACME" and label it Customer.
  if ((await page.getByRole('button', { name: 'Draw box' }).getAttribute('aria-pressed')) !== 'true') await page.getByRole('button', { name: 'Draw box' }).click();
  const [acme] = await spansOf(server, doc.id, 'ACME');
  await drawAround(page, acme, pages.results[0].original_size);
  const dialog = page.getByRole('dialog', { name: 'New annotation' });
  await expect(dialog.locator('q')).toHaveText('ACME');
  await dialog.getByRole('combobox', { name: 'Label' }).fill('cust');
  await page.keyboard.press('Enter'); // picks the only match
  await expect(dialog.getByRole('option', { name: /^Customer/ })).toHaveAttribute('aria-selected', 'true');
  await expect(dialog).toContainText('Goes into Invoice');
  await snapshot(page, info, 'new-annotation');
  await dialog.getByRole('button', { name: 'Create annotation' }).click();
  await expect(panel.getByRole('listitem', { name: /^Customer “ACME”/ })).toContainText('Created by human');
  await expect
    .poll(async () => (await labelsOf(server, doc.id)).Customer.annotations.map((a) => [a.offset_string, a.review_state]))
    .toEqual([['ACME', 'Created by human']]);
  await page.keyboard.press('Escape'); // leaves draw mode
  await expect(page.getByRole('button', { name: 'Draw box' })).toHaveAttribute('aria-pressed', 'false');

  // Undo deletes the new annotation, redo makes it again (under a new id the panel follows).
  await page.keyboard.press('Control+z');
  await expect(panel.getByRole('listitem', { name: 'Customer, Unfilled' })).toBeVisible();
  await expect.poll(async () => (await labelsOf(server, doc.id)).Customer.annotations.length).toBe(0);
  await page.keyboard.press('Control+Shift+z');
  const customerRow = panel.getByRole('listitem', { name: /^Customer “ACME”/ });
  await expect(customerRow).toContainText('Created by human');
  await expect.poll(async () => (await labelsOf(server, doc.id)).Customer.annotations.length).toBe(1);

  // Correct its text (a custom offset string), then undo the correction.
  await customerRow.getByRole('button', { name: 'Edit text of Customer “ACME”' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit text of Customer' });
  await edit.getByLabel('Text').fill('ACME Corp.');
  await edit.getByRole('button', { name: 'Save text' }).click();
  await expect(panel.getByRole('listitem', { name: /^Customer “ACME Corp\.”/ })).toContainText('edited');
  await expect
    .poll(async () => (await labelsOf(server, doc.id)).Customer.annotations.map((a) => [a.offset_string, a.offset_string_original, a.custom_offset_string]))
    .toEqual([['ACME Corp.', 'ACME', true]]);
  await page.keyboard.press('Control+z');
  await expect.poll(async () => (await labelsOf(server, doc.id)).Customer.annotations.map((a) => [a.offset_string, a.custom_offset_string])).toEqual([['ACME', false]]);

  // Change its label from the keyboard (L), then undo that too.
  await customerRow.getByRole('button', { name: 'ACME', exact: true }).click();
  await page.keyboard.press('l');
  const relabel = page.getByRole('dialog', { name: 'Change the label of “ACME”' });
  await relabel.getByRole('combobox', { name: 'New label' }).fill('invoice');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter'); // Enter on the picked label confirms
  await expect(panel.getByRole('listitem', { name: /^Invoice number “ACME”/ })).toBeVisible();
  await expect.poll(async () => (await labelsOf(server, doc.id))['Invoice number'].annotations.map((a) => a.offset_string)).toEqual(['ACME']);
  await page.keyboard.press('Control+z');
  await expect(customerRow).toBeVisible();
  // The invoice number was Not found before the relabelled annotation filled it; undo restores that too.
  await expect.poll(async () => (await labelsOf(server, doc.id))['Invoice number']).toMatchObject({ status: 'Not found', annotations: [] });
  await expect.poll(async () => (await labelsOf(server, doc.id)).Customer.annotations.map((a) => a.offset_string)).toEqual(['ACME']);

  // The declined total leaves its label unfilled: finishing waits until it is marked missing.
  await expect(page.getByText('Still to do: 1 label is unfilled.')).toBeVisible();
  await panel.getByRole('button', { name: 'Mark Total missing' }).click();
  const finish = page.getByRole('button', { name: 'Finish review' });
  await expect(finish).toBeEnabled();
  await snapshot(page, info, 'ready-to-finish');
  await finish.click();

  // The review is recorded and the next unreviewed document of the project opens.
  await expect.poll(async () => (await server.get(`/api/v3/documents/${doc.id}/`)).is_reviewed).toBe(true);
  await expect(page).toHaveURL(new RegExp(`#/documents/${next.id}$`));
  await expect(page.getByRole('heading', { name: 'globex-invoice.pdf' })).toBeVisible();
  await snapshot(page, info, 'next-document');

  // Back on the reviewed one: the next row of the document list (newest first, as the list sorts by
  // default), so Alt+Right. It is locked, and says so.
  await page.keyboard.press('Alt+ArrowRight');
  await expect(page).toHaveURL(new RegExp(`#/documents/${doc.id}$`));
  await expect(page.getByText('Reviewed: the annotations are locked.')).toBeVisible();
  const tree = await labelsOf(server, doc.id);
  expect(Object.fromEntries(Object.entries(tree).map(([k, v]) => [k, v.status]))).toEqual({ Customer: 'Created by human', Date: 'Accepted', Total: 'Not found', 'Invoice number': 'Not found' });
});
