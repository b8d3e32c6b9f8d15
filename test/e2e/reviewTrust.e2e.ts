// Issue 29, "the review flow a reviewer trusts", items 1 and 3 on real SROIE receipt scans
// (../shared/datasets/sroie-dev; never one whose number is divisible by 5, those are held back):
// a reviewed receipt that was scanned sideways (OCR turned it upright on upload) is turned right in edit
// mode; after OCR reads it again (and turns it back, or not) every annotation is still on its words, no
// declined value is proposed again, and the review stays closed unless new proposals opened it, which
// the review view then says. And Finish review on a date that is not machine-readable warns, and the
// warning's own Edit text fixes it. The API is asked what it holds after every step.
import { expect, test, type Page } from '@playwright/test';
import sharp from 'sharp';
import { normalize } from '../../main/domain/normalization.ts';
import { findValueRanges, isHeldBack, readReceiptImage, readReceiptKey, sameReceiptValue, type ReceiptField } from '../helpers/receipts.ts';
import { api, E2E_ADMIN, logIn, snapshot } from './helpers.ts';

type Server = Awaited<ReturnType<typeof api>>;

const TRAINING = [1, 2, 4, 6];
const TURNED = 9; // scanned sideways: OCR turns it upright on upload
const FINISH = 12;
const FIELDS: [ReceiptField, 'Text' | 'Date' | 'Number'][] = [
  ['company', 'Text'],
  ['date', 'Date'],
  ['total', 'Number'],
];

function keyOf(n: number) {
  expect(isHeldBack(n), `receipt ${n} is held back for evaluation`).toBe(false);
  expect(n < 200 || n > 249, `receipt ${n} is sealed`).toBe(true);
  return readReceiptKey(n);
}

