// Shared set-up of the document and annotation tests: multipart uploads, a small taxonomy made through
// the API (a category with its default label set plus a repeating label set), and span builders.
import { expect } from 'vitest';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import type { ApiResponse, Client } from './testServer.ts';

export interface UploadFile {
  name: string;
  data: string | Uint8Array;
  type?: string;
}

/** A one-page born-digital PDF carrying `text` (distinct texts give distinct files). */
export async function pdfWithText(text: string): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const page = pdf.addPage([595, 842]);
  page.drawText(text, { x: 72, y: 770, size: 12, font: await pdf.embedFont(StandardFonts.Helvetica) });
  return pdf.save({ useObjectStreams: false });
}

const DEFAULT_PDF = await pdfWithText('Invoice 2024-001 Total 12,50 EUR');
/** The born-digital PDF uploads send when a test names no file. */
export const DEFAULT_PDF_BYTES = DEFAULT_PDF;

/** POST multipart/form-data to an upload endpoint; `file: null` leaves the file part out. */
export function upload(c: Client, fields: Record<string, string | number>, file: UploadFile | null = { name: 'invoice.pdf', data: DEFAULT_PDF }, url = '/api/v3/documents/'): Promise<ApiResponse> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, String(v));
  if (file) form.append('data_file', new Blob([file.data as BlobPart], { type: file.type ?? 'application/pdf' }), file.name);
  return c.request('POST', url, { raw: { data: form } });
}

export async function created(r: Promise<ApiResponse>): Promise<any> {
  const res = await r;
  expect(res.status, res.text).toBe(201);
  return res.body;
}

export interface Taxonomy {
  project: number;
  /** Category "Invoice"; also the id of its default (non-repeating) label set. */
  category: number;
  /** Repeating label set "Line items" of the category. */
  items: number;
  labels: { date: number; total: number; item: number; amount: number };
}

export async function makeTaxonomy(c: Client, projectName = 'Review'): Promise<Taxonomy> {
  const project = (await created(c.post('/api/v3/projects/', { name: projectName }))).id;
  const category = (await created(c.post('/api/v3/categories/', { project, name: 'Invoice' }))).id;
  const label = async (name: string, labelSets: number[]) =>
    (await created(c.post('/api/v3/labels/', { project, name, data_type: 'Text', label_sets: labelSets }))).id as number;
  const date = await label('Date', [category]);
  const total = await label('Total', [category]);
  const item = await label('Item', []);
  const amount = await label('Amount', []);
  const items = (await created(c.post('/api/v3/label-sets/', { project, name: 'Line items', categories: [category], labels: [item, amount], has_multiple_sections: true }))).id;
  return { project, category, items, labels: { date, total, item, amount } };
}

/** A span on page `page` at a rectangle keyed by `n` (distinct n, distinct place). */
export const span = (n: number, text?: string, extra: Record<string, unknown> = {}) => ({
  page_index: 0,
  x0: 10 * n,
  x1: 10 * n + 8,
  y0: 700,
  y1: 712,
  ...(text === undefined ? {} : { offset_string: text }),
  ...extra,
});

/** The letters of `pdfWithLettersAtSpans`: the one inside `span(n)` is SPAN_LETTERS[n - 1] (n = 1 to 52). */
export const SPAN_LETTERS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';

/**
 * A one-page born-digital PDF with a letter inside each rectangle `span(n)` draws: once processed, a
 * span's text and offsets come from the characters inside it (spec 2.10), so tests annotate real text.
 */
export async function pdfWithLettersAtSpans(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const page = pdf.addPage([595, 842]);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  // 7 pt keeps the widest letter (W, 6.6 pt) and the glyph height inside the 8 x 12 pt rectangle.
  [...SPAN_LETTERS].forEach((letter, i) => page.drawText(letter, { x: 10 * (i + 1) + 1, y: 703, size: 7, font }));
  return pdf.save({ useObjectStreams: false });
}

/** A span around the whole text line of `pdfWithText` and the default upload, processed or not. */
export const textLineSpan = (text?: string) => ({
  page_index: 0,
  x0: 60,
  x1: 560,
  y0: 760,
  y1: 790,
  ...(text === undefined ? {} : { offset_string: text }),
});

/** Counts the SQL queries the store runs while `fn` runs. */
export async function countQueries(store: { queryCount(): number }, fn: () => Promise<unknown>): Promise<number> {
  const before = store.queryCount();
  await fn();
  return store.queryCount() - before;
}
