// npm run bench:latency: the time from dropping scans in to reviewing them (issue 27), on one `folio serve`
// (SQLite, the compiled program, FOLIO_OCR_WORKERS=2 on 2 cores) driven over HTTP as a reviewer's scripts
// and window drive it. Real receipts from ../shared/datasets/sroie-dev (development receipts 1-199 only;
// never the held-back or sealed ones), uploaded as the JPEG photos they are.
//
// First a receipt project's extraction AI is trained on 10 labelled receipts (so that "ready for review"
// includes categorization's and extraction's work, as for a reviewer's project); every batch goes into it.
// 1. A batch: 20 receipts uploaded at once (async). For each document, from the end of its processing
//    (OCR, pages, searchable PDF: its process-document job) to "ready for review" (Done: the end of its
//    analysis job), and from upload to ready for the first and the last. Aim: under 5 s from OCR end for
//    every document. Baseline beside it: one receipt uploaded alone (upload to ready).
// 2. The same batch with faults outside Folio: every upload has a completion callback to one of 5 receivers
//    that stall 30 s (then answer 503, so the deliveries are retried), and an assignee whose email goes to
//    an SMTP server that accepts the connection and never answers. Aim: within 1.2x of batch 1.
// 3. A sync upload of one receipt while another project holds a backlog of 200 uploads, against the same
//    upload on the idle server. Aim: within 2x of idle plus one page's OCR (the page the document worker
//    is reading when the upload arrives).
// The times come from the server's own job records (its SQLite file, read-only, after each part) and the
// documents' upload times; the waits are printed with the CPU load of the machine (uptime) at the start.
// BENCH_LATENCY_BATCH (20) and BENCH_LATENCY_BACKLOG (200) change the sizes; BENCH_LATENCY_FAULTS=0 skips 2.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { repoRoot, startFolio } from '../helpers/processes.ts';
import { BENCH_ADMIN, percentile } from '../helpers/benchClient.ts';
import { Client } from '../helpers/testServer.ts';
import { trainExtractionAi } from '../helpers/payslipExtraction.ts';
import { readReceiptImage, receiptNumbers, receiptProject, uploadLabelledReceipt } from '../helpers/receipts.ts';

const BATCH = Number(process.env.BENCH_LATENCY_BATCH ?? 20);
const BACKLOG = Number(process.env.BENCH_LATENCY_BACKLOG ?? 200);
const FAULTS = process.env.BENCH_LATENCY_FAULTS !== '0';
const READY_AIM_S = 5;
const FAULT_AIM = 1.2;
const STALL_MS = 30_000;
const RECEIVERS = 5;
const TRAINING_RECEIPTS = 10;

/** Development receipts only: below the sealed range 200-249 (receiptNumbers already leaves the held-back ones out). */
const RECEIPTS = receiptNumbers().filter((n) => n < 200);

interface Timing {
  id: number;
  uploaded: number;
  read: number;
  ready: number;
}

const ms = (iso: string) => Date.parse(iso);
const s = (x: number) => (x / 1000).toFixed(1);
const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');

/** Each document's upload, end of processing and end of analysis, from the server's job records. */
function timings(dataDir: string, ids: number[]): Timing[] {
  const db = new Database(path.join(dataDir, 'folio.db'), { readonly: true, fileMustExist: true });
  try {
    const job = db.prepare<[number, string], { finished_at: string | null }>(`select finished_at from jobs where document_id = ? and kind = ? and state = 'done' order by id desc limit 1`);
    const doc = db.prepare<[number], { created_at: string }>('select created_at from documents where id = ?');
    return ids.map((id) => {
      const read = job.get(id, 'process-document')?.finished_at;
      const ready = job.get(id, 'analyze-document')?.finished_at;
      if (!read || !ready) throw new Error(`document ${id} has no finished processing or analysis`);
      return { id, uploaded: ms(doc.get(id)!.created_at), read: ms(read), ready: ms(ready) };
    });
  } finally {
    db.close();
  }
}

/** Where a receipt goes: a project, and its category when the project has one. */
interface Target {
  project: number;
  category?: number;
}

async function uploadReceipt(c: Client, to: Target, n: number, fields: Record<string, string> = {}): Promise<number> {
  const form = new FormData();
  form.set('project', String(to.project));
  if (to.category !== undefined) form.set('category', String(to.category));
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  form.set('data_file', new Blob([readReceiptImage(n) as BlobPart], { type: 'image/jpeg' }), `${String(n).padStart(3, '0')}.jpg`);
  const r = await c.request('POST', '/api/v3/documents/', { raw: { data: form } });
  if (r.status !== 201) throw new Error(`upload of receipt ${n}: ${r.status} ${r.text}`);
  return r.body.id as number;
}

