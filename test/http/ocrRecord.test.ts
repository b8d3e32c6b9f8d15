// What OCR applied, on the record (issue 10): each OCR'd page says which engine and version read it and
// the turn orientation detection applied; the document says which engine read it; GET ocr-engine/ says
// which engine is in use and which this machine has. Pages with a text layer say null.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/testServer.ts';
import { created, pdfWithText, upload } from '../helpers/documentFixtures.ts';
import { scannedPdf } from '../fixtures/pdfSamples.ts';
import { bodyText, drawPage } from '../helpers/ocrPages.ts';
import { findNativeTesseract } from '../../main/pipeline/ocr/nativeEngine.ts';

const NATIVE = findNativeTesseract();

describe('the OCR record with the default engine (FOLIO_OCR_ENGINE unset: auto)', () => {
  let s: TestServer;
  let project: number;
  beforeAll(async () => {
    s = await startTestServer();
    project = (await created(s.admin.post('/api/v3/projects/', { name: 'Scans', ocr_languages: ['eng'] }))).id;
  });
  afterAll(() => s?.close());

  it('GET ocr-engine/ names the engine in use, its version, and every engine with whether it is here', async () => {
    const r = await s.admin.get('/api/v3/ocr-engine/');
    expect(r.status).toBe(200);
    expect(r.body.setting).toBe('auto');
    // auto takes the native program when the machine has one.
    expect(r.body.engine).toBe(NATIVE ? 'native' : 'wasm');
    expect(r.body.version).toBe(NATIVE ? NATIVE.version : expect.stringMatching(/^tesseract\.js \d/));
    const byName = new Map(r.body.engines.map((e: any) => [e.name, e]));
    expect(byName.get('wasm')).toMatchObject({ available: true, version: expect.stringMatching(/^tesseract\.js \d/), reason: null });
    expect(byName.get('native')).toEqual(
      NATIVE ? { name: 'native', available: true, version: NATIVE.version, reason: null } : { name: 'native', available: false, version: null, reason: expect.stringMatching(/tesseract/) },
    );
    expect((await s.anonymous().get('/api/v3/ocr-engine/')).status).toBe(401);
    // In the OpenAPI document like every route.
    const spec = (await s.admin.get('/api/v3/openapi.json')).body;
    expect(spec.paths['/api/v3/ocr-engine/']?.get).toBeDefined();
  });

  it('a scanned page says which engine and version read it, and so does its document', async () => {
    const engine = (await s.admin.get('/api/v3/ocr-engine/')).body;
    const doc = await created(upload(s.admin, { project, sync: 'true' }, { name: 'scan.pdf', data: await scannedPdf('Invoice number 4711 total 99.50') }));
    expect(doc.status_data).toBe(2);
    expect(doc.text).toMatch(/4711/);
    const page = (await s.admin.get(`/api/v3/documents/${doc.id}/pages/1/`)).body;
    expect(page.ocr).toBe(true);
    expect(page.ocr_engine).toBe(engine.engine);
    expect(page.ocr_engine_version).toBe(engine.version);
    // An upright page is not turned; OSD's confidence is a number, or null when the strip was too little to tell.
    expect(page.orientation.turned).toBe(0);
    expect(page.orientation.confidence === null || typeof page.orientation.confidence === 'number').toBe(true);
    const detail = (await s.admin.get(`/api/v3/documents/${doc.id}/`)).body;
    expect(detail.ocr_engine).toBe(`${engine.engine} ${engine.version}`);
    expect(detail.pages[0]).toMatchObject({ ocr_engine: engine.engine, ocr_engine_version: engine.version, orientation: page.orientation });
    // The same in the page list.
    const list = (await s.admin.get(`/api/v3/documents/${doc.id}/pages/`)).body.results;
    expect(list[0]).toMatchObject({ ocr_engine: engine.engine, orientation: { turned: 0 } });
  });

  it('a page scanned sideways says it was turned upright, and how sure orientation detection was', async () => {
    const page = await drawPage(bodyText(7, 20), { dpi: 200 });
    // Turned a quarter clockwise: a quarter anticlockwise (270 clockwise) makes it upright.
    const sideways = await sharp(page.png).rotate(90).png().toBuffer();
    const doc = await created(upload(s.admin, { project, sync: 'true' }, { name: 'sideways.png', data: sideways }));
    expect(doc.status_data).toBe(2);
    const stored = (await s.admin.get(`/api/v3/documents/${doc.id}/pages/1/`)).body;
    expect(stored.orientation.turned).toBe(270);
    expect(stored.orientation.confidence).toBeGreaterThan(0);
    // The turn is already in the page: upright (portrait) size, rotation including the turn.
    expect(stored.original_size[1]).toBeGreaterThan(stored.original_size[0]);
    expect(stored.rotation).toBe(270);
    expect(doc.text).toContain(page.words[0].text);
  });

  it('a page with a text layer has no OCR record, and its document no engine', async () => {
    const doc = await created(upload(s.admin, { project, sync: 'true' }, { name: 'digital.pdf', data: await pdfWithText('Born digital text') }));
    const page = (await s.admin.get(`/api/v3/documents/${doc.id}/pages/1/`)).body;
    expect(page).toMatchObject({ ocr: false, ocr_engine: null, ocr_engine_version: null, orientation: null });
    expect((await s.admin.get(`/api/v3/documents/${doc.id}/`)).body.ocr_engine).toBeNull();
  });
});

describe('the OCR record with FOLIO_OCR_ENGINE=wasm', () => {
  let s: TestServer;
  beforeAll(async () => {
    // The engine is picked when the first page needs OCR, from the environment.
    vi.stubEnv('FOLIO_OCR_ENGINE', 'wasm');
    s = await startTestServer();
  });
  afterAll(async () => {
    await s?.close();
    vi.unstubAllEnvs();
  });

  it('says wasm in use, and a scanned page read by tesseract.js says so', async () => {
    const engine = (await s.admin.get('/api/v3/ocr-engine/')).body;
    expect(engine).toMatchObject({ setting: 'wasm', engine: 'wasm', version: expect.stringMatching(/^tesseract\.js \d/) });
    const project = (await created(s.admin.post('/api/v3/projects/', { name: 'Wasm', ocr_languages: ['eng'] }))).id;
    const doc = await created(upload(s.admin, { project, sync: 'true' }, { name: 'scan.pdf', data: await scannedPdf('Delivery note 1234') }));
    expect(doc.status_data).toBe(2);
    expect(doc.pages[0]).toMatchObject({ ocr_engine: 'wasm', ocr_engine_version: engine.version });
    expect(doc.ocr_engine).toBe(`wasm ${engine.version}`);
  });
});
