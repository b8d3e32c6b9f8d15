// Issue 29 item 4, the review window as a reviewer expects it, on real SROIE receipt scans
// (../shared/datasets/sroie-dev; never one held back for evaluation nor 200-249): keyboard search
// crosses line breaks (a multi-line address becomes one annotation with a box per line); the
// new-annotation dialog stands beside the box and preselects the one unfilled label; "Read again" asks
// first and keeps the review on screen while the document is read; Previous / Next follow the document
// list's filter and sort and "← Documents" comes back to it, the reviewer's zoom kept; the review header is short at 1280x720 and
// the document table fits at 1440 px with its last row's menu whole. The API is asked what it holds.
import { expect, test, type Locator, type Page } from '@playwright/test';
import { findValueRanges, isHeldBack, readReceiptImage, readReceiptKey } from '../helpers/receipts.ts';
import { api, drawAround, E2E_ADMIN, logIn, snapshot } from './helpers.ts';

type Server = Awaited<ReturnType<typeof api>>;
const RECEIPTS = [1, 3, 4];

let server: Server;
let project: number;
let category: number;
const labels: Record<string, number> = {};
const docs: Record<number, number> = {};

async function patch(path: string, body: unknown): Promise<any> {
  const base = process.env.FOLIO_E2E_URL!;
  const login = await fetch(`${base}/api/v3/auth/`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ username: E2E_ADMIN.email, password: E2E_ADMIN.password }) });
  const { token } = (await login.json()) as { token: string };
  const r = await fetch(`${base}${path}`, { method: 'PATCH', headers: { Authorization: `Token ${token}`, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  expect(r.status, `PATCH ${path}`).toBe(200);
  return r.json();
}

const name = (n: number) => `receipt-${String(n).padStart(3, '0')}.jpg`;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  server = await api();
  project = (await server.post('/api/v3/projects/', { name: `Review window ${Date.now()}`, ocr_languages: ['eng'] })).id;
  category = (await server.post('/api/v3/categories/', { project, name: 'Receipt' })).id;
  for (const [label, data_type] of [['company', 'Text'], ['date', 'Date'], ['address', 'Text'], ['total', 'Number']])
    labels[label] = (await server.post('/api/v3/labels/', { project, name: label, data_type, label_sets: [category] })).id;
  // One after another, so that ids, upload times and names are in the same order (the list test sorts otherwise).
  for (const n of RECEIPTS) {
    expect(isHeldBack(n) || (n >= 200 && n <= 249), `receipt ${n} may be used`).toBe(false);
    const doc = await server.upload('/api/v3/documents/', { project, category, sync: 'true' }, { name: name(n), data: readReceiptImage(n) });
    expect(doc.status_data, JSON.stringify(doc)).toBe(2);
    docs[n] = doc.id;
  }
});

async function openReview(page: Page, doc: number): Promise<Locator> {
  await page.goto(`/#/documents/${doc}`);
  const panel = page.getByRole('complementary', { name: 'Review' });
  await expect(panel.getByRole('heading', { name: 'Receipt' })).toBeVisible({ timeout: 60_000 });
  await expect(page.locator('.viewer-page[data-page-number="1"]')).toHaveAttribute('data-rendered', /canvas|image/);
  return panel;
}

type Rect = { x: number; y: number; width: number; height: number };
const overlap = (a: Rect, b: Rect) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
const inWindow = (a: Rect, w: number, h: number) => a.x >= 0 && a.y >= 0 && a.x + a.width <= w && a.y + a.height <= h;
/** The review's own header (its toolbar and the viewer's) between the window's top bar and the pages. */
async function headerHeight(page: Page): Promise<{ header: number; pagesTop: number }> {
  const topbar = (await page.locator('header.topbar').boundingBox())!;
  const pagesTop = await page.locator('.viewer-scroller').evaluate((el) => el.getBoundingClientRect().top);
  return { header: pagesTop - (topbar.y + topbar.height), pagesTop };
}
const annotationsOf = async (doc: number): Promise<any[]> => (await server.get(`/api/v3/documents/${doc}/annotations/?limit=100`)).results;