/** PATCH with the administrator's token (the shared helper knows GET, POST and uploads). */
async function send(method: 'PATCH', path: string, body: unknown): Promise<{ status: number; body: any }> {
  const base = process.env.FOLIO_E2E_URL!;
  const login = await fetch(`${base}/api/v3/auth/`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ username: E2E_ADMIN.email, password: E2E_ADMIN.password }) });
  const { token } = (await login.json()) as { token: string };
  const r = await fetch(`${base}${path}`, { method, headers: { Authorization: `Token ${token}`, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  return { status: r.status, body: await r.json().catch(() => null) };
}

/** Where a text stands on a document, as the API's search finds it (its first hit). */
async function firstHit(server: Server, doc: number, q: string) {
  const s = (await server.post(`/api/v3/documents/${doc}/search/`, { q })).span?.[0];
  return s ? [{ page_index: s.page_index, x0: s.x0, x1: s.x1, y0: s.y0, y1: s.y1 }] : null;
}

const annotationsOf = async (server: Server, doc: number): Promise<any[]> => (await server.get(`/api/v3/documents/${doc}/annotations/?limit=100`)).results;
const collapsed = (t: string) => t.replace(/\s+/g, ' ').trim();

async function setUp(server: Server, name: string, fields = FIELDS) {
  const project = await server.post('/api/v3/projects/', { name: `${name} ${Date.now()}`, ocr_languages: ['eng'] });
  const category = await server.post('/api/v3/categories/', { project: project.id, name: 'Receipt' });
  const labels: Partial<Record<ReceiptField, number>> = {};
  for (const [field, data_type] of fields) labels[field] = (await server.post('/api/v3/labels/', { project: project.id, name: field, data_type, label_sets: [category.id] })).id;
  return { project: project.id as number, category: category.id as number, labels };
}

const jpeg = (name: string, data: Uint8Array) => ({ name, data });

async function waitDone(server: Server, doc: number): Promise<any> {
  await expect.poll(async () => (await server.get(`/api/v3/documents/${doc}/`)).status_data, { timeout: 300_000, intervals: [1000] }).toBe(2);
  return server.get(`/api/v3/documents/${doc}/`);
}

async function openReview(page: Page, doc: number) {
  await page.goto(`/#/documents/${doc}`);
  const panel = page.getByRole('complementary', { name: 'Review' });
  await expect(panel.getByRole('heading', { name: 'Receipt' })).toBeVisible({ timeout: 60_000 });
  return panel;
}

test('a reviewed, auto-turned receipt turned right in edit mode keeps every annotation on its words and its review consistent', async ({ page }, info) => {
  test.setTimeout(900_000);
  const server = await api();
  const { project, category, labels } = await setUp(server, 'Turned review');

  // Training receipts labelled as reviewers before left them; the extraction AI trained on them.
  for (const n of TRAINING) {
    const key = keyOf(n);
    const doc = await server.upload('/api/v3/documents/', { project, category, dataset_status: 2, sync: 'true' }, jpeg(`${n}.jpg`, readReceiptImage(n)));
    expect(doc.status_data, JSON.stringify(doc)).toBe(2);
    for (const [field] of FIELDS) {
      const span = key[field] ? await firstHit(server, doc.id, key[field]!) : null;
      if (span) await server.post('/api/v3/annotations/', { document: doc.id, label: labels[field], label_set: category, span, is_correct: true, revised: true });
    }
  }
  const started = await server.post('/api/v3/extraction-ais/', { category });
  await expect.poll(async () => (await server.get(`/api/v3/extraction-ais/${started.id}/`)).status, { timeout: 300_000, intervals: [1000] }).toMatch(/done|failed/);
  expect((await server.get(`/api/v3/extraction-ais/${started.id}/`)).status).toBe('done');

  // The sideways scan: OCR turns it upright on upload, the AI proposes values.
  const key = keyOf(TURNED);
  const sideways = await sharp(Buffer.from(readReceiptImage(TURNED))).rotate(90).jpeg().toBuffer();
  const uploaded = await server.upload('/api/v3/documents/', { project, category, sync: 'true' }, jpeg(`${TURNED}-sideways.jpg`, sideways));
  expect(uploaded.status_data, JSON.stringify(uploaded)).toBe(2);
  const doc = uploaded.id as number;
  const firstPage = await server.get(`/api/v3/documents/${doc}/pages/1/`);
  expect(firstPage.orientation?.turned, JSON.stringify(firstPage.orientation)).not.toBe(0);

  // The review through the API: right proposals accepted, the others declined, what the AI missed
  // labelled from the search, the rest marked missing; finished.
  const text: string = (await server.get(`/api/v3/documents/${doc}/`)).text;
  const printed = (value: string) => findValueRanges(text, value).map((r) => Array.from(text).slice(r.start, r.end).join(''));
  const proposals = (await annotationsOf(server, doc)).filter((a) => a.review_state === 'Feedback required');
  expect(proposals.length).toBeGreaterThan(0);
  for (const a of proposals) {
    const field = a.label.name as ReceiptField;
    const right = !!key[field] && sameReceiptValue(field, a.offset_string, key[field]!, printed(key[field]!), (t) => normalize(t, 'Date'));
    expect((await send('PATCH', `/api/v3/annotations/${a.id}/`, { is_correct: right, revised: true })).status).toBe(200);
  }
  for (const [field] of FIELDS) {
    const filled = (await annotationsOf(server, doc)).some((a) => a.label.name === field && ['Accepted', 'Created by human'].includes(a.review_state));
    const span = !filled && key[field] ? await firstHit(server, doc, key[field]!) : null;
    const made = span ? await server.post('/api/v3/annotations/', { document: doc, label: labels[field], label_set: category, span }) : null;
    if (!filled && (!made || !made.id)) await server.post('/api/v3/missing-annotations/', { document: doc, label: labels[field], label_set: category });
  }
  const finished = await send('PATCH', `/api/v3/documents/${doc}/`, { is_reviewed: true });
  expect(finished.status, JSON.stringify(finished.body)).toBe(200);
  const before = await annotationsOf(server, doc);
  const declined = before.filter((a) => a.review_state === 'Declined');
  expect(before.length).toBeGreaterThan(0);

  // Edit mode: turn the page right, confirm.
  await logIn(page);
  await page.goto(`/#/documents/${doc}/edit`);
  await expect(page.getByRole('heading', { name: `Edit ${TURNED}-sideways.jpg` })).toBeVisible();
  await page.getByRole('button', { name: 'Turn page 1 right' }).click();
  await expect(page.getByText('Page 1 · turned 90°')).toBeVisible();
  await snapshot(page, info, 'turn-01-before-confirm');
  const sent = page.waitForResponse((r) => r.url().endsWith(`/api/v3/documents/${doc}/postprocess/`) && r.request().method() === 'POST');
  await page.getByRole('button', { name: 'Confirm', exact: true }).click();
  expect((await sent).ok()).toBe(true);
  const after = await waitDone(server, doc);
  expect(after.status_reason === null || /opened again/.test(after.status_reason), after.status_reason).toBe(true);
  const readPage = await server.get(`/api/v3/documents/${doc}/pages/1/`);
  const [width, height] = readPage.original_size;
  info.annotations.push({ type: 'orientation', description: `uploaded turned ${firstPage.orientation?.turned}, read again after the turn: ${JSON.stringify(readPage.orientation)}, ${width} x ${height} pt` });

  // Every annotation is still there, on the same words: same text, offsets pointing at it, boxes on the page.
  const now = await annotationsOf(server, doc);
  const points = Array.from(after.text as string);
  for (const a of before) {
    const b = now.find((x) => x.id === a.id);
    expect(b, `annotation ${a.id} (${a.label.name} “${a.offset_string}”)`).toBeTruthy();
    expect([b.label.name, collapsed(b.offset_string), b.review_state]).toEqual([a.label.name, collapsed(a.offset_string), a.review_state]);
    for (const sp of b.span) {
      expect(sp.start_offset, `${a.label.name} “${a.offset_string}” has offsets`).not.toBeNull();
      expect(points.slice(sp.start_offset, sp.end_offset).join('')).toBe(sp.offset_string_original);
      expect(sp.x0).toBeGreaterThanOrEqual(-1);
      expect(sp.y0).toBeGreaterThanOrEqual(-1);
      expect(sp.x1).toBeLessThanOrEqual(width + 1);
      expect(sp.y1).toBeLessThanOrEqual(height + 1);
    }
  }
  // No declined value came back, and the review is closed unless new proposals opened it again.
  const fresh = now.filter((a) => !before.some((x) => x.id === a.id));
  for (const a of fresh) {
    expect(a.review_state).toBe('Feedback required');
    for (const d of declined) expect(d.label.name === a.label.name && collapsed(d.offset_string) === collapsed(a.offset_string), `declined ${d.label.name} “${d.offset_string}” proposed again`).toBe(false);
  }
  expect(after.is_reviewed).toBe(fresh.length === 0);

  const panel = await openReview(page, doc);
  const viewerPage = page.locator('.viewer-page[data-page-number="1"]');
  await expect(viewerPage).toHaveAttribute('data-rendered', /canvas|image/);
  if (fresh.length === 0) await expect(panel.getByText('Reviewed: the annotations are locked.')).toBeVisible();
  else await expect(panel.getByRole('note')).toContainText('The review was opened again');
  for (const a of before) await expect(panel.getByRole('listitem', { name: `${a.label.name} “${a.offset_string}”, ${a.review_state}` }).first()).toBeVisible();
  await snapshot(page, info, 'turn-02-read-again');
});

test('Finish review on a date that is not machine-readable warns, and the warning fixes it', async ({ page }, info) => {
  test.setTimeout(300_000);
  const server = await api();
  const { project, category, labels } = await setUp(server, 'Unreadable date', [['date', 'Date']]);
  const key = keyOf(FINISH);
  const uploaded = await server.upload('/api/v3/documents/', { project, category, sync: 'true' }, jpeg(`${FINISH}.jpg`, readReceiptImage(FINISH)));
  expect(uploaded.status_data, JSON.stringify(uploaded)).toBe(2);
  const doc = uploaded.id as number;
  // A date box that took in a word of the heading instead (the first word of letters the OCR read): no date.
  const word = /[A-Za-z]{4,}/.exec(uploaded.text as string)?.[0];
  expect(word, uploaded.text).toBeTruthy();
  const span = await firstHit(server, doc, word!);
  expect(span).not.toBeNull();
  const wrong = await server.post('/api/v3/annotations/', { document: doc, label: labels.date, label_set: category, span });
  expect(wrong.normalized, JSON.stringify(wrong)).toBeNull();
  // The API refuses to finish, naming the value.
  const refused = await send('PATCH', `/api/v3/documents/${doc}/`, { is_reviewed: true });
  expect(refused.status).toBe(400);
  expect(refused.body.is_reviewed[0]).toMatch(/not machine-readable/);

  await logIn(page);
  const panel = await openReview(page, doc);
  await expect(panel.getByText('Not machine-readable')).toBeVisible();
  await panel.getByRole('button', { name: 'Finish review' }).click();
  const warning = panel.getByRole('alert', { name: 'Values that are not machine-readable' });
  await expect(warning).toBeVisible();
  await expect(warning).toContainText(`date “${wrong.offset_string}”`);
  await snapshot(page, info, 'finish-01-warning');
  expect((await server.get(`/api/v3/documents/${doc}/`)).is_reviewed).toBe(false);

  await warning.getByRole('button', { name: `Fix date “${wrong.offset_string}”` }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit text of date' });
  await dialog.getByLabel('Text').fill(key.date!);
  await dialog.getByRole('button', { name: 'Save text' }).click();
  await expect(warning).toHaveCount(0);
  const fixed = (await annotationsOf(server, doc))[0];
  expect(fixed.normalized).toBe(normalize(key.date!, 'Date'));
  await snapshot(page, info, 'finish-02-fixed');

  await panel.getByRole('button', { name: 'Finish review' }).click();
  await expect.poll(async () => (await server.get(`/api/v3/documents/${doc}/`)).is_reviewed).toBe(true);
});
