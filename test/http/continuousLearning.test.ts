// Continuous learning through the real server (docs/continuous-learning.md): the project setting, a finished
// review putting its document into the training or test data by the hash rule and scheduling a training, a
// worse candidate staying inactive with its reason, two quick reviews starting one training, and no training
// running while a sync upload is being processed. Small born-digital invoices, processed for real; the real
// extraction trainer, observed (not replaced) to record what the store held at each training's start and end.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { startTestServer, type TestServer } from '../helpers/testServer.ts';
import { created, upload } from '../helpers/documentFixtures.ts';
import { linesPdf, pollAi } from '../helpers/aiFixtures.ts';
import { bodyText, drawPage } from '../helpers/ocrPages.ts';
import { TRAINERS } from '../../main/ai/trainers/index.ts';
import { learningDatasetStatus } from '../../main/domain/learningSplit.ts';
import { LEARN_FROM_REVIEWS, TRAIN_AI } from '../../main/jobs/kinds.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const invoiceLines = (n: number) => [
  `Rechnung Nr. ${4700 + n}`,
  `Kunde: Muster GmbH ${n}`,
  `Rechnungsdatum: ${String((n % 27) + 1).padStart(2, '0')}.0${(n % 9) + 1}.2024`,
  `Gesamtbetrag: ${100 + 17 * n},${String(10 + n).slice(-2)} EUR`,
  `Zahlbar innerhalb von 14 Tagen`,
];

/** A scan of full A4 pages: seconds of OCR, so that a training falls due while it is read. */
async function longScan(pages: number): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  for (let i = 0; i < pages; i++) {
    const { png, widthPt, heightPt } = await drawPage(bodyText(40 + i, 30), { dpi: 150 });
    const jpg = await pdf.embedJpg(await sharp(png).jpeg({ quality: 85 }).toBuffer());
    pdf.addPage([widthPt, heightPt]).drawImage(jpg, { x: 0, y: 0, width: widthPt, height: heightPt });
  }
  return pdf.save();
}

interface TrainingEvent {
  what: 'start' | 'end';
  category: number | null;
  /** Urgent document jobs (sync uploads...) open at that moment, read from the store. */
  urgentOpen: number;
}