test('search crosses line breaks: the multi-line address is one hit and one annotation with a box per line; the header is short', async ({ page }, info) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await logIn(page);
  await openReview(page, docs[1]);

  const { header, pagesTop } = await headerHeight(page);
  info.annotations.push({ type: 'review header at 1280x720', description: `${Math.round(header)} px (pages start at ${Math.round(pagesTop)} px of 720)` });
  expect(header).toBeLessThanOrEqual(100);
  // A receipt is much taller than wide: until the reviewer chooses a zoom, it is shown whole.
  await expect(page.getByRole('button', { name: 'Fit page' })).toHaveAttribute('aria-pressed', 'true');

  // The address as the receipt prints it, over several lines.
  const text: string = (await server.get(`/api/v3/documents/${docs[1]}/`)).text;
  const [range] = findValueRanges(text, readReceiptKey(1).address!);
  expect(range, 'the address is in the OCR text').toBeTruthy();
  const printed = Array.from(text).slice(range.start, range.end).join('');
  const lines = printed.split('\n').length;
  expect(lines, printed).toBeGreaterThan(1);
  const query = printed.replace(/\s+/g, ' ').toLowerCase();

  await page.keyboard.press('/');
  await page.keyboard.type(query);
  await page.keyboard.press('Enter');
  await expect(page.locator('.search-count')).toHaveText('1 of 1');
  await expect(page.locator('.viewer-hit.focused')).toHaveCount(lines);
  // The search's count, arrows and Label match keep the header on its one row.
  expect((await headerHeight(page)).header).toBeLessThanOrEqual(100);
  await snapshot(page, info, 'address-found');

  await page.keyboard.press('Control+Enter');
  const dialog = page.getByRole('dialog', { name: 'New annotation' });
  await expect(dialog).toContainText(`(${lines} lines)`);
  // The dialog stands beside the hit, not over it.
  const dialogBox = (await dialog.boundingBox())!;
  expect(inWindow(dialogBox, 1280, 720), JSON.stringify(dialogBox)).toBe(true);
  for (const hit of await page.locator('.viewer-hit.focused').all()) expect(overlap(dialogBox, (await hit.boundingBox())!)).toBe(false);
  await dialog.getByRole('combobox', { name: 'Label' }).fill('address');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();

  await expect.poll(async () => (await annotationsOf(docs[1])).length).toBe(1);
  const [made] = await annotationsOf(docs[1]);
  expect(made.label.name).toBe('address');
  expect(made.span).toHaveLength(lines);
  expect(made.offset_string.replace(/\s+/g, ' ').toLowerCase()).toBe(query);
  await expect(page.locator('.viewer-box.state-human')).toHaveCount(lines);
});

test('the new-annotation dialog stands beside the drawn box and preselects the one unfilled label', async ({ page }, info) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  const doc = docs[3];
  for (const label of ['company', 'date', 'address']) await server.post('/api/v3/missing-annotations/', { document: doc, label: labels[label], label_set: category });
  await logIn(page);
  const panel = await openReview(page, doc);
  await expect(panel).toContainText('total');

  const total = readReceiptKey(3).total!;
  const hit = (await server.post(`/api/v3/documents/${doc}/search/`, { q: total })).hits.at(-1);
  expect(hit, `“${total}” in the OCR text`).toBeTruthy();
  const size = (await server.get(`/api/v3/documents/${doc}/pages/1/`)).original_size as [number, number];
  await page.getByRole('button', { name: 'Draw box' }).click();
  await drawAround(page, hit[0], size);

  const dialog = page.getByRole('dialog', { name: 'New annotation' });
  await expect(dialog.getByRole('option', { name: /total/, selected: true })).toBeVisible();
  const pageBox = (await page.locator('.viewer-page[data-page-number="1"]').boundingBox())!;
  const s = hit[0];
  const drawn = { x: pageBox.x + (s.x0 / size[0]) * pageBox.width, y: pageBox.y + ((size[1] - s.y1) / size[1]) * pageBox.height, width: ((s.x1 - s.x0) / size[0]) * pageBox.width, height: ((s.y1 - s.y0) / size[1]) * pageBox.height };
  const dialogBox = (await dialog.boundingBox())!;
  expect(overlap(dialogBox, drawn)).toBe(false);
  expect(inWindow(dialogBox, 1280, 720), JSON.stringify(dialogBox)).toBe(true);
  await snapshot(page, info, 'dialog-beside-box');
  await page.keyboard.press('Enter'); // the preselected label: Enter creates
  await expect(dialog).toBeHidden();
  await expect.poll(async () => (await annotationsOf(doc)).map((a) => [a.label.name, a.offset_string])).toEqual([['total', hit[0].offset_string]]);
});

