// The per-document export (README, Export) through the real server: one row per document with a column
// per label, the annotation sets of a repeating label set as extra CSV rows and as the XLSX's second
// sheet, values in the CSV forms of spec 2.14 (text with its white space collapsed), declined annotations
// left out, is_reviewed and a review column per label, the document list's filters and ordering (the same
// documents as GET /api/v3/documents/), reviewed_only, auth and 400s.
// The XLSX is read back by tests/helpers/zip.ts, Python's zipfile and XML parser, and LibreOffice.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/testServer.ts';
import { created, pdfWithLettersAtSpans, span, upload } from '../helpers/documentFixtures.ts';
import { parseCsv } from '../helpers/csv.ts';
import { hasPython, pythonCheck, readXlsx, type ReadCell } from '../helpers/zip.ts';
import { findSoffice } from '../../main/pipeline/office.ts';
import { DOCUMENT_COLUMNS, REVIEW_COLUMN, SET_COLUMNS, reviewHeader } from '../../main/domain/documentTable.ts';

let s: TestServer;
let project: number;
let invoice: number; // category "Rechnung", its default label set has the same id
let delivery: number; // category "Lieferschein"
let items: number; // repeating label set "Positionen" of Rechnung
const labels: Record<string, number> = {};
let doc1: number;
let doc2: number;
let doc3: number;
const itemSets: number[] = [];
let otherCategory: number;

const LETTERS = await pdfWithLettersAtSpans();
const base = () => `/api/v3/projects/${project}/export`;

beforeAll(async () => {
  s = await startTestServer();
  const api = s.admin;
  project = (await created(api.post('/api/v3/projects/', { name: 'Per-document export' }))).id;
  invoice = (await created(api.post('/api/v3/categories/', { project, name: 'Rechnung' }))).id;
  delivery = (await created(api.post('/api/v3/categories/', { project, name: 'Lieferschein' }))).id;
  const label = async (name: string, data_type: string, categories: number[]) =>
    (labels[name] = (await created(api.post('/api/v3/labels/', { project, name, data_type, categories }))).id);
  await label('Datum', 'Date', [invoice]);
  await label('Betrag', 'Number', [invoice]);
  await label('Satz', 'Percentage', [invoice]);
  await label('Kirchensteuer', 'True/False', [invoice]);
  await label('Name', 'Text', [invoice]);
  await label('status', 'Text', [invoice]); // the name of a document column
  await label('Artikel', 'Text', []);
  await label('Lieferdatum', 'Date', [delivery]);
  await label('Absender', 'Text', [delivery]);
  items = (await created(api.post('/api/v3/label-sets/', { project, name: 'Positionen', categories: [invoice], labels: [labels.Betrag, labels.Artikel], has_multiple_sections: true }))).id;

  const other = (await created(api.post('/api/v3/projects/', { name: 'Other' }))).id;
  otherCategory = (await created(api.post('/api/v3/categories/', { project: other, name: 'Fremd' }))).id;

  const newDoc = async (category: number, name: string) =>
    (await created(upload(api, { project, category, sync: 'true' }, { name, data: LETTERS }))).id as number;
  doc1 = await newDoc(invoice, 'März, "Gehalt".pdf');
  doc2 = await newDoc(delivery, 'lieferung.pdf');
  doc3 = await newDoc(invoice, 'leer.pdf');
  expect((await api.patch(`/api/v3/documents/${doc1}/`, { dataset_status: 2, assignee: 'admin@test.local' })).status).toBe(200);
  expect((await api.patch(`/api/v3/documents/${doc2}/`, { dataset_status: 3 })).status).toBe(200);

  const annotate = async (doc: number, name: string, text: string, n: number, set: Record<string, number> = { label_set: invoice }) =>
    created(api.post(`/api/v3/documents/${doc}/annotations/`, { label: labels[name], ...set, span: [span(n, text)] }));
  await annotate(doc1, 'Betrag', '1.234,56-', 1);
  await annotate(doc1, 'Datum', '22.05.2018', 2);
  await annotate(doc1, 'Satz', '19 %', 3);
  const declined = await annotate(doc1, 'Kirchensteuer', 'ja', 4);
  expect((await api.patch(`/api/v3/annotations/${declined.id}/`, { revised: true, is_correct: false })).body.review_state).toBe('Declined');
  // The AI's answer awaiting feedback counts (the same label, another place).
  await s.core.uow((r) => s.core.services.annotations.createMachineAnnotation(r, { documentId: doc1, labelId: labels.Kirchensteuer, labelSetId: invoice, spans: [span(11, 'nein')], confidence: 0.9 }));
  await annotate(doc1, 'Name', 'Müller, "Max"', 5);
  await annotate(doc1, 'Name', '=HYPERLINK("x")', 6);
  await annotate(doc1, 'status', 'bezahlt', 12);
  const pen = await annotate(doc1, 'Artikel', 'Stift', 7, { label_set: items });
  await annotate(doc1, 'Betrag', '12,50', 8, { annotation_set: pen.annotation_set });
  const ink = await annotate(doc1, 'Artikel', 'Tinte', 9, { label_set: items });
  await annotate(doc1, 'Betrag', 'zwölf Euro fünfzig und mehr', 10, { annotation_set: ink.annotation_set });
  itemSets.push(pen.annotation_set, ink.annotation_set);
  await annotate(doc2, 'Lieferdatum', '01.02.2024', 1, { label_set: delivery });
  // The OCR's runs of spaces: the export writes the text as the app shows it.
  await annotate(doc2, 'Absender', 'UNIHAKKA     INTERNATIONAL', 2, { label_set: delivery });
  expect((await api.patch(`/api/v3/documents/${doc2}/`, { is_reviewed: true })).status).toBe(200);
});
afterAll(() => s.close());

