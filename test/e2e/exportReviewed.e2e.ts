// Issue 29's export acceptance: the per-document CSV and XLSX links of the documents tab export what the
// list shows, and say what was checked. Real SROIE receipts (../shared/datasets/sroie-dev, numbers below
// 200 and never divisible by 5) are uploaded through the file picker and OCR'd; the API then does what a
// reviewer did on other days (company and total accepted, one AI total awaiting feedback, two receipts
// marked reviewed); the list is filtered to reviewed training receipts with "Reviewed values only" on,
// and the files the links download hold only those rows, with is_reviewed and a review column per label,
// text as the app shows it. The unreviewed receipt's AI total is left out of a reviewed-only export and
// marked "Feedback required" in a full one.
import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { isHeldBack, readReceiptImage, readReceiptKey } from '../helpers/receipts.ts';
import { parseCsv } from '../helpers/csv.ts';
import { readXlsx } from '../helpers/zip.ts';
import { collapseWhiteSpace } from '../../main/domain/documentTable.ts';
import { api, E2E_ADMIN, logIn, snapshot } from './helpers.ts';

/** Small scans, so OCR stays quick: two training receipts (one reviewed) and a reviewed test receipt. */
const REVIEWED_TRAINING = 1;
const UNREVIEWED_TRAINING = 2;
const REVIEWED_TEST = 6;
const RECEIPTS = [REVIEWED_TRAINING, UNREVIEWED_TRAINING, REVIEWED_TEST];
const fileName = (n: number) => `${String(n).padStart(3, '0')}.jpg`;

