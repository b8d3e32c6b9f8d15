// Air-gapped: the whole workflow of a real `folio serve` process with outbound network blocked in it and in
// each of its worker threads (offlineGuard.cjs, by NODE_OPTIONS=--require), only loopback allowed. A
// scanned page is OCR'd, a born-digital PDF processed, an extraction AI trained and used; no connection or
// name lookup leaves the machine. Then a callback URL a user configures is the one thing that tries to.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, tempDir } from '../helpers/testServer.ts';
import { startFolio, type FolioProcess } from '../helpers/processes.ts';
import { created, makeTaxonomy, upload, type Taxonomy } from '../helpers/documentFixtures.ts';
import { linesPdf, pollAi, pollDocument } from '../helpers/aiFixtures.ts';
import { drawPage } from '../helpers/ocrPages.ts';

const GUARD = fileURLToPath(new URL('./offlineGuard.cjs', import.meta.url));
const ADMIN = { email: 'offline@test.local', password: 'offline-password-1' };

interface NetEntry {
  pid: number;
  threadId: number;
  kind: 'installed' | 'connect' | 'dns';
  host?: string;
  hostname?: string;
}

let folio: FolioProcess;
let dataDir: string;
let log: string;
let api: Client;
let t: Taxonomy;

const entries = (): NetEntry[] =>
  fs.existsSync(log) ? fs.readFileSync(log, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as NetEntry) : [];
const attempts = () => entries().filter((e) => e.kind !== 'installed');

const invoice = (n: number) => [
  `Rechnung Nr. ${5100 + n}`,
  `Rechnungsdatum: ${String(n + 3).padStart(2, '0')}.0${(n % 9) + 1}.2024`,
  `Gesamtbetrag: ${200 + 13 * n},${String(20 + n).slice(-2)} EUR`,
  'Zahlbar innerhalb von 14 Tagen',
];

async function annotatedInvoice(n: number): Promise<void> {
  const lines = invoice(n);
  const doc = await created(upload(api, { project: t.project, category: t.category, dataset_status: 2, sync: 'true' }, { name: `r${n}.pdf`, data: await linesPdf([lines]) }));
  expect(doc.status_data).toBe(2);
  for (const [label, text] of [[t.labels.date, lines[1].split(': ')[1]], [t.labels.total, lines[2].split(': ')[1].replace(' EUR', '')]] as const) {
    const found = await api.post(`/api/v3/documents/${doc.id}/search/`, { q: text });
    await created(api.post('/api/v3/annotations/', { document: doc.id, label, label_set: t.category, span: found.body.span, is_correct: true, revised: true }));
  }
}

beforeAll(async () => {
  dataDir = tempDir('folio-offline-');
  log = path.join(dataDir, 'net.log');
  folio = await startFolio({
    dataDir,
    env: { NODE_OPTIONS: `--require ${GUARD}`, FOLIO_NET_LOG: log, FOLIO_ADMIN_EMAIL: ADMIN.email, FOLIO_ADMIN_PASSWORD: ADMIN.password },
  });
  api = new Client(folio.url);
  await api.login(ADMIN.email, ADMIN.password);
  t = await makeTaxonomy(api, 'Offline');
}, 60_000);
afterAll(async () => {
  await folio?.stop();
});

describe('Folio with no network but loopback', () => {
  it('tells local scripts where its API is, in the data folder', () => {
    const instance = JSON.parse(fs.readFileSync(path.join(dataDir, 'folio.instance.json'), 'utf8'));
    expect(instance).toMatchObject({ pid: folio.child.pid, url: folio.url });
  });

  it('OCRs a scanned page', async () => {
    const page = await drawPage(
      [
        { text: 'Lieferschein 8841', x: 72, baselineFromTop: 120, size: 18 },
        { text: 'Empfänger: Muster GmbH, Hauptstraße 5', x: 72, baselineFromTop: 160, size: 14 },
      ],
      { dpi: 200 },
    );
    const doc = await created(upload(api, { project: t.project }, { name: 'scan.png', data: page.png, type: 'image/png' }));
    const done = await pollDocument(api, doc.id);
    expect(done.status_data).toBe(2);
    expect(done.text).toMatch(/Lieferschein\s+8841/);
    expect(done.text).toMatch(/Muster GmbH/);
  }, 120_000);

  it('processes a born-digital PDF', async () => {
    const doc = await created(upload(api, { project: t.project, sync: 'true' }, { name: 'text.pdf', data: await linesPdf([['Angebot 77', 'Gültig bis 30.06.2024']]) }));
    expect(doc.status_data).toBe(2);
    expect(doc.text).toContain('Angebot 77');
  });

  it('trains an extraction AI and extracts a new document with it', async () => {
    for (let n = 0; n < 6; n++) await annotatedInvoice(n);
    const start = await created(api.post('/api/v3/extraction-ais/', { category: t.category }));
    const ai = await pollAi(api, 'extraction-ais', start.id);
    expect(ai.status, ai.error).toBe('done');
    expect(ai.active).toBe(true);

    const later = await created(upload(api, { project: t.project, category: t.category }, { name: 'new.pdf', data: await linesPdf([invoice(20)]) }));
    const done = await pollDocument(api, later.id);
    const labels = done.annotation_sets.flatMap((s: any) => s.labels).filter((l: any) => l.annotations.length);
    expect(labels.map((l: any) => l.id)).toEqual(expect.arrayContaining([t.labels.date, t.labels.total]));
  }, 240_000);

  it('tried no connection and no name lookup beyond loopback, in any thread', () => {
    const installed = entries().filter((e) => e.kind === 'installed');
    // The guard ran in the process and in its worker threads (OCR, page rendering, training).
    expect(installed.some((e) => e.threadId === 0)).toBe(true);
    expect(new Set(installed.map((e) => e.threadId)).size).toBeGreaterThan(1);
    expect(attempts()).toEqual([]);
  });

  it('reaches out only where a user says so: a callback URL is tried, and refused here', async () => {
    await created(upload(api, { project: t.project, callback_url: 'http://203.0.113.7:8080/folio-hook' }, { name: 'cb.pdf', data: await linesPdf([['Callback 1']]) }));
    const deadline = Date.now() + 30_000;
    while (!attempts().length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(attempts().length).toBeGreaterThan(0);
    for (const a of attempts()) expect(a).toMatchObject({ kind: 'connect', host: '203.0.113.7' });
  }, 40_000);
});
