// The documents tab offers the project's three exports: the CSV with a row per annotation, and the table
// with a row per document as CSV and as XLSX. Each link downloads its file, with the token in its address.
import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { api, logIn, snapshot } from './helpers.ts';

async function pdf(text: string): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([595, 842]);
  page.drawText(text, { x: 72, y: 770, size: 14, font: await doc.embedFont(StandardFonts.Helvetica) });
  return Buffer.from(await doc.save());
}

test('the documents tab links the three exports, and each downloads', async ({ page }, info) => {
  const server = await api();
  const project = await server.post('/api/v3/projects/', { name: `Exports ${Date.now()}` });
  const category = await server.post('/api/v3/categories/', { project: project.id, name: 'Invoice' });
  await server.post('/api/v3/labels/', { project: project.id, name: 'Total', data_type: 'Number', categories: [category.id] });
  const doc = await server.upload('/api/v3/documents/', { project: project.id, category: category.id, sync: 'true' }, { name: 'invoice.pdf', data: await pdf('Invoice Total 12,50 EUR') });

  await logIn(page);
  await page.goto(`/#/projects/${project.id}`);
  const exports = page.getByRole('group', { name: 'Export' });
  await expect(exports.getByRole('link')).toHaveText(['Export CSV (per annotation)', 'Per-document CSV', 'Per-document XLSX']);

  const hrefs = await exports.getByRole('link').evaluateAll((links) => links.map((a) => a.getAttribute('href')!));
  expect(hrefs.map((h) => new URL(h, page.url()).pathname)).toEqual([
    `/api/v3/projects/${project.id}/export/all.csv`,
    `/api/v3/projects/${project.id}/export/documents.csv`,
    `/api/v3/projects/${project.id}/export/documents.xlsx`,
  ]);
  // Signed for the one file, for minutes: no API token in a link (issue 28 item 4).
  // Signed file URLs (fk, sig) after the list's filters that the per-document exports carry.
  for (const h of hrefs) expect(h).toMatch(/[?&]fk=[0-9.]+&sig=[\w-]+$/);

  const table = await page.request.get(hrefs[1]);
  expect(table.status()).toBe(200);
  const [header, row] = (await table.text()).split('\r\n');
  expect(header.split(',')).toEqual(expect.arrayContaining(['document_id', 'data_file_name', 'set_index', 'Total']));
  expect(row.startsWith(`${doc.id},invoice.pdf,Invoice,Done,`)).toBe(true);

  // Clicking the XLSX link downloads the workbook under its name.
  const [download] = await Promise.all([page.waitForEvent('download'), exports.getByRole('link', { name: 'Per-document XLSX' }).click()]);
  expect(download.suggestedFilename()).toBe(`project-${project.id}-documents.xlsx`);
  const bytes = fs.readFileSync((await download.path())!);
  expect(bytes.subarray(0, 4).toString('latin1')).toBe('PK\u0003\u0004');
  expect(bytes.includes(Buffer.from('[Content_Types].xml'))).toBe(true);
  await snapshot(page, info, 'export-links');
});
