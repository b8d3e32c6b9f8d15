// Issue 31 item 3, OCR languages: the machine's own tesseract models are available as they are (no copy into
// the data folder), and an administrator adds a model file through POST /api/v3/ocr-languages/: checked (a
// real tesseract 4+ model, its size, its name), stored in <data>/tessdata, listed and usable at once.
import fs from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, tempDir, type ApiResponse, type Client, type TestServer } from '../helpers/testServer.ts';
import { created, upload } from '../helpers/documentFixtures.ts';
import { scannedPdf } from '../fixtures/pdfSamples.ts';
import { bundledTraineddata } from '../../main/pipeline/languages.ts';

/** Stands for the machine's tesseract folder (/usr/share/tesseract-ocr/5/tessdata on Debian). */
const machine = tempDir('folio-machine-tessdata-');
process.env.FOLIO_SYSTEM_TESSDATA = machine;

/** A real tesseract 4 model: Folio's bundled English one, uncompressed. */
const ENG = gunzipSync(fs.readFileSync(bundledTraineddata().find((t) => t.code === 'eng')!.file));
const DEBIAN = '/usr/share/tesseract-ocr/5/tessdata';

let s: TestServer;
let bob: Client;
beforeAll(async () => {
  // The machine has "enm" (Middle English: here the English network under that code).
  fs.writeFileSync(path.join(machine, 'enm.traineddata'), ENG);
  fs.writeFileSync(path.join(machine, 'osd.traineddata'), ENG);
  s = await startTestServer();
  bob = await s.userClient('bob-ocr@test.local');
});
afterAll(async () => {
  await s.close();
  fs.rmSync(machine, { recursive: true, force: true });
});

const languages = async () => (await s.admin.get('/api/v3/ocr-languages/?limit=1000')).body.results as { name: string; code: string; installed: boolean; source: string | null }[];
const addModel = (c: Client, name: string, data: Uint8Array, fields: Record<string, string> = {}): Promise<ApiResponse> => {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('file', new Blob([data as BlobPart], { type: 'application/octet-stream' }), name);
  return c.request('POST', '/api/v3/ocr-languages/', { raw: { data: form } });
};
const dataModels = () => (fs.existsSync(path.join(s.dataDir, 'tessdata')) ? fs.readdirSync(path.join(s.dataDir, 'tessdata')).sort() : []);

