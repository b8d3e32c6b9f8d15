// Uploading in the documents tab: born-digital PDFs through the file chooser and by dropping them, each
// with its progress until "Done" and a link to the document; a file that is not a PDF is refused with
// the API's reason, and one that cannot be processed shows its 111 reason. The list filters and opens
// documents, and the API holds what the screen says.
import { expect, test, type Page } from '@playwright/test';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { writeZip } from '../fixtures/ooxml.ts';
import { api, logIn, snapshot } from './helpers.ts';

async function pdf(text: string): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([595, 842]);
  page.drawText(text, { x: 72, y: 770, size: 14, font: await doc.embedFont(StandardFonts.Helvetica) });
  return Buffer.from(await doc.save());
}

/** A DOCX that passes the upload check (it is a ZIP with OOXML parts) and that LibreOffice cannot read. */
const corruptDocx = () =>
  writeZip([
    { name: '[Content_Types].xml', data: '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>' },
    { name: 'word/document.xml', data: '<w:document xmlns:w="broken <<< not xml' },
  ]);

const uploadRow = (page: Page, fileName: string) => page.getByTestId('upload').filter({ hasText: fileName });

test('upload by file chooser and drop, follow processing, filter and open the list', async ({ page }, info) => {
  const server = await api();
  const project = await server.post('/api/v3/projects/', { name: `Uploads ${Date.now()}` });
  const invoice = await server.post('/api/v3/categories/', { project: project.id, name: 'Invoice' });
  const payslip = await server.post('/api/v3/categories/', { project: project.id, name: 'Payslip' });
  await logIn(page);
  await page.goto(`/#/projects/${project.id}`);
  await expect(page.getByText('No documents yet.')).toBeVisible();

  // Two born-digital PDFs through the file chooser, the category found automatically (before a
  // categorization AI is trained, by the category name in the text: Invoice).
  await page.getByLabel('Choose files to upload').setInputFiles([
    { name: 'invoice-march.pdf', mimeType: 'application/pdf', buffer: await pdf('Invoice 2024-03 Total 120,00 EUR') },
    { name: 'invoice-april.pdf', mimeType: 'application/pdf', buffer: await pdf('Invoice 2024-04 Total 80,00 EUR') },
  ]);
  for (const name of ['invoice-march.pdf', 'invoice-april.pdf']) {
    const row = uploadRow(page, name);
    await expect(row.getByRole('progressbar')).toBeVisible();
    await expect(row).toContainText('Done');
    await expect(row.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100');
    await expect(row.getByRole('link', { name: `Open ${name}` })).toBeVisible();
  }
  // The list caught up by itself.
  await expect(page.getByRole('table').getByRole('link', { name: 'invoice-march.pdf' })).toBeVisible();
  await expect(page.getByRole('table').getByRole('link', { name: 'invoice-april.pdf' })).toBeVisible();
  await snapshot(page, info, 'uploaded');

  // A file that is not a PDF is refused at once; a DOCX LibreOffice cannot read ends in 111.
  await page.getByLabel('Choose files to upload').setInputFiles([
    { name: 'not-really.pdf', mimeType: 'application/pdf', buffer: Buffer.from('this is plain text, not a PDF at all') },
    { name: 'broken-notes.docx', mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', buffer: corruptDocx() },
  ]);
  await expect(uploadRow(page, 'not-really.pdf')).toContainText('Not uploaded:');
  const broken = uploadRow(page, 'broken-notes.docx');
  await expect(broken).toContainText('Could not be processed:', { timeout: 60_000 });

  // Dropped anywhere on the tab, with the category chosen for uploads (the text would say Invoice).
  await page.getByLabel('Category for uploads').selectOption({ label: 'Payslip' });
  const dropped = (await pdf('Invoice 2024-05 Total 99,00 EUR')).toString('base64');
  await page.evaluate(async (b64) => {
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const data = new DataTransfer();
    data.items.add(new File([bytes], 'invoice-may.pdf', { type: 'application/pdf' }));
    const target = document.querySelector('table.documents') ?? document.body;
    for (const type of ['dragenter', 'dragover', 'drop']) target.dispatchEvent(new DragEvent(type, { dataTransfer: data, bubbles: true, cancelable: true }));
  }, dropped);
  await expect(uploadRow(page, 'invoice-may.pdf')).toContainText('Done');
  await snapshot(page, info, 'uploads-settled');

  // What the API holds: three documents done, the DOCX in 111 with its reason, the text file not stored.
  const docs = (await server.get(`/api/v3/documents/?project=${project.id}&ordering=id`)).results as { id: number; data_file_name: string; status_data: number; status_reason: string | null; category: number | null }[];
  const byName = Object.fromEntries(docs.map((d) => [d.data_file_name, d]));
  expect(Object.keys(byName).sort()).toEqual(['broken-notes.docx', 'invoice-april.pdf', 'invoice-march.pdf', 'invoice-may.pdf']);
  expect(byName['invoice-march.pdf'].status_data).toBe(2);
  expect(byName['invoice-april.pdf'].status_data).toBe(2);
  expect(byName['invoice-march.pdf'].category).toBe(invoice.id);
  expect(byName['invoice-may.pdf']).toMatchObject({ status_data: 2, category: payslip.id });
  expect(byName['broken-notes.docx'].status_data).toBe(111);
  expect(byName['broken-notes.docx'].status_reason).toBeTruthy();
  await expect(broken).toContainText(byName['broken-notes.docx'].status_reason!);

  // The list: the 111 row shows its reason; filters and search narrow it.
  const table = page.getByRole('table');
  await expect(table.getByRole('row').filter({ hasText: 'broken-notes.docx' })).toContainText(byName['broken-notes.docx'].status_reason!);
  await page.getByLabel('Status', { exact: true }).selectOption({ label: 'Could not be processed' });
  await expect(table.getByRole('row')).toHaveCount(2); // the header and the DOCX
  await expect(table).toContainText('broken-notes.docx');
  await page.getByLabel('Status', { exact: true }).selectOption({ label: 'Done' });
  await page.getByLabel('Category', { exact: true }).selectOption({ label: 'Payslip' });
  await expect(table.getByRole('row')).toHaveCount(2);
  await expect(table).toContainText('invoice-may.pdf');
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await page.getByLabel('Search text and file names').fill('APRIL');
  await expect(table.getByRole('row')).toHaveCount(2);
  await expect(table).toContainText('invoice-april.pdf');
  await page.getByLabel('Search text and file names').fill('nothing like this');
  await expect(page.getByText('No documents match these filters.')).toBeVisible();
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(table.getByRole('row')).toHaveCount(5);

  // The CSV export link answers with the project's CSV.
  const href = await page.getByRole('link', { name: 'Export CSV' }).getAttribute('href');
  expect(href).toContain(`/api/v3/projects/${project.id}/export/all.csv?fk=`);
  expect(href).not.toContain('token=');
  const csv = await page.request.get(href!);
  expect(csv.status()).toBe(200);
  expect(csv.headers()['content-type']).toContain('text/csv');

  // A row opens its document.
  await table.getByRole('link', { name: 'invoice-april.pdf' }).click();
  await expect(page).toHaveURL(new RegExp(`#/documents/${byName['invoice-april.pdf'].id}$`));
});