const get = (file: string, query = '') => fetch(`${s.url}${base()}/${file}?token=${s.admin.token}${query}`);

/** Rows as objects by header. */
const objects = (header: readonly string[], rows: readonly (readonly (ReadCell | undefined)[])[]) =>
  rows.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i]])));

const INVOICE_HEADERS = ['Datum', 'Rechnung / Betrag', 'Satz', 'Kirchensteuer', 'Name', 'Rechnung / status'];
const ITEM_HEADERS = ['Positionen / Betrag', 'Artikel'];
const DELIVERY_HEADERS = ['Lieferdatum', 'Absender'];
/** The label columns, then is_reviewed and their review columns. */
const withReview = (labelHeaders: string[]) => [...labelHeaders, REVIEW_COLUMN, ...labelHeaders.map(reviewHeader)];

describe('documents.csv', () => {
  let rows: string[][];
  let text: string;
  beforeAll(async () => {
    const r = await get('documents.csv');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(r.headers.get('content-disposition')).toBe(`attachment; filename="project-${project}-documents.csv"`);
    text = await r.text();
    rows = parseCsv(text);
  });

  it('has the document columns, the set columns and a column per label grouped by label set', () => {
    expect(rows[0]).toEqual([...DOCUMENT_COLUMNS, ...SET_COLUMNS, ...withReview([...INVOICE_HEADERS, ...ITEM_HEADERS, ...DELIVERY_HEADERS])]);
    expect(text.endsWith('\r\n')).toBe(true);
  });

  it('writes a row per document and a row per annotation set of the repeating label set after it', () => {
    const body = objects(rows[0], rows.slice(1));
    expect(body.map((r) => [r.document_id, r.label_set, r.set_index, r.annotation_set])).toEqual([
      [String(doc1), '', '', ''],
      [String(doc1), 'Positionen', '1', String(itemSets[0])],
      [String(doc1), 'Positionen', '2', String(itemSets[1])],
      [String(doc2), '', '', ''],
      [String(doc3), '', '', ''],
    ]);
    const [first, pen, ink, second, empty] = body;
    expect(first).toMatchObject({
      data_file_name: 'März, "Gehalt".pdf', category: 'Rechnung', status: 'Done', dataset_status: 'Training', assignee: 'admin@test.local',
      link: `${s.url}/#/documents/${doc1}`,
      Datum: '2018-05-22', 'Rechnung / Betrag': '-1234.56', Satz: '0.19',
      // The declined "ja" gives nothing; the AI's "nein" awaiting feedback counts.
      Kirchensteuer: 'False',
      // Two annotations of one label: one per line, in text order; formula-looking text as it is, as in all.csv.
      Name: 'Müller, "Max"\n=HYPERLINK("x")',
      'Rechnung / status': 'bezahlt',
      'Positionen / Betrag': '', Artikel: '', Lieferdatum: '',
      is_reviewed: 'False',
      // Each value's review state, line for line; the AI's "nein" is not checked yet.
      'Datum (review)': 'Created by human', 'Kirchensteuer (review)': 'Feedback required', 'Name (review)': 'Created by human\nCreated by human',
      'Artikel (review)': '', 'Lieferdatum (review)': '',
    });
    expect(first.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|\+00:00)$/);
    // The set rows repeat the document columns and fill only their label set's columns.
    for (const c of DOCUMENT_COLUMNS) expect(pen[c]).toBe(first[c]);
    expect(pen).toMatchObject({ 'Positionen / Betrag': '12.5', Artikel: 'Stift', Datum: '', Name: '', is_reviewed: 'False', 'Artikel (review)': 'Created by human', 'Name (review)': '' });
    expect(ink).toMatchObject({ 'Positionen / Betrag': 'None', Artikel: 'Tinte' });
    expect(second).toMatchObject({
      category: 'Lieferschein', dataset_status: 'Test', assignee: '', Lieferdatum: '2024-02-01', Absender: 'UNIHAKKA INTERNATIONAL', Datum: '',
      is_reviewed: 'True', 'Lieferdatum (review)': 'Created by human', 'Absender (review)': 'Created by human',
    });
    expect(Object.entries(empty).filter(([k, v]) => v !== '' && ![...DOCUMENT_COLUMNS, REVIEW_COLUMN].includes(k as never)).map(([k]) => k)).toEqual([]);
  });

  it('narrows to a category (and its label sets) or a dataset status', async () => {
    const byCategory = parseCsv(await (await get('documents.csv', `&category=${delivery}`)).text());
    expect(byCategory[0]).toEqual([...DOCUMENT_COLUMNS, ...SET_COLUMNS, ...withReview(DELIVERY_HEADERS)]);
    expect(byCategory.slice(1).map((r) => r[0])).toEqual([String(doc2)]);
    const invoices = parseCsv(await (await get('documents.csv', `&category=${invoice}`)).text());
    expect(invoices[0]).toEqual([...DOCUMENT_COLUMNS, ...SET_COLUMNS, ...withReview([...INVOICE_HEADERS, ...ITEM_HEADERS])]);
    expect(invoices.slice(1).map((r) => r[0])).toEqual([doc1, doc1, doc1, doc3].map(String));
    const training = parseCsv(await (await get('documents.csv', '&dataset_status=2')).text());
    expect(training[0]).toEqual(rows[0]);
    expect(training.slice(1).map((r) => r[0])).toEqual([doc1, doc1, doc1].map(String));
    const excluded = parseCsv(await (await get('documents.csv', '&dataset_status=4')).text());
    expect(excluded).toEqual([rows[0]]);
  });
});

