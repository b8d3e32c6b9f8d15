// npm run bench:pipeline: a real `folio serve` process takes a 10-page born-digital PDF and a 10-page
// 300 dpi scan (with 1 and with 2 OCR workers), and a 100-page scan for peak memory; the native
// tesseract CLI reads the same scan pages as the ceiling. Prints seconds, pages per minute, peak memory,
// and what reading a 150-page born-digital PDF's text takes from the event loop, in the PDF workers and on
// the main thread. BENCH_LARGE_PAGES=0 skips the 100-page run.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { promisify } from 'node:util';
import { PDFDocument } from 'pdf-lib';
import { appRoot } from '../../main/paths.ts';
import { bundledTraineddata } from '../../main/pipeline/languages.ts';
import { extractPdfText } from '../../main/pipeline/pdfText.ts';
import { extractPdfTextInThread } from '../../main/pipeline/pdfTextGeometry.ts';
import { measureEventLoop, type LoopUse } from '../helpers/eventLoop.ts';
import { bodyText, bornDigitalPdf, drawPage } from '../helpers/ocrPages.ts';

const run = promisify(execFile);
const LARGE_PAGES = Number(process.env.BENCH_LARGE_PAGES ?? 100);
const PAGES = 10;
const READ_PAGES = 150;

interface Server {
  url: string;
  child: ChildProcess;
  token: string;
}

async function startServer(dataDir: string, ocrWorkers: number): Promise<Server> {
  const env = {
    ...process.env,
    FOLIO_DATA_DIR: dataDir,
    FOLIO_PORT: '0',
    FOLIO_OCR_WORKERS: String(ocrWorkers),
    FOLIO_ADMIN_EMAIL: 'bench@folio.local',
    FOLIO_ADMIN_PASSWORD: 'bench-password',
    FOLIO_SYNC_TIMEOUT_S: '1800',
  };
  const child = spawn(process.execPath, [path.join(appRoot, 'bin', 'folio.mjs'), 'serve'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /running at (http:\/\/[^\s/]+)/.exec(out);
      if (m) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`folio serve exited (${code}): ${out}`)));
  });
  const login = await fetch(`${url}/api/v3/auth/`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: 'bench@folio.local', password: 'bench-password' }),
  });
  return { url, child, token: ((await login.json()) as { token: string }).token };
}

