// npm run bench:api: throughput and latency of the hot API paths against a real `folio serve`
// process, with a bare Express route in its own process as the ceiling; then 50 uploads at once
// (born-digital and scanned, so OCR runs) with the document detail's latency measured meanwhile and the
// server's peak memory over the whole run. Loopback only, bounded runs. BENCH_UPLOADS sets the burst;
// BENCH_SERVER_NODE_ARGS passes node flags to the server ("--cpu-prof --cpu-prof-dir=/tmp/prof" to profile it).
import autocannon from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { appRoot } from '../../main/paths.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const ANNOTATIONS = 500;
const UPLOADS = Number(process.env.BENCH_UPLOADS ?? 50);

/** Peak resident memory of a process so far (Linux: VmHWM counts every thread of it). */
function peakRssMb(pid: number): number | undefined {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/**
 * UPLOADS uploads sent at once (every fourth a one-page scan, the rest born-digital), then the document
 * detail read in a loop until every upload is processed: its latency under that load, and how long the
 * burst took.
 */
async function uploadBurst(base: string, token: string, project: number, detailUrl: string) {
  const scan = await scannedPage();
  const files = await Promise.all(Array.from({ length: UPLOADS }, async (_, i) => {
    if (i % 4 === 3) return { name: `scan-${i}.pdf`, bytes: scan };
    const pdf = await PDFDocument.create();
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    pdf.addPage([595, 842]).drawText(`Burst document ${i}: total ${i},50 EUR`, { x: 72, y: 760, size: 14, font });
    return { name: `burst-${i}.pdf`, bytes: await pdf.save() };
  }));
  const started = performance.now();
  const ids = await Promise.all(files.map(async (f) => {
    const form = new FormData();
    form.set('project', String(project));
    form.set('data_file', new Blob([f.bytes as BlobPart], { type: 'application/pdf' }), f.name);
    return (await api(base, token, 'POST', '/api/v3/documents/', undefined, form)).id as number;
  }));
  const uploadedMs = performance.now() - started;
  const latencies: number[] = [];
  const auth = { Authorization: `Token ${token}` };
  let pending = ids.length;
  let r = 0;
  const reader = (async () => {
    while (pending > 0) {
      const t = performance.now();
      const res = await fetch(`${detailUrl}?burst=${r++}`, { headers: auth });
      await res.arrayBuffer();
      latencies.push(performance.now() - t);
    }
  })();
  while (pending > 0) {
    await new Promise((res) => setTimeout(res, 500));
    const list = await api(base, token, 'GET', `/api/v3/documents/?project=${project}&limit=1000&fields=id,status_data`);
    pending = list.results.filter((d: any) => ![2, 111].includes(d.status_data)).length;
  }
  await reader;
  latencies.sort((a, b) => a - b);
  return { uploadedMs, doneMs: performance.now() - started, p50: percentile(latencies, 50), p95: percentile(latencies, 95), samples: latencies.length };
}

/** A one-page image-only PDF (a 150 dpi grey scan of a few lines), so the burst includes OCR. */
async function scannedPage(): Promise<Uint8Array> {
  const sharp = (await import('sharp')).default;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1240" height="1754"><rect width="100%" height="100%" fill="white"/>${
    Array.from({ length: 12 }, (_, i) => `<text x="120" y="${200 + i * 60}" font-family="DejaVu Sans" font-size="34">Scanned line ${i + 1}: amount ${(i * 7.5).toFixed(2)} EUR</text>`).join('')
  }</svg>`;
  const jpg = await sharp(Buffer.from(svg)).grayscale().jpeg({ quality: 85 }).toBuffer();
  const pdf = await PDFDocument.create();
  const image = await pdf.embedJpg(jpg);
  pdf.addPage([595, 842]).drawImage(image, { x: 0, y: 0, width: 595, height: 842 });
  return pdf.save();
}

function waitForUrl(child: ChildProcess, pattern: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (d: Buffer) => {
      out += d.toString();
      const m = out.match(pattern);
      if (m) resolve(m[1]);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (d) => process.stderr.write(d));
    child.once('exit', (code) => reject(new Error(`process exited (${code}) before listening:\n${out}`)));
  });
}

async function api(base: string, token: string, method: string, url: string, body?: unknown, form?: FormData) {
  const res = await fetch(`${base}${url}`, {
    method,
    headers: { Authorization: `Token ${token}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
    body: form ?? (body ? JSON.stringify(body) : undefined),
  });
  const json = res.headers.get('content-type')?.includes('json') ? await res.json() : await res.text();
  if (res.status >= 300) throw new Error(`${method} ${url} -> ${res.status} ${JSON.stringify(json)}`);
  return json as any;
}