test('Read again asks first and keeps the review on screen, marked as being read again', async ({ page }, info) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  const doc = docs[4];
  await logIn(page);
  const panel = await openReview(page, doc);
  const requests: string[] = [];
  page.on('request', (r) => r.url().includes(`/documents/${doc}/read-again/`) && requests.push(r.method()));

  await page.getByRole('button', { name: 'Read again…' }).click();
  const ask = page.getByRole('alertdialog', { name: 'Read the document again?' });
  await expect(ask).toContainText('cannot be undone');
  await ask.getByRole('button', { name: 'Cancel' }).click();
  await expect(ask).toBeHidden();
  expect(requests).toEqual([]);
  expect((await server.get(`/api/v3/documents/${doc}/`)).status_data).toBe(2);

  await page.getByRole('button', { name: 'Read again…' }).click();
  await ask.getByRole('button', { name: 'Read again' }).click();
  const reading = page.getByRole('status').filter({ hasText: 'Being read again' });
  await expect(reading).toBeVisible({ timeout: 5000 });
  // The review stays: the panel, its labels and the page, locked meanwhile.
  await expect(panel.getByRole('heading', { name: 'Receipt' })).toBeVisible();
  await expect(panel.getByText('company', { exact: true })).toBeVisible();
  await expect(panel.getByRole('button', { name: /Mark .*missing/ })).toHaveCount(0);
  await expect(panel.getByRole('button', { name: 'Finish review' })).toBeDisabled();
  await expect(page.locator('.viewer-page[data-page-number="1"]')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Draw box' })).toBeDisabled();
  await snapshot(page, info, 'being-read-again');
  expect(requests).toEqual(['POST']);

  await expect.poll(async () => (await server.get(`/api/v3/documents/${doc}/`)).status_data, { timeout: 120_000, intervals: [500] }).toBe(2);
  await expect(reading).toBeHidden({ timeout: 10_000 });
  await expect(panel.getByRole('button', { name: /Mark .*missing/ }).first()).toBeEnabled();
  await expect(page.getByRole('button', { name: 'Draw box' })).toBeEnabled();
});

