// The payslip dataset (shared/datasets/payslips) as a Folio project, made through the HTTP API only:
// categories, label sets and labels, documents uploaded as PDFs drawn from their recorded characters, and
// the dataset's reviewed annotations placed at the offsets of FOLIO's text (matched by character box).
import { spansFromChars } from '../../main/domain/geometry.ts';
import type { CharBox } from '../../main/domain/geometry.ts';
import { loadDatasetDocuments, loadPayslipCategories, type DatasetCategory, type DatasetDocument } from '../fixtures/payslipDataset.ts';
import { buildPayslipPdf, loadPayslipDocument } from '../fixtures/payslipPdf.ts';
import { upload } from './documentFixtures.ts';
import type { ApiResponse, Client } from './testServer.ts';

export interface PayslipDocumentRef {
  datasetId: number;
  folioId: number;
  datasetStatus: number;
  /** The DATASET's category id (PayslipProject.categories maps it to Folio's). */
  categoryId: number | null;
}

export interface PayslipProject {
  projectId: number;
  /** Dataset category id -> Folio category id. */
  categories: Map<number, number>;
  /** Dataset label id -> Folio label id. */
  labels: Map<number, number>;
  /** Dataset label set id -> Folio label set id (a category's default label set included). */
  labelSets: Map<number, number>;
  documents: PayslipDocumentRef[];
}

export interface PayslipProjectOptions {
  /** Dataset statuses of the documents to upload (default 2 and 3: training and test). */
  datasetStatuses?: number[];
  /** Create the dataset's reviewed annotations (default true). */
  withAnnotations?: boolean;
  /** Dataset category ids (default both). Only their taxonomy and documents are created. */
  categories?: number[];
  /** At most this many documents (in dataset order). */
  limit?: number;
}

/** Uploads processed at once: Folio processes one document at a time, so more only queue; two keeps the
 * processor busy while the other document's annotations are written. */
const UPLOAD_CONCURRENCY = 2;

const stripSpace = (s: string) => s.replace(/\s+/g, '');

async function ok<T = any>(r: Promise<ApiResponse<T>>, what: string, status = 201): Promise<T> {
  const res = await r;
  if (res.status !== status) throw new Error(`${what}: ${res.status} ${res.text}`);
  return res.body;
}

/** Runs fn over items with at most `limit` calls in flight; results in item order. */
async function mapConcurrently<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

export function payslipCategories(only?: number[]): DatasetCategory[] {
  return loadPayslipCategories().filter((c) => !only || only.includes(c.id));
}

export async function createPayslipProject(c: Client, opts: PayslipProjectOptions = {}): Promise<PayslipProject> {
  const chosen = payslipCategories(opts.categories);
  const project = await createPayslipTaxonomy(c, chosen);
  const statuses = opts.datasetStatuses ?? [2, 3];
  const docs = chosen.flatMap((cat) => statuses.flatMap((s) => loadDatasetDocuments(cat.id, s))).slice(0, opts.limit ?? Infinity);
  project.documents = await uploadPayslipDocuments(c, project, docs, { withAnnotations: opts.withAnnotations ?? true });
  return project;
}

/** The project, its categories, their further label sets and the labels (data type, threshold, sets). */
async function createPayslipTaxonomy(c: Client, categories: DatasetCategory[]): Promise<PayslipProject> {
  const projectId = (await ok(c.post('/api/v3/projects/', { name: 'Payslips' }), 'project')).id as number;
  const p: PayslipProject = { projectId, categories: new Map(), labels: new Map(), labelSets: new Map(), documents: [] };
  for (const cat of categories) {
    const id = (await ok(c.post('/api/v3/categories/', { project: projectId, name: cat.name }), `category ${cat.id}`)).id as number;
    p.categories.set(cat.id, id);
    // A category's default label set shares its id (in the dataset as in Folio).
    p.labelSets.set(cat.id, id);
  }
  // A further label set may serve several categories: create it once, linked to all of them.
  const further = new Map<number, { name: string; repeats: boolean; categories: number[] }>();
  for (const cat of categories) {
    for (const ls of cat.labelSets.filter((s) => s.id !== cat.id)) {
      const entry = further.get(ls.id) ?? { name: ls.name, repeats: ls.hasMultipleSections, categories: [] };
      entry.categories.push(p.categories.get(cat.id)!);
      further.set(ls.id, entry);
    }
  }
  for (const [datasetId, ls] of further) {
    const body = { project: projectId, name: ls.name, categories: ls.categories, has_multiple_sections: ls.repeats };
    p.labelSets.set(datasetId, (await ok(c.post('/api/v3/label-sets/', body), `label set ${datasetId}`)).id);
  }
  const labels = new Map(categories.flatMap((cat) => cat.labels).map((l) => [l.id, l]));
  for (const l of labels.values()) {
    const sets = [...new Set(categories.flatMap((cat) => cat.labels.filter((x) => x.id === l.id).flatMap((x) => x.labelSetIds)))];
    const body = { project: projectId, name: l.name, data_type: l.dataType, threshold: l.threshold, label_sets: sets.map((s) => p.labelSets.get(s)!) };
    p.labels.set(l.id, (await ok(c.post('/api/v3/labels/', body), `label ${l.id}`)).id);
  }
  return p;
}