describe('continuous learning', () => {
  let s: TestServer;
  let project: number;
  const events: TrainingEvent[] = [];
  const realTrain = TRAINERS.extraction.train;
  let n = 0;

  /** A category of `project` with the labels Date and Total. */
  async function category(name: string): Promise<{ id: number; date: number; total: number }> {
    const id = (await created(s.admin.post('/api/v3/categories/', { project, name }))).id;
    const label = async (l: string) => (await created(s.admin.post('/api/v3/labels/', { project, name: `${l} ${name}`, data_type: 'Text', label_sets: [id] }))).id as number;
    return { id, date: await label('Date'), total: await label('Total') };
  }

  /** Uploads an invoice and accepts its date and total (or, `wrong`, other text under those labels). */
  async function invoice(cat: { id: number; date: number; total: number }, fields: Record<string, string | number> = {}, wrong = false): Promise<number> {
    const lines = invoiceLines(n++);
    const doc = await created(upload(s.admin, { project, category: cat.id, sync: 'true', ...fields }, { name: `r${n}.pdf`, data: await linesPdf([lines]) }));
    expect(doc.status_data).toBe(2);
    // The active AI's proposals go: what this document teaches is what is labelled below.
    for (const a of (await s.admin.get(`/api/v3/documents/${doc.id}/annotations/`)).body.results) {
      if (a.review_state === 'Feedback required') expect((await s.admin.delete(`/api/v3/annotations/${a.id}/`)).status).toBe(204);
    }
    const date = wrong ? 'Zahlbar' : lines[2].split(': ')[1];
    const total = wrong ? 'Muster' : lines[3].split(': ')[1].replace(' EUR', '');
    for (const [label, text] of [[cat.date, date], [cat.total, total]] as const) {
      const found = await s.admin.post(`/api/v3/documents/${doc.id}/search/`, { q: text });
      expect(found.body.span.length, text).toBe(1);
      await created(s.admin.post('/api/v3/annotations/', { document: doc.id, label, label_set: cat.id, span: found.body.span, is_correct: true, revised: true }));
    }
    return doc.id;
  }

  const finish = async (id: number) => {
    const r = await s.admin.patch(`/api/v3/documents/${id}/`, { is_reviewed: true });
    expect(r.status, r.text).toBe(200);
    return r.body;
  };

  /** The open (queued or running) jobs of a kind for a category. */
  const openJobs = async (kind: string, categoryId?: number) =>
    (await s.core.store.db.selectFrom('jobs').selectAll().where('kind', '=', kind).where('state', 'in', ['queued', 'running']).execute()).filter(
      (j) => categoryId === undefined || JSON.parse(j.payload).categoryId === categoryId,
    );

  const learnedAis = async (categoryId: number) =>
    (await s.admin.get(`/api/v3/extraction-ais/?category=${categoryId}`)).body.results.filter((a: any) => a.trigger === 'continuous-learning');

  /** Waits until continuous learning has nothing left to do for the category: no learning job open, no training open. */
  async function settled(categoryId: number): Promise<any[]> {
    for (let i = 0; i < 900; i++) {
      const ais = await learnedAis(categoryId);
      if (!(await openJobs(LEARN_FROM_REVIEWS, categoryId)).length && ais.every((a: any) => a.status === 'done' || a.status === 'failed')) return ais;
      await sleep(100);
    }
    throw new Error(`continuous learning of category ${categoryId} did not settle`);
  }

  beforeAll(async () => {
    // The real trainer, observed: what the store held when each training started and ended.
    TRAINERS.extraction.train = async (input) => {
      const urgent = () => s.core.repos.jobs.countUrgentOpen(['process-document', 'read-again-document', 'analyze-document']);
      events.push({ what: 'start', category: input.model.category_id, urgentOpen: await urgent() });
      try {
        return await realTrain(input);
      } finally {
        events.push({ what: 'end', category: input.model.category_id, urgentOpen: await urgent() });
      }
    };
    s = await startTestServer({ env: { FOLIO_LEARNING_DELAY_SECONDS: '1.5' } });
    project = (await created(s.admin.post('/api/v3/projects/', { name: 'Learning' }))).id;
  }, 60_000);
  afterAll(async () => {
    TRAINERS.extraction.train = realTrain;
    await s?.close();
  });

  it('is on for a new project, off when asked, kept by a PUT that leaves it out, and refuses what is not a boolean', async () => {
    expect((await s.admin.get(`/api/v3/projects/${project}/`)).body.continuous_learning).toBe(true);
    const off = await created(s.admin.post('/api/v3/projects/', { name: 'Manual', continuous_learning: false }));
    expect(off.continuous_learning).toBe(false);
    const put = await s.admin.put(`/api/v3/projects/${off.id}/`, { name: 'Manual training' });
    expect(put.status, put.text).toBe(200);
    expect(put.body.continuous_learning).toBe(false);
    expect((await s.admin.patch(`/api/v3/projects/${off.id}/`, { continuous_learning: true })).body.continuous_learning).toBe(true);
    const bad = await s.admin.patch(`/api/v3/projects/${off.id}/`, { continuous_learning: 'sometimes' });
    expect(bad.status).toBe(400);
    expect(bad.text).toMatch(/continuous_learning/);
  });

  it('a finished review puts the document into the training or test data by the hash rule and schedules a training', async () => {
    const cat = await category('Receipt');
    // Reviews until one joins the training data (1 in 5 becomes a test document instead).
    const reviewed: { id: number; dataset: number }[] = [];
    while (!reviewed.some((d) => d.dataset === 2)) {
      const id = await invoice(cat);
      const done = await finish(id);
      expect(done.dataset_status).toBe(learningDatasetStatus(project, id));
      reviewed.push({ id, dataset: done.dataset_status });
    }
    // Scheduled: the learning job waits out its 1.5 s, or (on a slow machine) it already made the training.
    expect((await openJobs(LEARN_FROM_REVIEWS, cat.id)).length + (await learnedAis(cat.id)).length).toBeGreaterThanOrEqual(1);
    // A dataset status the reviewer set stays, also when set in the finishing request itself.
    const excluded = await invoice(cat, { dataset_status: 4 });
    expect((await finish(excluded)).dataset_status).toBe(4);
    const noneOnPurpose = await invoice(cat);
    const r = await s.admin.patch(`/api/v3/documents/${noneOnPurpose}/`, { is_reviewed: true, dataset_status: 0 });
    expect(r.body.dataset_status).toBe(0);

    const [ai, ...more] = await settled(cat.id);
    expect(more).toEqual([]);
    expect(ai.status, ai.error).toBe('done');
    expect(ai.training.document_ids).toEqual(reviewed.filter((d) => d.dataset === 2).map((d) => d.id));
    expect(ai.active).toBe(true);
    expect(ai.activation).toMatchObject({ activated: true, active_ai: null });
    expect(ai.activation.reason).toMatch(/^no active AI/);
  }, 180_000);

  it('leaves a project with continuous learning off as it was', async () => {
    const manual = (await created(s.admin.post('/api/v3/projects/', { name: 'No learning', continuous_learning: false }))).id;
    const saved = project;
    project = manual;
    try {
      const cat = await category('Letter');
      const id = await invoice(cat);
      expect((await finish(id)).dataset_status).toBe(0);
      expect(await openJobs(LEARN_FROM_REVIEWS, cat.id)).toEqual([]);
    } finally {
      project = saved;
    }
  }, 60_000);

  it('two quick reviews start one training', async () => {
    const cat = await category('Order');
    const a = await invoice(cat, { dataset_status: 2 });
    const b = await invoice(cat, { dataset_status: 2 });
    await Promise.all([finish(a), finish(b)]);
    const ais = await settled(cat.id);
    expect(ais.length).toBe(1);
    expect(ais[0].status, ais[0].error).toBe('done');
    expect(ais[0].training.document_ids).toEqual([a, b]);
    expect(events.filter((e) => e.what === 'start' && e.category === cat.id).length).toBe(1);
  }, 180_000);

  it('a worse candidate stays inactive, with its figures against the active AI and the reason', async () => {
    const cat = await category('Bill');
    const good = [];
    for (let i = 0; i < 4; i++) good.push(await invoice(cat, { dataset_status: 2 }));
    for (let i = 0; i < 2; i++) await invoice(cat, { dataset_status: 3 });
    const first = await pollAi(s.admin, 'extraction-ais', (await created(s.admin.post('/api/v3/extraction-ais/', { category: cat.id }))).id);
    expect(first).toMatchObject({ status: 'done', active: true, trigger: 'manual' });
    expect(first.evaluation.score).toBeGreaterThan(0.5);
    // The good training data leaves; a review labelled wrongly is all the next AI learns from.
    for (const id of good) expect((await s.admin.patch(`/api/v3/documents/${id}/`, { dataset_status: 4 })).status).toBe(200);
    await finish(await invoice(cat, { dataset_status: 2 }, true));
    const [candidate] = await settled(cat.id);
    expect(candidate.status, candidate.error).toBe('done');
    expect(candidate.active).toBe(false);
    expect(candidate.activation).toMatchObject({ activated: false, active_ai: first.id, active_score: first.evaluation.score, test_documents: 2 });
    expect(candidate.activation.score).toBeLessThan(first.evaluation.score);
    expect(candidate.activation.reason).toMatch(new RegExp(`^not better than the active AI ${first.id}: F1 [0-9.]+ against [0-9.]+ on the same 2 test documents`));
    expect((await s.admin.get(`/api/v3/extraction-ais/${first.id}/`)).body.active).toBe(true);
  }, 180_000);

  it('never trains while a sync upload is being processed: the training waits for it', async () => {
    const cat = await category('Voucher');
    const id = await invoice(cat, { dataset_status: 2 });
    const scan = await longScan(2);
    const before = events.length;
    // The review asks for a training due in 1.5 s; the scan's OCR takes longer than that.
    await finish(id);
    const answered = await s.admin.request('POST', '/api/v3/documents/', {
      raw: (() => {
        const form = new FormData();
        form.append('project', String(project));
        form.append('sync', 'true');
        form.append('data_file', new Blob([scan as BlobPart], { type: 'application/pdf' }), 'scan.pdf');
        return { data: form };
      })(),
    });
    expect(answered.status, answered.text).toBe(201);
    expect(answered.body.status_data).toBe(2);
    const [ai] = await settled(cat.id);
    expect(ai.status, ai.error).toBe('done');
    // The training fell due while the scan was read, and gave its turn back until it was done.
    const train = (await s.core.store.db.selectFrom('jobs').selectAll().where('kind', '=', TRAIN_AI).execute()).find((j) => JSON.parse(j.payload).aiId === ai.id)!;
    expect(train.last_error ?? '').toMatch(/^(Waiting|Stopped)/);
    const mine = events.slice(before).filter((e) => e.category === cat.id);
    expect(mine.at(-1)!.what).toBe('end');
    // At every start of a training and at the end of the one that finished, no urgent document work was open.
    for (const e of mine.filter((x) => x.what === 'start')) expect(e.urgentOpen).toBe(0);
    expect(mine.at(-1)!.urgentOpen).toBe(0);
  }, 180_000);
});