describe('documents.xlsx', () => {
  let xlsx: Buffer;
  let sheets: Map<string, ReadCell[][]>;
  beforeAll(async () => {
    const r = await get('documents.xlsx');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(r.headers.get('content-disposition')).toBe(`attachment; filename="project-${project}-documents.xlsx"`);
    xlsx = Buffer.from(await r.arrayBuffer());
    sheets = readXlsx(xlsx);
  });

  it('has a sheet of documents and a sheet of the repeating sets', () => {
    expect([...sheets.keys()]).toEqual(['Documents', 'Repeating sets']);
    const docs = sheets.get('Documents')!;
    expect(docs[0]).toEqual([...DOCUMENT_COLUMNS, ...withReview([...INVOICE_HEADERS, ...DELIVERY_HEADERS])]);
    const body = objects(docs[0] as string[], docs.slice(1));
    expect(body.map((r) => r.document_id)).toEqual([doc1, doc2, doc3]);
    // Numbers are number cells; dates, booleans and text are text.
    expect(body[0]).toMatchObject({
      category: 'Rechnung', 'Rechnung / Betrag': -1234.56, Satz: 0.19, Datum: '2018-05-22', Kirchensteuer: 'False', Name: 'Müller, "Max"\n=HYPERLINK("x")',
      is_reviewed: 'False', 'Kirchensteuer (review)': 'Feedback required', 'Rechnung / Betrag (review)': 'Created by human',
    });
    expect(body[0].link).toBe(`${s.url}/#/documents/${doc1}`);
    expect(body[1]).toMatchObject({ Lieferdatum: '2024-02-01', Absender: 'UNIHAKKA INTERNATIONAL', Datum: undefined, is_reviewed: 'True', 'Absender (review)': 'Created by human' });

    const sets = sheets.get('Repeating sets')!;
    expect(sets[0]).toEqual([...DOCUMENT_COLUMNS, ...SET_COLUMNS, ...withReview(ITEM_HEADERS)]);
    expect(objects(sets[0] as string[], sets.slice(1)).map((r) => [r.document_id, r.data_file_name, r.label_set, r.set_index, r.annotation_set, r['Positionen / Betrag'], r.Artikel])).toEqual([
      [doc1, 'März, "Gehalt".pdf', 'Positionen', 1, itemSets[0], 12.5, 'Stift'],
      [doc1, 'März, "Gehalt".pdf', 'Positionen', 2, itemSets[1], 'None', 'Tinte'],
    ]);
  });

  it.skipIf(!hasPython())("is a ZIP Python's zipfile reads, every XML part well-formed", () => {
    expect(pythonCheck(xlsx)).toContain('xl/worksheets/sheet2.xml');
  });

  it.skipIf(!findSoffice() && !process.env.CI)('opens in LibreOffice with both sheets and their values', { timeout: 120_000 }, async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-xlsx-'));
    try {
      fs.writeFileSync(path.join(dir, 'export.xlsx'), xlsx);
      await promisify(execFile)(findSoffice()!, [
        `-env:UserInstallation=${pathToFileURL(path.join(dir, 'profile')).href}`, '--headless',
        '--convert-to', 'html', '--outdir', path.join(dir, 'out'), path.join(dir, 'export.xlsx'),
      ], { timeout: 100_000 });
      const html = fs.readFileSync(path.join(dir, 'out', 'export.html'), 'utf8');
      const cells = [...html.matchAll(/<td([^>]*)>([\s\S]*?)<\/td>/g)].map((m) => ({
        attrs: m[1],
        text: m[2].replace(/[\r\n]/g, '').replace(/<br>/g, '\n').replace(/<[^>]+>/g, '').replace(/&quot;/g, '"').replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>'),
      }));
      const texts = cells.map((c) => c.text);
      // Both sheets, their headers and text values as written.
      for (const t of ['Rechnung / Betrag', 'Positionen / Betrag', 'set_index', 'Stift', 'Tinte', '2018-05-22', 'März, "Gehalt".pdf', 'Müller, "Max"\n=HYPERLINK("x")']) expect(texts).toContain(t);
      // The numbers are numbers to LibreOffice (sdval), the formula-looking text is not a formula.
      expect(cells.find((c) => c.attrs.includes('sdval="-1234.56"'))).toBeDefined();
      expect(cells.find((c) => c.attrs.includes('sdval="12.5"'))).toBeDefined();
      expect(cells.find((c) => c.text.startsWith('Müller'))!.attrs).not.toContain('sdval');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the document list's filters", () => {
  /** The documents of the export (each once, in its order) and of the document list under the same query. */
  const both = async (query: string) => {
    const csv = parseCsv(await (await get('documents.csv', `&${query}`)).text());
    const xlsx = readXlsx(Buffer.from(await (await get('documents.xlsx', `&${query}`)).arrayBuffer())).get('Documents')!;
    const list = await s.admin.get(`/api/v3/documents/?project=${project}&${query}`);
    expect(list.status, query).toBe(200);
    return { csv: [...new Set(csv.slice(1).map((r) => Number(r[0])))], xlsx: xlsx.slice(1).map((r) => r[0]), list: list.body.results.map((d: { id: number }) => d.id) };
  };

  it('exports exactly the documents the list shows, in its order', async () => {
    const cases: [string, number[]][] = [
      ['is_reviewed=true', [doc2]],
      ['is_reviewed=false', [doc1, doc3]],
      // The finding: a reviewed, training filter exported every document.
      ['is_reviewed=true&dataset_status=2', []],
      ['is_reviewed=true&dataset_status=3', [doc2]],
      ['dataset_status=2,3', [doc1, doc2]],
      ['assignee=admin@test.local', [doc1]],
      ['assignee=null', [doc2, doc3]],
      ['q=lieferung', [doc2]],
      [`category=${invoice}&is_reviewed=false&q=leer`, [doc3]],
      ['category=null', []],
      ['status=2', [doc1, doc2, doc3]],
      ['ordering=-id', [doc3, doc2, doc1]],
      ['ordering=data_file_name', [doc3, doc2, doc1]],
      ['created_at_before=2000-01-01', []],
      // Paging is the list's, not the export's: every matching document.
      ['limit=1&offset=1', [doc1, doc2, doc3]],
    ];
    for (const [query, ids] of cases) {
      const r = await both(query);
      expect(r.csv, query).toEqual(ids);
      expect(r.xlsx, query).toEqual(ids);
      if (!query.startsWith('limit')) expect(r.list, query).toEqual(ids);
    }
  });

  it('keeps the columns of a filtered export, including is_reviewed and the review columns', async () => {
    const [header, ...body] = parseCsv(await (await get('documents.csv', `&is_reviewed=true&category=${delivery}`)).text());
    expect(header).toEqual([...DOCUMENT_COLUMNS, ...SET_COLUMNS, ...withReview(DELIVERY_HEADERS)]);
    expect(objects(header, body)).toMatchObject([{ document_id: String(doc2), is_reviewed: 'True', Absender: 'UNIHAKKA INTERNATIONAL', 'Absender (review)': 'Created by human' }]);
    // A project filter cannot widen the export beyond its project.
    const elsewhere = parseCsv(await (await get('documents.csv', '&project=999999&project_id=999999')).text());
    expect(elsewhere.slice(1).map((r) => r[0])).toEqual([doc1, doc1, doc1, doc2, doc3].map(String));
  });

  it('of reviewed values only, leaves out the AI values awaiting feedback and says so in their review column', async () => {
    for (const query of ['&reviewed_only=true', '&reviewed_only=1']) {
      const [header, ...body] = parseCsv(await (await get('documents.csv', query)).text());
      const first = objects(header, body)[0];
      expect(first).toMatchObject({ document_id: String(doc1), Kirchensteuer: '', 'Kirchensteuer (review)': 'Feedback required', Datum: '2018-05-22', 'Datum (review)': 'Created by human' });
      const sheet = readXlsx(Buffer.from(await (await get('documents.xlsx', query)).arrayBuffer())).get('Documents')!;
      expect(objects(sheet[0] as string[], sheet.slice(1))[0]).toMatchObject({ Kirchensteuer: undefined, 'Kirchensteuer (review)': 'Feedback required', 'Rechnung / Betrag': -1234.56 });
    }
    const [header, ...body] = parseCsv(await (await get('documents.csv', '&reviewed_only=false')).text());
    expect(objects(header, body)[0]).toMatchObject({ Kirchensteuer: 'False', 'Kirchensteuer (review)': 'Feedback required' });
  });
});

describe('auth and parameters', () => {
  it('needs credentials (header or token parameter) and membership', async () => {
    for (const file of ['documents.csv', 'documents.xlsx']) {
      expect((await s.anonymous().get(`${base()}/${file}`)).status).toBe(401);
      expect((await fetch(`${s.url}${base()}/${file}?token=not-a-token`)).status).toBe(401);
      expect((await s.admin.get(`${base()}/${file}`)).status).toBe(200);
      const eve = await s.userClient(`eve-${file}@test.local`);
      const r = await eve.get(`${base()}/${file}`);
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ detail: 'Project not found.' });
    }
    expect((await s.admin.get('/api/v3/projects/999999/export/documents.xlsx')).status).toBe(404);
  });

  it('refuses bad filters with 400 saying what is wrong', async () => {
    // The list's own parsing answers first (its messages), then the export's checks of what names columns.
    const cases: [string, string, RegExp][] = [
      ['category=abc', 'category', /A valid integer is required, got "abc"/],
      ['category=1.5', 'category', /A valid integer is required, got "1.5"/],
      ['category=0', 'category', /Invalid pk "0" - object does not exist in this project/],
      ['category=-3', 'category', /Invalid pk "-3"/],
      [`category=${otherCategory}`, 'category', /does not exist in this project/],
      [`category=${delivery},${otherCategory}`, 'category', new RegExp(`Invalid pk "${otherCategory}"`)],
      ['dataset_status=7', 'dataset_status', /one of 0, 1, 2, 3, 4 \(or several, comma-separated\), got "7"/],
      ['dataset_status=', 'dataset_status', /one of 0, 1, 2, 3, 4/],
      ['is_reviewed=maybe', 'is_reviewed', /Must be true or false, got "maybe"/],
      ['assignee=x&status=abc', 'status', /A valid integer is required/],
      ['ordering=colour', 'ordering', /Cannot order by "colour"/],
      ['created_at_after=yesterday', 'created_at_after', /Enter a date as YYYY-MM-DD/],
      ['reviewed_only=maybe', 'reviewed_only', /Must be true or false, got "maybe"/],
      ['reviewed_only=true&reviewed_only=false', 'reviewed_only', /Must be true or false/],
    ];
    for (const file of ['documents.csv', 'documents.xlsx']) {
      for (const [query, field, message] of cases) {
        const r = await s.admin.get(`${base()}/${file}?${query}`);
        expect(r.status, `${file}?${query}`).toBe(400);
        expect(r.headers.get('content-type')).toContain('application/json');
        expect(r.body[field][0]).toMatch(message);
      }
    }
  });

  it('is described in the OpenAPI document with its filters', async () => {
    const doc = (await s.admin.get('/api/v3/openapi.json')).body;
    const op = doc.paths[`/api/v3/projects/{id}/export/documents.xlsx`].get;
    expect(op.parameters.map((p: any) => p.name)).toEqual(expect.arrayContaining(['category', 'dataset_status', 'is_reviewed', 'assignee', 'q', 'ordering', 'reviewed_only']));
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '404']));
    expect(Object.keys(op.responses['200'].content)).toEqual(['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet']);
  });
});