/** Uploads dataset documents into the project (sync, so each is processed before it is annotated). */
export function uploadPayslipDocuments(
  c: Client,
  p: PayslipProject,
  docs: readonly DatasetDocument[],
  opts: { withAnnotations: boolean; /** Instead of the dataset's status. */ datasetStatus?: number },
): Promise<PayslipDocumentRef[]> {
  return mapConcurrently(docs, UPLOAD_CONCURRENCY, async (doc) => {
    const recorded = loadPayslipDocument(String(doc.id))!;
    const datasetStatus = opts.datasetStatus ?? doc.datasetStatus;
    const fields: Record<string, string | number> = { project: p.projectId, dataset_status: datasetStatus, sync: 'true' };
    const category = doc.categoryId === null ? undefined : p.categories.get(doc.categoryId);
    if (category !== undefined) fields.category = category;
    const body = await ok(upload(c, fields, { name: `${doc.id}.pdf`, data: await buildPayslipPdf(recorded) }), `upload of ${doc.id}`);
    if (body.status_data !== 2) throw new Error(`document ${doc.id} was not processed: status ${JSON.stringify(body.status)} ${body.status_reason ?? ''}`);
    if (opts.withAnnotations) await annotate(c, p, body.id, doc);
    return { datasetId: doc.id, folioId: body.id, datasetStatus, categoryId: doc.categoryId };
  });
}

/**
 * Folio's characters of a document matched to the dataset's. The PDF draws every recorded glyph at its
 * recorded box, so the same page, text and box is the same character: this holds whatever the order or
 * white space of the two texts (Folio pads words into columns; the dataset's text was made elsewhere).
 */
export interface DocumentAlignment {
  text: string;
  pageHeights: number[];
  /** Folio's character boxes in text order. */
  chars: CharBox[];
  /** Dataset offset -> Folio character. */
  toFolio: Map<number, CharBox>;
  /** Folio offset -> dataset offset. */
  toDataset: Map<number, number>;
}

/** Boxes further apart than this (sum of the four coordinate differences, PDF points) are different glyphs. */
const SAME_BOX = 0.5;

export async function alignDocument(c: Client, folioId: number, doc: DatasetDocument): Promise<DocumentAlignment> {
  const detail = await ok(c.get(`/api/v3/documents/${folioId}/`), `document ${folioId}`, 200);
  const bbox = (await ok(c.get(`/api/v3/documents/${folioId}/bbox/`), `bbox of ${folioId}`, 200)).bbox as Record<string, Omit<CharBox, 'offset'>>;
  const chars: CharBox[] = Object.entries(bbox).map(([offset, b]) => ({ ...b, offset: Number(offset) })).sort((a, b) => a.offset - b.offset);
  const cell = (page: number, text: string, x: number, y: number) => `${page}|${text}|${x}|${y}`;
  const grid = new Map<string, CharBox[]>();
  for (const ch of chars) {
    const key = cell(ch.page_index, ch.text, Math.round(ch.x0), Math.round(ch.y0));
    grid.set(key, [...(grid.get(key) ?? []), ch]);
  }
  const toFolio = new Map<number, CharBox>();
  const toDataset = new Map<number, number>();
  for (const d of doc.chars) {
    // Rounding may put the twin into a neighbouring cell: look at the 3 x 3 around it, take the nearest free one.
    let best: CharBox | undefined;
    let bestDistance = SAME_BOX;
    for (const dx of [-1, 0, 1]) {
      for (const dy of [-1, 0, 1]) {
        for (const f of grid.get(cell(d.page_index, d.text, Math.round(d.x0) + dx, Math.round(d.y0) + dy)) ?? []) {
          const distance = Math.abs(f.x0 - d.x0) + Math.abs(f.x1 - d.x1) + Math.abs(f.y0 - d.y0) + Math.abs(f.y1 - d.y1);
          if (distance < bestDistance && !toDataset.has(f.offset)) [best, bestDistance] = [f, distance];
        }
      }
    }
    if (!best) continue;
    toFolio.set(d.offset, best);
    toDataset.set(best.offset, d.offset);
  }
  const pageHeights = (detail.pages as { original_size: [number, number] }[]).map((pg) => pg.original_size[1]);
  return { text: detail.text as string, pageHeights, chars, toFolio, toDataset };
}

