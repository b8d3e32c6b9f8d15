// What npm run test:chaos does to a Folio and checks afterwards, whichever Folio it is (chaos.ts: the desktop's
// single `folio serve`, or a team server's API process, worker and PostgreSQL): the traffic (uploads, born-digital
// and scanned, annotations, one AI training), what the client was told was stored, and the counts a user would
// check once Folio had time to finish, read from its database by plain SQL both stores understand.
import { scannedPdf, textPdf } from '../fixtures/pdfSamples.ts';

export const ADMIN = { email: 'chaos@folio.local', password: 'chaos-password-1' };

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** mulberry32: the same seed, the same moments and mix. */
export function seeded(seed: number): { rnd(): number; between(lo: number, hi: number): number } {
  let state = seed >>> 0;
  const rnd = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { rnd, between: (lo, hi) => lo + rnd() * (hi - lo) };
}

export interface Api {
  url: string;
  token: string;
}

export async function call(api: Api, method: string, url: string, body?: unknown): Promise<{ status: number; body: any }> {
  const init: RequestInit = { method, headers: { Authorization: `Token ${api.token}` } };
  if (body instanceof FormData) init.body = body;
  else if (body !== undefined) {
    init.body = JSON.stringify(body);
    (init.headers as Record<string, string>)['Content-Type'] = 'application/json';
  }
  const res = await fetch(`${api.url}${url}`, init);
  const text = await res.text();
  return { status: res.status, body: text && res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text };
}

