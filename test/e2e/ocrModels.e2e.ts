// Issue 31: the OCR languages panel of Settings. An administrator adds a tesseract model file; the API
// checks it, stores it in the data folder, and the panel lists the language at once. A file that is no
// model is refused with the API's reason, and nothing is added.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { expect, test } from '@playwright/test';
import { logIn } from './helpers.ts';
import { bundledTraineddata } from '../../main/pipeline/languages.ts';

test('an administrator adds an OCR language from Settings', async ({ page }) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-e2e-model-'));
  // A real tesseract 4 model: the bundled English network, here under the code of Middle English.
  const model = path.join(dir, 'enm.traineddata');
  fs.writeFileSync(model, gunzipSync(fs.readFileSync(bundledTraineddata().find((t) => t.code === 'eng')!.file)));
  const junk = path.join(dir, 'pol.traineddata');
  fs.writeFileSync(junk, Buffer.alloc(100_000, 7));
  try {
    await logIn(page);
    await page.getByRole('link', { name: 'Settings' }).click();
    const card = page.getByRole('region', { name: 'OCR languages' });
    const list = card.getByRole('list', { name: 'Installed OCR languages' });
    await expect(list).toContainText('English');
    await expect(list).not.toContainText('enm');

    const input = card.getByLabel(/Add a language model/);
    await input.setInputFiles(junk);
    await card.getByRole('button', { name: 'Add language' }).click();
    await expect(card.getByRole('alert')).toContainText('not a tesseract .traineddata file');
    await expect(list).not.toContainText('Polish');

    await input.setInputFiles(model);
    await card.getByRole('button', { name: 'Add language' }).click();
    await expect(card.getByRole('status')).toContainText('enm (enm) is installed');
    await expect(list).toContainText('enm (enm, added to the data folder)');
    expect(fs.existsSync(path.join(process.env.FOLIO_E2E_DATA!, 'tessdata', 'enm.traineddata'))).toBe(true);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
