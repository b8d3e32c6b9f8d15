// Issue 12's acceptance walk, "a reviewer's day on receipts": real SROIE receipt scans
// (../shared/datasets/sroie-dev, never one whose number is divisible by 5: those are held back) go through
// the window the way a reviewer's day does. A project with the four receipt labels is set up; the receipts
// are uploaded through the documents tab's file picker; their dataset status is set in bulk in the list;
// one receipt is reviewed with the keyboard alone (not one mouse event from the first key until the next
// document opens); the extraction AI is trained from the AI tab; a receipt scanned sideways is uploaded,
// read again from the review screen and reviewed upright; a receipt uploaded by mistake is deleted.
// The API is asked what it holds after every step, and a screenshot is kept per step. The API also prepares
// what a reviewer would have done on another day (the labels on the training receipts, one AI proposal).
import { expect, test, type Locator, type Page } from '@playwright/test';
import sharp from 'sharp';
import { normalize } from '../../main/domain/normalization.ts';
import { findValueRanges, isHeldBack, readReceiptImage, readReceiptKey, sameReceiptValue, type ReceiptField } from '../helpers/receipts.ts';
import { api, logIn, snapshot } from './helpers.ts';

type Server = Awaited<ReturnType<typeof api>>;

/** The day's receipts (small scans, so that OCR stays quick on a busy machine), by their part in it. */
const TRAINING = [1, 2, 4, 6, 19];
const TEST = [3, 7];
const KEYBOARD = 3; // a test receipt: the reviewer's labels on it are what the AI is scored against
const MISTAKE = 8; // uploaded by mistake, deleted at the end of the day
const TURNED = 9; // scanned sideways
const FIELDS: [ReceiptField, string][] = [
  ['company', 'Text'],
  ['date', 'Date'],
  ['address', 'Text'],
  ['total', 'Number'],
];

const fileName = (n: number) => `${String(n).padStart(3, '0')}.jpg`;
const rows = (page: Page) => page.getByRole('table').locator('tbody tr');
const dateOf = (text: string) => normalize(text, 'Date');

/** The key values of a receipt, refusing held-back numbers before anything of them is read. */
function keyOf(n: number) {
  expect(isHeldBack(n), `receipt ${n} is held back for evaluation`).toBe(false);
  return readReceiptKey(n);
}

/** Where a text stands on a document, as the API's search finds it (its first hit; a hit is one line). */
async function firstHit(server: Server, doc: number, q: string) {
  const found = await server.post(`/api/v3/documents/${doc}/search/`, { q });
  const s = found.span?.[0];
  return s ? [{ page_index: s.page_index, x0: s.x0, x1: s.x1, y0: s.y0, y1: s.y1 }] : null;
}

const annotationsOf = async (server: Server, doc: number): Promise<any[]> => (await server.get(`/api/v3/documents/${doc}/annotations/`)).results;

/** The document's labels as the API holds them: name -> status and the texts of its annotations. */
async function labelsOf(server: Server, doc: number): Promise<Record<string, { status: string; texts: string[] }>> {
  const detail = await server.get(`/api/v3/documents/${doc}/`);
  const out: Record<string, { status: string; texts: string[] }> = {};
  for (const set of detail.annotation_sets) for (const l of set.labels) out[l.name] = { status: l.status, texts: l.annotations.map((a: any) => a.offset_string) };
  return out;
}

/** Counts the mouse's own events in the page (a key's click on a button has detail 0 and is not one). */
async function countMouse(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { mouseEvents: string[] };
    w.mouseEvents = [];
    for (const type of ['mousedown', 'mouseup', 'pointerdown', 'pointerup', 'click', 'dblclick', 'contextmenu', 'wheel']) {
      window.addEventListener(
        type,
        (e) => {
          if (type === 'click' && (e as MouseEvent).detail === 0) return;
          w.mouseEvents.push(type);
        },
        true,
      );
    }
  });
}
const mouseEvents = (page: Page) => page.evaluate(() => (window as unknown as { mouseEvents?: string[] }).mouseEvents ?? null);

/** Presses ↓ until the panel's current item is `name` (the cursor walks labels and annotations in order). */
async function cursorTo(page: Page, panel: Locator, name: string): Promise<void> {
  for (let i = 0; i < 20; i++) {
    const current = await panel.locator('li.current').evaluateAll((els) => els.map((el) => el.getAttribute('aria-label')));
    if (current[0] === name) return;
    await page.keyboard.press('ArrowDown');
  }
  await expect(panel.locator('li.current')).toHaveAttribute('aria-label', name);
}