export async function login(url: string): Promise<Api> {
  const res = await fetch(`${url}/api/v3/auth/`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ username: ADMIN.email, password: ADMIN.password }) });
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${await res.text()}`);
  return { url, token: ((await res.json()) as { token: string }).token };
}

export interface Taxonomy {
  project: number;
  category: number;
  label: number;
}

/** The traffic, and what the client was told was stored. */
export class Workload {
  readonly acknowledged = { uploads: new Map<string, number>(), annotations: new Set<number>() };
  sentUploads = 0;
  trainingId: number | undefined;

  constructor(private readonly rnd: () => number) {}

  async setup(api: Api): Promise<Taxonomy> {
    const project = (await call(api, 'POST', '/api/v3/projects/', { name: 'Chaos' })).body.id;
    const category = (await call(api, 'POST', '/api/v3/categories/', { project, name: 'Invoice' })).body.id;
    const label = (await call(api, 'POST', '/api/v3/labels/', { project, name: 'Total', data_type: 'Text', label_sets: [category] })).body.id;
    return { project, category, label };
  }

  /** The form of the next upload: a name nobody else has; scanned every third time, so OCR runs. */
  async nextUpload(t: Taxonomy): Promise<{ name: string; form: FormData }> {
    const n = ++this.sentUploads;
    const name = `chaos-${n}.pdf`;
    const words = [`Invoice ${n}`, `Total ${n},50 EUR`];
    const bytes = n % 3 === 0 ? await scannedPdf(words.join('\n'), 150) : await textPdf([words, [`Page two of ${n}`]]);
    const form = new FormData();
    form.append('project', String(t.project));
    form.append('category', String(t.category));
    // Half of them training data, so that a training has something to learn from.
    form.append('dataset_status', n % 2 === 0 ? '2' : '0');
    form.append('data_file', new Blob([new Uint8Array(bytes)]), name);
    return { name, form };
  }

  async uploadOne(api: Api, t: Taxonomy): Promise<number> {
    const { name, form } = await this.nextUpload(t);
    const r = await call(api, 'POST', '/api/v3/documents/', form);
    if (r.status === 201) this.acknowledged.uploads.set(name, r.body.id);
    return r.status;
  }

  /** Labels the total of a processed training document (the word "Total" and what follows). */
  async annotateOne(api: Api, t: Taxonomy): Promise<void> {
    const ids = [...this.acknowledged.uploads].filter(([name]) => Number(/\d+/.exec(name)![0]) % 2 === 0).map(([, id]) => id);
    if (!ids.length) return;
    const id = ids[Math.floor(this.rnd() * ids.length)];
    const doc = await call(api, 'GET', `/api/v3/documents/${id}/?fields=status_data`);
    if (doc.body?.status_data !== 2) return;
    const hits = (await call(api, 'POST', `/api/v3/documents/${id}/search/`, { q: 'Total' })).body?.span;
    if (!Array.isArray(hits) || !hits.length) return;
    const r = await call(api, 'POST', '/api/v3/annotations/', { document: id, label: t.label, label_set: t.category, span: [hits[0]], is_correct: true });
    if (r.status === 201) this.acknowledged.annotations.add(r.body.id);
  }

  async maybeTrain(api: Api, t: Taxonomy): Promise<void> {
    if (this.trainingId !== undefined || this.acknowledged.annotations.size < 3) return;
    const r = await call(api, 'POST', '/api/v3/extraction-ais/', { category: t.category, name: 'chaos' });
    if (r.status === 201) this.trainingId = r.body.id;
  }

  /** Traffic until `until`: errors are expected (a process dies under it) and only end a loop's step. */
  async traffic(api: Api, t: Taxonomy, until: Promise<void>): Promise<void> {
    let stop = false;
    void until.then(() => (stop = true));
    const loop = async (step: () => Promise<unknown>, pauseMs: number) => {
      while (!stop) {
        await step().catch(() => {});
        await sleep(pauseMs);
      }
    };
    await Promise.all([loop(() => this.uploadOne(api, t), 150), loop(() => this.annotateOne(api, t), 100), loop(() => this.maybeTrain(api, t), 500)]);
  }
}

/** Plain SQL against Folio's database (SQLite or PostgreSQL), answering rows. */
export type Query = (sql: string) => Promise<Record<string, any>[]>;

const count = async (query: Query, sql: string) => Number(Object.values((await query(sql))[0])[0]);

export const openJobs = (query: Query) => count(query, "select count(*) as n from jobs where state in ('queued', 'running')");

export interface Report {
  lost: number;
  doubled: number;
  failedByInterruption: number;
  stuck: number;
  /** Team server: answers other than 503 while PostgreSQL was down, and worker exits nobody asked for. */
  outageNot503?: number;
  unplannedExits?: number;
  lines: string[];
}

/** What a user would check: lost, doubled, failed-by-interruption and stuck, with their parts. */
export async function check(query: Query, w: Workload): Promise<Report> {
  const docIds = new Set((await query('select id from documents')).map((r) => Number(r.id)));
  const annotationIds = new Set((await query('select id from annotations')).map((r) => Number(r.id)));
  const lostUploads = [...w.acknowledged.uploads.values()].filter((id) => !docIds.has(id)).length;
  const lostAnnotations = [...w.acknowledged.annotations].filter((id) => !annotationIds.has(id)).length;
  const doubledFiles = await count(query, 'select count(*) as n from (select data_file_name from documents group by data_file_name having count(*) > 1) x');
  const doubledPages = await count(query, 'select count(*) as n from (select document_id, number from pages group by document_id, number having count(*) > 1) x');
  const doubledAnnotations = await count(query, 'select count(*) as n from (select annotation_set_id, label_id, spans from annotations group by annotation_set_id, label_id, spans having count(*) > 1) x');
  const failedDocs = await query('select id, data_file_name, status_reason from documents where status = 111');
  const training = w.trainingId === undefined ? undefined : (await query('select id, status, error from ai_models')).find((r) => Number(r.id) === w.trainingId);
  const failedTrainings = training?.status === 'failed' ? 1 : 0;
  const stuckDocs = await count(query, 'select count(*) as n from documents where status not in (2, 111, 41)');
  const stuckJobs = await openJobs(query);
  const pageMismatch = await count(query, 'select count(*) as n from documents d where d.status = 2 and d.number_of_pages != (select count(*) from pages p where p.document_id = d.id)');
  const lost = lostUploads + lostAnnotations;
  const doubled = doubledFiles + doubledPages + doubledAnnotations + pageMismatch;
  const failedByInterruption = failedDocs.length + failedTrainings;
  const stuck = stuckDocs + stuckJobs;
  const lines = [
    `uploads sent ${w.sentUploads}, acknowledged ${w.acknowledged.uploads.size}; annotations acknowledged ${w.acknowledged.annotations.size}; training ${w.trainingId === undefined ? 'not started' : training?.status}`,
    `lost ${lost} (uploads ${lostUploads}, annotations ${lostAnnotations}), doubled ${doubled} (files ${doubledFiles}, pages ${doubledPages}, annotations ${doubledAnnotations}, page counts ${pageMismatch}), failed-by-interruption ${failedByInterruption}, stuck ${stuck} (documents ${stuckDocs}, jobs ${stuckJobs})`,
    ...failedDocs.map((d) => `  failed: ${d.data_file_name}: ${d.status_reason}`),
    ...(failedTrainings ? [`  failed training: ${training?.error}`] : []),
  ];
  return { lost, doubled, failedByInterruption, stuck, lines };
}

export const allZero = (r: Report) => r.lost === 0 && r.doubled === 0 && r.failedByInterruption === 0 && r.stuck === 0 && !r.outageNot503 && !r.unplannedExits;
