// Issue 3's acceptance through the HTTP API: a generated example of every supported type goes through
// the real pipeline (pdf.js, tesseract.js, sharp, LibreOffice) and comes out with text, boxes, pages and
// images; broken, encrypted, empty and disguised files get their status and error bodies.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { startTestServer, type TestServer } from '../helpers/testServer.ts';
import { created, upload } from '../helpers/documentFixtures.ts';
import { cutXref, encryptedPdf, scannedPdf, textPdf } from '../fixtures/pdfSamples.ts';
import { multiPageTiff, orientedJpeg, transparentPng } from '../fixtures/imageSamples.ts';
import { makeDocx, makeXlsx } from '../fixtures/ooxml.ts';
import { extractPdfText } from '../../main/pipeline/pdfText.ts';

const TEXT = 'Invoice 4711 total 99.50 EUR';
let s: TestServer;
let project: number;

beforeAll(async () => {
  s = await startTestServer();
  project = (await s.admin.post('/api/v3/projects/', { name: 'Every type' })).body.id;
});
afterAll(() => s.close());

async function processed(name: string, data: Uint8Array) {
  const doc = await created(upload(s.admin, { project, sync: 'true' }, { name, data }));
  expect(doc.status, `${name}: ${doc.status_reason}`).toEqual([2, 'Done']);
  const pages = (await s.admin.get(`/api/v3/documents/${doc.id}/pages/`)).body.results;
  return { doc, pages };
}

async function fetchBytes(url: string): Promise<{ status: number; type: string | null; bytes: Buffer }> {
  const r = await fetch(`${s.url}${url}`, { headers: { Authorization: `Token ${s.admin.token}` } });
  return { status: r.status, type: r.headers.get('content-type'), bytes: Buffer.from(await r.arrayBuffer()) };
}

const words = (text: string) => text.split(/\s+/).filter(Boolean);

describe('supported types', () => {
  it('PDF with a text layer: its text, exact boxes, a page image and a thumbnail; the upload is the searchable PDF', async () => {
    const original = await textPdf([[TEXT]], { version: '1.7' });
    const { doc, pages } = await processed('text.pdf', original);
    expect(words(doc.text)).toEqual(words(TEXT));
    expect(pages).toHaveLength(1);
    expect(pages[0]).toMatchObject({ number: 1, ocr: false });
    expect(pages[0].size[0]).toBeGreaterThan(100);
    const image = await fetchBytes(pages[0].image_url);
    expect(image.status).toBe(200);
    expect(image.type).toBe('image/png');
    expect((await sharp(image.bytes).metadata()).width).toBe(pages[0].size[0]);
    const thumb = await fetchBytes(pages[0].thumbnail_url);
    expect(thumb.type).toBe('image/png');
    expect((await sharp(thumb.bytes).metadata()).width).toBeLessThanOrEqual(200);
    const searchable = await fetchBytes(`/doc/show/${doc.id}/`);
    expect(Buffer.compare(searchable.bytes, original)).toBe(0);
  });

  it('scanned PDF: read by OCR, with an invisible text layer placed on the words', async () => {
    const { doc, pages } = await processed('scan.pdf', await scannedPdf(TEXT, 300));
    expect(pages[0].ocr).toBe(true);
    for (const w of ['Invoice', '4711', 'total', 'EUR']) expect(doc.text).toContain(w);
    const hit = (await s.admin.post(`/api/v3/documents/${doc.id}/search/`, { q: 'Invoice' })).body.span[0];
    expect(hit.x1 - hit.x0).toBeGreaterThan(10);
    const searchable = await fetchBytes(`/doc/show/${doc.id}/`);
    const layer = await extractPdfText(new Uint8Array(searchable.bytes));
    const chars = layer[0].chars.filter((c) => c.text.trim());
    expect(chars.map((c) => c.text).join('')).toContain('Invoice');
    // The invisible word sits where OCR found it.
    const first = chars.find((c) => c.text === 'I')!;
    expect(Math.abs(first.x0 - hit.x0)).toBeLessThan(2);
  });

  it('JPEG with EXIF orientation 6: the page is upright (40 x 60 pixels shown as portrait)', async () => {
    const { pages } = await processed('photo.JPG', await orientedJpeg(6));
    const [w, h] = pages[0].original_size;
    expect(h).toBeGreaterThan(w);
    const image = await sharp((await fetchBytes(pages[0].image_url)).bytes).raw().toBuffer({ resolveWithObject: true });
    // Upright, the red square is in the top right corner.
    const px = (x: number, y: number) => image.data.subarray((y * image.info.width + x) * image.info.channels, (y * image.info.width + x) * image.info.channels + 3);
    const topRight = px(image.info.width - 3, 3);
    expect(topRight[0]).toBeGreaterThan(180);
    expect(topRight[1]).toBeLessThan(90);
  });

  it('PNG with alpha: transparent pixels come out white', async () => {
    const { pages } = await processed('logo.png', await transparentPng());
    const image = await sharp((await fetchBytes(pages[0].image_url)).bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    expect([...image.data.subarray(0, 3)]).toEqual([255, 255, 255]);
  });

  it('TIFF with three pages: three pages', async () => {
    const { doc, pages } = await processed('fax.tif', await multiPageTiff(['#ff0000', '#00ff00', '#0000ff'], 200, 120, 100));
    expect(doc.number_of_pages).toBe(3);
    expect(pages.map((p: any) => p.number)).toEqual([1, 2, 3]);
  });

  it('DOCX and XLSX through LibreOffice', { timeout: 120_000 }, async () => {
    const docx = await processed('letter.docx', makeDocx([TEXT]));
    expect(words(docx.doc.text)).toEqual(words(TEXT));
    const xlsx = await processed('sheet.xlsx', makeXlsx([['Total', 99.5]]));
    expect(xlsx.doc.text).toMatch(/Total\s+99[.,]5/);
  });
});

describe('refused and repaired files', () => {
  it('a PDF without its cross-reference table is repaired and read', async () => {
    const { doc } = await processed('cut.pdf', cutXref(await textPdf([[TEXT]])));
    expect(words(doc.text)).toEqual(words(TEXT));
  });

  // Damaged, protected and empty files are accepted and end in 111 with their reason (issue 31): every
  // type in test/http/damagedFiles.test.ts.
  it('a password-protected PDF is accepted and ends in 111, saying so', async () => {
    const r = await upload(s.admin, { project, sync: 'true' }, { name: 'locked.pdf', data: encryptedPdf({ userPassword: 'secret', ownerPassword: 'owner', text: TEXT }) });
    expect(r.status).toBe(201);
    expect(r.body.status_data).toBe(111);
    expect(r.body.status_reason).toMatch(/password/);
  });

  it('a renamed executable is refused with 415 and the supported list', async () => {
    const elf = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.alloc(120)]);
    const r = await upload(s.admin, { project }, { name: 'invoice.pdf', data: elf });
    expect(r.status).toBe(415);
    expect(r.body.data_file[0]).toMatch(/Supported: PDF, JPEG, PNG, TIFF/);
    const docs = (await s.admin.get(`/api/v3/documents/?project=${project}&name=invoice.pdf`)).body;
    expect(docs.count).toBe(0);
  });
});
