// The AI tab: a project with a category, two labels, annotated training invoices and one test invoice.
// The reviewer sees the API's reason why splitting cannot be trained, trains the extraction AI, follows
// its progress and reads the evaluation (chart per label) with the new model active; the API agrees.
import { expect, test } from '@playwright/test';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { api, logIn, snapshot } from './helpers.ts';

const invoiceLines = (n: number) => [
  `Rechnung Nr. ${4700 + n}`,
  `Kunde: Muster GmbH ${n}`,
  `Rechnungsdatum: ${String(n + 1).padStart(2, '0')}.0${(n % 9) + 1}.2024`,
  `Lieferdatum: ${String(n + 2).padStart(2, '0')}.0${(n % 9) + 1}.2023`,
  `Gesamtbetrag: ${100 + 17 * n},${String(10 + n).slice(-2)} EUR`,
  'Zahlbar innerhalb von 14 Tagen',
];

async function linesPdf(lines: string[]): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const page = pdf.addPage([595, 842]);
  lines.forEach((line, i) => page.drawText(line, { x: 60, y: 780 - 18 * i, size: 11, font }));
  return pdf.save({ useObjectStreams: false });
}

test('train an extraction AI, follow it and read its evaluation', async ({ page }, info) => {
  test.setTimeout(180_000);
  const server = await api();
  const project = await server.post('/api/v3/projects/', { name: `AI tab ${Date.now()}` });
  const invoice = await server.post('/api/v3/categories/', { project: project.id, name: 'Invoice' });
  const label = async (name: string) => (await server.post('/api/v3/labels/', { project: project.id, name, data_type: 'Text', label_sets: [invoice.id] })).id as number;
  const labels = { date: await label('Date'), total: await label('Total') };

  // Invoices labelled as a reviewer would: the date and the total found by searching for them.
  async function annotatedInvoice(n: number, datasetStatus: number): Promise<void> {
    const lines = invoiceLines(n);
    const doc = await server.upload('/api/v3/documents/', { project: project.id, category: invoice.id, dataset_status: datasetStatus, sync: 'true' }, { name: `r${n}.pdf`, data: await linesPdf(lines) });
    expect(doc.status_data, JSON.stringify(doc)).toBe(2);
    for (const [labelId, text] of [[labels.date, lines[2].split(': ')[1]], [labels.total, lines[4].split(': ')[1].replace(' EUR', '')]] as const) {
      const found = await server.post(`/api/v3/documents/${doc.id}/search/`, { q: text });
      expect(found.span).toHaveLength(1);
      const made = await server.post('/api/v3/annotations/', { document: doc.id, label: labelId, label_set: invoice.id, span: found.span, is_correct: true, revised: true });
      expect(made.id, JSON.stringify(made)).toBeTruthy();
    }
  }
  for (let n = 0; n < 5; n++) await annotatedInvoice(n, 2);
  await annotatedInvoice(10, 3);

  await logIn(page);
  await page.goto(`/#/projects/${project.id}/ai`);
  const extraction = page.getByRole('region', { name: 'Extraction AI for Invoice' });
  await expect(extraction.getByText('No AI trained yet.')).toBeVisible();

  // Splitting is off for the project: the screen says so, and the API's reason shows on Train.
  const splitting = page.getByRole('region', { name: 'Splitting AI' });
  await expect(splitting.getByText(/Splitting is off for this project/)).toBeVisible();
  await splitting.getByRole('button', { name: 'Train a new AI' }).click();
  await expect(splitting.getByRole('alert')).toContainText('Document splitting is not enabled for this project');

  // Train the extraction AI: progress first, then the evaluation with the new model active.
  await extraction.getByRole('button', { name: 'Train a new AI' }).click();
  await expect(extraction.getByRole('progressbar')).toBeVisible();
  await snapshot(page, info, 'ai-training');
  await expect(extraction.getByRole('heading', { name: /^Evaluation of AI #\d+/ })).toBeVisible({ timeout: 120_000 });
  await expect(extraction.getByRole('progressbar')).toHaveCount(0);
  await expect(extraction.getByText('In use:')).toBeVisible();
  const chart = extraction.getByRole('img', { name: /^F1 per label: / });
  await expect(chart).toBeVisible();
  await expect(chart).toHaveAccessibleName(/Date \d+%/);
  await expect(extraction.getByRole('table', { name: 'Scores per label' }).getByRole('rowheader')).toHaveText(['Date', 'Total']);
  await expect(extraction.locator('.ai-models .badge-active')).toHaveCount(1);
  await snapshot(page, info, 'ai-evaluation');

  // What the API holds: one extraction AI, done and active, scored on the one test document.
  const ais = await server.get(`/api/v3/extraction-ais/?project_id=${project.id}`);
  expect(ais.count).toBe(1);
  const [ai] = ais.results;
  expect(ai).toMatchObject({ category: invoice.id, status: 'done', active: true, progress: 100 });
  expect(ai.evaluation).toMatchObject({ metric: 'f1', documents: 1 });
  await expect(extraction.getByRole('heading', { name: `Evaluation of AI #${ai.id} Active` })).toBeVisible();
  await expect(extraction.getByText(`F1 ${(ai.evaluation.score * 100).toFixed(1)} %`)).toBeVisible();
  const download = extraction.getByRole('link', { name: `Download the model file of AI #${ai.id}` });
  await expect(download).toHaveAttribute('href', new RegExp(`/aimodel/file/${ai.id}/\\?fk=[0-9.]+&sig=[\\w-]+$`));

  // A second AI on the same documents ties, so the first stays active; its chart compares with the first.
  await extraction.getByRole('button', { name: 'Train a new AI' }).click();
  const second = extraction.getByRole('heading', { name: /^Evaluation of AI #\d+$/ });
  await expect(second).toBeVisible({ timeout: 120_000 });
  const secondId = Number((await second.textContent())!.match(/#(\d+)/)![1]);
  expect(secondId).toBeGreaterThan(ai.id);
  await expect(extraction.locator('figcaption')).toContainText(`active AI #${ai.id}`);
  await expect(extraction.getByRole('img', { name: /^F1 per label: / })).toHaveAccessibleName(/Date \d+% \(\d+%\)/);
  await snapshot(page, info, 'ai-compared');

  // Switched by hand: the second becomes the active one.
  await extraction.getByRole('button', { name: `Make AI #${secondId} active` }).click();
  await expect(extraction.getByRole('heading', { name: `Evaluation of AI #${secondId} Active` })).toBeVisible();
  expect((await server.get(`/api/v3/extraction-ais/${secondId}/`)).active).toBe(true);
  expect((await server.get(`/api/v3/extraction-ais/${ai.id}/`)).active).toBe(false);
});
