// The document viewer in Chromium against the real server, through the viewer harness (the Viewer
// embedded as the review view embeds it) and, last, in the app's review view: pages painted by pdf.js, annotation boxes exactly over their
// text on a portrait, a landscape and a rotated page, zoom, page navigation, keyboard, search hits,
// drawing a rectangle over a word (the API then finds that word in it), the page-image fallback, and a
// long document that mounts only the pages near the view.
import fs from 'node:fs';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { E2E_ADMIN, api, logIn, snapshot } from './helpers.ts';
import { buildViewerHarness, serveViewerHarness, textPdf, uploadProcessed, type ViewerHarness } from './viewerHarness.ts';

interface Span {
  page_index: number;
  x0: number;
  x1: number;
  y0: number;
  y1: number;
}

let harness: ViewerHarness;
let harnessDir: string;
let token: string;
/** The three-page document: A4 portrait, A4 landscape, A4 portrait turned by /Rotate 90. */
let doc: { id: number; pages: { original_size: [number, number]; rotation: number }[] };
let longDoc: { id: number };
/** One annotation per review state, by the word it marks. */
const marked: Record<string, { id: number; span: Span; state: string }> = {};

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(240_000);
  const base = process.env.FOLIO_E2E_URL!;
  const login = await fetch(`${base}/api/v3/auth/`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ username: E2E_ADMIN.email, password: E2E_ADMIN.password }) });
  token = ((await login.json()) as { token: string }).token;
  const a = await api();
  const project = await a.post('/api/v3/projects/', { name: `Viewer ${Date.now()}` });
  const category = await a.post('/api/v3/categories/', { project: project.id, name: 'Report' });
  const [built, three, long] = await Promise.all([
    buildViewerHarness(),
    uploadProcessed(base, token, { project: project.id, category: category.id }, await textPdf(3, 30, { landscape: [1], rotated: [2] }), 'three-pages.pdf'),
    uploadProcessed(base, token, { project: project.id, category: category.id }, await textPdf(30, 20), 'thirty-pages.pdf'),
  ]);
  harnessDir = built;
  harness = await serveViewerHarness(base, harnessDir);
  longDoc = long;
  const pages = await a.get(`/api/v3/documents/${three.id}/pages/?limit=1000`);
  doc = { id: three.id, pages: Array.isArray(pages) ? pages : pages.results };

  // Four annotations, one per review state: revised/is_correct as the spec's state table has them.
  const states = [
    { word: 'P1L4', state: 'Feedback required', is_correct: false, revised: false },
    { word: 'P2L5', state: 'Accepted', is_correct: true, revised: true },
    { word: 'P3L4', state: 'Declined', is_correct: false, revised: true },
    { word: 'P1L8', state: 'Created by human' },
  ];
  for (const [i, s] of states.entries()) {
    const label = await a.post('/api/v3/labels/', { project: project.id, name: `Field ${i}`, categories: [category.id] });
    const span = await wordSpan(s.word);
    const { word, state, ...review } = s;
    const created = await a.post('/api/v3/annotations/', { document: doc.id, label: label.id, label_set: category.id, span: [span], ...review });
    expect(created.review_state, JSON.stringify(created)).toBe(state);
    marked[word] = { id: created.id, span, state };
  }
});

test.afterAll(async () => {
  await harness?.close();
  if (harnessDir) fs.rmSync(harnessDir, { recursive: true, force: true });
});

/** The box of a word as the API's search finds it (PDF points of the page as displayed). */
async function wordSpan(word: string): Promise<Span> {
  const res = await (await api()).post(`/api/v3/documents/${doc.id}/search/`, { q: word });
  expect(res.span, `search for ${word}`).toHaveLength(1);
  const { page_index, x0, x1, y0, y1 } = res.span[0];
  return { page_index, x0, x1, y0, y1 };
}

async function openViewer(page: Page, documentId = doc.id): Promise<void> {
  await page.addInitScript((t) => sessionStorage.setItem('folio.token', t), token);
  await page.goto(harness.pageUrl(documentId));
  await expect(pageBox(page, 1)).toHaveAttribute('data-rendered', 'canvas');
}