/** The API with the administrator's token, for the PATCH the shared helper does not send. */
async function patch(path: string, body: unknown): Promise<number> {
  const base = process.env.FOLIO_E2E_URL!;
  const login = await fetch(`${base}/api/v3/auth/`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ username: E2E_ADMIN.email, password: E2E_ADMIN.password }) });
  const { token } = (await login.json()) as { token: string };
  const r = await fetch(`${base}${path}`, { method: 'PATCH', headers: { Authorization: `Token ${token}`, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  return r.status;
}

/** The CSV a link of the export group downloads, as objects by header. */
async function csvOf(page: Page): Promise<{ href: string; header: string[]; rows: Record<string, string>[] }> {
  const href = (await page.getByRole('group', { name: 'Export' }).getByRole('link', { name: 'Per-document CSV' }).getAttribute('href'))!;
  const r = await page.request.get(href);
  expect(r.status()).toBe(200);
  const [header, ...body] = parseCsv(await r.text());
  return { href, header, rows: body.map((row) => Object.fromEntries(header.map((h, i) => [h, row[i]]))) };
}

test('a filtered export holds only the filtered, reviewed rows, with a review column', async ({ page }, info) => {
  test.setTimeout(600_000);
  for (const n of RECEIPTS) expect(isHeldBack(n) || n >= 200, `receipt ${n} is held back`).toBe(false);
  const server = await api();
  const project = (await server.post('/api/v3/projects/', { name: `Reviewed export ${Date.now()}` })).id as number;
  const receipt = (await server.post('/api/v3/categories/', { project, name: 'Receipt' })).id as number;
  const label = async (name: string, data_type: string) => (await server.post('/api/v3/labels/', { project, name, data_type, categories: [receipt] })).id as number;
  const labels = { company: await label('company', 'Text'), total: await label('total', 'Number') };

  await logIn(page);
  await page.goto(`/#/projects/${project}`);
  await page.getByLabel('Category for uploads').selectOption({ label: 'Receipt' });
  await page.getByLabel('Choose files to upload').setInputFiles(RECEIPTS.map((n) => ({ name: fileName(n), mimeType: 'image/jpeg', buffer: Buffer.from(readReceiptImage(n)) })));
  for (const n of RECEIPTS) await expect(page.getByTestId('upload').filter({ hasText: fileName(n) })).toContainText('Done', { timeout: 300_000 });
  const listed = (await server.get(`/api/v3/documents/?project=${project}`)).results as { id: number; data_file_name: string }[];
  const doc = Object.fromEntries(RECEIPTS.map((n) => [n, listed.find((d) => d.data_file_name === fileName(n))!.id]));

  // What a reviewer did on other days: each receipt's company and total where the key says they stand.
  const company: Record<number, string> = {};
  for (const n of RECEIPTS) {
    const key = readReceiptKey(n);
    for (const field of ['company', 'total'] as const) {
      const hit = (await server.post(`/api/v3/documents/${doc[n]}/search/`, { q: key[field] })).span?.[0];
      expect(hit, `receipt ${n}: "${key[field]}" in the OCR text`).toBeTruthy();
      const span = [{ page_index: hit.page_index, x0: hit.x0, x1: hit.x1, y0: hit.y0, y1: hit.y1 }];
      // The unreviewed receipt's total is the AI's proposal, awaiting feedback.
      const proposal = n === UNREVIEWED_TRAINING && field === 'total';
      const made = await server.post('/api/v3/annotations/', {
        document: doc[n], label: labels[field], label_set: receipt, span, ...(proposal ? { is_correct: false, revised: false, confidence: 0.8 } : { is_correct: true, revised: true }),
      });
      expect(made.review_state, JSON.stringify(made)).toBe(proposal ? 'Feedback required' : 'Accepted');
      if (field === 'company') company[n] = made.offset_string;
    }
  }
  for (const n of [REVIEWED_TRAINING, REVIEWED_TEST]) expect(await patch(`/api/v3/documents/${doc[n]}/`, { is_reviewed: true })).toBe(200);
  expect(await patch(`/api/v3/documents/${doc[REVIEWED_TRAINING]}/`, { dataset_status: 2 })).toBe(200);
  expect(await patch(`/api/v3/documents/${doc[UNREVIEWED_TRAINING]}/`, { dataset_status: 2 })).toBe(200);
  expect(await patch(`/api/v3/documents/${doc[REVIEWED_TEST]}/`, { dataset_status: 3 })).toBe(200);

  // The finding: under "reviewed, training" the list shows one receipt, the export held all of them.
  await page.reload();
  await page.locator('#doc-filter-reviewed').selectOption('true');
  await page.locator('#doc-filter-dataset').selectOption('2');
  const rows = page.getByRole('table').locator('tbody tr');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(fileName(REVIEWED_TRAINING));
  await page.getByLabel('Reviewed values only').check();
  await snapshot(page, info, 'filtered-reviewed-only');

  const reviewed = await csvOf(page);
  const query = new URL(reviewed.href, page.url()).searchParams;
  expect([query.get('is_reviewed'), query.get('dataset_status'), query.get('reviewed_only')]).toEqual(['true', '2', 'true']);
  expect(reviewed.header).toEqual(expect.arrayContaining(['company', 'total', 'is_reviewed', 'company (review)', 'total (review)']));
  expect(reviewed.header.indexOf('is_reviewed')).toBeGreaterThan(reviewed.header.indexOf('total'));
  expect(reviewed.rows.map((r) => r.document_id)).toEqual([String(doc[REVIEWED_TRAINING])]);
  const row = reviewed.rows[0];
  expect(row).toMatchObject({ dataset_status: 'Training', is_reviewed: 'True', 'company (review)': 'Accepted', 'total (review)': 'Accepted' });
  // The text as the review screen shows it: no runs of spaces, no line breaks.
  expect(row.company).toBe(collapseWhiteSpace(company[REVIEWED_TRAINING]));
  expect(row.company).not.toMatch(/\s{2}|\n/);
  expect(Number(row.total)).toBeGreaterThan(0);

  // The XLSX link: the same filters, the same single row.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Per-document XLSX' }).click()]);
  const sheet = readXlsx(fs.readFileSync((await download.path())!)).get('Documents')!;
  const header = sheet[0] as string[];
  expect(sheet.slice(1).map((r) => r[header.indexOf('document_id')])).toEqual([doc[REVIEWED_TRAINING]]);
  expect([sheet[1][header.indexOf('is_reviewed')], sheet[1][header.indexOf('company (review)')]]).toEqual(['True', 'Accepted']);

  // Not reviewed, training: the AI's total is no checked value, left out while "Reviewed values only" is on.
  await page.locator('#doc-filter-reviewed').selectOption('false');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(fileName(UNREVIEWED_TRAINING));
  const checked = await csvOf(page);
  expect(checked.rows.map((r) => r.document_id)).toEqual([String(doc[UNREVIEWED_TRAINING])]);
  expect(checked.rows[0]).toMatchObject({ is_reviewed: 'False', total: '', 'total (review)': 'Feedback required', 'company (review)': 'Accepted' });
  await page.getByLabel('Reviewed values only').uncheck();
  const everything = await csvOf(page);
  expect(new URL(everything.href, page.url()).searchParams.get('reviewed_only')).toBeNull();
  expect(everything.rows[0]['total (review)']).toBe('Feedback required');
  expect(Number(everything.rows[0].total)).toBeGreaterThan(0);
  await snapshot(page, info, 'filtered-not-reviewed');
});
