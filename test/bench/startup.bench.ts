// npm run bench:startup: what the compiled main process (dist/main, scripts/build-main.mjs) saves over
// running the TypeScript sources through tsx. Builds dist/main, then launches `folio serve` (bin/folio.mjs,
// FOLIO_RUN=compiled or source) on a fresh data folder and port 0, BENCH_RUNS times each (default 5),
// alternating, and measures per launch:
// - time from spawn to the first successful answer (a login, POST /api/v3/auth/: HTTP, the database,
//   the password check), and the resident memory then;
// - one born-digital PDF uploaded and processed (which starts PDF worker threads: from the sources each
//   registers tsx again), its time and the memory after it, and the peak.
// Prints medians (and the spread) per mode and the ratio source / compiled. Loopback only, bounded waits.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { appRoot } from '../../main/paths.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const ADMIN = { email: 'bench@startup.local', password: 'startup-password-1' };
const MODES = ['source', 'compiled'] as const;
type Mode = (typeof MODES)[number];

interface Launch {
  answerMs: number;
  rssStartMb: number;
  pdfMs: number;
  rssPdfMb: number;
  peakMb: number;
}

/** A line of /proc/<pid>/status in MB (Linux): VmRSS now, VmHWM the peak. */
function procMb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!m) throw new Error(`no ${field} for process ${pid}`);
  return Number(m[1]) / 1024;
}

async function until<T>(what: string, timeoutMs: number, fn: () => Promise<T | undefined>): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn().catch(() => undefined);
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

async function launch(mode: Mode, pdf: Uint8Array): Promise<Launch> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-startup-'));
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('FOLIO_')));
  const started = performance.now();
  const child = spawn(process.execPath, [path.join(appRoot, 'bin', 'folio.mjs'), 'serve'], {
    cwd: appRoot,
    env: { ...env, FOLIO_RUN: mode, FOLIO_DATA_DIR: dataDir, FOLIO_PORT: '0', FOLIO_HOST: '127.0.0.1', FOLIO_ADMIN_EMAIL: ADMIN.email, FOLIO_ADMIN_PASSWORD: ADMIN.password },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  try {
    // Port 0: the address is known once printed; the answer is timed from the spawn.
    const base = await until('the URL', 60_000, async () => /Folio is running at (http:\/\/\S+?)\/? /.exec(out)?.[1]);
    const token = await until('a login', 60_000, async () => {
      const r = await fetch(`${base}/api/v3/auth/`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ username: ADMIN.email, password: ADMIN.password }) });
      return r.ok ? ((await r.json()) as { token: string }).token : undefined;
    });
    const answerMs = performance.now() - started;
    const rssStartMb = procMb(child.pid!, 'VmRSS');

    const auth = { Authorization: `Token ${token}` };
    const project = ((await (await fetch(`${base}/api/v3/projects/`, { method: 'POST', headers: { ...auth, 'Content-Type': 'application/json' }, body: JSON.stringify({ name: 'Startup' }) })).json()) as { id: number }).id;
    const form = new FormData();
    form.set('project', String(project));
    form.set('data_file', new Blob([pdf as BlobPart], { type: 'application/pdf' }), 'startup.pdf');
    const uploaded = performance.now();
    const id = ((await (await fetch(`${base}/api/v3/documents/`, { method: 'POST', headers: auth, body: form })).json()) as { id: number }).id;
    await until('the PDF processed', 120_000, async () => {
      const d = (await (await fetch(`${base}/api/v3/documents/${id}/`, { headers: auth })).json()) as { status_data: number; status_reason?: string };
      if (d.status_data === 111) throw new Error(`the PDF failed: ${d.status_reason}`);
      return d.status_data === 2 ? true : undefined;
    });
    const pdfMs = performance.now() - uploaded;
    return { answerMs, rssStartMb, pdfMs, rssPdfMb: procMb(child.pid!, 'VmRSS'), peakMb: procMb(child.pid!, 'VmHWM') };
  } catch (err) {
    throw new Error(`${mode}: ${(err as Error).message}\n${out}`);
  } finally {
    const exited = new Promise((resolve) => child.once('close', resolve));
    child.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const spread = (xs: number[], digits = 0) => `${median(xs).toFixed(digits)} (${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)})`;

console.log('Building dist/main (scripts/build-main.mjs)…');
execFileSync(process.execPath, [path.join(appRoot, 'scripts', 'build-main.mjs')], { stdio: 'inherit' });
const doc = await PDFDocument.create();
doc.addPage([595, 842]).drawText('Startup bench: invoice 2024-001, total 12,50 EUR', { x: 72, y: 760, size: 14, font: await doc.embedFont(StandardFonts.Helvetica) });
const pdf = await doc.save();

const results: Record<Mode, Launch[]> = { source: [], compiled: [] };
for (let i = 0; i < RUNS; i++) {
  // Alternating, and each pair in a different order: neither mode always gets the warmer disk cache.
  for (const mode of i % 2 ? [...MODES].reverse() : MODES) {
    const r = await launch(mode, pdf);
    results[mode].push(r);
    console.log(`  run ${i + 1} ${mode.padEnd(8)} answer ${r.answerMs.toFixed(0)} ms, ${r.rssStartMb.toFixed(0)} MB; PDF ${r.pdfMs.toFixed(0)} ms, ${r.rssPdfMb.toFixed(0)} MB, peak ${r.peakMb.toFixed(0)} MB`);
  }
}

const columns: [string, keyof Launch, string][] = [
  ['spawn → first answer', 'answerMs', 'ms'],
  ['RSS after start', 'rssStartMb', 'MB'],
  ['first PDF processed', 'pdfMs', 'ms'],
  ['RSS after the PDF', 'rssPdfMb', 'MB'],
  ['peak RSS', 'peakMb', 'MB'],
];
console.log(`\nfolio serve, ${RUNS} launches each (median, min–max), node ${process.version}, ${os.availableParallelism()} cores\n`);
console.log(`| ${'measure'.padEnd(26)} | ${'source (tsx)'.padEnd(20)} | ${'compiled (dist/main)'.padEnd(20)} | source / compiled |`);
console.log(`| ${'-'.repeat(26)} | ${'-'.repeat(20)} | ${'-'.repeat(20)} | ----------------- |`);
for (const [label, key, unit] of columns) {
  const [s, c] = MODES.map((m) => results[m].map((r) => r[key]));
  console.log(`| ${`${label} (${unit})`.padEnd(26)} | ${spread(s).padEnd(20)} | ${spread(c).padEnd(20)} | ${(median(s) / median(c)).toFixed(2).padStart(17)} |`);
}
