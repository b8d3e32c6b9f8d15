// For benchmarks that drive a real `folio` process over HTTP (test/bench/scale.bench.ts): sign in as the
// administrator, call the API with the token, upload PDFs, wait for documents to be processed, and make
// the document whose detail the latency loops read (a processed born-digital page with a few hundred
// annotations in a repeating label set, each marking one character, as a reviewer would).
import { PDFDocument, StandardFonts } from 'pdf-lib';

/** The administrator every bench server is started with (FOLIO_ADMIN_EMAIL / FOLIO_ADMIN_PASSWORD). */
export const BENCH_ADMIN = { FOLIO_ADMIN_EMAIL: 'bench@folio.local', FOLIO_ADMIN_PASSWORD: 'bench-password' };

export interface BenchClient {
  base: string;
  token: string;
  /** JSON in and out; throws with the answer on any status of 300 or more. */
  call(method: string, url: string, body?: unknown): Promise<any>;
  /** Uploads one PDF to `project` (not waiting for processing); returns the document's id. */
  upload(project: number, name: string, pdf: Uint8Array, fields?: Record<string, string>): Promise<number>;
}

export async function signIn(base: string): Promise<BenchClient> {
  const res = await fetch(`${base}/api/v3/auth/`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: BENCH_ADMIN.FOLIO_ADMIN_EMAIL, password: BENCH_ADMIN.FOLIO_ADMIN_PASSWORD }),
  });
  if (res.status !== 200) throw new Error(`sign-in at ${base} -> ${res.status} ${await res.text()}`);
  const { token } = (await res.json()) as { token: string };
  const send = async (method: string, url: string, body?: BodyInit, type?: string) => {
    const r = await fetch(`${base}${url}`, { method, headers: { Authorization: `Token ${token}`, ...(type ? { 'Content-Type': type } : {}) }, body });
    const text = await r.text();
    if (r.status >= 300) throw new Error(`${method} ${url} -> ${r.status} ${text}`);
    return text ? JSON.parse(text) : undefined;
  };
  return {
    base,
    token,
    call: (method, url, body) => send(method, url, body === undefined ? undefined : JSON.stringify(body), body === undefined ? undefined : 'application/json'),
    async upload(project, name, pdf, fields = {}) {
      const form = new FormData();
      form.set('project', String(project));
      for (const [k, v] of Object.entries(fields)) form.set(k, v);
      form.set('data_file', new Blob([pdf as BlobPart], { type: 'application/pdf' }), name);
      return ((await send('POST', '/api/v3/documents/', form)) as { id: number }).id;
    },
  };
}

/**
 * Polls the project's document list until none of `ids` is still in processing; throws when one failed
 * (status 111) or when `timeoutMs` passes. Resolves at the first poll that finds all of them done.
 */
export async function waitUntilProcessed(c: BenchClient, project: number, ids: number[], { pollMs = 200, timeoutMs = 3_600_000 } = {}): Promise<void> {
  const wanted = new Set(ids);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const list = await c.call('GET', `/api/v3/documents/?project=${project}&limit=1000&fields=id,status_data,status_reason`);
    const mine = (list.results as { id: number; status_data: number; status_reason?: string }[]).filter((d) => wanted.has(d.id));
    const failed = mine.find((d) => d.status_data === 111);
    if (failed) throw new Error(`document ${failed.id} was not processed: ${failed.status_reason}`);
    if (mine.length === wanted.size && mine.every((d) => d.status_data === 2)) return;
    if (Date.now() > deadline) throw new Error(`documents still in processing after ${timeoutMs / 1000} s: ${mine.filter((d) => d.status_data !== 2).map((d) => d.id).join(', ')}`);
    await new Promise((r) => setTimeout(r, pollMs));
  }
}

/** When the last of `ids` was last changed (its updated_at, epoch ms): for a document just processed, when
 * the worker finished it, by the server's clock (the bench's own on one machine), whatever the poll's step. */
