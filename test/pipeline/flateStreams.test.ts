// The decompression cap: a PDF whose Flate stream inflates beyond FOLIO_MAX_STREAM_MB is refused at
// upload with a 413 naming the setting, found by inflating with constant memory; ordinary PDFs (their
// content streams and images) pass.
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PDFDocument } from 'pdf-lib';
import { flateStreams, inflatedSize, oversizedStream } from '../../main/pipeline/flateStreams.ts';
import { inspectPdf } from '../../main/pipeline/pdfCheck.ts';
import { LimitError } from '../../main/pipeline/errors.ts';
import { startTestServer, type TestServer } from '../helpers/testServer.ts';
import { textPdf } from '../fixtures/pdfSamples.ts';

/** A one-page PDF whose page content is a Flate stream of `inflated` bytes (spaces: valid, draws nothing). */
async function pdfWithInflatingStream(inflated: number): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([200, 200]);
  const deflated = zlib.deflateSync(Buffer.alloc(inflated, 0x20), { level: 9 });
  // A raw stream with the Filter named: pdf-lib keeps the bytes as they are.
  const raw = doc.context.stream(deflated, { Filter: 'FlateDecode' });
  page.node.set(doc.context.obj('Contents') as never, doc.context.register(raw));
  return Buffer.from(await doc.save({ useObjectStreams: false }));
}

describe('flateStreams', () => {
  it('finds the Flate streams of a PDF and measures what they inflate to, stopping past the limit', async () => {
    const pdf = await pdfWithInflatingStream(3 * 2 ** 20);
    const streams = [...flateStreams(pdf)];
    expect(streams.length).toBeGreaterThan(0);
    const sizes = await Promise.all(streams.map(([a, b]) => inflatedSize(pdf.subarray(a, b), 2 ** 30)));
    expect(Math.max(...sizes)).toBe(3 * 2 ** 20);
    expect(await oversizedStream(pdf, 2 ** 20)).toBeGreaterThan(2 ** 20);
    expect(await oversizedStream(pdf, 4 * 2 ** 20)).toBeUndefined();
  });

  it('a bomb of 512 MB in half a megabyte is stopped at the limit, not inflated whole', async () => {
    const bomb = await pdfWithInflatingStream(512 * 2 ** 20);
    expect(bomb.length).toBeLessThan(2 ** 20);
    const before = process.memoryUsage().rss;
    const err = await inspectPdf(bomb, { maxStreamBytes: 64 * 2 ** 20 }).then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(LimitError);
    expect((err as LimitError).status).toBe(413);
    expect((err as Error).message).toMatch(/inflates to more than 64 MB.*FOLIO_MAX_STREAM_MB/);
    // Counted and thrown away chunk by chunk: nothing near the inflated size was held.
    expect(process.memoryUsage().rss - before).toBeLessThan(256 * 2 ** 20);
  });

  it('processing does not measure again what the upload check measured (maxStreamBytes Infinity)', async () => {
    // The same small stream that a 1 MB cap refuses passes unmeasured: the pipeline passes Infinity for
    // stored uploads, whose streams the upload check inflated already.
    const pdf = await pdfWithInflatingStream(3 * 2 ** 20);
    await expect(inspectPdf(pdf, { maxStreamBytes: 2 ** 20 })).rejects.toBeInstanceOf(LimitError);
    expect((await inspectPdf(pdf, { maxStreamBytes: Infinity })).pageCount).toBe(1);
  });

  it('ordinary PDFs pass', async () => {
    const ok = await inspectPdf(await textPdf([['Invoice 1'], ['Page two']]), { maxStreamBytes: 2 ** 20 });
    expect(ok.pageCount).toBe(2);
  });
});

describe('upload of a decompression bomb', () => {
  let s: TestServer;
  // The pipeline limits come from the environment (read at start-up, like FOLIO_MAX_PAGES).
  beforeAll(async () => {
    process.env.FOLIO_MAX_STREAM_MB = '16';
    s = await startTestServer();
  });
  afterAll(async () => {
    delete process.env.FOLIO_MAX_STREAM_MB;
    await s.close();
  });

  it('is a 413 that names the setting, and nothing is stored', async () => {
    const project = (await s.admin.post('/api/v3/projects/', { name: 'Bombs' })).body.id;
    const form = new FormData();
    form.append('project', String(project));
    form.append('data_file', new Blob([new Uint8Array(await pdfWithInflatingStream(200 * 2 ** 20))]), 'bomb.pdf');
    const r = await s.admin.request('POST', '/api/v3/documents/', { raw: { data: form } });
    expect(r.status).toBe(413);
    expect(r.body.data_file[0]).toMatch(/FOLIO_MAX_STREAM_MB/);
    expect((await s.admin.get(`/api/v3/documents/?project=${project}`)).body.count).toBe(0);
  });
});
