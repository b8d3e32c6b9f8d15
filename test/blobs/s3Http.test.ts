// Folio over HTTP with its files in S3 (FOLIO_S3_* pointing at a real s3rver on loopback): a scanned PDF
// uploaded and processed leaves its original, page images and searchable PDF in the bucket and nothing
// under <data>/blobs; downloads stream from the bucket (whole, in ranges, revalidated by ETag); the
// figure finder reads page images through the local cache; deleting the document takes its files out of
// the bucket once no row names them.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3BlobStore } from '../../main/blobs/s3BlobStore.ts';
import { created, upload } from '../helpers/documentFixtures.ts';
import { scannedPdf } from '../fixtures/pdfSamples.ts';
import { startS3rver, type TestS3 } from '../helpers/s3rver.ts';
import { startTestServer, type TestServer } from '../helpers/testServer.ts';

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

let s3: TestS3;
let s: TestServer;
let project: number;

beforeAll(async () => {
  s3 = await startS3rver('folio-http');
  s = await startTestServer({ env: s3.env });
  project = (await s.admin.post('/api/v3/projects/', { name: 'Bucket' })).body.id;
}, 60_000);

afterAll(async () => {
  await s?.close();
  await s3?.stop();
});

/** Blob files under <data>/blobs (the disk store's folders of two hex digits). */
function diskBlobs(): string[] {
  const root = path.join(s.dataDir, 'blobs');
  if (!fs.existsSync(root)) return [];
  return fs.readdirSync(root).filter((d) => /^[0-9a-f]{2}$/.test(d)).flatMap((d) => fs.readdirSync(path.join(root, d)));
}

describe('with FOLIO_S3_* set', () => {
  it('keeps a processed scan in the bucket, serves it from there and takes it out with the document', async () => {
    expect(s.core.blobs).toBeInstanceOf(S3BlobStore);
    const scan = await scannedPdf('Invoice 4711 from the bucket total 99.50');
    const doc = await created(upload(s.admin, { project, sync: 'true' }, { name: 'scan.pdf', data: scan }));
    expect(doc.status).toEqual([2, 'Done']);

    // Original, page image, thumbnail and searchable PDF: all in the bucket, none on the local disk.
    const row = (await s.core.repos.documents.findById(doc.id))!;
    const pages = await s.core.repos.pages.listForDocument(doc.id);
    expect(pages).toHaveLength(1);
    expect(row.blob_key).toBe(sha256(scan));
    expect(row.searchable_blob_key).not.toBe(row.blob_key);
    const keys = [row.blob_key, row.searchable_blob_key!, pages[0]!.image_blob!, pages[0]!.thumbnail_blob!];
    expect(await s3.objects()).toEqual([...keys].sort());
    expect(diskBlobs()).toEqual([]);

    // The original, byte for byte, under its name; then a range of it, and a revalidation by ETag.
    const auth = { Authorization: `Token ${s.admin.token}` };
    const original = await fetch(`${s.url}/doc/show-original/${doc.id}/`, { headers: auth });
    expect(original.status).toBe(200);
    expect(original.headers.get('content-disposition')).toBe('attachment; filename=scan.pdf');
    expect(original.headers.get('accept-ranges')).toBe('bytes');
    expect(Buffer.from(await original.arrayBuffer())).toEqual(scan);
    const part = await fetch(`${s.url}/doc/show-original/${doc.id}/`, { headers: { ...auth, Range: 'bytes=100-199' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 100-199/${scan.length}`);
    expect(Buffer.from(await part.arrayBuffer())).toEqual(scan.subarray(100, 200));
    const tail = await fetch(`${s.url}/doc/show-original/${doc.id}/`, { headers: { ...auth, Range: 'bytes=-10' } });
    expect(Buffer.from(await tail.arrayBuffer())).toEqual(scan.subarray(scan.length - 10));
    const beyond = await fetch(`${s.url}/doc/show-original/${doc.id}/`, { headers: { ...auth, Range: `bytes=${scan.length}-` } });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get('content-range')).toBe(`bytes */${scan.length}`);
    // (fetch() sends Cache-Control: no-cache with a conditional request, an end-to-end reload, unless told otherwise.)
    const again = await fetch(`${s.url}/doc/show-original/${doc.id}/`, { headers: { ...auth, 'If-None-Match': original.headers.get('etag')!, 'Cache-Control': 'max-age=0' } });
    expect(again.status).toBe(304);

    // The searchable PDF: the bucket's object, a PDF with the scan's text.
    const searchable = await fetch(`${s.url}/doc/show/${doc.id}/`, { headers: auth });
    expect(searchable.status).toBe(200);
    expect(searchable.headers.get('content-type')).toBe('application/pdf');
    const pdf = Buffer.from(await searchable.arrayBuffer());
    expect(sha256(pdf)).toBe(row.searchable_blob_key);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');

    // The page image streams from the bucket; the figure finder reads it by path, from the local cache.
    const image = await fetch(`${s.url}/page/show-image/${pages[0]!.id}/`, { headers: auth });
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(sha256(Buffer.from(await image.arrayBuffer()))).toBe(pages[0]!.image_blob);
    const segmentation = await s.admin.get(`/api/projects/${project}/docs/${doc.id}/segmentation/`);
    expect(segmentation.status, segmentation.text).toBe(200);
    expect(fs.readdirSync(path.join(s.dataDir, 's3', 'cache'))).toEqual([pages[0]!.image_blob]);

    // Deleted: its four files leave the bucket, as no other row names them.
    expect((await s.admin.delete(`/api/v3/documents/${doc.id}/`)).status).toBe(204);
    expect(await s3.objects()).toEqual([]);
    expect((await fetch(`${s.url}/doc/show-original/${doc.id}/`, { headers: auth })).status).toBe(404);
  }, 120_000);

  it('keeps the files another document still names when one of two identical uploads is deleted', async () => {
    const before = await s3.objects();
    const scan = await scannedPdf('Delivery note 1234 shared bytes');
    const a = await created(upload(s.admin, { project, sync: 'true' }, { name: 'a.pdf', data: scan }));
    const b = await created(upload(s.admin, { project, sync: 'true' }, { name: 'b.pdf', data: scan }));
    // The same bytes make the same page images and searchable PDF: one object each, named by both rows.
    const [rowA, rowB] = await Promise.all([a.id, b.id].map((id) => s.core.repos.documents.findById(id)));
    expect(rowB!.searchable_blob_key).toBe(rowA!.searchable_blob_key);
    const stored = await s3.objects();
    expect(stored).toContain(rowA!.searchable_blob_key);
    expect((await s.admin.delete(`/api/v3/documents/${a.id}/`)).status).toBe(204);
    expect(await s3.objects()).toEqual(stored);
    const res = await fetch(`${s.url}/doc/show-original/${b.id}/`, { headers: { Authorization: `Token ${s.admin.token}` } });
    expect(Buffer.from(await res.arrayBuffer())).toEqual(scan);
    expect((await s.admin.delete(`/api/v3/documents/${b.id}/`)).status).toBe(204);
    expect(await s3.objects()).toEqual(before);
  }, 120_000);
});
