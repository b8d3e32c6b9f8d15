// pdf.js's legacy build replaces JSON.stringify/parse with slow polyfills when it loads; Folio puts the
// engine's own functions back, so the API's JSON stays fast after a PDF has been read. Folio reads PDFs in
// worker threads (pdf.worker.mjs loads nativeJson.ts first too); this loads pdf.js in the test's own thread.
import { describe, expect, it } from 'vitest';
import { PDFDocument, StandardFonts } from 'pdf-lib';

// Taken before anything in this file loads pdf.js (it is imported dynamically below).
const engineStringify = JSON.stringify;
const engineParse = JSON.parse;

describe('JSON after pdf.js', () => {
  it('keeps the engine JSON.stringify and JSON.parse after pdf.js and its in-thread worker load', async () => {
    const { extractPdfTextInThread } = await import('../../main/pipeline/pdfTextGeometry.ts');
    const pdf = await PDFDocument.create();
    pdf.addPage([200, 200]).drawText('JSON', { x: 20, y: 100, size: 12, font: await pdf.embedFont(StandardFonts.Helvetica) });
    const pages = await extractPdfTextInThread(await pdf.save());
    expect(pages[0].chars.map((c) => c.text).join('')).toBe('JSON');
    expect(JSON.stringify).toBe(engineStringify);
    expect(JSON.parse).toBe(engineParse);
  });
});