export async function lastChange(c: BenchClient, project: number, ids: number[]): Promise<number> {
  const wanted = new Set(ids);
  const list = await c.call('GET', `/api/v3/documents/?project=${project}&limit=1000&fields=id,updated_at`);
  const times = (list.results as { id: number; updated_at: string }[]).filter((d) => wanted.has(d.id)).map((d) => Date.parse(d.updated_at));
  if (times.length !== wanted.size || times.some(Number.isNaN)) throw new Error(`the list gave ${times.length} update times for ${wanted.size} documents`);
  return Math.max(...times);
}

/**
 * A project with a category and 10 labels in a repeating label set, and one processed born-digital page
 * (60 lines of text) carrying `count` annotations, checked through the detail itself. Returns the
 * document's id.
 */
export async function annotatedDocument(c: BenchClient, count: number): Promise<number> {
  const project = await c.call('POST', '/api/v3/projects/', { name: 'detail bench' });
  const category = await c.call('POST', '/api/v3/categories/', { project: project.id, name: 'Invoice' });
  const labels: { id: number }[] = [];
  for (let i = 0; i < 10; i++) labels.push(await c.call('POST', '/api/v3/labels/', { project: project.id, name: `Label ${i}`, categories: [category.id] }));
  const lineItems = await c.call('POST', '/api/v3/label-sets/', {
    project: project.id, name: 'Line item', categories: [category.id], labels: labels.map((l) => l.id), has_multiple_sections: true,
  });
  const pdf = await PDFDocument.create();
  const page = pdf.addPage([595, 842]);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (let line = 0; line < 60; line++) {
    page.drawText(`Line ${line + 1}: item ${1000 + line * 7} amount ${(line * 3.75).toFixed(2)} EUR reference R-${line * 131}`, { x: 40, y: 800 - line * 12, size: 9, font });
  }
  const doc = await c.upload(project.id, 'detail.pdf', await pdf.save(), { category: String(category.id), sync: 'true' });
  // Every annotation marks a character of its own: the same text twice with one label is refused.
  const boxes = Object.values((await c.call('GET', `/api/v3/documents/${doc}/bbox/`)).bbox) as { page_index: number; x0: number; x1: number; y0: number; y1: number }[];
  if (boxes.length < count) throw new Error(`the detail document has ${boxes.length} characters, fewer than the ${count} annotations`);
  let set: number | undefined;
  for (let i = 0; i < count; i++) {
    const ch = boxes[i];
    const span = [{ page_index: ch.page_index, x0: ch.x0 - 0.3, x1: ch.x1 + 0.3, y0: ch.y0 - 1, y1: ch.y1 + 1 }];
    const label = labels[i % labels.length].id;
    const body = i % labels.length === 0 || set === undefined
      ? { document: doc, label, label_set: lineItems.id, span }
      : { document: doc, label, annotation_set: set, span };
    set = (await c.call('POST', '/api/v3/annotations/', body)).annotation_set;
  }
  const detail = await c.call('GET', `/api/v3/documents/${doc}/`);
  const carried = detail.annotation_sets.reduce((n: number, s: any) => n + s.labels.reduce((m: number, l: any) => m + l.annotations.length, 0), 0);
  if (carried !== count) throw new Error(`the document detail carries ${carried} annotations, expected ${count}`);
  return doc;
}

/** Milliseconds of `n` sequential GETs of `url` (each answer read to its end), sorted. */
export async function sequentialGets(c: BenchClient, url: (i: number) => string, n: number): Promise<number[]> {
  const auth = { Authorization: `Token ${c.token}` };
  const ms: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    const res = await fetch(`${c.base}${url(i)}`, { headers: auth });
    await res.arrayBuffer();
    ms.push(performance.now() - t);
    if (res.status !== 200) throw new Error(`GET ${url(i)} -> ${res.status}`);
  }
  return ms.sort((a, b) => a - b);
}

export const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