async function api(s: Server, method: string, url: string, body?: unknown): Promise<any> {
  const r = await fetch(`${s.url}${url}`, {
    method,
    headers: { Authorization: `Token ${s.token}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return r.json();
}

/** Uploads and waits until processing ended; returns the seconds from the first byte sent to done. */
async function timedUpload(s: Server, project: number, name: string, pdf: Uint8Array): Promise<number> {
  const form = new FormData();
  form.set('project', String(project));
  form.set('data_file', new Blob([pdf as BlobPart], { type: 'application/pdf' }), name);
  const t = performance.now();
  const r = await fetch(`${s.url}/api/v3/documents/`, { method: 'POST', headers: { Authorization: `Token ${s.token}` }, body: form });
  const { id } = (await r.json()) as { id: number };
  // Polled rather than sync=true: a long scan outlasts HTTP clients' default time-outs.
  for (;;) {
    const doc = await api(s, 'GET', `/api/v3/documents/${id}/?fields=status_data,status_reason`);
    if (doc.status_data === 2) return (performance.now() - t) / 1000;
    if (doc.status_data === 111) throw new Error(`${name} was not processed: ${doc.status_reason}`);
    await new Promise((res) => setTimeout(res, 50));
  }
}

/** Peak resident memory of a process so far (VmHWM), in MB. */
function peakMb(pid: number): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

async function stop(s: Server): Promise<void> {
  s.child.kill('SIGTERM');
  await new Promise((r) => s.child.once('exit', r));
}

async function scanPdf(pngs: Buffer[]): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  for (const png of pngs) {
    const image = await pdf.embedPng(png);
    pdf.addPage([595.28, 841.89]).drawImage(image, { x: 0, y: 0, width: 595.28, height: 841.89 });
  }
  return pdf.save();
}

async function nativeSecondsPerPage(files: string[], dir: string): Promise<number | string> {
  try {
    await run('tesseract', ['--version']);
  } catch {
    return 'not installed';
  }
  const tessdata = path.join(dir, 'tessdata');
  fs.mkdirSync(tessdata, { recursive: true });
  const eng = bundledTraineddata().find((t) => t.code === 'eng')!;
  const model = fs.readFileSync(eng.file);
  fs.writeFileSync(path.join(tessdata, 'eng.traineddata'), eng.file.endsWith('.gz') ? zlib.gunzipSync(model) : model);
  const env = { ...process.env, OMP_THREAD_LIMIT: '1' };
  await run('tesseract', [files[0], '-', '--tessdata-dir', tessdata, '-l', 'eng', '--oem', '1', '--psm', '3', '--dpi', '300'], { env });
  const t = performance.now();
  for (const f of files) await run('tesseract', [f, '-', '--tessdata-dir', tessdata, '-l', 'eng', '--oem', '1', '--psm', '3', '--dpi', '300'], { env, maxBuffer: 1 << 24 });
  return (performance.now() - t) / 1000 / files.length;
}

/** The event loop while this process reads a long born-digital PDF's text: in the PDF workers (as the
 * pipeline does) and on the main thread (as before), both warm. */
async function readingFigures(): Promise<string[]> {
  const pdf = await bornDigitalPdf(READ_PAGES);
  const one = await bornDigitalPdf(1);
  await extractPdfText(one);
  await extractPdfTextInThread(one);
  const line = (where: string, use: LoopUse<unknown>) =>
    `event loop max delay while reading ${READ_PAGES} born-digital pages ${where}: ${use.maxDelayMs.toFixed(0)} ms ` +
    `(busy ${(use.utilization * 100).toFixed(0)} % of ${(use.ms / 1000).toFixed(2)} s, at most ${use.longestBusyMs.toFixed(0)} ms at once)`;
  return [line('in the PDF workers', await measureEventLoop(() => extractPdfText(pdf))), line('on the main thread', await measureEventLoop(() => extractPdfTextInThread(pdf)))];
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-pipeline-bench-'));
  try {
    console.log(`Generating ${PAGES}-page documents (and ${LARGE_PAGES} scan pages)...`);
    const digital = await bornDigitalPdf(PAGES);
    const pngs: Buffer[] = [];
    for (let i = 0; i < Math.max(PAGES, LARGE_PAGES); i++) pngs.push((await drawPage(bodyText(100 + (i % 20)), { dpi: 300 })).png);
    const scan = await scanPdf(pngs.slice(0, PAGES));
    const files = pngs.slice(0, PAGES).map((png, i) => {
      const f = path.join(dir, `page-${i + 1}.png`);
      fs.writeFileSync(f, png);
      return f;
    });
    const warmDigital = await bornDigitalPdf(1);
    const warmScan = await scanPdf(pngs.slice(0, 1));

    const rows: { name: string; seconds: number; pages: number; peak: number }[] = [];
    for (const workers of [1, 2]) {
      const s = await startServer(path.join(dir, `data-${workers}`), workers);
      try {
        const project = (await api(s, 'POST', '/api/v3/projects/', { name: 'bench', ocr_languages: ['eng'] })).id;
        // Warm-up: workers, models and pdf.js load once per process.
        await timedUpload(s, project, 'warm.pdf', warmDigital);
        await timedUpload(s, project, 'warm-scan.pdf', warmScan);
        if (workers === 1) rows.push({ name: `born-digital PDF, ${PAGES} pages`, seconds: await timedUpload(s, project, 'digital.pdf', digital), pages: PAGES, peak: peakMb(s.child.pid!) });
        rows.push({ name: `300 dpi scan, ${PAGES} pages, ${workers} OCR worker${workers > 1 ? 's' : ''}`, seconds: await timedUpload(s, project, 'scan.pdf', scan), pages: PAGES, peak: peakMb(s.child.pid!) });
      } finally {
        await stop(s);
      }
    }
    if (LARGE_PAGES > 0) {
      const large = await scanPdf(pngs.slice(0, LARGE_PAGES));
      pngs.length = 0;
      const s = await startServer(path.join(dir, 'data-large'), 2);
      try {
        const project = (await api(s, 'POST', '/api/v3/projects/', { name: 'bench', ocr_languages: ['eng'] })).id;
        rows.push({ name: `300 dpi scan, ${LARGE_PAGES} pages, 2 OCR workers (cold)`, seconds: await timedUpload(s, project, 'large.pdf', large), pages: LARGE_PAGES, peak: peakMb(s.child.pid!) });
      } finally {
        await stop(s);
      }
    }
    const native = await nativeSecondsPerPage(files, dir);
    const reading = await readingFigures();

    console.log(`\nFolio pipeline benchmark: ${os.cpus().length} cores, Node ${process.version}, upload to done, warm server (the 100-page run is cold)`);
    console.log('document'.padEnd(52), 'seconds'.padStart(8), 's/page'.padStart(8), 'pages/min'.padStart(10), 'peak MB'.padStart(8));
    for (const r of rows) {
      console.log(r.name.padEnd(52), r.seconds.toFixed(2).padStart(8), (r.seconds / r.pages).toFixed(2).padStart(8), ((r.pages / r.seconds) * 60).toFixed(1).padStart(10), r.peak.toFixed(0).padStart(8));
    }
    const one = rows.find((r) => r.name.includes('1 OCR worker'))!;
    const two = rows.find((r) => r.name.includes(`${PAGES} pages, 2 OCR`))!;
    if (typeof native === 'number') {
      console.log('native tesseract CLI (OMP_THREAD_LIMIT=1, same model), OCR only'.padEnd(52), (native * PAGES).toFixed(2).padStart(8), native.toFixed(2).padStart(8), (60 / native).toFixed(1).padStart(10));
    } else console.log(`native tesseract CLI: ${native} (apt-get install tesseract-ocr)`);
    const digitalRow = rows[0];
    console.log(`\nAims: born-digital ${PAGES} pages under 2 s: ${digitalRow.seconds.toFixed(2)} s (${digitalRow.seconds < 2 ? 'met' : 'NOT met'}).`);
    if (typeof native === 'number') {
      const ratio = one.seconds / PAGES / native;
      console.log(`      one worker within 1.3x of the CLI per page (whole pipeline vs OCR alone): ${ratio.toFixed(2)}x (${ratio <= 1.3 ? 'met' : 'NOT met'}).`);
    }
    const speedup = one.seconds / two.seconds;
    console.log(`      two workers at least 1.6x faster than one: ${speedup.toFixed(2)}x (${speedup >= 1.6 ? 'met' : 'NOT met'}).`);
    const large = rows.find((r) => r.pages === LARGE_PAGES && LARGE_PAGES > 0);
    if (large) console.log(`      peak memory under 1.5 GB on a ${LARGE_PAGES}-page scan: ${large.peak.toFixed(0)} MB (${large.peak < 1536 ? 'met' : 'NOT met'}).`);
    console.log(`\n${reading.join('\n')}`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
