// Import folders in the setup tab (issue 12 item 8): a relative path is refused in place, a real folder is
// added with a category, a PDF dropped into it arrives as a document of that category and the row shows
// the import; watching is switched off and the folder removed. The API is asked after each step.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { api, logIn, snapshot } from './helpers.ts';

async function pdf(text: string): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.addPage([595, 842]).drawText(text, { x: 72, y: 770, size: 12, font: await doc.embedFont(StandardFonts.Helvetica) });
  return doc.save();
}

test('add an import folder, see its import arrive, stop watching it and remove it', async ({ page }, info) => {
  // The server polls every 5 s (the default) and the section reads the list every 10 s.
  test.setTimeout(120_000);
  const server = await api();
  const project = await server.post('/api/v3/projects/', { name: `Scanner inbox ${Date.now()}` });
  const category = await server.post('/api/v3/categories/', { project: project.id, name: 'Invoice' });
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'folio-e2e-inbox-')));
  await logIn(page);
  await page.goto(`/#/projects/${project.id}/setup`);
  const section = page.getByRole('region', { name: 'Import folders' });
  await expect(section.getByText('Nothing imported yet')).toHaveCount(0);

  await section.getByLabel('Folder', { exact: true }).fill('scans');
  await section.getByRole('button', { name: 'Add import folder' }).click();
  await expect(section.getByText(/absolute path .*"scans" is relative/)).toBeVisible();

  await section.getByLabel('Folder', { exact: true }).fill(dir);
  await section.getByLabel('Category', { exact: true }).selectOption({ label: 'Invoice' });
  await section.getByRole('button', { name: 'Add import folder' }).click();
  await expect(section.getByText(dir, { exact: true })).toBeVisible();
  await expect(section.getByText('Nothing imported yet')).toBeVisible();
  const [folder] = (await server.get(`/api/v3/projects/${project.id}/import-folders/`)).results;
  expect(folder).toMatchObject({ path: dir, category: category.id, enabled: true });

  fs.writeFileSync(path.join(dir, 'scan-0001.pdf'), await pdf('Scanned invoice 0001'));
  await expect(section.getByText(/^Last import: scan-0001\.pdf/)).toBeVisible({ timeout: 60_000 });
  expect(fs.readdirSync(path.join(dir, 'done'))).toEqual(['scan-0001.pdf']);
  const docs = (await server.get(`/api/v3/documents/?project=${project.id}`)).results;
  expect(docs.map((d: any) => [d.data_file_name, d.category])).toEqual([['scan-0001.pdf', category.id]]);
  await snapshot(page, info, 'import-folder');

  await section.getByRole('checkbox', { name: 'Watched' }).uncheck();
  await expect(section.getByText('not watched')).toBeVisible();
  expect((await server.get(`/api/v3/projects/${project.id}/import-folders/${folder.id}/`)).enabled).toBe(false);

  await section.getByRole('button', { name: `Delete import folder ${dir}` }).click();
  await section.getByRole('group', { name: `Delete import folder ${dir}?` }).getByRole('button', { name: 'Delete' }).click();
  await expect(section.getByText(dir, { exact: true })).toHaveCount(0);
  expect((await server.get(`/api/v3/projects/${project.id}/import-folders/`)).count).toBe(0);
  // The folder and what was imported from it stay.
  expect(fs.readdirSync(dir)).toEqual(['done']);
});
