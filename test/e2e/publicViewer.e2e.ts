// Issue 12, public documents and named models. The reviewer marks a document public in its review toolbar
// and copies its link; a fresh browser with no login opens the link and sees the page image, the box and the
// values grouped by label set, with no editing controls; a private document and an unknown id show the same
// "not public or does not exist" page; made private again, the link stops working. On the AI screen the
// reviewer names a model in place. Every outcome is checked through the API.
import { expect, test, type Page } from '@playwright/test';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { api, logIn, snapshot } from './helpers.ts';

type Server = Awaited<ReturnType<typeof api>>;

async function invoicePdf(lines: string[]): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const page = pdf.addPage([595, 842]);
  lines.forEach((line, i) => page.drawText(line, { x: 60, y: 780 - 18 * i, size: 12, font }));
  return pdf.save({ useObjectStreams: false });
}

/** A processed invoice whose date and total are labelled and accepted, as a reviewer leaves them. */
async function invoice(server: Server, t: { project: number; category: number; date: number; total: number }, n: number, datasetStatus: number) {
  const date = `0${n}.03.2024`;
  const total = `${40 + n},50`;
  const doc = await server.upload('/api/v3/documents/', { project: t.project, category: t.category, dataset_status: datasetStatus, sync: 'true' }, {
    name: `invoice-${n}.pdf`,
    data: await invoicePdf([`Rechnung Nr. 47${n}`, `Rechnungsdatum: ${date}`, `Gesamtbetrag: ${total} EUR`]),
  });
  expect(doc.status_data, JSON.stringify(doc)).toBe(2);
  for (const [label, text] of [[t.date, date], [t.total, total]] as const) {
    const found = await server.post(`/api/v3/documents/${doc.id}/search/`, { q: text });
    expect(found.span).toHaveLength(1);
    const made = await server.post('/api/v3/annotations/', { document: doc.id, label, label_set: t.category, span: found.span, is_correct: true, revised: true });
    expect(made.id, JSON.stringify(made)).toBeTruthy();
  }
  return { id: doc.id as number, date, total };
}

const notPublic = (page: Page) => page.getByRole('heading', { name: 'This document is not public or does not exist' });

