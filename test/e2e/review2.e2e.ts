// Issue 12, the reviewer workstation round 2: the review panel keeps its width between actions and after
// a reload (the page zoom stays put), becomes a drawer at 800 px; keys 1-9 choose a label, A accepts all,
// F finishes; a search hit becomes an annotation; the category changes in review and extracts again; a
// page turned in edit mode keeps the document and its annotations. Every outcome is checked through the API.
import { expect, test, type Page } from '@playwright/test';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { api, logIn, snapshot } from './helpers.ts';

type Server = Awaited<ReturnType<typeof api>>;

async function invoicePdf(lines: string[], pages = 1): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (let p = 0; p < pages; p++) {
    const page = pdf.addPage([595, 842]);
    lines.forEach((line, i) => page.drawText(p ? `${line} (page ${p + 1})` : line, { x: 60, y: 780 - 18 * i, size: 12, font }));
  }
  return pdf.save({ useObjectStreams: false });
}

const invoiceLines = (n: number) => [`Rechnung Nr. ${4700 + n}`, `Kunde: Muster GmbH ${n}`, `Rechnungsdatum: ${String(n + 1).padStart(2, '0')}.0${(n % 9) + 1}.2024`, `Gesamtbetrag: ${100 + 17 * n},${String(10 + n).slice(-2)} EUR`];

async function setUp(server: Server) {
  const project = await server.post('/api/v3/projects/', { name: `Round two ${Date.now()}` });
  const category = await server.post('/api/v3/categories/', { project: project.id, name: 'Invoice' });
  const letter = await server.post('/api/v3/categories/', { project: project.id, name: 'Letter' });
  const label = async (name: string) => (await server.post('/api/v3/labels/', { project: project.id, name, data_type: 'Text', label_sets: [category.id] })).id as number;
  const labels = { date: await label('Date'), total: await label('Total'), customer: await label('Customer') };
  return { project: project.id, category: category.id, letter: letter.id, labels };
}

async function annotations(server: Server, doc: number): Promise<any[]> {
  return (await server.get(`/api/v3/documents/${doc}/annotations/`)).results;
}

async function spansOf(server: Server, doc: number, q: string) {
  const found = await server.post(`/api/v3/documents/${doc}/search/`, { q });
  return found.span.slice(0, 1).map((s: any) => ({ page_index: s.page_index, x0: s.x0, x1: s.x1, y0: s.y0, y1: s.y1 }));
}

/** The review panel's width and the zoom the page is shown at (the viewer's fit-width percent). */
async function layout(page: Page) {
  const width = await page.getByRole('complementary', { name: 'Review' }).evaluate((el) => Math.round(el.getBoundingClientRect().width));
  const pageWidth = await page.locator('.viewer-page[data-page-number="1"]').evaluate((el) => Math.round(el.getBoundingClientRect().width));
  return { width, pageWidth };
}