/** Spans in Folio's terms (one per line) for a range of the dataset's text. */
function folioSpans(a: DocumentAlignment, doc: DatasetDocument, start: number, end: number, what: string) {
  const matched = doc.chars.filter((ch) => ch.offset >= start && ch.offset < end).map((ch) => a.toFolio.get(ch.offset));
  if (!matched.length || matched.some((ch) => ch === undefined)) throw new Error(`${what}: characters ${start}-${end} have no twin in Folio's text`);
  return spansFromChars(a.text, matched as CharBox[], a.pageHeights).map((s) => ({
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

/**
 * Creates the dataset document's reviewed annotations on Folio's document, set by set: the first
 * annotation of a set names its label set, the others the annotation set the first one got. Accepted
 * annotations are sent reviewed and correct, declined ones reviewed and not correct.
 */
async function annotate(c: Client, p: PayslipProject, folioId: number, doc: DatasetDocument): Promise<void> {
  const alignment = await alignDocument(c, folioId, doc);
  const sets = new Map<string, typeof doc.annotations>();
  for (const a of doc.annotations) sets.set(a.annotationSetKey, [...(sets.get(a.annotationSetKey) ?? []), a]);
  const inReadingOrder = [...sets.values()].sort((x, y) => Math.min(...x.map((a) => a.startOffset)) - Math.min(...y.map((a) => a.startOffset)));
  for (const annotations of inReadingOrder) {
    let annotationSet: number | undefined;
    for (const a of annotations.sort((x, y) => x.startOffset - y.startOffset)) {
      const what = `document ${doc.id}, label ${a.labelId} "${a.text}"`;
      const span = (a.spans?.length ? a.spans : [a]).flatMap((s) => folioSpans(alignment, doc, s.startOffset, s.endOffset, what));
      const body = {
        document: folioId,
        label: p.labels.get(a.labelId),
        ...(annotationSet === undefined ? { label_set: p.labelSets.get(a.labelSetId) } : { annotation_set: annotationSet }),
        span,
        is_correct: a.correct,
        revised: true,
      };
      const created = await ok(c.post('/api/v3/annotations/', body), what);
      if (stripSpace(created.offset_string) !== stripSpace(a.text)) throw new Error(`${what}: Folio's text there is "${created.offset_string}"`);
      annotationSet = created.annotation_set;
    }
  }
}

/**
 * The payslip project by importing the dataset's folder as it is (POST projects/import/, docs/project-folders.md):
 * the folder's own text, boxes and annotations, every document of it; the same maps as createPayslipProject.
 */
export async function importPayslipProject(c: Client, zip: Buffer): Promise<PayslipProject> {
  const form = new FormData();
  form.append('file', new Blob([zip as BlobPart], { type: 'application/zip' }), 'payslips.zip');
  const res = await c.request('POST', '/api/v3/projects/import/', { raw: { data: form } });
  if (res.status !== 201) throw new Error(`import of the payslip folder: ${res.status} ${res.text}`);
  const r = res.body;
  const toMap = (o: Record<string, number>) => new Map(Object.entries(o).map(([k, v]) => [Number(k), v]));
  const categories = payslipCategories();
  const byId = new Map(categories.flatMap((cat) => [2, 3, 4, 0].flatMap((s) => loadDatasetDocuments(cat.id, s))).map((d) => [d.id, d]));
  const documents = Object.entries(r.ids.documents as Record<string, number>)
    .map(([datasetId, folioId]) => ({ doc: byId.get(Number(datasetId)), folioId }))
    .filter((x): x is { doc: DatasetDocument; folioId: number } => x.doc !== undefined)
    .map(({ doc, folioId }) => ({ datasetId: doc.id, folioId, datasetStatus: doc.datasetStatus, categoryId: doc.categoryId }));
  return { projectId: r.project.id, categories: toMap(r.ids.categories), labels: toMap(r.ids.labels), labelSets: toMap(r.ids.label_sets), documents };
}