/** Goes to page `n` with the page field (pages far from the view are not mounted) and waits for its paint. */
async function showPage(page: Page, n: number): Promise<void> {
  const field = page.getByLabel('Page', { exact: true });
  await field.fill(String(n));
  await field.press('Enter');
  await expect(pageBox(page, n)).toHaveAttribute('data-rendered', /canvas|image/);
}

const pageBox = (page: Page, n: number) => page.locator(`.viewer-page[data-page-number="${n}"]`);
const scroller = (page: Page) => page.getByRole('region', { name: /Document pages/ });
const currentPage = (page: Page) => page.locator('output[aria-label="Current page"]');

/** Where a rectangle in PDF points of page `span.page_index` is on the screen, from the page's box. */
async function onScreen(page: Page, span: Span) {
  const box = (await pageBox(page, span.page_index + 1).boundingBox())!;
  const [w, h] = doc.pages[span.page_index].original_size;
  const s = box.width / w;
  return { x: box.x + span.x0 * s, y: box.y + (h - span.y1) * s, width: (span.x1 - span.x0) * s, height: (span.y1 - span.y0) * s };
}

async function expectBoxOverItsWord(page: Page, word: string): Promise<void> {
  const { id, span } = marked[word];
  const box = page.locator(`.viewer-box[data-annotation-id="${id}"]`);
  const actual = (await box.boundingBox())!;
  const expected = await onScreen(page, span);
  for (const k of ['x', 'y', 'width', 'height'] as const) expect(Math.abs(actual[k] - expected[k]), `${word} box ${k}: ${actual[k]} vs ${expected[k]}`).toBeLessThan(1.5);
  // And the page's picture has the word's ink under the box: the PDF and the boxes agree.
  expect(await inkIn(page, span), `ink under the ${word} box`).toBeGreaterThan(0.05);
}

/** The share of dark pixels of the painted canvas inside a rectangle of the page (PDF points). */
function inkIn(page: Page, span: Span): Promise<number> {
  const [w, h] = doc.pages[span.page_index].original_size;
  return pageBox(page, span.page_index + 1)
    .locator('canvas')
    .evaluate((canvas: HTMLCanvasElement, { span, w, h }) => {
      const s = canvas.width / w;
      const x = Math.floor(span.x0 * s);
      const y = Math.floor((h - span.y1) * s);
      // The page shows a bitmaprenderer canvas (a still picture): copy it into a 2D canvas to read pixels.
      const copy = document.createElement('canvas');
      copy.width = canvas.width;
      copy.height = canvas.height;
      const ctx = copy.getContext('2d')!;
      ctx.drawImage(canvas, 0, 0);
      const data = ctx.getImageData(x, y, Math.max(1, Math.ceil((span.x1 - span.x0) * s)), Math.max(1, Math.ceil((span.y1 - span.y0) * s))).data;
      let dark = 0;
      for (let i = 0; i < data.length; i += 4) if (data[i] + data[i + 1] + data[i + 2] < 384) dark++;
      return dark / (data.length / 4);
    }, { span, w, h });
}

async function dragOver(page: Page, span: Span, margin = 2): Promise<void> {
  const r = await onScreen(page, span);
  await page.mouse.move(r.x - margin, r.y - margin);
  await page.mouse.down();
  await page.mouse.move(r.x + r.width / 2, r.y + r.height / 2, { steps: 3 });
  await page.mouse.move(r.x + r.width + margin, r.y + r.height + margin, { steps: 3 });
  await page.mouse.up();
}

async function width(l: Locator): Promise<number> {
  return (await l.boundingBox())!.width;
}