test("a reviewer's day on receipts: upload, dataset status in bulk, keyboard review, training, a turned receipt, a deletion", async ({ page }, info) => {
  test.setTimeout(600_000);
  const server = await api();
  const projectName = `Receipts day ${Date.now()}`;
  let project!: number;
  let receipt!: number;
  const docs: Record<number, number> = {};

  await test.step('1. set up a project: English OCR, a Receipt category, the labels company, date, address, total', async () => {
    await logIn(page);
    await page.getByLabel('New project').fill(projectName);
    await page.getByRole('button', { name: 'Create project' }).click();
    await page.getByRole('link', { name: projectName }).click();
    await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Setup' }).click();

    // The receipts are English: reading them in German as well only costs time.
    const german = page.getByRole('checkbox', { name: 'German' });
    await expect(german).toBeChecked();
    await german.uncheck();
    await page.getByRole('button', { name: 'Save project' }).click();
    await expect(page.getByRole('button', { name: 'Save project' })).toBeDisabled();

    await page.getByLabel('New category').fill('Receipt');
    await page.getByRole('button', { name: 'Add category' }).click();
    await expect(page.getByRole('button', { name: 'Rename category Receipt' })).toBeVisible();
    const form = page.getByRole('form', { name: 'New label', exact: true });
    for (const [name, dataType] of FIELDS) {
      await form.getByLabel('Label name').fill(name);
      await form.getByLabel('Data type').selectOption(dataType);
      await form.getByRole('checkbox', { name: 'Receipt (category)', exact: true }).check();
      await form.getByRole('button', { name: 'Add label' }).click();
      await expect(page.getByRole('button', { name: `Edit label ${name}`, exact: true })).toBeVisible();
    }
    await snapshot(page, info, '01-setup');

    const listed = await server.get(`/api/v3/projects/?name=${encodeURIComponent(projectName)}`);
    expect(listed.count).toBe(1);
    project = listed.results[0].id;
    expect(listed.results[0].ocr_languages).toEqual(['eng']);
    const categories = (await server.get(`/api/v3/categories/?project=${project}`)).results as any[];
    expect(categories.map((c) => c.name)).toEqual(['Receipt']);
    receipt = categories[0].id;
    const labels = (await server.get(`/api/v3/labels/?project=${project}`)).results as any[];
    expect(Object.fromEntries(labels.map((l) => [l.name, [l.data_type, l.label_sets]]))).toEqual(Object.fromEntries(FIELDS.map(([n, t]) => [n, [t, [receipt]]])));
  });

  await test.step('2. upload eight receipts through the file picker; each is read (OCR) and ready for review', async () => {
    await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Documents' }).click();
    await expect(page.getByText('No documents yet.')).toBeVisible();
    await page.getByLabel('Category for uploads').selectOption({ label: 'Receipt' });
    const numbers = [...TRAINING, ...TEST, MISTAKE];
    for (const n of numbers) keyOf(n); // the held-back check, before any image is read
    await page.getByLabel('Choose files to upload').setInputFiles(numbers.map((n) => ({ name: fileName(n), mimeType: 'image/jpeg', buffer: Buffer.from(readReceiptImage(n)) })));
    for (const n of numbers) await expect(page.getByTestId('upload').filter({ hasText: fileName(n) })).toContainText('Done', { timeout: 300_000 });
    await expect(rows(page)).toHaveCount(numbers.length);
    await snapshot(page, info, '02-uploaded');

    const listed = (await server.get(`/api/v3/documents/?project=${project}&limit=50`)).results as any[];
    expect(listed.map((d) => d.data_file_name).sort()).toEqual(numbers.map(fileName).sort());
    for (const d of listed) {
      expect(d, d.data_file_name).toMatchObject({ status_data: 2, category: receipt, number_of_pages: 1 });
      docs[Number(d.data_file_name.slice(0, 3))] = d.id;
    }
    // Read by OCR: the date of each receipt stands in its text.
    for (const n of numbers) {
      const text: string = (await server.get(`/api/v3/documents/${docs[n]}/`)).text;
      expect(findValueRanges(text, keyOf(n).date!).length, `the date of receipt ${n} in its text`).toBeGreaterThan(0);
    }
  });

  await test.step('3. dataset status in bulk: five receipts for training, two for testing', async () => {
    const bar = page.getByRole('toolbar', { name: 'Actions for the selected documents' });
    for (const [numbers, status, value] of [
      [TRAINING, 'Training', 2],
      [TEST, 'Test', 3],
    ] as const) {
      for (const n of numbers) await page.getByLabel(`Select ${fileName(n)}`, { exact: true }).check();
      await expect(bar).toContainText(`${numbers.length} documents selected`);
      await page.getByLabel('Set dataset status of the selected documents').selectOption({ label: status });
      await expect(page.getByRole('status').filter({ hasText: `Dataset status changed: ${numbers.length} documents.` })).toBeVisible();
      for (const n of numbers) await expect(page.getByLabel(`Dataset status of ${fileName(n)}`)).toHaveValue(String(value));
      if (status === 'Training') await snapshot(page, info, '03a-training-set');
      await bar.getByRole('button', { name: 'Clear selection' }).click();
    }
    await snapshot(page, info, '03b-dataset-status');
    const listed = (await server.get(`/api/v3/documents/?project=${project}&limit=50`)).results as any[];
    const expected = (id: number) => (TRAINING.some((n) => docs[n] === id) ? 2 : TEST.some((n) => docs[n] === id) ? 3 : listed.find((d) => d.id === docs[MISTAKE]).dataset_status);
    for (const d of listed) expect(d.dataset_status, d.data_file_name).toBe(expected(d.id));
    expect([2, 3]).not.toContain(listed.find((d) => d.id === docs[MISTAKE]).dataset_status);
  });

  await test.step('4. review one receipt with the keyboard only: accept all, label search hits, mark missing, finish', async () => {
    // What a reviewer did on other days: the training receipts and the other test receipt labelled where
    // their key values stand in the text; and an AI's date proposal on this one, awaiting feedback.
    const labelIds = Object.fromEntries(((await server.get(`/api/v3/labels/?project=${project}`)).results as any[]).map((l) => [l.name, l.id]));
    for (const n of [...TRAINING, ...TEST.filter((t) => t !== KEYBOARD)]) {
      const key = keyOf(n);
      for (const [field] of FIELDS) {
        const span = key[field] ? await firstHit(server, docs[n], key[field]!) : null;
        if (!span) continue; // not in the OCR text as one line (addresses mostly): nothing to point at
        const made = await server.post('/api/v3/annotations/', { document: docs[n], label: labelIds[field], label_set: receipt, span, is_correct: true, revised: true });
        expect(made.review_state, JSON.stringify(made)).toBe('Accepted');
      }
    }
    const key = keyOf(KEYBOARD);
    const doc = docs[KEYBOARD];
    const proposal = await server.post('/api/v3/annotations/', { document: doc, label: labelIds.date, label_set: receipt, span: await firstHit(server, doc, key.date!), is_correct: false, revised: false, confidence: 0.8 });
    expect(proposal.review_state, JSON.stringify(proposal)).toBe('Feedback required');

    await page.getByRole('table').getByRole('link', { name: fileName(KEYBOARD), exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`#/documents/${doc}$`));
    const panel = page.getByRole('complementary', { name: 'Review' });
    await expect(panel.getByRole('heading', { name: 'Receipt' })).toBeVisible();
    await expect(page.locator('.viewer-page[data-page-number="1"]')).toHaveAttribute('data-rendered', /canvas|image/);
    await expect(panel.getByRole('listitem', { name: `date “${key.date}”, Feedback required` })).toBeVisible();
    await snapshot(page, info, '04a-receipt-opened');

    // From here on, keys only.
    await countMouse(page);
    await page.keyboard.press('a'); // accept all: the AI's date
    await expect(panel.getByRole('listitem', { name: `date “${key.date}”, Accepted` })).toBeVisible();
    await expect.poll(async () => (await server.get(`/api/v3/annotations/${proposal.id}/`)).review_state).toBe('Accepted');

    // The company: "/" searches, Ctrl+Enter labels the hit, 1 chooses the first label, Enter confirms.
    const dialog = page.getByRole('dialog', { name: 'New annotation' });
    await page.keyboard.press('/');
    await page.keyboard.type(key.company!);
    await page.keyboard.press('Enter');
    await expect(page.getByText('1 of 1')).toBeVisible();
    await page.keyboard.press('Control+Enter');
    await expect(dialog.locator('q')).toHaveText(new RegExp(key.company!.replace(/\s+/g, '\\s+')));
    await page.keyboard.press('1');
    await expect(dialog.getByRole('option', { name: /company/ })).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('Enter');
    await expect(dialog).toHaveCount(0);
    await expect(panel.getByRole('listitem', { name: /^company “.+”, Created by human$/ })).toBeVisible();

    // The total: Escape leaves the search, "/" starts a new one; away from the field, N labels the hit.
    await page.keyboard.press('Escape');
    await page.keyboard.press('/');
    await page.keyboard.type(key.total!);
    const searched = page.waitForResponse((r) => r.url().endsWith(`/api/v3/documents/${doc}/search/`));
    await page.keyboard.press('Enter');
    const totalHits = (await (await searched).json()).span.length;
    await expect(page.getByText(`1 of ${totalHits}`)).toBeVisible();
    await page.keyboard.press('Tab');
    await page.keyboard.press('n');
    await expect(dialog.locator('q')).toHaveText(key.total!);
    await page.keyboard.press('4');
    await expect(dialog.getByRole('option', { name: /total/ })).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('Enter');
    await expect(dialog).toHaveCount(0);
    await expect(panel.getByRole('listitem', { name: `total “${key.total}”, Created by human` })).toBeVisible();
    await snapshot(page, info, '04b-labelled-from-keys');

    // The address is misread on this receipt: the cursor to it (↓), Delete marks it missing.
    await page.keyboard.press('Escape');
    await cursorTo(page, panel, 'address, Unfilled');
    await page.keyboard.press('Delete');
    await expect(panel.getByRole('listitem', { name: 'address, Not found' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Finish review' })).toBeEnabled();
    await snapshot(page, info, '04c-ready-to-finish');

    await page.keyboard.press('f'); // finish: the next unreviewed document opens
    await expect(page).not.toHaveURL(new RegExp(`#/documents/${doc}$`));
    await expect(page).toHaveURL(/#\/documents\/\d+$/);
    const next = Number(page.url().match(/#\/documents\/(\d+)$/)![1]);
    expect(Object.values(docs)).toContain(next);
    await expect(page.getByRole('heading', { name: new RegExp(`^${(await server.get(`/api/v3/documents/${next}/`)).data_file_name}`) })).toBeVisible();
    // No mouse from the first key to here, and the same page (hash navigation kept the counter).
    expect(await mouseEvents(page)).toEqual([]);
    await snapshot(page, info, '04d-next-document');

    expect((await server.get(`/api/v3/documents/${doc}/`)).is_reviewed).toBe(true);
    expect((await server.get(`/api/v3/documents/${next}/`)).is_reviewed).toBe(false);
    const tree = await labelsOf(server, doc);
    expect(tree.date).toEqual({ status: 'Accepted', texts: [key.date] });
    expect(tree.total).toEqual({ status: 'Created by human', texts: [key.total] });
    expect(tree.company.status).toBe('Created by human');
    expect(tree.company.texts[0].replace(/\s+/g, ' ')).toBe(key.company);
    expect(tree.address).toEqual({ status: 'Not found', texts: [] });
  });

  await test.step('5. train the extraction AI from the AI tab and read its evaluation', async () => {
    await page.getByRole('link', { name: '← Documents' }).click();
    await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'AI' }).click();
    const extraction = page.getByRole('region', { name: 'Extraction AI for Receipt' });
    await expect(extraction.getByText('No AI trained yet.')).toBeVisible();
    await extraction.getByRole('button', { name: 'Train a new AI' }).click();
    await expect(extraction.getByRole('heading', { name: /^Evaluation of AI #\d+ Active$/ })).toBeVisible({ timeout: 300_000 });
    const chart = extraction.getByRole('img', { name: /^F1 per label: / });
    await expect(chart).toHaveAccessibleName(/date \d+%/);
    await snapshot(page, info, '05-ai-trained');

    const ais = await server.get(`/api/v3/extraction-ais/?project_id=${project}`);
    expect(ais.count).toBe(1);
    const [ai] = ais.results;
    expect(ai).toMatchObject({ category: receipt, status: 'done', active: true, progress: 100 });
    // Scored on the two test receipts, the one reviewed from the keyboard among them.
    expect(ai.evaluation).toMatchObject({ metric: 'f1', documents: TEST.length });
    await expect(extraction.getByRole('heading', { name: `Evaluation of AI #${ai.id} Active` })).toBeVisible();
  });

  await test.step('6. a receipt scanned sideways: uploaded, read again from the review screen, reviewed upright', async () => {
    const key = keyOf(TURNED);
    const turned = await sharp(Buffer.from(readReceiptImage(TURNED))).rotate(90).jpeg().toBuffer();
    const upright = await sharp(Buffer.from(readReceiptImage(TURNED))).metadata();
    expect(upright.height!).toBeGreaterThan(upright.width!); // a receipt: taller than wide; the file now lies on its side
    const name = `${String(TURNED).padStart(3, '0')}-sideways.jpg`;

    await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Documents' }).click();
    await expect(page.getByLabel('Category for uploads')).toHaveValue(String(receipt)); // remembered
    await page.getByLabel('Choose files to upload').setInputFiles([{ name, mimeType: 'image/jpeg', buffer: turned }]);
    const row = page.getByTestId('upload').filter({ hasText: name });
    await expect(row).toContainText('Done', { timeout: 300_000 });
    await row.getByRole('link', { name: `Open ${name}` }).click();
    const doc = Number(page.url().match(/#\/documents\/(\d+)$/)![1]);
    docs[TURNED] = doc;
    const panel = page.getByRole('complementary', { name: 'Review' });
    await expect(panel.getByRole('heading', { name: 'Receipt' })).toBeVisible();
    await snapshot(page, info, '06a-sideways-uploaded');
    // On upload, OCR found the page lying on its side and turned it.
    const uploaded = await server.get(`/api/v3/documents/${doc}/pages/1/`);
    expect(uploaded.orientation?.turned, JSON.stringify(uploaded.orientation)).not.toBe(0);

    // Read again: the document goes back through OCR and the review opens again when it is done.
    const reading = page.waitForResponse((r) => r.url().endsWith(`/api/v3/documents/${doc}/read-again/`) && r.request().method() === 'POST');
    await page.getByRole('button', { name: 'Read again…' }).click(); // asks first
    await page.getByRole('alertdialog', { name: 'Read the document again?' }).getByRole('button', { name: 'Read again' }).click();
    const queued = await reading;
    expect(queued.ok()).toBe(true);
    expect((await queued.json()).status_data).not.toBe(2); // back in processing
    await expect.poll(async () => (await server.get(`/api/v3/documents/${doc}/`)).status_data, { timeout: 300_000, intervals: [1000] }).toBe(2);
    await expect(panel.getByRole('heading', { name: 'Receipt' })).toBeVisible({ timeout: 60_000 });
    const viewerPage = page.locator('.viewer-page[data-page-number="1"]');
    await expect(viewerPage).toHaveAttribute('data-rendered', /canvas|image/);
    // Shown upright: the page in the viewer is taller than wide.
    const box = (await viewerPage.boundingBox())!;
    expect(box.height).toBeGreaterThan(box.width);
    await snapshot(page, info, '06b-read-again-upright');

    // The API: the page read again is the upright one (its turn kept in its rotation), and its text holds
    // the receipt's date, total and company.
    const pageInfo = await server.get(`/api/v3/documents/${doc}/pages/1/`);
    expect(pageInfo.rotation % 360, JSON.stringify(pageInfo)).not.toBe(0);
    expect(pageInfo.rotation).toBe(uploaded.rotation);
    expect(pageInfo.size[1]).toBeGreaterThan(pageInfo.size[0]);
    expect(pageInfo.original_size[1]).toBeGreaterThan(pageInfo.original_size[0]);
    const text: string = (await server.get(`/api/v3/documents/${doc}/`)).text;
    for (const field of ['date', 'total', 'company'] as const) expect(findValueRanges(text, key[field]!).length, `${field} “${key[field]}” in the text read again`).toBeGreaterThan(0);

    // The review: the AI's proposals that are right accepted, the others declined; company, date and
    // total labelled from the search where the AI missed them; what is left marked missing; finished. Right
    // means the key value, or the text where the key value stands as printed (SROIE's keys are upper case).
    const printed = (value: string) => findValueRanges(text, value).map((r) => Array.from(text).slice(r.start, r.end).join(''));
    for (const a of await annotationsOf(server, doc)) {
      if (a.review_state !== 'Feedback required') continue;
      const field = a.label.name as ReceiptField;
      const right = !!key[field] && sameReceiptValue(field, a.offset_string, key[field]!, printed(key[field]!), dateOf);
      const what = `${field} “${a.offset_string}”`;
      await panel.getByRole('button', { name: `${right ? 'Accept' : 'Decline'} ${what}`, exact: true }).first().click();
      await expect(panel.getByRole('listitem', { name: `${what}, ${right ? 'Accepted' : 'Declined'}` }).first()).toBeVisible();
    }
    const search = page.getByLabel('Search in the document');
    const dialog = page.getByRole('dialog', { name: 'New annotation' });
    for (const [field, n] of [
      ['company', 1],
      ['date', 2],
      ['total', 4],
    ] as const) {
      const labels = await labelsOf(server, doc);
      if (labels[field].status === 'Accepted') continue;
      await search.fill(key[field]!);
      await search.press('Enter');
      await expect(page.getByText(/^1 of \d+$/)).toBeVisible();
      await page.getByRole('button', { name: 'Label match' }).click();
      // The one label still unfilled is chosen already (a second press of its number would create it).
      const option = dialog.getByRole('option', { name: new RegExp(field) });
      await expect(option).toBeVisible();
      if ((await option.getAttribute('aria-selected')) !== 'true') await page.keyboard.press(String(n));
      await expect(option).toHaveAttribute('aria-selected', 'true');
      await dialog.getByRole('button', { name: 'Create annotation' }).click();
      await expect(panel.getByRole('listitem', { name: new RegExp(`^${field} “.+”, Created by human$`) })).toBeVisible();
      await search.press('Escape');
    }
    for (const [field] of FIELDS) {
      const labels = await labelsOf(server, doc);
      if (labels[field].status === 'Unfilled' || labels[field].status === 'Declined') await panel.getByRole('button', { name: `Mark ${field} missing` }).click();
      await expect(panel.getByRole('listitem', { name: new RegExp(`^${field}`) }).first()).not.toHaveAttribute('aria-label', /Unfilled|Feedback required/);
    }
    await expect(page.getByRole('button', { name: 'Finish review' })).toBeEnabled();
    await snapshot(page, info, '06c-sideways-reviewed');
    await page.getByRole('button', { name: 'Finish review' }).click();
    await expect(page).not.toHaveURL(new RegExp(`#/documents/${doc}$`));

    expect((await server.get(`/api/v3/documents/${doc}/`)).is_reviewed).toBe(true);
    const tree = await labelsOf(server, doc);
    expect(['Accepted', 'Created by human']).toContain(tree.company.status);
    const squeezed = (t: string) => t.replace(/\s+/g, '').toLowerCase();
    expect(tree.company.texts.some((t) => squeezed(t) === squeezed(key.company!))).toBe(true);
    expect(['Accepted', 'Created by human']).toContain(tree.date.status);
    expect(tree.date.texts.some((t) => dateOf(t) === dateOf(key.date!))).toBe(true);
    expect(['Accepted', 'Created by human']).toContain(tree.total.status);
    expect(tree.total.texts.some((t) => sameReceiptValue('total', t, key.total!, [], dateOf))).toBe(true);
    expect((await annotationsOf(server, doc)).filter((a) => a.review_state === 'Feedback required')).toEqual([]);
  });

  await test.step('7. delete the receipt uploaded by mistake from the list', async () => {
    await page.getByRole('link', { name: '← Documents' }).click();
    const name = fileName(MISTAKE);
    await page.getByRole('button', { name: `Actions for ${name}` }).click();
    await page.getByRole('group', { name: `Actions for ${name}` }).getByRole('button', { name: 'Delete…' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Confirm deletion' });
    await expect(confirm).toContainText(`Delete “${name}”?`);
    await snapshot(page, info, '07a-confirm-delete');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(rows(page).filter({ has: page.getByRole('link', { name, exact: true }) })).toHaveCount(0);
    await expect(rows(page)).toHaveCount(TRAINING.length + TEST.length + 1);
    await snapshot(page, info, '07b-deleted');

    const listed = (await server.get(`/api/v3/documents/?project=${project}&limit=50`)).results as any[];
    expect(listed.map((d) => d.id)).not.toContain(docs[MISTAKE]);
    expect(listed).toHaveLength(TRAINING.length + TEST.length + 1);
    expect((await server.get(`/api/v3/documents/${docs[MISTAKE]}/`)).detail).toBeTruthy();
  });
});