test('panel width stays and is remembered; drawer at 800 px; keys 1-9, A, F; a search hit becomes an annotation', async ({ page }, info) => {
  const server = await api();
  const t = await setUp(server);
  const upload = async (name: string, n: number) => {
    const doc = await server.upload('/api/v3/documents/', { project: t.project, category: t.category, sync: 'true' }, { name, data: await invoicePdf(invoiceLines(n)) });
    expect(doc.status_data, JSON.stringify(doc)).toBe(2);
    return doc;
  };
  const doc = await upload('first.pdf', 1);
  const next = await upload('second.pdf', 2);
  // Proposals awaiting feedback, one with a long unbroken text that used to widen the panel.
  const machine = async (labelId: number, q: string) =>
    server.post('/api/v3/annotations/', { document: doc.id, label: labelId, label_set: t.category, span: await spansOf(server, doc.id, q), is_correct: false, revised: false, confidence: 0.7 });
  await machine(t.labels.date, '02.02.2024');
  await machine(t.labels.total, '117,11');

  await page.setViewportSize({ width: 1440, height: 900 });
  await logIn(page);
  await page.goto(`/#/documents/${doc.id}`);
  const panel = page.getByRole('complementary', { name: 'Review' });
  await expect(panel.getByRole('heading', { name: 'Invoice' })).toBeVisible();
  await expect(page.locator('.viewer-page[data-page-number="1"]')).toBeVisible();
  const before = await layout(page);

  // Resize with the handle: 100 px wider, remembered after a reload.
  const handle = page.getByRole('separator', { name: 'Width of the review panel' });
  const hb = (await handle.boundingBox())!;
  await page.mouse.move(hb.x + hb.width / 2, hb.y + 200);
  await page.mouse.down();
  await page.mouse.move(hb.x + hb.width / 2 - 100, hb.y + 200, { steps: 5 });
  await page.mouse.up();
  const resized = await layout(page);
  expect(resized.width).toBe(before.width + 100);
  expect(resized.pageWidth).toBeLessThan(before.pageWidth);

  // Label a search hit: "/" searches, Ctrl+Enter opens the new-annotation dialog with the hit; Customer,
  // the one label still unfilled, is chosen already (3, its number, would pick it too), Enter creates it.
  await page.keyboard.press('/');
  await page.keyboard.type('Muster GmbH');
  await page.keyboard.press('Enter');
  await expect(page.getByText('1 of 1')).toBeVisible();
  await page.keyboard.press('Control+Enter');
  const dialog = page.getByRole('dialog', { name: 'New annotation' });
  await expect(dialog).toContainText('Muster GmbH');
  await expect(dialog.getByRole('option', { name: /Customer/ })).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Enter');
  await expect(dialog).toHaveCount(0);
  await expect.poll(async () => (await annotations(server, doc.id)).filter((a) => a.label.id === t.labels.customer).map((a) => a.offset_string)).toEqual(['Muster GmbH']);
  await expect(panel.getByRole('listitem', { name: /^Customer “Muster GmbH”/ })).toBeVisible();
  // The current item is marked strongly: an outline, not a faint background alone.
  const current = panel.locator('.annotation.current');
  await expect(current).toHaveCount(1);
  expect(await current.evaluate((el) => getComputedStyle(el).outlineStyle)).toBe('solid');
  await snapshot(page, info, 'review2-search-hit-labelled');

  // The panel did not change its width (nor the page its zoom) through these actions. Polled: the viewer
  // fits the page again when its scroll bar comes or goes as the panel re-renders (a CI run measured the
  // page 20 px narrower mid-way), and what must hold is where it settles.
  await expect.poll(() => layout(page)).toEqual(resized);

  // A: accept all; the panel keeps its width.
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press('a');
  await expect.poll(async () => (await annotations(server, doc.id)).filter((a) => a.review_state === 'Feedback required').length).toBe(0);
  await expect.poll(() => layout(page)).toEqual(resized);

  await page.reload();
  await expect(panel.getByRole('heading', { name: 'Invoice' })).toBeVisible();
  await expect(page.locator('.viewer-page[data-page-number="1"]')).toBeVisible();
  expect((await layout(page)).width).toBe(resized.width);

  // F: finish (every label is filled and accepted) and go on to the next unreviewed document.
  await expect(page.getByRole('button', { name: 'Finish review' })).toBeEnabled();
  await page.keyboard.press('f');
  await expect(page).toHaveURL(new RegExp(`#/documents/${next.id}$`));
  expect((await server.get(`/api/v3/documents/${doc.id}/`)).is_reviewed).toBe(true);

  // The ? sheet lists the viewer keys too.
  await page.keyboard.press('?');
  const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(sheet).toContainText('PageDown');
  await expect(sheet).toContainText('Accept all');
  await page.keyboard.press('Escape');

  // 800 px: the panel is a drawer, closed; the page takes the width; the toggle opens it over the page.
  await page.setViewportSize({ width: 800, height: 720 });
  await expect(panel).toBeHidden();
  const toggle = page.getByRole('button', { name: 'Review panel' });
  await toggle.click();
  await expect(panel).toBeVisible();
  const pageBox = (await page.locator('.review-viewer').boundingBox())!;
  expect(Math.round(pageBox.width)).toBeGreaterThan(700);
  await snapshot(page, info, 'review2-drawer-800');
  await page.setViewportSize({ width: 480, height: 800 });
  await expect(panel).toBeVisible();
  await page.getByRole('button', { name: 'Hide review' }).click();
  await expect(panel).toBeHidden();
  await snapshot(page, info, 'review2-480');
});

