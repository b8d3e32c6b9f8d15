// Spec 2.16 through the API: the languages endpoint, a project's OCR languages by name or code, a clear
// 400 for a language that is not installed, and a model added to <data>/tessdata becoming usable.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/testServer.ts';

// Without the machine's own tesseract models, so that French is not installed until copied (those models
// are tested in ocrModels.test.ts).
process.env.FOLIO_SYSTEM_TESSDATA = '';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

const DEBIAN_FRA = '/usr/share/tesseract-ocr/5/tessdata/fra.traineddata';

describe('OCR languages', () => {
  it('lists every language of spec 2.16 with its model and whether it is installed', async () => {
    const r = await s.admin.get('/api/v3/ocr-languages/?limit=1000');
    expect(r.status).toBe(200);
    const byName = new Map(r.body.results.map((l: any) => [l.name, l]));
    expect(byName.get('German')).toEqual({ name: 'German', code: 'deu', installed: true, source: 'bundled' });
    expect(byName.get('English')).toMatchObject({ code: 'eng', installed: true });
    expect(byName.get('Chinese Simplified')).toMatchObject({ code: 'chi_sim', installed: false, source: null });
    expect(r.body.count).toBe(123); // every language spec 2.16 names
    expect((await s.anonymous().get('/api/v3/ocr-languages/')).status).toBe(401);
  });

  it('gives a new project German and English, and takes names or codes', async () => {
    const p = (await s.admin.post('/api/v3/projects/', { name: 'Default' })).body;
    expect(p.ocr_languages).toEqual(['deu', 'eng']);
    const q = await s.admin.post('/api/v3/projects/', { name: 'English only', ocr_languages: ['English'] });
    expect(q.status).toBe(201);
    expect(q.body.ocr_languages).toEqual(['eng']);
    const both = await s.admin.patch(`/api/v3/projects/${q.body.id}/`, { ocr_languages: ['eng', 'German'] });
    expect(both.body.ocr_languages).toEqual(['eng', 'deu']);
    const put = await s.admin.put(`/api/v3/projects/${q.body.id}/`, { name: 'Put back' });
    expect(put.body.ocr_languages).toEqual(['deu', 'eng']);
  });

  it('refuses a language that is not installed or has no model, saying how to install it', async () => {
    const p = (await s.admin.post('/api/v3/projects/', { name: 'French' })).body;
    const r = await s.admin.patch(`/api/v3/projects/${p.id}/`, { ocr_languages: ['French'] });
    expect(r.status).toBe(400);
    expect(r.body.ocr_languages.join(' ')).toMatch(/French.*not installed.*tesseract-ocr-fra/s);
    const none = await s.admin.patch(`/api/v3/projects/${p.id}/`, { ocr_languages: ['Klingon'] });
    expect(none.status).toBe(400);
    expect((await s.admin.patch(`/api/v3/projects/${p.id}/`, { ocr_languages: [] })).status).toBe(400);
    expect((await s.admin.get(`/api/v3/projects/${p.id}/`)).body.ocr_languages).toEqual(['deu', 'eng']);
  });

  it.skipIf(!fs.existsSync(DEBIAN_FRA))("picks up Debian's model copied into <data>/tessdata", async () => {
    fs.mkdirSync(path.join(s.dataDir, 'tessdata'), { recursive: true });
    fs.copyFileSync(DEBIAN_FRA, path.join(s.dataDir, 'tessdata', 'fra.traineddata'));
    const p = (await s.admin.post('/api/v3/projects/', { name: 'Français', ocr_languages: ['French', 'deu'] })).body;
    expect(p.ocr_languages).toEqual(['fra', 'deu']);
    const list = (await s.admin.get('/api/v3/ocr-languages/?limit=1000')).body.results;
    expect(list.find((l: any) => l.name === 'French')).toMatchObject({ installed: true, source: 'data' });
  });
});
