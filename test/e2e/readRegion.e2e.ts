// Reading a region again and typing a value (issue 10), in the review screen: a scanned page (an image-only
// PDF, read by OCR) is uploaded through the API; the reviewer labels a drawn box from the keyboard, reads
// a box over OCR'd text again closer up (the annotation takes what is read there), and draws a box over
// an empty area, where reading again finds nothing and they type the value instead. After each step the
// API holds what the screen shows.
import { expect, test } from '@playwright/test';
import { scannedPdf } from '../fixtures/pdfSamples.ts';
import { api, drawAround, logIn, snapshot } from './helpers.ts';

type Server = Awaited<ReturnType<typeof api>>;
type Box = { page_index: number; x0: number; x1: number; y0: number; y1: number };

/** Where OCR put a word, as the API's search finds it. */
async function wordBox(server: Server, doc: number, q: string): Promise<Box> {
  const found = await server.post(`/api/v3/documents/${doc}/search/`, { q });
  expect(found.span?.length, `"${q}" in the OCR text of document ${doc}`).toBeGreaterThan(0);
  const [s] = found.span;
  return { page_index: s.page_index, x0: s.x0, x1: s.x1, y0: s.y0, y1: s.y1 };
}

const annotationsOf = async (server: Server, doc: number): Promise<any[]> => (await server.get(`/api/v3/documents/${doc}/annotations/`)).results;
const byLabel = (all: any[], labelId: number) => all.filter((a) => a.label.id === labelId);