/** Waits until every document is Done (status 2); throws on a failed one. */
async function untilReady(c: Client, project: number, ids: number[]): Promise<void> {
  const wanted = new Set(ids);
  for (;;) {
    const list = (await c.get(`/api/v3/documents/?project=${project}&limit=1000&fields=id,status_data,status_reason`)).body;
    const mine = (list.results as { id: number; status_data: number; status_reason?: string }[]).filter((d) => wanted.has(d.id));
    const failed = mine.find((d) => d.status_data === 111);
    if (failed) throw new Error(`document ${failed.id} was not processed: ${failed.status_reason}`);
    if (mine.length === wanted.size && mine.every((d) => d.status_data === 2)) return;
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Receivers that hold every callback for 30 s and then answer 503 (a slow webhook that is failing). */
async function stallingReceivers(): Promise<{ urls: string[]; received: () => number; close(): Promise<void> }> {
  let received = 0;
  const servers: http.Server[] = [];
  const urls: string[] = [];
  for (let i = 0; i < RECEIVERS; i++) {
    const server = http.createServer((req, res) => {
      received++;
      req.resume();
      const t = setTimeout(() => res.writeHead(503, { 'Retry-After': '5' }).end('busy'), STALL_MS);
      res.on('close', () => clearTimeout(t));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    servers.push(server);
    urls.push(`http://127.0.0.1:${(server.address() as net.AddressInfo).port}/hook`);
  }
  return {
    urls,
    received: () => received,
    close: async () => {
      for (const server of servers) {
        server.closeAllConnections();
        await new Promise((r) => server.close(r));
      }
    },
  };
}

/** An SMTP server that accepts connections and never says a word (no greeting). */
async function silentSmtp(): Promise<{ port: number; connections: () => number; close(): Promise<void> }> {
  let connections = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as net.AddressInfo).port,
    connections: () => connections,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((r) => server.close(r));
    },
  };
}

interface BatchFigures {
  waitMax: number;
  waitMedian: number;
  first: number;
  last: number;
}

function batchFigures(t: Timing[]): BatchFigures {
  const waits = t.map((d) => d.ready - d.read).sort((a, b) => a - b);
  const start = Math.min(...t.map((d) => d.uploaded));
  const ready = t.map((d) => d.ready - start).sort((a, b) => a - b);
  return { waitMax: waits.at(-1)!, waitMedian: percentile(waits, 50), first: ready[0], last: ready.at(-1)! };
}

async function main(): Promise<void> {
  if (RECEIPTS.length < BATCH) throw new Error(`Only ${RECEIPTS.length} development receipts in ../shared/datasets/sroie-dev.`);
  console.log(`bench:latency on ${os.cpus().length} cores, load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}; batch ${BATCH}, backlog ${BACKLOG}`);
  execFileSync(process.execPath, [path.join(repoRoot, 'scripts', 'build-main.mjs')], { stdio: 'inherit' });
  const smtp = await silentSmtp();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-latency-'));
  const folio = await startFolio({
    dataDir,
    env: { ...BENCH_ADMIN, FOLIO_RUN: 'compiled', FOLIO_OCR_WORKERS: '2', FOLIO_SYNC_TIMEOUT_S: '1800', FOLIO_SMTP_URL: `smtp://127.0.0.1:${smtp.port}` },
  });
  try {
    const c = new Client(folio.url);
    await c.login(BENCH_ADMIN.FOLIO_ADMIN_EMAIL, BENCH_ADMIN.FOLIO_ADMIN_PASSWORD);
    const project = async (name: string): Promise<Target> => ({ project: (await c.post('/api/v3/projects/', { name })).body.id as number });
    const batchReceipts = RECEIPTS.slice(0, BATCH);

    // The receipts' extraction AI (its training uploads also warm the OCR workers).
    const receipts = await receiptProject(c, 'Receipts');
    const ai: Target = { project: receipts.project, category: receipts.category };
    for (const n of RECEIPTS.slice(BATCH, BATCH + TRAINING_RECEIPTS)) await uploadLabelledReceipt(c, receipts.project, receipts.category, receipts.labels, n, 2);
    const trained = await trainExtractionAi(c, receipts.category, 600_000);
    if (trained.status !== 'done') throw new Error(`training failed: ${JSON.stringify(trained)}`);
    console.log(`extraction AI trained on ${TRAINING_RECEIPTS} receipts (${Number(trained.training_seconds).toFixed(1)} s)`);

    const aloneId = await uploadReceipt(c, ai, batchReceipts[0]);
    await untilReady(c, ai.project, [aloneId]);
    const [one] = timings(dataDir, [aloneId]);
    const aloneReady = one.ready - one.uploaded;
    // One page's OCR: the receipt's processing on the idle server.
    const pageOcr = one.read - one.uploaded;

    // 1. A batch, uploaded at once.
    const batchIds = await Promise.all(batchReceipts.map((n) => uploadReceipt(c, ai, n)));
    await untilReady(c, ai.project, batchIds);
    const batch = batchFigures(timings(dataDir, batchIds));

    // 2. The same with receivers and a mail server that never answer.
    let faults: BatchFigures | undefined;
    let faultNotes = '';
    if (FAULTS) {
      const receivers = await stallingReceivers();
      try {
        const ids = await Promise.all(
          batchReceipts.map((n, i) => uploadReceipt(c, ai, n, { callback_url: receivers.urls[i % RECEIVERS], assignee: BENCH_ADMIN.FOLIO_ADMIN_EMAIL })),
        );
        await untilReady(c, ai.project, ids);
        faults = batchFigures(timings(dataDir, ids));
        faultNotes = `${receivers.received()} callback requests held, ${smtp.connections()} SMTP connections never greeted`;
      } finally {
        await receivers.close();
      }
    }

    // 3. A sync upload beside another project's backlog, against the same on the idle server.
    const syncUpload = async () => {
      const started = performance.now();
      const id = await uploadReceipt(c, ai, batchReceipts[1], { sync: 'true' });
      const took = performance.now() - started;
      const status = (await c.get(`/api/v3/documents/${id}/`)).body.status_data;
      if (status !== 2) throw new Error(`the sync upload answered in status ${status}, not Done`);
      return took;
    };
    const idle = await syncUpload();
    const backlogProject = await project('Backlog');
    for (let i = 0; i < BACKLOG; i++) await uploadReceipt(c, backlogProject, RECEIPTS[i % RECEIPTS.length]);
    const loaded = await syncUpload();
    const list = (await c.get(`/api/v3/documents/?project=${backlogProject.project}&limit=1000&fields=id,status_data`)).body;
    const backlogLeft = (list.results as { status_data: number }[]).filter((d) => d.status_data !== 2).length;

    console.log(`\n1. ${BATCH} receipts uploaded at once (async): from OCR end to ready for review`);
    console.log(`   longest wait ${s(batch.waitMax)} s, median ${s(batch.waitMedian)} s; aim < ${READY_AIM_S} s for every document: ${verdict(batch.waitMax < READY_AIM_S * 1000)}`);
    console.log(`   upload to ready: first ${s(batch.first)} s, last ${s(batch.last)} s (baseline: one receipt alone ${s(aloneReady)} s, of which processing ${s(pageOcr)} s)`);
    if (faults) {
      const ratio = Math.max(faults.last / batch.last, faults.first / Math.max(1, batch.first));
      console.log(`\n2. The same with ${RECEIVERS} receivers stalling ${STALL_MS / 1000} s and an SMTP server that never answers (${faultNotes})`);
      console.log(`   longest wait ${s(faults.waitMax)} s, median ${s(faults.waitMedian)} s (without faults ${s(batch.waitMax)} s, ${s(batch.waitMedian)} s)`);
      console.log(`   upload to ready: first ${s(faults.first)} s, last ${s(faults.last)} s (without faults ${s(batch.first)} s, ${s(batch.last)} s): ${ratio.toFixed(2)}x; aim within ${FAULT_AIM}x: ${verdict(ratio <= FAULT_AIM)}`);
    }
    const bound = 2 * idle + pageOcr;
    console.log(`\n3. A sync 1-page upload while another project holds a backlog of ${BACKLOG} uploads (${backlogLeft} still waiting after it)`);
    console.log(`   ${s(loaded)} s against ${s(idle)} s on the idle server; aim within 2x idle + one page's OCR = ${s(bound)} s: ${verdict(loaded <= bound)}`);
  } finally {
    await folio.stop();
    await smtp.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
