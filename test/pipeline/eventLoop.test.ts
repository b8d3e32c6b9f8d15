// A long born-digital PDF is read in the PDF worker threads, not on the main thread: while its text layer
// is extracted, or a damaged copy is checked and repaired, the event loop stays free for API answers. The
// text and every box are exactly what the same code reads on the main thread.
import { beforeAll, describe, expect, it } from 'vitest';
import { inspectPdf } from '../../main/pipeline/pdfCheck.ts';
import { extractPdfText } from '../../main/pipeline/pdfText.ts';
import { extractPdfTextInThread } from '../../main/pipeline/pdfTextGeometry.ts';
import { measureEventLoop, type LoopUse } from '../helpers/eventLoop.ts';
import { bodyText, bornDigitalPdf } from '../helpers/ocrPages.ts';

const PAGES = 150;
/** pdf.js holds a thread about 10 ms a page: on the main thread the loop is busy the whole time. A loop
 * that only takes in the finished pages is busy a small share of it, and never for long at once. The bound
 * is on the loop's longest busy stretch, not on timer delays: on a loaded machine those include waits for
 * a CPU (measured: 120-170 ms timer delays with the loop 1-5 % busy, at load 11 on 2 cores). */
const MAX_BUSY_MS = 100;
const MAX_UTILIZATION = 0.25;

const figures = (use: LoopUse<unknown>) =>
  `${use.ms.toFixed(0)} ms, loop busy ${(use.utilization * 100).toFixed(0)} % (at most ${use.longestBusyMs.toFixed(0)} ms at once), timer max delay ${use.maxDelayMs.toFixed(0)} ms`;

describe('reading a long PDF off the main thread', () => {
  beforeAll(async () => {
    // Both ways warm, as in a running server: pdf.js loaded in this thread, a PDF worker started.
    const one = await bornDigitalPdf(1);
    await extractPdfText(one);
    await extractPdfTextInThread(one);
  });

  it(`extracts the text of ${PAGES} born-digital pages with the event loop free, as the main thread reads it`, { timeout: 180_000 }, async () => {
    const pdf = await bornDigitalPdf(PAGES);

    const inWorkers = await measureEventLoop(() => extractPdfText(pdf));
    const inThread = await measureEventLoop(() => extractPdfTextInThread(pdf));
    console.log(`${PAGES} born-digital pages in workers: ${figures(inWorkers)}\n${PAGES} born-digital pages on the main thread: ${figures(inThread)}`);
    expect(inWorkers.longestBusyMs).toBeLessThan(MAX_BUSY_MS);
    expect(inWorkers.utilization).toBeLessThan(MAX_UTILIZATION);
    // The measure sees a busy loop: the same work on the main thread keeps it busy most of the time.
    expect(inThread.utilization).toBeGreaterThan(0.5);

    const pages = inWorkers.result;
    expect(pages.map((p) => p.number)).toEqual(Array.from({ length: PAGES }, (_, i) => i + 1));
    pages.forEach((page, i) => {
      expect(page.hasTextLayer).toBe(true);
      expect(page.chars.map((c) => c.text).join('')).toBe(bodyText(i + 1).map((l) => l.text).join(''));
    });
    // Every coordinate to the last bit (JSON prints doubles exactly, and is far quicker than a deep equal here).
    expect(JSON.stringify(pages)).toBe(JSON.stringify(inThread.result));
  });

  it('checks and repairs a damaged long PDF with the event loop free', { timeout: 180_000 }, async () => {
    const pdf = Buffer.from(await bornDigitalPdf(PAGES));
    // Cut before startxref: pdf.js rebuilds the cross-reference by scanning the file, pdf-lib rewrites it.
    const damaged = pdf.subarray(0, pdf.lastIndexOf('startxref'));
    const check = await measureEventLoop(() => inspectPdf(damaged));
    console.log(`check and repair of ${PAGES} damaged pages: ${figures(check)}`);
    expect(check.longestBusyMs).toBeLessThan(MAX_BUSY_MS);
    expect(check.utilization).toBeLessThan(MAX_UTILIZATION);
    expect({ pages: check.result.pageCount, repaired: check.result.repaired }).toEqual({ pages: PAGES, repaired: true });
    const repaired = await extractPdfText(check.result.bytes);
    expect(repaired[PAGES - 1].chars.map((c) => c.text).join('')).toBe(bodyText(PAGES).map((l) => l.text).join(''));
  });
});
