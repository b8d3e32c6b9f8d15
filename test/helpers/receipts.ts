// The SROIE receipts (../shared/datasets/sroie-dev) as Folio sees them through its HTTP API: a fixed split
// by receipt number, uploads of the images (OCR'd by Folio), Folio's text and character boxes read back,
// and each key value found in that text (whitespace and case tolerant) so it can be labelled there.
// Receipts whose number is divisible by 5 are held back for evaluation: they are never listed or read.
import fs from 'node:fs';
import path from 'node:path';
import { spansFromChars } from '../../main/domain/geometry.ts';
import type { CharBox } from '../../main/domain/geometry.ts';
import type { ExtractionDocument } from '../../main/ai/extraction/types.ts';
import { normalize } from '../../main/domain/normalization.ts';
import { repoRoot } from './processes.ts';
import { upload } from './documentFixtures.ts';
import type { ApiResponse, Client } from './testServer.ts';

export const RECEIPTS_DIR = path.resolve(repoRoot, '..', 'shared', 'datasets', 'sroie-dev');
export const RECEIPT_FIELDS = ['company', 'date', 'address', 'total'] as const;
export type ReceiptField = (typeof RECEIPT_FIELDS)[number];
export type ReceiptKey = Partial<Record<ReceiptField, string>>;

/** The held-back rule, applied to every number before any file of it is touched. */
export const isHeldBack = (n: number) => n % 5 === 0;

/** Receipt numbers present in the folder, held-back ones filtered out, ascending. */
export function receiptNumbers(): number[] {
  return fs
    .readdirSync(path.join(RECEIPTS_DIR, 'img'))
    .map((f) => /^(\d+)\.jpg$/.exec(f))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => Number(m[1]))
    .filter((n) => !isHeldBack(n))
    .sort((a, b) => a - b);
}

/** A fixed split by number: the first `train` receipts train, the next `test` test; the rest are left over. */
export function receiptSplit(train: number, test: number): { train: number[]; test: number[]; rest: number[] } {
  const all = receiptNumbers();
  return { train: all.slice(0, train), test: all.slice(train, train + test), rest: all.slice(train + test) };
}

/** Receipts 200-249 are sealed (the data set's README): a bench reads them once, at the end of a piece of work. */
export const isSealed = (n: number) => n >= 200;

/** The shop a receipt is from: its company key, case and white space and punctuation aside. */
export const shopOf = (n: number): string => (readReceiptKey(n).company ?? '').toUpperCase().replace(/[^A-Z0-9]+/g, ' ').trim();

/** FNV-1a of a string: a fixed, platform-free order for shops. */
function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

/**
 * A split by shop over the development receipts (1-199): whole shops, in an order fixed by a hash of their
 * name, go to the test side until it holds `test` receipts; the other shops' receipts train (the first
 * `train` of them by number). No test receipt's shop is among the training receipts' shops, so the figure
 * says how Folio does on layouts it has not seen.
 */
export function shopDisjointSplit(train: number, test: number): { train: number[]; test: number[]; shops: { train: number; test: number } } {
  const dev = receiptNumbers().filter((n) => !isSealed(n));
  const byShop = new Map<string, number[]>();
  for (const n of dev) byShop.set(shopOf(n), [...(byShop.get(shopOf(n)) ?? []), n]);
  const shops = [...byShop.keys()].sort((a, b) => fnv1a(a) - fnv1a(b) || a.localeCompare(b));
  const testShops = new Set<string>();
  let testCount = 0;
  for (const shop of shops) {
    if (testCount >= test) break;
    testShops.add(shop);
    testCount += byShop.get(shop)!.length;
  }
  const testNumbers = dev.filter((n) => testShops.has(shopOf(n)));
  const trainNumbers = dev.filter((n) => !testShops.has(shopOf(n))).slice(0, train);
  const trainShops = new Set(trainNumbers.map(shopOf));
  return { train: trainNumbers, test: testNumbers, shops: { train: trainShops.size, test: testShops.size } };
}

const fileName = (n: number) => String(n).padStart(3, '0');

export function readReceiptImage(n: number): Uint8Array {
  if (isHeldBack(n)) throw new Error(`receipt ${n} is held back`);
  return fs.readFileSync(path.join(RECEIPTS_DIR, 'img', `${fileName(n)}.jpg`));
}