test('Previous / Next follow the list filter and sort; ← Documents returns to the list as it was', async ({ page }) => {
  await patch(`/api/v3/documents/${docs[3]}/`, { dataset_status: 3 }); // Test: outside the filter below
  await logIn(page);
  await page.goto(`/#/projects/${project}`);
  await expect(page.locator('table.documents tbody tr')).toHaveCount(3);
  await page.getByLabel('Dataset status', { exact: true }).selectOption('0');
  const sortByFile = page.getByRole('columnheader', { name: 'File' }).getByRole('button');
  await sortByFile.click();
  await expect(page.getByRole('columnheader', { name: 'File' })).toHaveAttribute('aria-sort', 'ascending');
  await sortByFile.click(); // descending: 004 before 001
  await expect(page.locator('table.documents tbody tr .file-name')).toHaveText([name(4), name(1)]);
  const listUrl = page.url();

  await page.getByRole('link', { name: name(4) }).click();
  await expect(page.getByRole('heading', { name: name(4) })).toBeVisible();
  // The reviewer's zoom: kept on the next document (not reset to a fit).
  await page.getByRole('button', { name: 'Fit width' }).click();
  // Next: the list's next row (receipt 3, between them by id and by name, is filtered out).
  await page.getByRole('button', { name: 'Next ›' }).click();
  await expect(page).toHaveURL(new RegExp(`#/documents/${docs[1]}$`));
  await expect(page.getByRole('button', { name: 'Fit width' })).toHaveAttribute('aria-pressed', 'true');
  await page.getByRole('button', { name: 'Next ›' }).click();
  await expect(page.getByText('This is the last document of the list as filtered and sorted.')).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`#/documents/${docs[1]}$`));
  await page.keyboard.press('Alt+ArrowLeft');
  await expect(page).toHaveURL(new RegExp(`#/documents/${docs[4]}$`));

  await page.getByRole('link', { name: '← Documents' }).click();
  expect(page.url()).toBe(listUrl);
  await expect(page.getByLabel('Dataset status', { exact: true })).toHaveValue('0');
  await expect(page.locator('table.documents tbody tr .file-name')).toHaveText([name(4), name(1)]);
});

test('the document table fits at 1440 px and its last row\'s menu is whole', async ({ page }, info) => {
  // Long names and a long assignee, as real ones are.
  const member = `accounts.payable.reviewer.${Date.now()}@finance-department.example.org`;
  await server.post('/api/v3/users/', { email: member, password: 'long-enough-password-1' });
  await server.post(`/api/v3/projects/${project}/members/`, { email: member });
  await patch(`/api/v3/documents/${docs[3]}/`, { data_file_name: 'receipt-003 scanned at the front desk of the second floor, kept for the audit.jpg', assignee: member, dataset_status: 0 });
  await page.setViewportSize({ width: 1440, height: 900 });
  await logIn(page);
  await page.goto(`/#/projects/${project}`);
  await expect(page.locator('table.documents tbody tr')).toHaveCount(3);
  const fit = await page.locator('.documents-scroll').evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
  info.annotations.push({ type: 'document table at 1440 px', description: `${fit.scroll} px of ${fit.client} px` });
  expect(fit.scroll).toBeLessThanOrEqual(fit.client);

  const last = page.locator('table.documents tbody tr').last();
  await last.getByRole('button', { name: /^Actions for / }).click();
  const menu = page.getByRole('group', { name: /^Actions for / });
  await expect(menu).toBeVisible();
  await snapshot(page, info, 'last-row-menu');
  // Every item of the menu is on screen and is what is there (nothing cuts it off or covers it).
  for (const item of await menu.getByRole('button').all()) {
    const b = (await item.boundingBox())!;
    expect(b.y + b.height).toBeLessThanOrEqual(900);
    const atCentre = await page.evaluate(([x, y]) => document.elementFromPoint(x, y)?.textContent ?? null, [b.x + b.width / 2, b.y + b.height / 2]);
    expect(atCentre).toBe(await item.textContent());
  }
  // The page scrolling (as a click that first scrolls its target into view does) moves the menu with its button.
  await page.setViewportSize({ width: 1440, height: 560 });
  await page.evaluate(() => window.scrollBy(0, 120));
  await expect(menu).toBeVisible();
  const button = (await last.getByRole('button', { name: /^Actions for / }).boundingBox())!;
  await expect.poll(async () => Math.round(((await menu.boundingBox())!.x + (await menu.boundingBox())!.width) - (button.x + button.width))).toBe(0);
  await menu.getByRole('button', { name: 'Extract again' }).click(); // reachable: it runs (and the menu closes)
  await expect(menu).toBeHidden();
  await expect(page.getByText(/^Extracting again: /)).toBeVisible();
});