test('a document made public is read without login; a private one is not; a model is named in place', async ({ page, browser }, info) => {
  test.setTimeout(240_000);
  const base = process.env.FOLIO_E2E_URL!;
  const server = await api();
  const project = await server.post('/api/v3/projects/', { name: `Public ${Date.now()}` });
  const category = await server.post('/api/v3/categories/', { project: project.id, name: 'Invoice' });
  const label = async (name: string) => (await server.post('/api/v3/labels/', { project: project.id, name, data_type: 'Text', label_sets: [category.id] })).id as number;
  const t = { project: project.id, category: category.id, date: await label('Date'), total: await label('Total') };
  // Training and test documents, so that the model named below is a real, evaluated one.
  const shared = await invoice(server, t, 1, 2);
  const kept = await invoice(server, t, 2, 3);
  const started = await server.post('/api/v3/extraction-ais/', { category: t.category });
  expect(started.id, JSON.stringify(started)).toBeTruthy();

  // The reviewer makes the first invoice public in its review toolbar and copies the link.
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
  await logIn(page);
  await page.goto(`/#/documents/${shared.id}`);
  const publicBox = page.getByRole('checkbox', { name: 'Public' });
  await expect(publicBox).not.toBeChecked();
  await expect(page.getByRole('button', { name: 'Copy public link' })).toHaveCount(0);
  await publicBox.check();
  await expect(publicBox).toBeChecked();
  await expect.poll(async () => (await server.get(`/api/v3/documents/${shared.id}/`)).is_public).toBe(true);
  // The link names a random token (issue 29 item 4), never the document's id.
  const token = (await server.get(`/api/v3/documents/${shared.id}/`)).public_link.token as string;
  expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/);
  const link = `${base}/#/public/${token}`;
  await expect(page.getByRole('link', { name: 'Public page' })).toHaveAttribute('href', link);
  await page.getByRole('button', { name: 'Copy public link' }).click();
  await expect(page.getByText('Copied.')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
  await snapshot(page, info, 'public-toggle');

  // A fresh browser, no login: the page image, the box and the values grouped by label set.
  const visitor = await browser.newContext({ viewport: { width: 1300, height: 900 } });
  const anon = await visitor.newPage();
  await anon.goto(link);
  await expect(anon.getByRole('heading', { name: 'invoice-1.pdf' })).toBeVisible();
  await expect(anon.getByLabel('Email')).toHaveCount(0);
  const firstPage = anon.locator('.viewer-page[data-page-number="1"]');
  await expect(firstPage).toHaveAttribute('data-rendered', 'image');
  // Loaded as anyone loads it: no token in the address.
  expect(await firstPage.locator('img.viewer-image').getAttribute('src')).toBe(`/api/v3/public/${token}/pages/1/image/`);
  await expect(firstPage.locator('.viewer-box')).toHaveCount(2);
  const values = anon.getByRole('complementary', { name: 'Extracted values' }).getByRole('region', { name: 'Invoice' });
  await expect(values.getByRole('row', { name: `Total ${shared.total}` })).toBeVisible();
  await expect(values.getByRole('row', { name: `Date ${shared.date}` })).toBeVisible();
  // Reading, not editing: no review actions, no drawing, no sharing, no fields to change values.
  await expect(anon.getByRole('button', { name: /Accept|Decline|Draw box|Finish|Delete|Undo|Read again|Copy/ })).toHaveCount(0);
  await expect(anon.getByRole('checkbox')).toHaveCount(0);
  await expect(anon.getByRole('link', { name: 'Edit pages' })).toHaveCount(0);
  await values.getByRole('button', { name: shared.total }).click();
  await expect(firstPage.locator('.viewer-box.selected')).toHaveCount(1);
  await snapshot(anon, info, 'public-viewer');

  // The shared invoice by its id, the private one, and a token that does not exist all look the same.
  await anon.goto(`${base}/#/public/${shared.id}`);
  await expect(notPublic(anon)).toBeVisible();
  await anon.goto(`${base}/#/public/${kept.id}`);
  await expect(notPublic(anon)).toBeVisible();
  await expect(anon.getByText(kept.total)).toHaveCount(0);
  await anon.goto(`${base}/#/public/${'x'.repeat(32)}`);
  await expect(notPublic(anon)).toBeVisible();
  await snapshot(anon, info, 'public-not-public');

  // Made private again in the toolbar: the link no longer shows it.
  await publicBox.uncheck();
  await expect(publicBox).not.toBeChecked();
  await expect.poll(async () => (await server.get(`/api/v3/documents/${shared.id}/`)).is_public).toBe(false);
  await anon.goto(link);
  await anon.reload();
  await expect(notPublic(anon)).toBeVisible();
  await visitor.close();

  // The AI screen: the trained model is named in place; the table and the evaluation show the name.
  await expect.poll(async () => (await server.get(`/api/v3/extraction-ais/${started.id}/`)).status, { timeout: 120_000 }).toBe('done');
  await page.goto(`/#/projects/${t.project}/ai`);
  const extraction = page.getByRole('region', { name: 'Extraction AI for Invoice' });
  await expect(extraction.getByRole('heading', { name: `Evaluation of AI #${started.id}`, exact: false })).toBeVisible();
  await extraction.getByRole('button', { name: `Rename AI #${started.id}` }).click();
  const nameField = extraction.getByRole('textbox', { name: `Name of AI #${started.id}` });
  await nameField.fill('Spring invoices');
  await nameField.press('Enter');
  await expect(extraction.getByRole('rowheader', { name: new RegExp(`^AI #${started.id} \\(Spring invoices\\)`) })).toBeVisible();
  await expect(extraction.getByRole('heading', { name: new RegExp(`^Evaluation of AI #${started.id} \\(Spring invoices\\)`) })).toBeVisible();
  expect((await server.get(`/api/v3/extraction-ais/${started.id}/`)).name).toBe('Spring invoices');

  // Escape leaves the name as it was; Save changes it again.
  await extraction.getByRole('button', { name: `Rename AI #${started.id}` }).click();
  await nameField.fill('Not this');
  await nameField.press('Escape');
  await expect(nameField).toHaveCount(0);
  await extraction.getByRole('button', { name: `Rename AI #${started.id}` }).click();
  await nameField.fill('  Summer invoices ');
  await extraction.getByRole('button', { name: 'Save' }).click();
  await expect(extraction.getByRole('rowheader', { name: new RegExp(`^AI #${started.id} \\(Summer invoices\\)`) })).toBeVisible();
  expect((await server.get(`/api/v3/extraction-ais/${started.id}/`)).name).toBe('Summer invoices');
  await snapshot(page, info, 'ai-named');
});