test('pages are painted by pdf.js and each box lies over its word, on portrait, landscape and rotated pages', async ({ page }, info) => {
  await openViewer(page);
  expect(doc.pages.map((p) => p.original_size)).toEqual([[595, 842], [842, 595], [842, 595]]);
  expect(doc.pages[2].rotation).toBe(90);
  await expect(page.locator('.viewer-thumb')).toHaveCount(3);
  await expect(page.getByRole('list', { name: 'Box colours' }).getByRole('listitem')).toHaveText(['Feedback required', 'Accepted', 'Declined', 'Created by human']);

  for (const n of [1, 2, 3]) {
    await showPage(page, n);
    await expect(pageBox(page, n)).toHaveAttribute('data-rendered', 'canvas');
    // Not blank: a page of 30 lines of text has plenty of ink.
    expect(await inkIn(page, { page_index: n - 1, x0: 0, y0: 0, x1: doc.pages[n - 1].original_size[0], y1: doc.pages[n - 1].original_size[1] })).toBeGreaterThan(0.005);
  }
  for (const word of Object.keys(marked)) {
    const { id, span, state } = marked[word];
    await showPage(page, span.page_index + 1);
    await expectBoxOverItsWord(page, word);
    const box = page.locator(`.viewer-box[data-annotation-id="${id}"]`);
    await expect(box).toHaveAttribute('title', new RegExp(`${word}.*\\(${state}\\)`));
  }
  // The four states look different (colour and border style).
  const looks = await page.locator('.viewer-legend .viewer-swatch').evaluateAll((els) => els.map((e) => `${getComputedStyle(e).borderTopColor} ${getComputedStyle(e).borderTopStyle}`));
  expect(new Set(looks).size).toBe(4);
  await showPage(page, 1);
  await snapshot(page, info, 'viewer-boxes');
});

test('zoom: menu, buttons, Ctrl -, fit page; boxes follow the page', async ({ page }, info) => {
  await openViewer(page);
  const first = pageBox(page, 1);
  const fitWidth = await width(first);
  const zoom = page.getByLabel('Zoom', { exact: true });

  await zoom.selectOption('50');
  await expect.poll(() => width(first)).toBeCloseTo((595 * 0.5 * 96) / 72, 0);
  await page.getByRole('button', { name: 'Zoom in' }).click(); // 50% -> 67%
  await expect.poll(() => width(first)).toBeCloseTo((595 * 0.67 * 96) / 72, 0);
  await expectBoxOverItsWord(page, 'P1L4');

  await scroller(page).focus();
  await page.keyboard.press('Control+Minus');
  await expect.poll(() => width(first)).toBeCloseTo((595 * 0.5 * 96) / 72, 0);
  await expect(zoom).toHaveValue('50');

  await zoom.selectOption('200');
  await expect.poll(() => width(first)).toBeCloseTo((595 * 2 * 96) / 72, 0);
  await showPage(page, 1);
  await expect(first).toHaveAttribute('data-rendered', 'canvas');
  await expectBoxOverItsWord(page, 'P1L8');
  await snapshot(page, info, 'viewer-zoom-200');

  await page.getByRole('button', { name: 'Fit page' }).click();
  const viewHeight = await scroller(page).evaluate((el) => el.clientHeight);
  await expect.poll(async () => (await first.boundingBox())!.height).toBeLessThanOrEqual(viewHeight);
  await page.getByRole('button', { name: 'Fit width' }).click();
  await expect.poll(() => width(first)).toBeCloseTo(fitWidth, 0);
});

test('page navigation: number field, previous/next, thumbnails, keyboard', async ({ page }) => {
  await openViewer(page);
  const pageField = page.getByLabel('Page', { exact: true });
  await expect(pageField).toHaveValue('1');

  await pageField.fill('3');
  await pageField.press('Enter');
  await expect(currentPage(page)).toHaveText('3');
  await expect(pageBox(page, 3)).toBeInViewport();
  await expect(page.locator('.viewer-thumb[aria-current="page"]')).toHaveAttribute('aria-label', 'Page 3');

  await page.getByRole('button', { name: 'Previous page' }).click();
  await expect(currentPage(page)).toHaveText('2');
  await page.getByRole('button', { name: 'Page 1', exact: true }).click(); // the thumbnail
  await expect(currentPage(page)).toHaveText('1');

  await scroller(page).focus();
  await page.keyboard.press('End');
  await expect(currentPage(page)).toHaveText('3');
  await page.keyboard.press('Home');
  await expect(currentPage(page)).toHaveText('1');
  const top = await scroller(page).evaluate((el) => el.scrollTop);
  await page.keyboard.press('PageDown');
  await expect.poll(() => scroller(page).evaluate((el) => el.scrollTop)).toBeGreaterThan(top + 200);
});