test('category changed in review extracts again; a page turned in edit mode keeps the document and its annotations', async ({ page }, info) => {
  test.setTimeout(300_000);
  const server = await api();
  const t = await setUp(server);
  // An extraction AI for Invoice, trained on six labelled invoices.
  for (let n = 0; n < 6; n++) {
    const lines = invoiceLines(n);
    const d = await server.upload('/api/v3/documents/', { project: t.project, category: t.category, dataset_status: 2, sync: 'true' }, { name: `t${n}.pdf`, data: await invoicePdf(lines) });
    for (const [label, text] of [[t.labels.date, lines[2].split(': ')[1]], [t.labels.total, lines[3].split(': ')[1].replace(' EUR', '')]] as const) {
      await server.post('/api/v3/annotations/', { document: d.id, label, label_set: t.category, span: await spansOf(server, d.id, text), is_correct: true, revised: true });
    }
  }
  const started = await server.post('/api/v3/extraction-ais/', { category: t.category });
  await expect.poll(async () => (await server.get(`/api/v3/extraction-ais/${started.id}/`)).status, { timeout: 180_000 }).toBe('done');

  const lines = invoiceLines(30);
  const doc = await server.upload('/api/v3/documents/', { project: t.project, category: t.letter, sync: 'true' }, { name: 'misfiled.pdf', data: await invoicePdf(lines, 2) });
  expect(doc.status_data).toBe(2);

  await logIn(page);
  await page.goto(`/#/documents/${doc.id}`);
  const category = page.getByRole('combobox', { name: /^Category/ });
  await expect(category).toHaveValue(String(t.letter));
  await category.selectOption({ label: 'Invoice' });
  const panel = page.getByRole('complementary', { name: 'Review' });
  await expect(panel.getByRole('heading', { name: 'Invoice' })).toBeVisible({ timeout: 60_000 });
  await expect.poll(async () => (await server.get(`/api/v3/documents/${doc.id}/`)).extraction_ai, { timeout: 60_000 }).toBe(started.id);
  const extracted = await annotations(server, doc.id);
  expect(extracted.some((a) => a.origin === 'machine' && a.offset_string === lines[2].split(': ')[1])).toBe(true);
  await snapshot(page, info, 'review2-category-extracted');

  // A person's annotation on page 2, then page 2 turned right in edit mode.
  await server.post('/api/v3/annotations/', { document: doc.id, label: t.labels.customer, label_set: t.category, span: await spansOf(server, doc.id, 'page 2') });
  const before = await annotations(server, doc.id);
  await page.goto(`/#/documents/${doc.id}/edit`);
  await page.getByRole('button', { name: 'Turn page 2 right' }).click();
  await page.getByRole('button', { name: 'Confirm', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Pages saved' })).toBeVisible();
  await expect.poll(async () => (await server.get(`/api/v3/documents/${doc.id}/`)).status_data, { timeout: 60_000 }).toBe(2);
  // The person's annotation is the same record with the same text, its box on the turned page 2
  // (machine proposals still awaiting review are extracted anew, as after any reading).
  const human = (await annotations(server, doc.id)).filter((a) => a.origin === 'human');
  const was = before.filter((a) => a.origin === 'human');
  expect(human.map((a) => [a.id, a.offset_string, a.span[0].page_index])).toEqual(was.map((a) => [a.id, a.offset_string, 1]));
  expect(human[0].span[0].x1 - human[0].span[0].x0).toBeCloseTo(was[0].span[0].y1 - was[0].span[0].y0, 3);
  expect((await server.get(`/api/v3/documents/${doc.id}/pages/2/`)).original_size.map(Math.round)).toEqual([842, 595]);
});
