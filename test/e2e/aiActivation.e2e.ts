// The AI tab shows, for each AI, its score beside the active AI's on the same test documents and why it was
// or was not made active (the record's `activation`, docs/continuous-learning.md): a first AI made active
// because none was, then a worse one (trained on a wrongly labelled invoice alone) left inactive.
import { expect, test } from '@playwright/test';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { api, E2E_ADMIN, logIn, snapshot } from './helpers.ts';

const invoiceLines = (n: number) => [
  `Rechnung Nr. ${4700 + n}`,
  `Kunde: Muster GmbH ${n}`,
  `Rechnungsdatum: ${String(n + 1).padStart(2, '0')}.0${(n % 9) + 1}.2024`,
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

test('the AI tab shows each AI against the active one and why it was (not) made active', async ({ page }, info) => {
  test.setTimeout(180_000);
  const server = await api();
  // The helper has no PATCH: the same login, by hand.
  const base = process.env.FOLIO_E2E_URL!;
  const login = await fetch(`${base}/api/v3/auth/`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ username: E2E_ADMIN.email, password: E2E_ADMIN.password }) });
  const headers = { Authorization: `Token ${((await login.json()) as { token: string }).token}`, 'Content-Type': 'application/json' };
  const patch = (path: string, body: unknown) => fetch(`${base}${path}`, { method: 'PATCH', headers, body: JSON.stringify(body) });
  // Trainings by hand here, so that nothing waits for continuous learning's delay.
  const project = await server.post('/api/v3/projects/', { name: `AI activation ${Date.now()}`, continuous_learning: false });
  const invoice = await server.post('/api/v3/categories/', { project: project.id, name: 'Invoice' });
  const label = async (name: string) => (await server.post('/api/v3/labels/', { project: project.id, name, data_type: 'Text', label_sets: [invoice.id] })).id as number;
  const labels = { date: await label('Date'), total: await label('Total') };

  async function annotatedInvoice(n: number, datasetStatus: number, wrong = false): Promise<number> {
    const lines = invoiceLines(n);
    const doc = await server.upload('/api/v3/documents/', { project: project.id, category: invoice.id, dataset_status: datasetStatus, sync: 'true' }, { name: `r${n}.pdf`, data: await linesPdf(lines) });
    expect(doc.status_data, JSON.stringify(doc)).toBe(2);
    const texts = wrong ? ['Zahlbar', 'Muster'] : [lines[2].split(': ')[1], lines[3].split(': ')[1].replace(' EUR', '')];
    for (const [labelId, text] of [[labels.date, texts[0]], [labels.total, texts[1]]] as const) {
      const found = await server.post(`/api/v3/documents/${doc.id}/search/`, { q: text });
      expect(found.span).toHaveLength(1);
      const made = await server.post('/api/v3/annotations/', { document: doc.id, label: labelId, label_set: invoice.id, span: found.span, is_correct: true, revised: true });
      expect(made.id, JSON.stringify(made)).toBeTruthy();
    }
    return doc.id;
  }
  async function trained(): Promise<any> {
    const started = await server.post('/api/v3/extraction-ais/', { category: invoice.id });
    for (let i = 0; i < 600; i++) {
      const ai = await server.get(`/api/v3/extraction-ais/${started.id}/`);
      if (ai.status === 'done' || ai.status === 'failed') return ai;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    throw new Error('the training did not end');
  }

  const good = [];
  for (let n = 0; n < 4; n++) good.push(await annotatedInvoice(n, 2));
  for (let n = 10; n < 12; n++) await annotatedInvoice(n, 3);
  const first = await trained();
  expect(first).toMatchObject({ status: 'done', active: true });
  for (const id of good) expect((await patch(`/api/v3/documents/${id}/`, { dataset_status: 4 })).status).toBe(200);
  await annotatedInvoice(20, 2, true);
  const second = await trained();
  expect(second).toMatchObject({ status: 'done', active: false });
  expect(second.activation.active_ai).toBe(first.id);

  await logIn(page);
  await page.goto(`/#/projects/${project.id}/ai`);
  const extraction = page.getByRole('region', { name: 'Extraction AI for Invoice' });
  await expect(extraction.getByTestId(`ai-${first.id}-reason`)).toHaveText(/^no active AI: made active \(F1 [0-9.]+ on 2 test documents\)/);
  await expect(extraction.getByTestId(`ai-${first.id}-active-score`)).toHaveText('–');
  const percent = (v: number) => `${(v * 100).toFixed(1)} %`;
  await expect(extraction.getByTestId(`ai-${second.id}-active-score`)).toHaveText(`${percent(first.evaluation.score)} (AI #${first.id})`);
  await expect(extraction.getByTestId(`ai-${second.id}-reason`)).toHaveText(
    new RegExp(`^not better than the active AI ${first.id}: F1 ${second.activation.score.toFixed(3)} against ${first.evaluation.score.toFixed(3)} on the same 2 test documents; the active AI stays$`),
  );
  const row = extraction.locator('.ai-models tr', { has: page.getByTestId(`ai-${second.id}-reason`) });
  await expect(row.getByRole('cell', { name: percent(second.evaluation.score), exact: true })).toBeVisible();
  await snapshot(page, info, 'ai-activation');
});