test('read a drawn region again, and type the value where nothing can be read', async ({ page }, info) => {
  const server = await api();
  const project = await server.post('/api/v3/projects/', { name: `Read region ${Date.now()}`, ocr_languages: ['eng'] });
  const category = await server.post('/api/v3/categories/', { project: project.id, name: 'Letter' });
  const label = async (name: string) => (await server.post('/api/v3/labels/', { project: project.id, name, data_type: 'Text', label_sets: [category.id] })).id as number;
  const labels = { customer: await label('Customer'), number: await label('Invoice number'), reference: await label('Reference') };

  // One scanned line, 18 pt at 150 dpi on a 612 x 144 pt page: the right half and the bottom stay blank.
  const doc = await server.upload('/api/v3/documents/', { project: project.id, category: category.id, sync: 'true' }, { name: 'scan.pdf', data: await scannedPdf('Invoice 4711 Globex') });
  expect(doc.status_data, JSON.stringify(doc)).toBe(2);
  expect(doc.text).toMatch(/Invoice\s+4711\s+Globex/);
  const pages = await server.get(`/api/v3/documents/${doc.id}/pages/`);
  const size: [number, number] = pages.results[0].original_size;

  await logIn(page);
  await page.goto(`/#/documents/${doc.id}`);
  const panel = page.getByRole('complementary', { name: 'Review' });
  await expect(panel.getByRole('heading', { name: 'Letter' })).toBeVisible();
  await expect(page.locator('[data-page-number="1"]')).toBeVisible();
  const drawButton = page.getByRole('button', { name: 'Draw box' });
  const drawMode = async () => {
    if ((await drawButton.getAttribute('aria-pressed')) !== 'true') await drawButton.click();
    await expect(drawButton).toHaveAttribute('aria-pressed', 'true');
  };
  await snapshot(page, info, 'scan-opened');

  // The new-annotation dialog takes typing at once (the label field has the focus) and Enter confirms.
  await drawMode();
  await drawAround(page, await wordBox(server, doc.id, 'Globex'), size);
  const created = page.getByRole('dialog', { name: 'New annotation' });
  await expect(created.locator('q')).toHaveText('Globex');
  await expect(created.getByRole('combobox', { name: 'Label' })).toBeFocused();
  await page.keyboard.type('cust');
  await page.keyboard.press('Enter'); // picks the only match
  await expect(created.getByRole('option', { name: /^Customer/ })).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Enter'); // Enter on the picked label confirms
  await expect(created).toHaveCount(0);
  await expect(panel.getByRole('listitem', { name: /^Customer “Globex”/ })).toBeVisible();
  await expect.poll(async () => byLabel(await annotationsOf(server, doc.id), labels.customer).map((a) => [a.offset_string, a.is_typed])).toEqual([['Globex', false]]);
  await snapshot(page, info, 'labelled-from-keyboard');

  // (a) A box over text OCR read: read it again closer up with a label; the annotation holds what is read.
  await drawMode();
  const number = await wordBox(server, doc.id, '4711');
  await drawAround(page, number, size);
  await expect(created.locator('q')).toHaveText('4711');
  await page.keyboard.type('invoice num');
  await page.keyboard.press('Enter');
  await expect(created.getByRole('option', { name: /^Invoice number/ })).toHaveAttribute('aria-selected', 'true');
  await snapshot(page, info, 'read-again-dialog');
  await created.getByRole('button', { name: 'Read this region again' }).click();
  await expect(created).toHaveCount(0);
  const numberRow = panel.getByRole('listitem', { name: /^Invoice number “4711”/ });
  await expect(numberRow).toContainText('Created by human');
  await expect(numberRow).not.toContainText('typed');
  await expect
    .poll(async () => byLabel(await annotationsOf(server, doc.id), labels.number).map((a) => ({ text: a.offset_string, typed: a.is_typed })))
    .toEqual([{ text: '4711', typed: false }]);
  const [read] = byLabel(await annotationsOf(server, doc.id), labels.number);
  // Read into the document's text: the annotation's offsets point at what was read.
  const textAfterReading: string = (await server.get(`/api/v3/documents/${doc.id}/`)).text;
  expect(read.start_offset).not.toBeNull();
  expect(Array.from(textAfterReading).slice(read.start_offset, read.end_offset).join('')).toBe('4711');
  await expect(page.locator(`.viewer-box[data-annotation-id="${read.id}"]`)).toBeVisible();
  await snapshot(page, info, 'region-read-again');

  // (b) A box over blank paper, for the Reference label the cursor is on: nothing there, even closer up;
  // the reviewer types the value. Every step from the keyboard: the offers take the focus.
  await panel.getByRole('listitem', { name: 'Reference, Unfilled' }).getByRole('button', { name: 'Reference', exact: true }).click();
  await drawMode();
  const blank = { page_index: 0, x0: 400, x1: 560, y0: 30, y1: 70 };
  await drawAround(page, blank, size);
  const readAgain = page.getByRole('button', { name: 'Read this region again' });
  await expect(page.getByRole('alert').filter({ hasText: 'There is no text in that box.' })).toBeVisible();
  await expect(readAgain).toBeFocused();
  await snapshot(page, info, 'empty-box');
  await page.keyboard.press('Enter');
  const typeIt = page.getByRole('button', { name: 'Type the value' });
  await expect(page.getByRole('alert').filter({ hasText: 'Nothing could be read in that box, even closer up.' })).toBeVisible();
  await expect(typeIt).toBeFocused();
  await snapshot(page, info, 'nothing-read');
  // Nothing was read, so the document's text is as it was.
  expect((await server.get(`/api/v3/documents/${doc.id}/`)).text).toBe(textAfterReading);

  // Escape cancels the dialog and makes nothing.
  await page.keyboard.press('Enter');
  const typed = page.getByRole('dialog', { name: 'Type the value' });
  await expect(typed.getByRole('textbox', { name: 'Value' })).toBeFocused();
  await expect(typed.getByRole('option', { name: /^Reference/ })).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.type('draft');
  await page.keyboard.press('Escape');
  await expect(typed).toHaveCount(0);
  expect(byLabel(await annotationsOf(server, doc.id), labels.reference)).toEqual([]);

  // Draw it again: same offers; this time type the value and press Enter.
  await drawMode();
  await drawAround(page, blank, size);
  await expect(readAgain).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(typeIt).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(typed.getByRole('textbox', { name: 'Value' })).toBeFocused();
  await page.keyboard.type('ACME 42');
  await snapshot(page, info, 'typing-the-value');
  await page.keyboard.press('Enter');
  await expect(typed).toHaveCount(0);

  const typedRow = panel.getByRole('listitem', { name: /^Reference “ACME 42”/ });
  await expect(typedRow).toContainText('typed');
  await expect(typedRow).toContainText('Created by human');
  await expect.poll(async () => byLabel(await annotationsOf(server, doc.id), labels.reference).length).toBe(1);
  const [value] = byLabel(await annotationsOf(server, doc.id), labels.reference);
  expect(value).toMatchObject({ is_typed: true, offset_string: 'ACME 42', start_offset: null, end_offset: null });
  expect(value.span).toHaveLength(1);
  // The drawn box: drawAround drags 3 pt outside the rectangle; the pixels of the drag cost under 1.5 pt.
  const margin = 3;
  const span = value.span[0];
  expect(span.page_index).toBe(0);
  expect(Math.abs(span.x0 - (blank.x0 - margin))).toBeLessThan(1.5);
  expect(Math.abs(span.x1 - (blank.x1 + margin))).toBeLessThan(1.5);
  expect(Math.abs(span.y0 - (blank.y0 - margin))).toBeLessThan(1.5);
  expect(Math.abs(span.y1 - (blank.y1 + margin))).toBeLessThan(1.5);
  await expect(page.locator(`.viewer-box[data-annotation-id="${value.id}"]`)).toBeVisible();
  // Typing changes no text.
  expect((await server.get(`/api/v3/documents/${doc.id}/`)).text).toBe(textAfterReading);
  await snapshot(page, info, 'typed-value');

  // Undo takes the typed value away, redo brings it back, still typed.
  await page.keyboard.press('Escape'); // leaves draw mode
  await page.keyboard.press('Control+z');
  await expect(panel.getByRole('listitem', { name: 'Reference, Unfilled' })).toBeVisible();
  await expect.poll(async () => byLabel(await annotationsOf(server, doc.id), labels.reference).length).toBe(0);
  await page.keyboard.press('Control+Shift+z');
  await expect(typedRow).toContainText('typed');
  await expect
    .poll(async () => byLabel(await annotationsOf(server, doc.id), labels.reference).map((a) => [a.offset_string, a.is_typed]))
    .toEqual([['ACME 42', true]]);
});