export function readReceiptKey(n: number): ReceiptKey {
  if (isHeldBack(n)) throw new Error(`receipt ${n} is held back`);
  return JSON.parse(fs.readFileSync(path.join(RECEIPTS_DIR, 'key', `${fileName(n)}.json`), 'utf8')) as ReceiptKey;
}

async function ok<T = any>(r: Promise<ApiResponse<T>>, what: string, status = 201): Promise<T> {
  const res = await r;
  if (res.status !== status) throw new Error(`${what}: ${res.status} ${res.text}`);
  return res.body;
}

/** Uploads a receipt image with sync=true, so it comes back OCR'd (and extracted, when an AI is active). */
export async function uploadReceipt(c: Client, fields: Record<string, string | number>, n: number): Promise<any> {
  const body = await ok(upload(c, { ...fields, sync: 'true' }, { name: `${fileName(n)}.jpg`, data: readReceiptImage(n), type: 'image/jpeg' }), `upload of receipt ${n}`);
  if (body.status_data !== 2) throw new Error(`receipt ${n} was not processed: status ${JSON.stringify(body.status)} ${body.status_reason ?? ''}`);
  return body;
}

/** A project with the receipt labels (company, date, address, total) in one category. */
export async function receiptProject(c: Client, name: string): Promise<{ project: number; category: number; labels: Record<string, number> }> {
  const project = (await ok(c.post('/api/v3/projects/', { name }), `project ${name}`)).id as number;
  const category = (await ok(c.post('/api/v3/categories/', { project, name: 'Receipt' }), 'category')).id as number;
  const labels: Record<string, number> = {};
  for (const field of RECEIPT_FIELDS) labels[field] = (await ok(c.post('/api/v3/labels/', { project, name: field, data_type: RECEIPT_DATA_TYPES[field], label_sets: [category] }), `label ${field}`)).id;
  return { project, category, labels };
}

/** Uploads a receipt and labels every place its key values stand in Folio's OCR text (one annotation set). */
export async function uploadLabelledReceipt(c: Client, project: number, category: number, labels: Record<string, number>, n: number, datasetStatus: number) {
  const body = await uploadReceipt(c, { project, category, dataset_status: datasetStatus }, n);
  const doc = await readOcr(c, body.id);
  const key = readReceiptKey(n);
  const missing: string[] = [];
  const unlabelled: string[] = [];
  let annotationSet: number | undefined;
  for (const field of RECEIPT_FIELDS) {
    const value = key[field];
    if (!value) continue;
    // The key names the value, not where it is printed: a total printed beside "Total" and again beside
    // "Cash" is labelled at both places (the model learns it as one value of a non-repeating label).
    const ranges = findValueRanges(doc.text, value);
    if (!ranges.length) missing.push(field);
    for (const range of ranges) {
      const where = annotationSet === undefined ? { label_set: category } : { annotation_set: annotationSet };
      const post = (span: unknown[]) => c.post('/api/v3/annotations/', { document: body.id, label: labels[field], ...where, span, is_correct: true, revised: true });
      const spans = spansOf(doc, range);
      let r = await post(spans);
      // Folio reads a span as the characters inside its rectangle; on a skewed scan the box of a value can
      // reach into the next line. Its middle band still holds the value's line alone: try that once.
      if (r.status === 400) r = await post(spans.map((sp) => ({ ...sp, y0: sp.y0 + 0.3 * (sp.y1 - sp.y0), y1: sp.y1 - 0.3 * (sp.y1 - sp.y0) })));
      if (r.status === 400) {
        unlabelled.push(field);
        continue;
      }
      if (r.status !== 201) throw new Error(`receipt ${n} ${field}: ${r.status} ${r.text}`);
      annotationSet = r.body.annotation_set;
    }
  }
  return { n, id: body.id as number, missing, unlabelled };
}

/** Folio's text, character boxes and page sizes of a processed document, as the extraction AI sees them. */
export async function readOcr(c: Client, folioId: number): Promise<ExtractionDocument> {
  const detail = await ok(c.get(`/api/v3/documents/${folioId}/`), `document ${folioId}`, 200);
  const bbox = (await ok(c.get(`/api/v3/documents/${folioId}/bbox/`), `bbox of ${folioId}`, 200)).bbox as Record<string, Omit<CharBox, 'offset'>>;
  const chars: CharBox[] = Object.entries(bbox).map(([offset, b]) => ({ ...b, offset: Number(offset) })).sort((a, b) => a.offset - b.offset);
  const pageSizes = (detail.pages as { original_size: [number, number] }[]).map((p) => ({ width: p.original_size[0], height: p.original_size[1] }));
  return { id: folioId, text: (detail.text as string) ?? '', chars, pageSizes };
}

