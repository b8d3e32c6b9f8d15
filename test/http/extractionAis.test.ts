// Extraction AIs through the API: refusals that say what is missing, a training run that can be polled to
// "done" with its evaluation, activation, extraction of later uploads with it, the requester's email, and
// model files downloaded and uploaded again. Documents are small born-digital invoices, processed for real.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/testServer.ts';
import { created, makeTaxonomy, upload, type Taxonomy } from '../helpers/documentFixtures.ts';
import { linesPdf, pollAi } from '../helpers/aiFixtures.ts';

const invoiceLines = (n: number) => [
  `Rechnung Nr. ${4700 + n}`,
  `Kunde: Muster GmbH ${n}`,
  `Rechnungsdatum: ${String(n + 1).padStart(2, '0')}.0${(n % 9) + 1}.2024`,
  `Lieferdatum: ${String(n + 2).padStart(2, '0')}.0${(n % 9) + 1}.2023`,
  `Gesamtbetrag: ${100 + 17 * n},${String(10 + n).slice(-2)} EUR`,
  `Zahlbar innerhalb von 14 Tagen`,
];

describe('extraction AIs', () => {
  let s: TestServer;
  let t: Taxonomy;
  const docs: number[] = [];

  /** Uploads an invoice and labels its date and total by searching for them (as a reviewer would draw them). */
  async function annotatedInvoice(n: number, datasetStatus: number): Promise<number> {
    const lines = invoiceLines(n);
    const doc = await created(upload(s.admin, { project: t.project, category: t.category, dataset_status: datasetStatus, sync: 'true' }, { name: `r${n}.pdf`, data: await linesPdf([lines]) }));
    expect(doc.status_data).toBe(2);
    for (const [label, text] of [[t.labels.date, lines[2].split(': ')[1]], [t.labels.total, lines[4].split(': ')[1].replace(' EUR', '')]] as const) {
      const found = await s.admin.post(`/api/v3/documents/${doc.id}/search/`, { q: text });
      expect(found.body.span.length).toBe(1);
      await created(s.admin.post('/api/v3/annotations/', { document: doc.id, label, label_set: t.category, span: found.body.span, is_correct: true, revised: true }));
    }
    return doc.id;
  }

  beforeAll(async () => {
    s = await startTestServer();
    t = await makeTaxonomy(s.admin, 'Invoices');
    for (let n = 0; n < 6; n++) docs.push(await annotatedInvoice(n, 2));
    for (let n = 10; n < 12; n++) docs.push(await annotatedInvoice(n, 3));
  }, 120_000);
  afterAll(() => s?.close());

  it('refuses a training with no category, an unknown one, or one without training documents', async () => {
    expect((await s.admin.post('/api/v3/extraction-ais/', {})).body).toEqual({ category: ['This field is required.'] });
    expect((await s.admin.post('/api/v3/extraction-ais/', { category: 999999 })).body.category[0]).toMatch(/Invalid pk/);
    const empty = (await created(s.admin.post('/api/v3/categories/', { project: t.project, name: 'Contract' }))).id;
    const refused = await s.admin.post('/api/v3/extraction-ais/', { category: empty });
    expect(refused.status).toBe(400);
    expect(refused.body.category[0]).toMatch(/no training document.*dataset_status 2/);
    const other = await s.userClient('outsider@test.local');
    expect((await other.post('/api/v3/extraction-ais/', { category: t.category })).body.category[0]).toMatch(/Invalid pk/);
    expect((await other.get('/api/v3/extraction-ais/')).body.count).toBe(0);
  });

  it('trains in the background, reports progress and evaluation, activates, and extracts later uploads', async () => {
    const start = await created(s.admin.post('/api/v3/extraction-ais/', { category: t.category }));
    expect(start).toMatchObject({ category: t.category, project: t.project, status: 'queued', active: false, file_url: null });
    const ai = await pollAi(s.admin, 'extraction-ais', start.id);
    expect(ai.status, ai.error).toBe('done');
    expect(ai).toMatchObject({ progress: 100, active: true, origin: 'trained', file_url: `/aimodel/file/${ai.id}/` });
    expect(ai.training.documents).toBe(6);
    expect(ai.training_seconds).toBeGreaterThan(0);
    expect(ai.evaluation).toMatchObject({ metric: 'f1', documents: 2, rule: 'exact' });
    expect(ai.evaluation.score).toBeGreaterThanOrEqual(0.75);
    expect(ai.evaluation.labels.map((l: any) => l.name).sort()).toEqual(['Date', 'Total']);

    const lines = invoiceLines(30);
    const doc = await created(upload(s.admin, { project: t.project, category: t.category, sync: 'true' }, { name: 'new.pdf', data: await linesPdf([lines]) }));
    expect(doc.status_data).toBe(2);
    expect(doc.extraction_time).toBeGreaterThan(0);
    const annotations = doc.annotation_sets.flatMap((set: any) => set.labels.flatMap((l: any) => l.annotations.map((a: any) => ({ ...a, labelName: l.label_name ?? l.label?.name }))));
    const texts = annotations.map((a: any) => a.offset_string);
    expect(texts).toContain(lines[4].split(': ')[1].replace(' EUR', ''));
    expect(texts).toContain(lines[2].split(': ')[1]);
    for (const a of annotations) {
      expect(a.confidence).toBeGreaterThan(0);
      expect(a.confidence).toBeLessThanOrEqual(1);
      expect(a.revised).toBe(false);
      expect(a.is_correct).toBe(false);
    }

    // A data type changed after training takes effect with the next AI (spec 2.14): this one still
    // normalizes Total as the Text it was trained with.
    expect((await s.admin.patch(`/api/v3/labels/${t.labels.total}/`, { data_type: 'Number' })).status).toBe(200);
    const later = invoiceLines(31);
    const again = await created(upload(s.admin, { project: t.project, category: t.category, sync: 'true' }, { name: 'later.pdf', data: await linesPdf([later]) }));
    const total = again.annotation_sets.flatMap((set: any) => set.labels).find((l: any) => l.id === t.labels.total);
    const value = later[4].split(': ')[1].replace(' EUR', '');
    expect(total.annotations.map((a: any) => [a.offset_string, a.normalized])).toContainEqual([value, value]);
    await s.admin.patch(`/api/v3/labels/${t.labels.total}/`, { data_type: 'Text' });

    // The requester is told, through the outbox here (no SMTP server configured).
    const mail = (await s.admin.get('/api/v3/outbox/')).body.results.find((m: any) => m.kind === 'training');
    expect(mail.subject).toMatch(/Extraction AI ready: Invoice/);
  }, 120_000);

  it('downloads a model file and takes it back as an upload, refusing anything else', async () => {
    const list = (await s.admin.get(`/api/v3/extraction-ais/?project_id=${t.project}`)).body;
    const active = list.results.find((a: any) => a.active);
    const file = await s.admin.request('GET', active.file_url);
    expect(file.status).toBe(200);
    const text = typeof file.body === 'string' ? file.body : JSON.stringify(file.body);
    expect(JSON.parse(text).format).toBe('folio-extraction-model');

    const send = (data: string, fields: Record<string, string | number>) => {
      const form = new FormData();
      for (const [k, v] of Object.entries(fields)) form.append(k, String(v));
      form.append('file', new Blob([data], { type: 'application/json' }), 'model.json');
      return s.admin.request('POST', '/api/v3/extraction-ais/upload/', { raw: { data: form } });
    };
    const bad = await send('{"format":"something else"}', { category: t.category });
    expect(bad.status, bad.text).toBe(400);
    expect(bad.body.file[0]).toMatch(/Not a Folio extraction AI model file/);

    const again = await send(text, { category: t.category });
    expect(again.status, again.text).toBe(201);
    // The same model scores the same: a tie keeps the active one.
    expect(again.body).toMatchObject({ status: 'done', origin: 'uploaded', active: false });
    expect(again.body.evaluation.score).toBe(active.evaluation.score);

    const switched = await s.admin.patch(`/api/v3/extraction-ais/${again.body.id}/`, { active: true });
    expect(switched.body.active).toBe(true);
    expect((await s.admin.get(`/api/v3/extraction-ais/${active.id}/`)).body.active).toBe(false);
    expect((await s.admin.get(`/api/v3/extraction-ais/?active=true&project_id=${t.project}`)).body.count).toBe(1);

    expect((await s.admin.delete(`/api/v3/extraction-ais/${again.body.id}/`)).status).toBe(204);
    expect((await s.admin.get(`/api/v3/extraction-ais/${again.body.id}/`)).status).toBe(404);
    // The deleted copy shared its content-addressed file with the first model, which still has it.
    expect((await s.admin.request('GET', active.file_url)).status).toBe(200);
    // An extraction AI is not reachable under another kind's path.
    expect((await s.admin.get(`/api/v3/category-ais/${active.id}/`)).status).toBe(404);
  });
});
