// A reviewer imports a project folder of the hosted service (the SDK's layout, zipped) from the projects
// page: the import's report, the new project in the list with its documents; a file that is not a folder
// gets the API's reason.
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { writeZip } from '../../main/domain/zip.ts';
import { payslipCopy, walk } from '../helpers/projectFolders.ts';
import { api, logIn, snapshot } from './helpers.ts';

test('import a zipped project folder as a new project', async ({ page }, info) => {
  const folder = payslipCopy([44823, 44834, 89928]);
  const name = `payslips-${Date.now()}`;
  fs.writeFileSync(path.join(folder, 'folio_project.json5'), JSON.stringify({ name }));
  const zip = writeZip(walk(folder).map((f) => ({ name: f, data: fs.readFileSync(path.join(folder, f)) })));
  fs.rmSync(folder, { recursive: true, force: true });

  await logIn(page);
  const input = page.getByLabel('Import a project folder');
  await input.setInputFiles({ name: 'not-a-folder.zip', mimeType: 'application/zip', buffer: Buffer.from('plain text') });
  await expect(page.getByRole('alert')).toHaveText('not-a-folder.zip: This is not a ZIP file (no end of central directory).');

  await input.setInputFiles({ name: 'payslips.zip', mimeType: 'application/zip', buffer: zip });
  await expect(page.getByText(`Imported “${name}”: 3 documents`)).toBeVisible();
  await snapshot(page, info, 'project-folder-imported');
  const link = page.getByRole('link', { name });
  await expect(link).toBeVisible();

  const listed = await (await api()).get(`/api/v3/projects/?name=${encodeURIComponent(name)}`);
  expect(listed.count).toBe(1);
  const docs = await (await api()).get(`/api/v3/documents/?project=${listed.results[0].id}`);
  expect(docs.count).toBe(3);
  await link.click();
  await expect(page.getByRole('heading', { name })).toBeVisible();

  // A document that came without its file: its page shows its text where the folder's boxes put it.
  const gehalt = docs.results.find((d: any) => d.data_file_name === 'Gehalt.pdf');
  await page.goto(`/#/documents/${gehalt.id}`);
  await expect(page.locator('.viewer-page[data-page-number="1"]')).toHaveAttribute('data-rendered', 'canvas');
  await snapshot(page, info, 'project-folder-document');
});