/**
 * Where a key value stands in the OCR text: every occurrence, as code-point ranges. Case and white space
 * are ignored, and so is a comma where the key joins two printed lines with ", " (SROIE's addresses), since
 * the receipt may print no comma there. A value that is not in the text gives no range.
 */
export function findValueRanges(text: string, value: string): { start: number; end: number }[] {
  const cps = Array.from(text);
  // The text without white space, lower case, and the code-point offset of each of its characters.
  let squeezed = '';
  const offsets: number[] = [];
  cps.forEach((ch, i) => {
    if (/\s/u.test(ch)) return;
    const lower = ch.toLowerCase();
    // toLowerCase keeps one code point for the scripts here; guard the mapping anyway.
    for (const _ of Array.from(lower)) offsets.push(i);
    squeezed += lower;
  });
  const parts = value.trim().toLowerCase().split(/,\s+/).map((p) => p.replace(/\s+/g, ''));
  if (!parts.join('')) return [];
  const escape = (s: string) => Array.from(s).map((ch) => ch.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('');
  const pattern = new RegExp(parts.map(escape).join(',?'), 'gu');
  const ranges: { start: number; end: number }[] = [];
  // Offsets index code units of `squeezed` only when it has no surrogate pairs; map through code points.
  const unitToPoint: number[] = [];
  let point = 0;
  for (let u = 0; u < squeezed.length; u++) {
    unitToPoint.push(point);
    const code = squeezed.charCodeAt(u);
    if (code < 0xd800 || code > 0xdbff) point++;
  }
  unitToPoint.push(point);
  for (const m of squeezed.matchAll(pattern)) {
    if (!m[0].length) continue;
    const first = unitToPoint[m.index!];
    const last = unitToPoint[m.index! + m[0].length] - 1;
    ranges.push({ start: offsets[first], end: offsets[last] + 1 });
  }
  return ranges;
}

/** The API's span objects (one per line) for a code-point range of a processed document's text. */
export function spansOf(doc: ExtractionDocument, range: { start: number; end: number }) {
  const chars = doc.chars.filter((ch) => ch.offset >= range.start && ch.offset < range.end);
  return spansFromChars(doc.text, chars, doc.pageSizes.map((p) => p.height)).map((s) => ({
    page_index: s.page_index,
    x0: s.x0,
    x1: s.x1,
    y0: s.y0,
    y1: s.y1,
    top: s.top,
    bottom: s.bottom,
    start_offset: s.start_offset,
    end_offset: s.end_offset,
    offset_string: s.offset_string,
  }));
}

/** How a receipt field's value is compared: date by its normalized date, total by its number, text fields
 * exactly after white space is collapsed (against the key, or against the OCR text where the key stands). */
export const RECEIPT_DATA_TYPES: Record<ReceiptField, 'Text' | 'Date' | 'Number'> = { company: 'Text', date: 'Date', address: 'Text', total: 'Number' };

const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

/** The number a total is written as ("RM 60.30", "60,30"), or null. */
export function amountOf(text: string): number | null {
  const m = /\d[\d,.]*/.exec(text.replace(/\s+/g, ''));
  if (!m) return null;
  const core = m[0].replace(/[.,]$/, '');
  const last = Math.max(core.lastIndexOf('.'), core.lastIndexOf(','));
  const value = last >= 0 && core.length - last - 1 <= 2 ? Number(`${core.slice(0, last).replace(/[.,]/g, '')}.${core.slice(last + 1)}`) : Number(core.replace(/[.,]/g, ''));
  return Number.isFinite(value) ? value : null;
}

export function sameReceiptValue(field: ReceiptField, found: string, key: string, goldTexts: readonly string[], normalizeDate: (text: string) => unknown): boolean {
  if (field === 'total') {
    const a = amountOf(found);
    return a !== null && a === amountOf(key);
  }
  if (field === 'date') {
    const a = normalizeDate(found);
    if (a !== null && a !== undefined && a === normalizeDate(key)) return true;
  }
  const f = squash(found);
  return f === squash(key) || goldTexts.some((g) => squash(g) === f);
}

/** A value the AI extracted for a field: its text, and the date Folio normalized it to when known. */
export interface FoundValue {
  text: string;
  normalized?: unknown;
}

export interface ReceiptFieldFigures {
  values: number;
  inOcr: number;
  right: number;
  rightInOcr: number;
  wrong: number;
  f1: number;
  f1InOcr: number;
}

export interface ReceiptFigures {
  fields: Record<string, ReceiptFieldFigures>;
  /** Share of the key values in the OCR text that the AI found. */
  found: number;
  trainingSeconds: number;
}

const f1Of = (tp: number, fp: number, fn: number) => (tp ? (2 * tp) / (2 * tp + fp + fn) : 0);
const dateOf = (text: string) => normalize(text, 'Date');

/** Counts, over test receipts, the key values, those in the OCR text, the right and the wrong values found
 * (bench:receipts over HTTP and bench:receipts-dev in-process score alike). */
export class ReceiptTally {
  private readonly counts = Object.fromEntries(RECEIPT_FIELDS.map((f) => [f, { values: 0, inOcr: 0, right: 0, rightInOcr: 0, wrong: 0 }]));
  /** The values in the OCR text that were not found, key beside what was. */
  readonly misses: string[] = [];

  add(n: number, text: string, key: ReceiptKey, found: (field: ReceiptField) => FoundValue[]): void {
    const cps = Array.from(text);
    for (const field of RECEIPT_FIELDS) {
      const value = key[field];
      const mine = found(field);
      const k = this.counts[field];
      const ranges = value ? findValueRanges(text, value) : [];
      const golds = ranges.map((r) => cps.slice(r.start, r.end).join(''));
      // Dates compare by what Folio normalized the annotation to, when it says.
      const right = value ? mine.filter((a) => sameReceiptValue(field, a.text, value, golds, (t) => (t === a.text && a.normalized !== undefined ? a.normalized : dateOf(t)))) : [];
      if (value) k.values += 1;
      if (ranges.length) k.inOcr += 1;
      if (right.length) {
        k.right += 1;
        if (ranges.length) k.rightInOcr += 1;
      }
      k.wrong += mine.length - Math.min(1, right.length);
      if (value && ranges.length && !right.length) this.misses.push(`receipt ${n} ${field}: key ${JSON.stringify(value)}, found ${JSON.stringify(mine.map((a) => a.text))}`);
    }
  }

  figures(trainingSeconds: number): ReceiptFigures {
    const figures: ReceiptFigures = { fields: {}, found: 0, trainingSeconds };
    let inOcr = 0;
    let foundInOcr = 0;
    for (const field of RECEIPT_FIELDS) {
      const k = this.counts[field];
      figures.fields[field] = { ...k, f1: f1Of(k.right, k.wrong, k.values - k.right), f1InOcr: f1Of(k.rightInOcr, k.wrong, k.inOcr - k.rightInOcr) };
      inOcr += k.inOcr;
      foundInOcr += k.rightInOcr;
    }
    figures.found = inOcr ? foundInOcr / inOcr : 0;
    return figures;
  }
}

/** The per-field table and the found share, each figure beside a baseline run's when there is one. */
export function printReceiptFigures(figures: ReceiptFigures, baseline: ReceiptFigures | null): void {
  const beside = (v: number, b: number | undefined) => `${v.toFixed(3)}${b === undefined ? '' : ` (baseline ${b.toFixed(3)})`}`;
  console.log(`  ${'field'.padEnd(8)}  in OCR text   found   wrong   F1 (all key values)          F1 (values in the OCR text)`);
  let inOcr = 0;
  let found = 0;
  for (const field of RECEIPT_FIELDS) {
    const x = figures.fields[field];
    const b = baseline?.fields[field];
    inOcr += x.inOcr;
    found += x.rightInOcr;
    console.log(`  ${field.padEnd(8)}  ${`${x.inOcr}/${x.values}`.padStart(11)}   ${String(x.rightInOcr).padStart(5)}   ${String(x.wrong).padStart(5)}   ${beside(x.f1, b?.f1).padEnd(28)} ${beside(x.f1InOcr, b?.f1InOcr)}`);
  }
  console.log(`  found ${found} of the ${inOcr} values in the OCR text: ${beside(figures.found, baseline?.found)}`);
}
