// The PDF worker threads as a shared resource. A failure pdf.js itself reports while reading a file is the file's: retrying cannot cure it, so the
// document ends in 111 at once with words a reviewer understands (processor.ts), instead of five
// attempts with backoff that keep the queue busy and show pdf.js's internals.
import { describe, expect, it } from 'vitest';
import { MAX_BUSY_WORKERS, pdfWorkerStats, readerErrorContext } from '../../main/pipeline/pdfWorkerPool.ts';
import { inspectPdf, onSoundWorker } from '../../main/pipeline/pdfCheck.ts';
import { BrokenPdfError } from '../../main/pipeline/errors.ts';
import { textPdf } from '../fixtures/pdfSamples.ts';
import { renderPages } from '../../main/pipeline/render.ts';
import { DEFAULT_LIMITS } from '../../main/pipeline/limits.ts';

describe('readerErrorContext', () => {
  it('recognises an error pdf.js answered with, and says what was being done', async () => {
    const garbage = Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog /Pages 9 0 R >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
    const err = await (async () => {
      for await (const _ of renderPages(garbage)) { /* not reached */ }
    })().then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect(readerErrorContext(err)).toBe('cannot open the PDF');
  });

  it('leaves out what depends on the moment: errors of Folio itself and memory running out', () => {
    expect(readerErrorContext(new Error('PDF worker exited with code 1'))).toBeUndefined();
    expect(readerErrorContext(Object.assign(new Error('cannot render page 2: Array buffer allocation failed'), { fromReader: true, context: 'cannot render page 2' }))).toBeUndefined();
    expect(readerErrorContext(Object.assign(new Error('cannot render page 2: bad XRef entry'), { fromReader: true, context: 'cannot render page 2' }))).toBe('cannot render page 2');
  });
});

describe('the PDF workers of the process', () => {
  it(`never has more than MAX_BUSY_WORKERS (${MAX_BUSY_WORKERS}) busy at once: 24 upload checks and a rendering wait their turn, and all finish`, async () => {
    const pdfs = await Promise.all(Array.from({ length: 24 }, (_, i) => textPdf([[`Check ${i}`]])));
    let most = 0;
    const sampler = setInterval(() => (most = Math.max(most, pdfWorkerStats().busy)), 2);
    try {
      const rendering = (async () => {
        let pages = 0;
        for await (const _ of renderPages(await textPdf([['one'], ['two'], ['three']]))) pages++;
        return pages;
      })();
      const checks = await Promise.all(pdfs.map((pdf) => inspectPdf(pdf)));
      expect(checks.map((c) => c.pageCount)).toEqual(pdfs.map(() => 1));
      expect(await rendering).toBe(3);
    } finally {
      clearInterval(sampler);
    }
    expect(most).toBeGreaterThan(1);
    expect(most).toBeLessThanOrEqual(MAX_BUSY_WORKERS);
    expect(pdfWorkerStats()).toMatchObject({ busy: 0, waiting: 0 });
  });
});

describe('the upload check when its worker dies', () => {
  it('tries once more on a fresh worker: a worker lost to something else does not fail the upload', async () => {
    const pdf = await textPdf([['survivor']]);
    let tries = 0;
    const probe = await onSoundWorker(async (worker) => {
      if (tries++ === 0) void worker.terminate();
      return worker.probe(pdf, DEFAULT_LIMITS.maxImagePixels);
    });
    expect(tries).toBe(2);
    expect(probe).toMatchObject({ ok: true, pageCount: 1 });
  });

  it('refuses the file with a 400 when it brings the fresh worker down as well', async () => {
    const pdf = await textPdf([['killer']]);
    const err = await onSoundWorker(async (worker) => {
      void worker.terminate();
      return worker.probe(pdf, DEFAULT_LIMITS.maxImagePixels);
    }).then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(BrokenPdfError);
    expect((err as BrokenPdfError).status).toBe(400);
    expect((err as Error).message).toMatch(/stopped the PDF reader/);
    expect(pdfWorkerStats()).toMatchObject({ busy: 0, waiting: 0 });
  });
});
