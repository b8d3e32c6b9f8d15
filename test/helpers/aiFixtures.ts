// Shared set-up of the AI tests through the API: born-digital PDFs of several text pages, and polling an AI
// record or a document until it has finished (training and post-processing run in the background).
import { expect } from 'vitest';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import type { Client } from './testServer.ts';

/** A born-digital A4 PDF: one page per entry, each a list of lines from the top down. */
export async function linesPdf(pages: string[][]): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (const lines of pages) {
    const page = pdf.addPage([595, 842]);
    lines.forEach((line, i) => page.drawText(line, { x: 60, y: 780 - 18 * i, size: 11, font }));
  }
  return pdf.save({ useObjectStreams: false });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls an AI record (`/api/v3/<collection>/<id>/`) until training has ended; returns the record. */
export async function pollAi(c: Client, collection: 'extraction-ais' | 'category-ais' | 'splitting-ais', id: number): Promise<any> {
  for (let i = 0; i < 600; i++) {
    const r = await c.get(`/api/v3/${collection}/${id}/`);
    expect(r.status, r.text).toBe(200);
    if (r.body.status === 'done' || r.body.status === 'failed') return r.body;
    await sleep(100);
  }
  throw new Error(`training of ${collection} ${id} did not end`);
}

/** Statuses a document rests in: done, could not be processed, waiting for splitting confirmation. */
const RESTING = [2, 111, 41];

/** Polls a document's detail until it rests (see RESTING); returns the detail. */
export async function pollDocument(c: Client, id: number): Promise<any> {
  for (let i = 0; i < 600; i++) {
    const r = await c.get(`/api/v3/documents/${id}/`);
    expect(r.status, r.text).toBe(200);
    if (RESTING.includes(r.body.status_data)) return r.body;
    await sleep(100);
  }
  throw new Error(`document ${id} was not processed`);
}