interface Figure {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

async function measure(name: string, opts: autocannon.Options): Promise<Figure> {
  const r = await autocannon({ connections: CONNECTIONS, duration: SECONDS, ...opts });
  const errors = r.errors + r.non2xx;
  return { name, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors };
}

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-bench-'));
  const env = { ...process.env, FOLIO_DATA_DIR: dataDir, FOLIO_PORT: '0', FOLIO_ADMIN_EMAIL: 'bench@folio.local', FOLIO_ADMIN_PASSWORD: 'bench-password' };
  const server = spawn(process.execPath, [...(process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean), path.join(appRoot, 'bin', 'folio.mjs'), 'serve'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const bare = spawn(
    process.execPath,
    ['-e', `const e=require('express');const a=e();a.get('/bare',(q,s)=>s.json({id:1,name:'bare'}));const l=a.listen(0,'127.0.0.1',()=>console.log('BARE http://127.0.0.1:'+l.address().port));`],
    { cwd: appRoot, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  try {
    const base = await waitForUrl(server, /running at (http:\/\/[^\s/]+)/);
    const bareUrl = await waitForUrl(bare, /BARE (http:\/\/\S+)/);
    const { token } = await (await fetch(`${base}/api/v3/auth/`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: 'bench@folio.local', password: 'bench-password' }),
    })).json() as { token: string };

    // A project with a category, 10 labels in a repeating label set, one document with 500 annotations.
    const project = await api(base, token, 'POST', '/api/v3/projects/', { name: 'bench' });
    const category = await api(base, token, 'POST', '/api/v3/categories/', { project: project.id, name: 'Invoice' });
    const labels: { id: number }[] = [];
    for (let i = 0; i < 10; i++) labels.push(await api(base, token, 'POST', '/api/v3/labels/', { project: project.id, name: `Label ${i}`, categories: [category.id] }));
    const lineItems = await api(base, token, 'POST', '/api/v3/label-sets/', {
      project: project.id, name: 'Line item', categories: [category.id], labels: labels.map((l) => l.id), has_multiple_sections: true,
    });
    const form = new FormData();
    form.set('project', String(project.id));
    form.set('category', String(category.id));
    // A page full of text: annotation spans take their text and offsets from the characters they enclose.
    const pdf = await PDFDocument.create();
    const page = pdf.addPage([595, 842]);
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    for (let line = 0; line < 60; line++) {
      page.drawText(`Line ${line + 1}: item ${1000 + line * 7} amount ${(line * 3.75).toFixed(2)} EUR reference R-${line * 131}`, { x: 40, y: 800 - line * 12, size: 9, font });
    }
    form.set('sync', 'true');
    form.set('data_file', new Blob([(await pdf.save()) as BlobPart], { type: 'application/pdf' }), 'bench.pdf');
    const doc = await api(base, token, 'POST', '/api/v3/documents/', undefined, form);
    // The annotation-create phase writes into a copy, so the detail measured later (and during the
    // burst) keeps its 500 annotations however long that phase runs.
    form.set('data_file', new Blob([(await pdf.save()) as BlobPart], { type: 'application/pdf' }), 'bench-writes.pdf');
    const scratch = await api(base, token, 'POST', '/api/v3/documents/', undefined, form);

    // Each annotation marks one character with a rectangle drawn a little around it, as a user would. A
    // number of places coprime to the 10 labels gives every (place, label) pair once in 10 * places requests.
    const boxes = Object.values((await api(base, token, 'GET', `/api/v3/documents/${doc.id}/bbox/`)).bbox) as { page_index: number; x0: number; x1: number; y0: number; y1: number }[];
    let places = boxes.length;
    while (places % 2 === 0 || places % 5 === 0) places--;
    if (places < 1500) throw new Error(`the bench document has ${boxes.length} characters, expected at least 1500`);
    const span = (i: number) => {
      const c = boxes[i % places];
      return [{ page_index: c.page_index, x0: c.x0 - 0.3, x1: c.x1 + 0.3, y0: c.y0 - 1, y1: c.y1 + 1 }];
    };
    let set: number | undefined;
    for (let i = 0; i < ANNOTATIONS; i++) {
      const label = labels[i % labels.length].id;
      const body = i % labels.length === 0 || set === undefined
        ? { document: doc.id, label, label_set: lineItems.id, span: span(i) }
        : { document: doc.id, label, annotation_set: set, span: span(i) };
      const a = await api(base, token, 'POST', '/api/v3/annotations/', body);
      set = a.annotation_set;
    }
    const detail = await api(base, token, 'GET', `/api/v3/documents/${doc.id}/`);
    const count = detail.annotation_sets.reduce((n: number, s: any) => n + s.labels.reduce((m: number, l: any) => m + l.annotations.length, 0), 0);
    if (count !== ANNOTATIONS) throw new Error(`document detail carries ${count} annotations, expected ${ANNOTATIONS}`);

    const auth = { Authorization: `Token ${token}` };
    let n = 0;
    const figures: Figure[] = [];
    figures.push(await measure('bare Express route (ceiling)', { url: `${bareUrl}/bare` }));
    figures.push(await measure(`document detail (${ANNOTATIONS} annotations)`, { url: `${base}/api/v3/documents/${doc.id}/`, headers: auth }));
    // A distinct query string per request misses the response cache: the cost of building the answer.
    let r = 0;
    figures.push(await measure('document detail, rebuilt every request', {
      url: `${base}/api/v3/documents/${doc.id}/`,
      headers: auth,
      requests: [{ setupRequest: (req) => ({ ...req, path: `/api/v3/documents/${doc.id}/?r=${r++}` }) }],
    }));
    figures.push(await measure('annotation list limit=1000', { url: `${base}/api/v3/annotations/?document=${doc.id}&limit=1000`, headers: auth }));
    figures.push(await measure('annotation create', {
      url: `${base}/api/v3/annotations/`,
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      requests: [
        {
          setupRequest: (req) => {
            // Every request labels a new position: the same text twice with one label is refused.
            const i = ANNOTATIONS + n++;
            req.body = JSON.stringify({ document: scratch.id, label: labels[i % labels.length].id, label_set: lineItems.id, span: span(i + 10_000) });
            return req;
          },
        },
      ],
    }));

    const burst = await uploadBurst(base, token, project.id, `${base}/api/v3/documents/${doc.id}/`);
    const peakMb = peakRssMb(server.pid!);

    const ceiling = figures[0].rps;
    console.log(`\nFolio API benchmark: ${SECONDS}s per route, ${CONNECTIONS} connections, loopback, ${os.cpus().length} cores, Node ${process.version}`);
    console.log('route'.padEnd(42), 'req/s'.padStart(9), 'p50 ms'.padStart(8), 'p99 ms'.padStart(8), 'of bare'.padStart(8), 'errors'.padStart(7));
    for (const f of figures) {
      console.log(f.name.padEnd(42), f.rps.toFixed(0).padStart(9), f.p50.toFixed(1).padStart(8), f.p99.toFixed(1).padStart(8), `${((f.rps / ceiling) * 100).toFixed(0)}%`.padStart(8), String(f.errors).padStart(7));
    }
    const d = figures[1];
    console.log(`\nAim: document detail p50 < 10 ms (${d.p50.toFixed(1)} ms: ${d.p50 < 10 ? 'met' : 'NOT met'}), at least 1/3 of the bare route's throughput (${((d.rps / ceiling) * 100).toFixed(0)}%: ${d.rps >= ceiling / 3 ? 'met' : 'NOT met'}).`);
    console.log(`\n${UPLOADS} uploads at once (every fourth a scan): all answered in ${(burst.uploadedMs / 1000).toFixed(1)} s, all processed in ${(burst.doneMs / 1000).toFixed(1)} s; document detail meanwhile p50 ${burst.p50.toFixed(1)} ms, p95 ${burst.p95.toFixed(1)} ms (${burst.samples} reads); server peak RSS over the run ${peakMb === undefined ? 'unknown (no /proc)' : `${peakMb.toFixed(0)} MB`}; load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}.`);
    console.log(`Aim: detail p95 under the burst < 100 ms (${burst.p95 < 100 ? 'met' : 'NOT met'}), peak memory < 1 GB (${peakMb !== undefined && peakMb < 1024 ? 'met' : 'NOT met'}).`);
    if (figures.some((f) => f.errors > 0)) process.exitCode = 1;
  } finally {
    server.kill('SIGTERM');
    bare.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 300));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