test('the selected annotation and the focused search hit are scrolled into view', async ({ page }) => {
  await openViewer(page);
  const declined = marked.P3L4;
  await page.getByLabel('Annotation').selectOption(String(declined.id));
  const box = page.locator(`.viewer-box[data-annotation-id="${declined.id}"]`);
  await expect(box).toHaveClass(/selected/);
  await expect(box).toBeInViewport();

  // A click on a box selects its annotation.
  await showPage(page, 1);
  await page.locator(`.viewer-box[data-annotation-id="${marked.P1L8.id}"]`).click();
  await expect(page.getByLabel('Annotation')).toHaveValue(String(marked.P1L8.id));

  await page.getByLabel('Search').fill('P2L17');
  await page.getByRole('button', { name: 'Find' }).click();
  const hit = page.locator('.viewer-hit.focused');
  await expect(hit).toBeInViewport();
  const expected = await onScreen(page, await wordSpan('P2L17'));
  const actual = (await hit.boundingBox())!;
  expect(Math.abs(actual.x - expected.x)).toBeLessThan(1.5);
  expect(Math.abs(actual.y - expected.y)).toBeLessThan(1.5);
});

test('drawing a rectangle over a word reports PDF points the API finds that word in', async ({ page }, info) => {
  await openViewer(page);
  await page.getByRole('button', { name: 'Draw' }).click();
  const drawn = page.locator('output[aria-label="Drawn text"]');
  for (const word of ['P1L5', 'P2L9', 'P3L6']) {
    const span = await wordSpan(word);
    await showPage(page, span.page_index + 1);
    await dragOver(page, span);
    await expect(drawn).toHaveText(word);
  }
  // Escape during a drag abandons it: nothing is reported.
  const span = await wordSpan('P1L6');
  await showPage(page, 1);
  const r = await onScreen(page, span);
  await page.mouse.move(r.x - 2, r.y - 2);
  await page.mouse.down();
  await page.mouse.move(r.x + r.width + 2, r.y + r.height + 2, { steps: 3 });
  await expect(page.locator('.viewer-band')).toBeVisible();
  await snapshot(page, info, 'viewer-drawing');
  await page.keyboard.press('Escape');
  await page.mouse.up();
  await expect(page.locator('.viewer-band')).toHaveCount(0);
  await expect(drawn).toHaveText('P3L6');
});

test('without the searchable PDF the pages show their images', async ({ page }) => {
  await page.route('**/doc/show/**', (route) => route.fulfill({ status: 404, contentType: 'application/json', body: '{"detail":"Not found."}' }));
  await page.addInitScript((t) => sessionStorage.setItem('folio.token', t), token);
  await page.goto(harness.pageUrl(doc.id));
  await expect(pageBox(page, 1)).toHaveAttribute('data-rendered', 'image');
  await expect(page.locator('.viewer-status')).toContainText('Showing the page images instead.');
  await expectBoxPositionOnly(page, 'P1L4');
});

async function expectBoxPositionOnly(page: Page, word: string): Promise<void> {
  const actual = (await page.locator(`.viewer-box[data-annotation-id="${marked[word].id}"]`).boundingBox())!;
  const expected = await onScreen(page, marked[word].span);
  expect(Math.abs(actual.x - expected.x)).toBeLessThan(1.5);
  expect(Math.abs(actual.y - expected.y)).toBeLessThan(1.5);
}

test('a long document mounts only the pages near the view, and paints the last page after End', async ({ page }, info) => {
  await openViewer(page, longDoc.id);
  await expect(page.locator('.viewer-thumb')).toHaveCount(30);
  expect(await page.locator('.viewer-page').count()).toBeLessThan(6);
  const height = await scroller(page).evaluate((el) => el.scrollHeight);
  await scroller(page).focus();
  await page.keyboard.press('End');
  await expect(pageBox(page, 30)).toHaveAttribute('data-rendered', 'canvas');
  await expect(currentPage(page)).toHaveText('30');
  expect(await page.locator('.viewer-page').count()).toBeLessThan(6);
  // Placeholders have their final size from the start: the content did not grow as pages painted.
  expect(await scroller(page).evaluate((el) => el.scrollHeight)).toBe(height);
  await snapshot(page, info, 'viewer-long-document-end');
});

test('in the app, the review view shows the document with its boxes over their words', async ({ page }, info) => {
  await logIn(page);
  await page.goto(`/#/documents/${doc.id}`);
  await expect(pageBox(page, 1)).toHaveAttribute('data-rendered', 'canvas');
  await expectBoxOverItsWord(page, 'P1L4');
  await expectBoxOverItsWord(page, 'P1L8');
  await snapshot(page, info, 'viewer-in-review-view');
});
