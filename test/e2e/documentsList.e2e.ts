// The documents list of issue 12, as a reviewer uses it: full-text search, filters and sort kept in the
// address (they survive a reload), thumbnails, long names on one line, dataset status / category / assignee
// per row and for a selection, delete with a confirmation, a warning before the same file is uploaded twice,
// the remembered upload category, and the AI tab's "no training document" leading back to the list.
// Every step is checked against what the API holds.
import { expect, test, type Page } from '@playwright/test';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { api, E2E_ADMIN, logIn, snapshot } from './helpers.ts';

async function pdf(lines: string[]): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([595, 842]);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  lines.forEach((line, i) => page.drawText(line, { x: 72, y: 770 - 18 * i, size: 14, font }));
  return Buffer.from(await doc.save());
}

const rows = (page: Page) => page.getByRole('table').locator('tbody tr');
const row = (page: Page, name: string) => rows(page).filter({ has: page.getByRole('link', { name, exact: true }) });

test('search, sort and filter in the address; bulk and per-row changes; delete; duplicates; training data', async ({ page }, info) => {
  const server = await api();
  const project = await server.post('/api/v3/projects/', { name: `List ${Date.now()}` });
  const invoice = await server.post('/api/v3/categories/', { project: project.id, name: 'Invoice' });
  const receipt = await server.post('/api/v3/categories/', { project: project.id, name: 'Receipt' });
  const longName = `${'Quartalsabrechnung-Lieferant-Mustermann-GmbH-'.repeat(5)}final.pdf`.slice(-236);
  const alphaBytes = await pdf(['Lieferschein Zuerich Hauptbahnhof', 'Artikel Schraubenzieher']);
  const uploaded: Record<string, number> = {};
  for (const [name, bytes] of [
    ['alpha.pdf', alphaBytes],
    ['beta.pdf', await pdf(['Rechnung Berlin Mitte', 'Artikel Hammer'])],
    [longName, await pdf(['Angebot Hamburg Hafen'])],
  ] as const) {
    uploaded[name] = (await server.upload('/api/v3/documents/', { project: project.id, sync: 'true' }, { name, data: bytes })).id;
  }
  const list = async (query = '') => (await server.get(`/api/v3/documents/?project=${project.id}&ordering=id&${query}`)).results as any[];

  await logIn(page);
  await page.goto(`/#/projects/${project.id}`);
  await expect(rows(page)).toHaveCount(3);

  // Thumbnails are drawn; the 236-character name stays on one line, whole in its tooltip.
  await expect(page.locator('img.thumb')).toHaveCount(3);
  await expect.poll(() => page.locator('img.thumb').first().evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  const longLink = page.getByRole('link', { name: longName, exact: true });
  await expect(longLink).toHaveAttribute('title', longName);
  const lineHeight = await longLink.evaluate((a) => parseFloat(getComputedStyle(a).lineHeight) || 20);
  expect((await longLink.boundingBox())!.height).toBeLessThan(lineHeight * 1.6);
  await expect(page.getByText('1–3 of 3 documents')).toBeVisible();
  await snapshot(page, info, 'list');

  // Full-text search: words of the text, not only the file name; the address keeps it over a reload.
  await page.getByLabel('Search text and file names').fill('zuerich');
  await expect(rows(page)).toHaveCount(1);
  await expect(row(page, 'alpha.pdf')).toBeVisible();
  await expect(page).toHaveURL(/q=zuerich/);
  expect((await list('q=zuerich')).map((d) => d.id)).toEqual([uploaded['alpha.pdf']]);
  await page.reload();
  await expect(page.getByLabel('Search text and file names')).toHaveValue('zuerich');
  await expect(rows(page)).toHaveCount(1);
  await page.getByLabel('Search text and file names').fill('artikel');
  await expect(rows(page)).toHaveCount(2);
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(rows(page)).toHaveCount(3);

  // Sorting by a column, both ways, kept in the address.
  await page.locator('thead').getByRole('button', { name: 'File', exact: true }).click();
  await expect(page).toHaveURL(/ordering=data_file_name/);
  await expect(rows(page).first()).toContainText('alpha.pdf');
  await expect(page.getByRole('columnheader', { name: /File/ })).toHaveAttribute('aria-sort', 'ascending');
  await page.locator('thead').getByRole('button', { name: 'File', exact: true }).click();
  await expect(page).toHaveURL(/ordering=-data_file_name/);
  await page.reload();
  await expect(page.getByRole('columnheader', { name: /File/ })).toHaveAttribute('aria-sort', 'descending');
  await expect(rows(page).first()).toContainText('Quartalsabrechnung');
  await expect(rows(page).last()).toContainText('alpha.pdf');

  // Select all on the page, mark them training data.
  await page.getByLabel('Select all documents on this page').check();
  await expect(page.getByRole('toolbar', { name: 'Actions for the selected documents' })).toContainText('3 documents selected');
  await page.getByLabel('Set dataset status of the selected documents').selectOption({ label: 'Training' });
  await expect(page.getByRole('status').filter({ hasText: 'Dataset status changed: 3 documents.' })).toBeVisible();
  expect((await list()).map((d) => d.dataset_status)).toEqual([2, 2, 2]);

  // Per row: beta becomes test data; two selected documents get a category.
  await page.getByLabel('Dataset status of beta.pdf').selectOption({ label: 'Test' });
  await expect.poll(async () => (await list(`id=${uploaded['beta.pdf']}`))[0].dataset_status).toBe(3);
  await page.getByRole('button', { name: 'Clear selection' }).click();
  await page.getByLabel('Select alpha.pdf').check();
  await page.getByLabel('Select beta.pdf').check();
  await page.getByLabel('Set category of the selected documents').selectOption({ label: 'Invoice' });
  await expect(page.getByRole('status').filter({ hasText: 'Category changed: 2 documents.' })).toBeVisible();
  expect((await list(`category=${invoice.id}`)).map((d) => d.id)).toEqual([uploaded['alpha.pdf'], uploaded['beta.pdf']]);

  // Filters in the address: Training only, then a reload.
  await page.getByLabel('Dataset status', { exact: true }).selectOption({ label: 'Training' });
  await expect(rows(page)).toHaveCount(2);
  await expect(page).toHaveURL(/dataset_status=2/);
  await page.reload();
  await expect(page.getByLabel('Dataset status', { exact: true })).toHaveValue('2');
  await expect(rows(page)).toHaveCount(2);
  await page.getByRole('button', { name: 'Clear filters' }).click();

  // Assigned to me.
  await page.getByLabel('Assignee of alpha.pdf').selectOption(E2E_ADMIN.email);
  await expect.poll(async () => (await list(`id=${uploaded['alpha.pdf']}`))[0].assignee_email).toBe(E2E_ADMIN.email);
  await page.getByLabel('Assignee', { exact: true }).selectOption({ label: 'Assigned to me' });
  await expect(rows(page)).toHaveCount(1);
  await expect(row(page, 'alpha.pdf')).toBeVisible();
  await page.getByRole('button', { name: 'Clear filters' }).click();

  // Extract again without an AI: refused, with the reason in reviewer words.
  await page.getByRole('button', { name: 'Actions for beta.pdf' }).click();
  await page.getByRole('group', { name: 'Actions for beta.pdf' }).getByRole('button', { name: 'Extract again' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'has no active extraction AI' })).toBeVisible();

  // Delete with a confirmation; Cancel first keeps it.
  await page.getByRole('button', { name: 'Actions for beta.pdf' }).click();
  await page.getByRole('group', { name: 'Actions for beta.pdf' }).getByRole('button', { name: 'Delete…' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Confirm deletion' });
  await expect(confirm).toContainText('Delete “beta.pdf”?');
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  expect(await list(`id=${uploaded['beta.pdf']}`)).toHaveLength(1);
  await page.getByRole('button', { name: 'Actions for beta.pdf' }).click();
  await page.getByRole('group', { name: 'Actions for beta.pdf' }).getByRole('button', { name: 'Delete…' }).click();
  await confirm.getByRole('button', { name: 'Delete' }).click();
  // Training data is not deleted (as on the hosted service): the reason shows, the row stays.
  await expect(page.getByRole('status').filter({ hasText: 'Cannot delete documents which are part of a dataset' })).toBeVisible();
  await expect(row(page, 'beta.pdf')).toHaveCount(1);
  await page.getByLabel('Dataset status of beta.pdf').selectOption({ label: 'None' });
  await expect.poll(async () => (await list(`id=${uploaded['beta.pdf']}`))[0].dataset_status).toBe(0);
  await page.getByRole('button', { name: 'Actions for beta.pdf' }).click();
  await page.getByRole('group', { name: 'Actions for beta.pdf' }).getByRole('button', { name: 'Delete…' }).click();
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(row(page, 'beta.pdf')).toHaveCount(0);
  expect(await list(`id=${uploaded['beta.pdf']}`)).toHaveLength(0);

  // The same file again: asked first. Skip uploads nothing; "Upload anyway" uploads it.
  await page.getByLabel('Category for uploads').selectOption({ label: 'Receipt' });
  await page.getByLabel('Choose files to upload').setInputFiles([{ name: 'alpha-copy.pdf', mimeType: 'application/pdf', buffer: alphaBytes }]);
  const question = page.getByRole('alertdialog', { name: 'This file is already in the project' });
  await expect(question).toContainText('alpha-copy.pdf is the same file as alpha.pdf');
  await snapshot(page, info, 'duplicate');
  await question.getByRole('button', { name: 'Skip it' }).click();
  await expect(question).toHaveCount(0);
  expect(await list()).toHaveLength(2);
  await page.getByLabel('Choose files to upload').setInputFiles([{ name: 'alpha-copy.pdf', mimeType: 'application/pdf', buffer: alphaBytes }]);
  await question.getByRole('button', { name: 'Upload anyway' }).click();
  await expect(page.getByTestId('upload').filter({ hasText: 'alpha-copy.pdf' })).toContainText('Done');
  const copy = (await list()).find((d) => d.data_file_name === 'alpha-copy.pdf');
  expect(copy.category).toBe(receipt.id);
  expect((await server.get(`/api/v3/documents/${copy.id}/`)).duplicate_of).toEqual([uploaded['alpha.pdf']]);

  // The upload category is remembered for this project.
  await page.reload();
  await expect(page.getByLabel('Category for uploads')).toHaveValue(String(receipt.id));

  // Training the Receipt AI without training data: the reason in reviewer words, and the way to mark them.
  await page.getByRole('link', { name: 'AI', exact: true }).click();
  await page.getByLabel('Extraction AI of the category').selectOption({ label: 'Receipt' });
  await page.getByRole('region', { name: 'Extraction AI for Receipt' }).getByRole('button', { name: 'Train a new AI' }).click();
  const refusal = page.getByRole('alert').filter({ hasText: 'no training document' });
  await expect(refusal).toContainText('set their dataset status to Training');
  await expect(refusal).not.toContainText('dataset_status');
  await refusal.getByRole('link', { name: 'Mark documents as training data' }).click();
  await expect(page).toHaveURL(new RegExp(`#/projects/${project.id}\\?status=2&category=${receipt.id}`));
  await expect(rows(page)).toHaveCount(1);
  await page.getByLabel('Dataset status of alpha-copy.pdf').selectOption({ label: 'Training' });
  await expect.poll(async () => (await list(`id=${copy.id}`))[0].dataset_status).toBe(2);
});