describe("the machine's tesseract models", () => {
  it('are listed as installed from the system, without a copy in the data folder; osd is no language', async () => {
    const all = await languages();
    expect(all.find((l) => l.code === 'enm')).toEqual({ name: 'enm', code: 'enm', installed: true, source: 'system' });
    expect(all.find((l) => l.code === 'osd')).toBeUndefined();
    expect(all.find((l) => l.code === 'eng')).toMatchObject({ source: 'bundled' });
    expect(dataModels()).toEqual([]);
  });

  it('a project reads with one: a scanned page comes out in text', { timeout: 120_000 }, async () => {
    const project = await created(s.admin.post('/api/v3/projects/', { name: 'Machine model', ocr_languages: ['enm'] }));
    expect(project.ocr_languages).toEqual(['enm']);
    const doc = await created(upload(s.admin, { project: project.id, sync: 'true' }, { name: 'scan.pdf', data: await scannedPdf('Invoice 4711 total', 300) }));
    expect(doc.status, doc.status_reason).toEqual([2, 'Done']);
    expect(doc.text).toContain('Invoice');
    expect(dataModels()).toEqual([]);
  });

  it.skipIf(!fs.existsSync(path.join(DEBIAN, 'fra.traineddata')))("Debian's own folder counts by default (FOLIO_SYSTEM_TESSDATA unset)", async () => {
    const { systemTessdataDirs, describeLanguages } = await import('../../main/pipeline/languages.ts');
    const dirs = systemTessdataDirs({});
    expect(dirs).toContain(DEBIAN);
    const dir = tempDir('folio-empty-data-');
    process.env.FOLIO_SYSTEM_TESSDATA = dirs.join(path.delimiter);
    try {
      expect(describeLanguages(dir).find((l) => l.name === 'French')).toEqual({ name: 'French', code: 'fra', installed: true, source: 'system' });
    } finally {
      process.env.FOLIO_SYSTEM_TESSDATA = machine;
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('POST /api/v3/ocr-languages/: an administrator adds a model', () => {
  it('stores a checked model in <data>/tessdata; it is listed and usable by projects at once', async () => {
    const before = await languages();
    expect(before.find((l) => l.name === 'Latin')).toMatchObject({ installed: false });
    const r = await addModel(s.admin, 'lat.traineddata', ENG);
    expect(r.status, r.text).toBe(201);
    expect(r.body).toEqual({ name: 'Latin', code: 'lat', installed: true, source: 'data', version: expect.stringMatching(/^4\.00\.00alpha/), size: ENG.length, replaced: false });
    expect(dataModels()).toEqual(['lat.traineddata']);
    expect(Buffer.compare(fs.readFileSync(path.join(s.dataDir, 'tessdata', 'lat.traineddata')), ENG)).toBe(0);
    if (process.platform !== 'win32') expect(fs.statSync(path.join(s.dataDir, 'tessdata', 'lat.traineddata')).mode & 0o777).toBe(0o600);
    expect((await languages()).find((l) => l.name === 'Latin')).toEqual({ name: 'Latin', code: 'lat', installed: true, source: 'data' });
    const p = await created(s.admin.post('/api/v3/projects/', { name: 'Latin texts', ocr_languages: ['Latin', 'eng'] }));
    expect(p.ocr_languages).toEqual(['lat', 'eng']);
  });

  it('takes the code from a field, replaces its own earlier model, and overrides a machine model', async () => {
    const named = await addModel(s.admin, 'download.bin', ENG, { code: 'ita' });
    expect(named.status, named.text).toBe(201);
    expect(named.body).toMatchObject({ name: 'Italian', code: 'ita', source: 'data', replaced: false });
    const again = await addModel(s.admin, 'ita.traineddata', ENG);
    expect(again.body).toMatchObject({ code: 'ita', replaced: true });
    const over = await addModel(s.admin, 'enm.traineddata', ENG);
    expect(over.body).toMatchObject({ code: 'enm', source: 'data', replaced: false });
    expect((await languages()).find((l) => l.code === 'enm')?.source).toBe('data');
  });

  /** A tesseract 3 style model: the legacy engine's entries only, laid out as TessdataManager writes them. */
  const withoutLstm = () => {
    const entries: (Buffer | null)[] = Array.from({ length: 24 }, (_, i) => (i < 9 ? Buffer.alloc(10_000, i) : null));
    const table = Buffer.alloc(4 + 8 * entries.length);
    table.writeUInt32LE(entries.length, 0);
    let at = table.length;
    entries.forEach((e, i) => {
      table.writeBigInt64LE(e ? BigInt(at) : -1n, 4 + 8 * i);
      at += e?.length ?? 0;
    });
    return Buffer.concat([table, ...entries.filter((e): e is Buffer => e !== null)]);
  };
  const refusals: [what: string, name: string, data: () => Uint8Array, fields: Record<string, string>, status: number, field: string, message: RegExp][] = [
    ['a file that is no model', 'pol.traineddata', () => Buffer.from(Array.from({ length: 200_000 }, (_, i) => (i * 2654435761) & 0xff)), {}, 400, 'file', /not a tesseract \.traineddata file/],
    ['a model cut short', 'pol.traineddata', () => ENG.subarray(0, 400_000), {}, 400, 'file', /points outside the file/],
    ['a model without an LSTM network (tesseract 3)', 'pol.traineddata', withoutLstm, {}, 400, 'file', /no LSTM network/],
    ['a file too small to be a model', 'pol.traineddata', () => ENG.subarray(0, 1000), {}, 400, 'file', /too small/],
    ['a name that is no language code', 'polish-model.bin', () => ENG, {}, 400, 'file', /not a model name/],
    ['a code that is no language code', 'x.traineddata', () => ENG, { code: '../../pol' }, 400, 'code', /not a model name/],
    ['orientation data', 'osd.traineddata', () => ENG, {}, 400, 'file', /not a reading language/],
  ];
  it.each(refusals)('refuses %s, on its field, storing nothing', async (_, name, data, fields, status, field, message) => {
    const before = dataModels();
    const r = await addModel(s.admin, name, data(), fields);
    expect(r.status, r.text).toBe(status);
    expect(r.body[field].join(' ')).toMatch(message);
    expect(dataModels()).toEqual(before);
    expect((await languages()).find((l) => l.name === 'Polish')).toMatchObject({ installed: false });
  });

  it('refuses a model over FOLIO_MAX_MODEL_MB with a 413', async () => {
    process.env.FOLIO_MAX_MODEL_MB = '1';
    try {
      const r = await addModel(s.admin, 'pol.traineddata', ENG);
      expect(r.status).toBe(413);
      expect(r.body.detail).toMatch(/at most 1 MB \(FOLIO_MAX_MODEL_MB\)/);
    } finally {
      delete process.env.FOLIO_MAX_MODEL_MB;
    }
    expect(dataModels()).not.toContain('pol.traineddata');
  });

  it('refuses no file, JSON, other users and anonymous callers', async () => {
    const form = new FormData();
    form.append('code', 'pol');
    const none = await s.admin.request('POST', '/api/v3/ocr-languages/', { raw: { data: form } });
    expect(none.status).toBe(400);
    expect(none.body.file[0]).toMatch(/No model file/);
    expect((await s.admin.post('/api/v3/ocr-languages/', { code: 'pol' })).status).toBe(415);
    const member = await addModel(bob, 'pol.traineddata', ENG);
    expect(member.status).toBe(403);
    expect(member.body.detail).toMatch(/administrator/);
    expect((await addModel(s.anonymous(), 'pol.traineddata', ENG)).status).toBe(401);
    expect(dataModels()).not.toContain('pol.traineddata');
  });
});
