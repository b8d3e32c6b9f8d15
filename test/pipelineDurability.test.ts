// Issue 3, item 9: processing runs from jobs stored with the documents. A server SIGKILLed while OCR
// runs, then started again on the same data folder, finishes every document exactly once: no upload
// lost, no page or job duplicated.
import BetterSqlite3 from 'better-sqlite3';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PDFDocument } from 'pdf-lib';
import { Client, tempDir } from './helpers/testServer.ts';
import { killAllFolios, startFolio } from './helpers/processes.ts';
import { scanImage } from './fixtures/imageSamples.ts';

afterAll(() => killAllFolios());

const ADMIN = { FOLIO_ADMIN_EMAIL: 'ocr@test.local', FOLIO_ADMIN_PASSWORD: 'ocr-password-1', FOLIO_OCR_WORKERS: '1' };

/** A scanned PDF of `pages` pages, each a 300 dpi image of one line of text. */
async function scannedDocument(label: string, pages: number): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  for (let i = 1; i <= pages; i++) {
    const image = await scanImage(`${label} page ${i} total 12.50`, { dpi: 300, format: 'png' });
    const png = await pdf.embedPng(image.data);
    const page = pdf.addPage([(image.width * 72) / 300, (image.height * 72) / 300]);
    page.drawImage(png, { x: 0, y: 0, width: page.getWidth(), height: page.getHeight() });
  }
  return pdf.save();
}

async function uploadAsync(c: Client, project: number, name: string, data: Uint8Array): Promise<number> {
  const form = new FormData();
  form.append('project', String(project));
  form.append('data_file', new Blob([data as BlobPart], { type: 'application/pdf' }), name);
  const r = await c.request('POST', '/api/v3/documents/', { raw: { data: form } });
  expect(r.status, r.text).toBe(201);
  return r.body.id;
}

async function until<T>(what: string, fn: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('SIGKILL during OCR', () => {
  it('finishes every document exactly once after a restart', { timeout: 180_000 }, async () => {
    const dataDir = tempDir('folio-ocr-kill-');
    const docs = [
      { name: 'alpha.pdf', pages: 4 },
      { name: 'beta.pdf', pages: 2 },
      { name: 'gamma.pdf', pages: 2 },
    ];
    let folio = await startFolio({ dataDir, env: ADMIN });
    let c = new Client(folio.url);
    await c.login(ADMIN.FOLIO_ADMIN_EMAIL, ADMIN.FOLIO_ADMIN_PASSWORD);
    const project = (await c.post('/api/v3/projects/', { name: 'Scans' })).body.id;
    const ids: number[] = [];
    for (const d of docs) ids.push(await uploadAsync(c, project, d.name, await scannedDocument(d.name.split('.')[0], d.pages)));

    // Kill while the first document's OCR runs.
    await until('OCR in progress', async () => ((await c.get(`/api/v3/documents/${ids[0]}/`)).body.status_data === 10 ? true : undefined), 60_000);
    await new Promise((r) => setTimeout(r, 300));
    await folio.kill();
    const atKill = new BetterSqlite3(path.join(dataDir, 'folio.db'), { readonly: true });
    const interrupted = atKill.prepare('select id from documents where status = 10').pluck().all() as number[];
    atKill.close();
    expect(interrupted.length).toBe(1);

    folio = await startFolio({ dataDir, env: ADMIN });
    c = new Client(folio.url);
    await c.login(ADMIN.FOLIO_ADMIN_EMAIL, ADMIN.FOLIO_ADMIN_PASSWORD);
    for (const id of ids) {
      await until(`document ${id} done`, async () => {
        const d = (await c.get(`/api/v3/documents/${id}/`)).body;
        if (d.status_data === 111) throw new Error(`document ${id} failed: ${d.status_reason}`);
        return d.status_data === 2 ? d : undefined;
      }, 120_000);
    }
    await folio.stop();

    const db = new BetterSqlite3(path.join(dataDir, 'folio.db'), { readonly: true });
    try {
      expect(db.prepare('select count(*) from documents').pluck().get()).toBe(docs.length);
      docs.forEach((d, i) => {
        const pages = db.prepare('select number from pages where document_id = ? order by number').pluck().all(ids[i]);
        expect(pages).toEqual(Array.from({ length: d.pages }, (_, k) => k + 1));
        const text = db.prepare('select text from documents where id = ?').pluck().get(ids[i]) as string;
        const label = d.name.split('.')[0];
        for (let p = 1; p <= d.pages; p++) expect(text.split('\f')[p - 1]).toMatch(new RegExp(`${label}\\s+page\\s+${p}`, 'i'));
      });
      const jobs = db.prepare("select document_id, state, attempts, interruptions from jobs where kind = 'process-document' order by document_id").all() as { document_id: number; state: string; attempts: number; interruptions: number }[];
      expect(jobs.map((j) => [j.document_id, j.state])).toEqual(ids.map((id) => [id, 'done']));
      // The interrupted document's job ran again without spending an attempt; the others ran once.
      for (const j of jobs) expect([j.attempts, j.interruptions]).toEqual([1, interrupted.includes(j.document_id) ? 1 : 0]);
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    } finally {
      db.close();
    }
  });
});

describe('SIGTERM during OCR', () => {
  it('stops within seconds, hands the job back without using an attempt, and finishes after a restart', { timeout: 180_000 }, async () => {
    const dataDir = tempDir('folio-ocr-term-');
    let folio = await startFolio({ dataDir, env: ADMIN });
    let c = new Client(folio.url);
    await c.login(ADMIN.FOLIO_ADMIN_EMAIL, ADMIN.FOLIO_ADMIN_PASSWORD);
    const project = (await c.post('/api/v3/projects/', { name: 'Scans' })).body.id;
    const id = await uploadAsync(c, project, 'delta.pdf', await scannedDocument('delta', 4));
    await until('OCR in progress', async () => ((await c.get(`/api/v3/documents/${id}/`)).body.status_data === 10 ? true : undefined), 60_000);
    const asked = Date.now();
    const exit = await folio.stop();
    expect(exit.code).toBe(0);
    expect(Date.now() - asked).toBeLessThan(20_000);

    folio = await startFolio({ dataDir, env: ADMIN });
    c = new Client(folio.url);
    await c.login(ADMIN.FOLIO_ADMIN_EMAIL, ADMIN.FOLIO_ADMIN_PASSWORD);
    const done = await until('done', async () => {
      const d = (await c.get(`/api/v3/documents/${id}/`)).body;
      return d.status_data === 2 ? d : undefined;
    }, 120_000);
    expect(done.number_of_pages).toBe(4);
    await folio.stop();
    const db = new BetterSqlite3(path.join(dataDir, 'folio.db'), { readonly: true });
    try {
      // The stopped run was handed back at a safe point: one attempt in all.
      expect(db.prepare("select attempts from jobs where kind = 'process-document'").pluck().get()).toBe(1);
    } finally {
      db.close();
    }
  });
});
