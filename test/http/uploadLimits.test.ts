// The configurable limits on uploads, each refused at once with 413 and a message naming the setting:
// file size (FOLIO_MAX_UPLOAD_MB), pages (FOLIO_MAX_PAGES) and image pixels (FOLIO_MAX_IMAGE_PIXELS).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { startTestServer, type TestServer } from '../helpers/testServer.ts';
import { upload } from '../helpers/documentFixtures.ts';
import { textPdf } from '../fixtures/pdfSamples.ts';
import { multiPageTiff } from '../fixtures/imageSamples.ts';

let s: TestServer;
let project: number;
const saved = { ...process.env };

beforeAll(async () => {
  // Read when the core opens (this file runs in a process of its own).
  Object.assign(process.env, { FOLIO_MAX_PAGES: '2', FOLIO_MAX_IMAGE_PIXELS: '10000' });
  s = await startTestServer({ env: { FOLIO_MAX_UPLOAD_MB: '0.05' } });
  project = (await s.admin.post('/api/v3/projects/', { name: 'Limits' })).body.id;
});
afterAll(async () => {
  await s.close();
  process.env = saved;
});

describe('upload limits', () => {
  it('refuses a file over the size limit with 413', async () => {
    const r = await upload(s.admin, { project }, { name: 'big.pdf', data: new Uint8Array(80 * 1024).fill(65) });
    expect(r.status).toBe(413);
    expect(r.body.data_file[0]).toMatch(/FOLIO_MAX_UPLOAD_MB/);
  });

  it('refuses a PDF with more pages than allowed with 413', async () => {
    const r = await upload(s.admin, { project }, { name: 'three.pdf', data: await textPdf([['one'], ['two'], ['three']]) });
    expect(r.status).toBe(413);
    expect(r.body.data_file[0]).toMatch(/3 pages.*at most 2.*FOLIO_MAX_PAGES/);
  });

  it('refuses a TIFF with more pages than allowed, and an image with too many pixels, with 413', async () => {
    const tiff = await upload(s.admin, { project }, { name: 'fax.tif', data: await multiPageTiff(['#fff', '#eee', '#ddd'], 20, 20) });
    expect(tiff.status).toBe(413);
    expect(tiff.body.data_file[0]).toMatch(/FOLIO_MAX_PAGES/);
    const png = await sharp({ create: { width: 200, height: 100, channels: 3, background: '#ffffff' } }).png().toBuffer();
    const big = await upload(s.admin, { project }, { name: 'wide.png', data: png });
    expect(big.status).toBe(413);
    expect(big.body.data_file[0]).toMatch(/200 x 100 pixels.*FOLIO_MAX_IMAGE_PIXELS/);
  });

  it('stores nothing for refused uploads', async () => {
    expect((await s.admin.get(`/api/v3/documents/?project=${project}`)).body.count).toBe(0);
  });
});
