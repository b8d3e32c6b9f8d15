// Reads a project folder as the hosted service's SDK writes it (konfuzio_sdk/data.py: Project(id_,
// update=True), export_project; docs/project-folders.md) into one checked description, before anything is
// stored. Both of the SDK's layouts of the taxonomy are read:
// - categories_and_label_data.json5: the categories, each with its `schema` of label sets and their labels
//   (the SDK's own since the v3 API);
// - labels.json5 and label_sets.json5: the older one (../shared/datasets/payslips), where a category is its
//   default label set (`is_default`, the category's id) and a further label set names its categories in
//   `default_label_sets` / `default_section_labels`.
// A document is documents/<id>/ with document.txt, pages.json5, bbox.zip (bbox.json5: every character by
// its offset), annotations.json5, annotation_sets.json5, optionally page_<n>.png, its file under its name
// and missing_annotations.json5 (Folio's, which the SDK does not know and leaves alone).
// Every mistake is a FolderError naming the file and what in it is wrong.
import { createHash } from 'node:crypto';
import type { CharBox } from '../domain/geometry.ts';
import { labelDataType, type LabelDataType } from '../../shared/schemas/taxonomy.ts';
import { DatasetStatus } from '../domain/documentStatus.ts';
import type { StoredSpan } from '../domain/spans.ts';
import { readZip, ZipReadError } from '../domain/zip.ts';
import { FolderError } from './errors.ts';
import type { FolderFiles } from './files.ts';
import { sdkFileName } from './sdkNames.ts';

export interface FolderLabel {
  id: number;
  name: string;
  dataType: LabelDataType;
  description: string;
  threshold: number;
}

export interface FolderLabelSet {
  id: number;
  name: string;
  /** A category's default label set: its id is the category's. */
  isDefault: boolean;
  hasMultipleSections: boolean;
  categoryIds: number[];
  labelIds: number[];
}

export interface FolderCategory {
  id: number;
  name: string;
}

export interface FolderPage {
  number: number;
  widthPt: number;
  heightPt: number;
  /** The page image's size (pages.json5 `size`), when the folder says. */
  imageSize: [number, number] | null;
  /** page_<number>.png, when the folder has it. */
  image?: Buffer;
}

export interface FolderAnnotation {
  id: number;
  labelId: number;
  labelSetId: number;
  annotationSetId: number;
  isCorrect: boolean;
  revised: boolean;
  confidence: number | null;
  origin: 'human' | 'machine';
  spans: StoredSpan[];
  /** The folder's custom_offset_string (a text typed over what was read), when it says. */
  customOffsetString: boolean | null;
}

export interface FolderMissing {
  labelId: number;
  labelSetId: number;
  annotationSetId: number;
}

export interface FolderDocument {
  id: number;
  fileName: string;
  categoryId: number | null;
  datasetStatus: number;
  isReviewed: boolean;
  categoryIsRevised: boolean;
  /** The record's times from documents_meta.json5 (ISO 8601 UTC), when it has them. */
  createdAt: string | null;
  updatedAt: string | null;
  text: string;
  pages: FolderPage[];
  /** Every character box of bbox.zip, in offset order; none when the folder has no bbox.zip. */
  chars: CharBox[];
  hasBoxes: boolean;
  /** documents_meta.json5 lists it, but the folder has no documents/<id>/ for it. */
  hasFolder: boolean;
  annotationSets: { id: number; labelSetId: number }[];
  annotations: FolderAnnotation[];
  missing: FolderMissing[];
  /** The uploaded file and its searchable PDF (`<name>_ocr.pdf`), when the folder holds them. */
  original?: Buffer;
  searchable?: Buffer;
}

export interface ProjectFolder {
  name: string;
  categories: FolderCategory[];
  labelSets: FolderLabelSet[];
  labels: FolderLabel[];
  documents: FolderDocument[];
  /** SHA-256 over the folder's project files: the same folder imported twice has the same one. */
  fingerprint: string;
}

/** Folio's own description of the project (name, OCR languages); the SDK neither writes nor reads it. */
export const PROJECT_FILE = 'folio_project.json5';
export const MISSING_FILE = 'missing_annotations.json5';
/** A document folder's own files (besides page_<n>.png), which no document's file may stand for. */
const OWN_FILES = new Set(['document.txt', 'pages.json5', 'bbox.zip', 'annotations.json5', 'annotation_sets.json5', 'bio_scheme.txt', MISSING_FILE]);

type Json = any;

/** A page without a size in the folder: A4 in points. */
const A4 = [595.28, 841.89] as const;

function parseJson(files: FolderFiles, relative: string, required: true): Json;
function parseJson(files: FolderFiles, relative: string, required: false): Json | undefined;
function parseJson(files: FolderFiles, relative: string, required: boolean): Json | undefined {
  const bytes = files.read(relative);
  if (!bytes) {
    if (required) throw new FolderError(`${files.label}: ${relative} is missing.`);
    return undefined;
  }
  try {
    // The SDK writes its .json5 files with json.dump: plain JSON.
    return JSON.parse(bytes.toString('utf8'));
  } catch (err) {
    throw new FolderError(`${files.label}: ${relative} is not valid JSON (${(err as Error).message}).`);
  }
}

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);
const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

function need<T>(ok: boolean, value: T, where: string, what: string): T {
  if (!ok) throw new FolderError(`${where}: ${what}`);
  return value;
}

function list(v: Json, where: string): Json[] {
  return need(Array.isArray(v), v as Json[], where, 'expected a JSON list.');
}

function intField(o: Json, key: string, where: string): number {
  return need(isInt(o?.[key]), o?.[key] as number, where, `"${key}" must be an integer, got ${JSON.stringify(o?.[key])}.`);
}

function dataTypeOf(raw: unknown, where: string): LabelDataType {
  const t = raw === undefined || raw === null ? 'Text' : typeof raw === 'string' ? labelDataType(raw) : undefined;
  return need(t !== undefined, t as LabelDataType, where, `unknown data type ${JSON.stringify(raw)} (Text, Number, Positive Number, Percentage, Date or True/False).`);
}

function labelOf(l: Json, nameKey: 'text' | 'name', where: string): FolderLabel {
  const name = l?.[nameKey];
  return {
    id: intField(l, 'id', where),
    name: need(typeof name === 'string' && name.trim() !== '', String(name), where, `"${nameKey}" (the label's name) is missing.`),
    dataType: dataTypeOf(l.get_data_type_display ?? l.data_type, where),
    description: typeof l.description === 'string' ? l.description : '',
    threshold: isNum(l.threshold) ? l.threshold : 0.1,
  };
}

/** The taxonomy from categories_and_label_data.json5 (the SDK's current layout). */
function nestedTaxonomy(data: Json, where: string) {
  const categories: FolderCategory[] = [];
  const sets = new Map<number, FolderLabelSet>();
  const labels = new Map<number, FolderLabel>();
  for (const [i, c] of list(data, where).entries()) {
    const at = `${where}, category ${i + 1}`;
    const id = intField(c, 'id', at);
    need(typeof c.name === 'string' && c.name.trim() !== '', null, at, 'the category has no name.');
    categories.push({ id, name: c.name });
    for (const [j, s] of list(c.schema ?? [], `${at}, schema`).entries()) {
      const sat = `${at}, label set ${j + 1}`;
      const sid = intField(s, 'id', sat);
      const set = sets.get(sid) ?? {
        id: sid,
        name: need(typeof s.name === 'string' && s.name.trim() !== '', String(s.name), sat, 'the label set has no name.'),
        isDefault: sid === id,
        hasMultipleSections: !!(s.has_multiple_annotation_sets ?? s.has_multiple_sections),
        categoryIds: [],
        labelIds: [],
      };
      if (!set.categoryIds.includes(id)) set.categoryIds.push(id);
      for (const [k, l] of list(s.labels ?? [], `${sat}, labels`).entries()) {
        const label = labelOf(l, 'name', `${sat}, label ${k + 1}`);
        if (!labels.has(label.id)) labels.set(label.id, label);
        if (!set.labelIds.includes(label.id)) set.labelIds.push(label.id);
      }
      sets.set(sid, set);
    }
    // A category's default label set is there even when its schema leaves it out (no labels of its own).
    if (!sets.has(id)) sets.set(id, { id, name: c.name, isDefault: true, hasMultipleSections: false, categoryIds: [id], labelIds: [] });
  }
  return { categories, labelSets: [...sets.values()], labels: [...labels.values()] };
}

/** The taxonomy from labels.json5 and label_sets.json5 (the older layout). */
function flatTaxonomy(labelData: Json, setData: Json, files: FolderFiles) {
  const labels = list(labelData, `${files.label}: labels.json5`).map((l, i) => labelOf(l, 'text', `${files.label}: labels.json5, label ${i + 1}`));
  const raw = list(setData, `${files.label}: label_sets.json5`);
  const categories: FolderCategory[] = [];
  const labelSets: FolderLabelSet[] = raw.map((s, i) => {
    const at = `${files.label}: label_sets.json5, label set ${i + 1}`;
    const id = intField(s, 'id', at);
    need(typeof s.name === 'string' && s.name.trim() !== '', null, at, 'the label set has no name.');
    const labelIds = list(s.labels ?? [], `${at}, labels`).map((l: Json) => (isInt(l) ? l : intField(l, 'id', `${at}, labels`)));
    const isDefault = !!s.is_default;
    if (isDefault) categories.push({ id, name: s.name });
    const named = s.default_label_sets ?? s.default_section_labels ?? [];
    return {
      id,
      name: s.name,
      isDefault,
      hasMultipleSections: !!(s.has_multiple_sections ?? s.has_multiple_annotation_sets),
      // A category's default label set belongs to the category itself (its list names its further sets).
      categoryIds: isDefault ? [id] : list(named, `${at}, default_label_sets`).map((c: Json) => need(isInt(c), c as number, at, `category id ${JSON.stringify(c)} is not an integer.`)),
      labelIds,
    };
  });
  return { categories, labelSets, labels };
}

function checkTaxonomy(t: { categories: FolderCategory[]; labelSets: FolderLabelSet[]; labels: FolderLabel[] }, where: string): void {
  const dup = (ids: number[]) => ids.find((id, i) => ids.indexOf(id) !== i);
  const d1 = dup(t.categories.map((c) => c.id));
  if (d1 !== undefined) throw new FolderError(`${where}: category ${d1} is there twice.`);
  const d2 = dup(t.labels.map((l) => l.id));
  if (d2 !== undefined) throw new FolderError(`${where}: label ${d2} is there twice.`);
  const d3 = dup(t.labelSets.map((s) => s.id));
  if (d3 !== undefined) throw new FolderError(`${where}: label set ${d3} is there twice.`);
  const names = t.categories.map((c) => c.name);
  const dn = names.find((n, i) => names.indexOf(n) !== i);
  if (dn !== undefined) throw new FolderError(`${where}: two categories are called "${dn}".`);
  const labelIds = new Set(t.labels.map((l) => l.id));
  const categoryIds = new Set(t.categories.map((c) => c.id));
  for (const s of t.labelSets) {
    const unknownLabel = s.labelIds.find((id) => !labelIds.has(id));
    if (unknownLabel !== undefined) throw new FolderError(`${where}: label set ${s.id} ("${s.name}") names label ${unknownLabel}, which the folder does not describe.`);
    const unknownCategory = s.categoryIds.find((id) => !categoryIds.has(id));
    if (unknownCategory !== undefined) throw new FolderError(`${where}: label set ${s.id} ("${s.name}") names category ${unknownCategory}, which the folder does not describe.`);
  }
}

/** The characters of bbox.json5 as Folio stores them: lines numbered through the document from 1. */
function charsOf(bbox: Json, text: string[], pages: FolderPage[], where: string): CharBox[] {
  need(bbox !== null && typeof bbox === 'object' && !Array.isArray(bbox), null, where, 'bbox.json5 must be an object of characters keyed by their offset.');
  const entries = Object.entries(bbox as Record<string, Json>)
    .map(([key, c]) => {
      const offset = Number(key);
      const at = `${where}, character ${key}`;
      need(Number.isInteger(offset) && offset >= 0 && offset < text.length, null, at, `the offset is not in document.txt (${text.length} characters).`);
      for (const k of ['x0', 'x1', 'y0', 'y1']) need(isNum(c?.[k]), null, at, `"${k}" must be a number.`);
      const pageIndex = isInt(c.page_index) ? c.page_index : isInt(c.page_number) ? c.page_number - 1 : NaN;
      need(pageIndex >= 0 && pageIndex < pages.length, null, at, `its page (${c.page_number ?? c.page_index}) is not one of the document's ${pages.length}.`);
      need(typeof c.text === 'string' && c.text === text[offset], null, at, `its text ${JSON.stringify(c.text)} is not document.txt's ${JSON.stringify(text[offset])} at that offset.`);
      return { offset, c, pageIndex };
    })
    .sort((a, b) => a.offset - b.offset);
  const lines = new Map<string, number>();
  return entries.map(({ offset, c, pageIndex }) => {
    const key = `${pageIndex}:${c.line_number ?? c.line_index ?? 0}`;
    if (!lines.has(key)) lines.set(key, lines.size + 1);
    const height = pages[pageIndex].heightPt;
    const [x0, x1, y0, y1] = [Math.min(c.x0, c.x1), Math.max(c.x0, c.x1), Math.min(c.y0, c.y1), Math.max(c.y0, c.y1)];
    return { offset, text: c.text, x0, x1, y0, y1, top: height - y1, bottom: height - y0, page_index: pageIndex, line_index: lines.get(key)! };
  });
}

function spansOf(a: Json, text: string[], pageCount: number, where: string): StoredSpan[] {
  // Old files carry `bboxes`, the API's annotation lists `span`; one of them lists the annotation's spans.
  const raw = list(a.bboxes ?? a.span ?? [], `${where}, bboxes`);
  need(raw.length > 0, null, where, 'the annotation has no spans (bboxes).');
  return raw.map((s: Json, i: number) => {
    const at = `${where}, span ${i + 1}`;
    for (const k of ['x0', 'x1', 'y0', 'y1']) need(isNum(s?.[k]), null, at, `"${k}" must be a number.`);
    const pageIndex = intField(s, 'page_index', at);
    need(pageIndex >= 0 && pageIndex < pageCount, null, at, `page_index ${pageIndex} is not one of the document's ${pageCount} pages.`);
    const start = s.start_offset ?? null;
    const end = s.end_offset ?? null;
    if (start !== null || end !== null) {
      need(isInt(start) && isInt(end) && start >= 0 && start < end && end <= text.length, null, at, `offsets ${start} to ${end} are not a range of document.txt (${text.length} characters).`);
    }
    const found = start === null ? '' : text.slice(start, end).join('');
    const offsetString = typeof s.offset_string === 'string' ? s.offset_string : found;
    return {
      page_index: pageIndex,
      x0: s.x0,
      x1: s.x1,
      y0: s.y0,
      y1: s.y1,
      top: isNum(s.top) ? s.top : null,
      bottom: isNum(s.bottom) ? s.bottom : null,
      offset_string: offsetString,
      offset_string_original: typeof s.offset_string_original === 'string' ? s.offset_string_original : offsetString,
      start_offset: start,
      end_offset: end,
    };
  });
}

function timeOf(raw: unknown, where: string, key: string): string | null {
  if (raw === undefined || raw === null) return null;
  const t = typeof raw === 'string' ? Date.parse(raw) : NaN;
  need(Number.isFinite(t), null, where, `"${key}" ${JSON.stringify(raw)} is not a date and time.`);
  return new Date(t).toISOString();
}

function readDocument(files: FolderFiles, meta: Json, index: number, taxonomy: { labelSets: Map<number, FolderLabelSet>; labels: Map<number, FolderLabel>; categories: Set<number> }): FolderDocument {
  const metaAt = `${files.label}: documents_meta.json5, document ${index + 1}`;
  const id = intField(meta, 'id', metaAt);
  const dir = `documents/${id}`;
  const where = `${files.label}: ${dir}`;
  const fileName = typeof meta.data_file_name === 'string' && meta.data_file_name.trim() ? meta.data_file_name : `${id}.pdf`;
  const categoryRaw = meta.category ?? meta.category_template ?? null;
  const categoryId = categoryRaw === null ? null : need(isInt(categoryRaw) && taxonomy.categories.has(categoryRaw), categoryRaw as number, metaAt, `category ${JSON.stringify(categoryRaw)} is not one of the folder's categories.`);
  const datasetStatus = meta.dataset_status ?? DatasetStatus.NONE;
  need(isInt(datasetStatus) && datasetStatus >= 0 && datasetStatus <= 4, null, metaAt, `dataset_status ${JSON.stringify(datasetStatus)} is not 0 to 4.`);

  const textBytes = files.read(`${dir}/document.txt`);
  // The SDK downloads the folders of training and test documents only: a document the meta lists without
  // any folder is imported with its record and blank pages (number_of_pages), no text.
  const hasFolder = files.list().some((f) => f.startsWith(`${dir}/`));
  if (!textBytes && hasFolder) throw new FolderError(`${where}/document.txt is missing: a document's folder needs its text.`);
  const pageCount = isInt(meta.number_of_pages) && meta.number_of_pages > 0 ? meta.number_of_pages : 1;
  const textString = textBytes ? textBytes.toString('utf8') : '\f'.repeat(pageCount - 1);
  // Offsets count code points, in the SDK (Python) as in Folio.
  const text = Array.from(textString);
  const pageTexts = textString.split('\f');
  const pagesData = parseJson(files, `${dir}/pages.json5`, false);
  const pages: FolderPage[] = pagesData === undefined
    ? pageTexts.map((_, i) => ({ number: i + 1, widthPt: A4[0], heightPt: A4[1], imageSize: null }))
    : list(pagesData, `${where}/pages.json5`).map((p: Json, i: number) => {
        const at = `${where}/pages.json5, page ${i + 1}`;
        const size = p?.original_size;
        need(Array.isArray(size) && size.length === 2 && size.every((v: unknown) => isNum(v) && (v as number) > 0), null, at, '"original_size" must be [width, height] in points.');
        const number = isInt(p.number) ? p.number : i + 1;
        const image = files.read(`${dir}/page_${number}.png`);
        const imageSize = Array.isArray(p.size) && p.size.length === 2 && p.size.every(isInt) ? (p.size as [number, number]) : null;
        return { number, widthPt: size[0], heightPt: size[1], imageSize, ...(image ? { image } : {}) };
      });
  if (pages.length !== pageTexts.length) {
    throw new FolderError(`${where}: pages.json5 lists ${pages.length} page(s), document.txt has ${pageTexts.length} (pages are separated by form feeds).`);
  }
  pages.forEach((p, i) => need(p.number === i + 1, null, `${where}/pages.json5`, `page ${i + 1} is numbered ${p.number}.`));

  const bboxZip = files.read(`${dir}/bbox.zip`);
  let chars: CharBox[] = [];
  if (bboxZip) {
    let bbox: Json;
    try {
      const entry = readZip(bboxZip).find((e) => e.name === 'bbox.json5' || e.name.endsWith('/bbox.json5'));
      if (!entry) throw new FolderError(`${where}/bbox.zip holds no bbox.json5.`);
      bbox = JSON.parse(entry.read().toString('utf8'));
    } catch (err) {
      if (err instanceof FolderError) throw err;
      const why = err instanceof ZipReadError ? err.message : `bbox.json5 is not valid JSON (${(err as Error).message})`;
      throw new FolderError(`${where}/bbox.zip: ${why}`);
    }
    chars = charsOf(bbox, text, pages, `${where}/bbox.zip`);
  }

  const setsData = parseJson(files, `${dir}/annotation_sets.json5`, false) ?? [];
  const annotationSets = list(setsData, `${where}/annotation_sets.json5`).map((s: Json, i: number) => {
    const at = `${where}/annotation_sets.json5, annotation set ${i + 1}`;
    const setId = intField(s, 'id', at);
    const raw = s.section_label ?? s.label_set?.id ?? s.label_set;
    const labelSet = need(isInt(raw) && taxonomy.labelSets.has(raw), raw as number, at, `label set ${JSON.stringify(raw)} is not one of the folder's label sets.`);
    return { id: setId, labelSetId: labelSet };
  });
  const setIds = new Map(annotationSets.map((s) => [s.id, s.labelSetId]));
  if (setIds.size !== annotationSets.length) throw new FolderError(`${where}/annotation_sets.json5: an annotation set id is there twice.`);

  const annotationsData = parseJson(files, `${dir}/annotations.json5`, false) ?? [];
  const annotations = list(annotationsData, `${where}/annotations.json5`).map((a: Json, i: number): FolderAnnotation => {
    const at = `${where}/annotations.json5, annotation ${i + 1}${isInt(a?.id) ? ` (id ${a.id})` : ''}`;
    const labelRaw = isInt(a?.label) ? a.label : a?.label?.id;
    const label = need(isInt(labelRaw) && taxonomy.labels.has(labelRaw), labelRaw as number, at, `label ${JSON.stringify(labelRaw)} is not one of the folder's labels.`);
    const setRaw = a.section ?? a.annotation_set;
    const annotationSetId = need(isInt(setRaw) && setIds.has(setRaw), setRaw as number, at, `annotation set ${JSON.stringify(setRaw)} is not in annotation_sets.json5.`);
    const labelSetRaw = a.section_label_id ?? a.label_set?.id ?? a.label_set_id ?? setIds.get(annotationSetId);
    need(labelSetRaw === setIds.get(annotationSetId), null, at, `its label set ${JSON.stringify(labelSetRaw)} is not its annotation set's (${setIds.get(annotationSetId)}).`);
    const labelSet = taxonomy.labelSets.get(labelSetRaw)!;
    need(labelSet.labelIds.includes(label), null, at, `label ${label} is not in label set ${labelSet.id} ("${labelSet.name}").`);
    const isCorrect = !!a.is_correct;
    const revised = !!a.revised;
    const confidence = isNum(a.confidence) ? a.confidence : isNum(a.accuracy) ? a.accuracy : null;
    // Folio's origin when it wrote the folder; else an annotation nobody has reviewed yet is the AI's proposal.
    const origin = a.origin === 'human' || a.origin === 'machine' ? a.origin : !isCorrect && !revised ? 'machine' : 'human';
    const spans = spansOf(a, text, pages.length, at);
    const custom = typeof a.custom_offset_string === 'boolean' ? a.custom_offset_string : null;
    // A corrected text of a one-span annotation is that span's text (Folio keeps corrections per span).
    if (custom && spans.length === 1 && typeof a.offset_string === 'string') spans[0].offset_string = a.offset_string;
    return { id: intField(a, 'id', at), labelId: label, labelSetId: labelSet.id, annotationSetId, isCorrect, revised, confidence, origin, spans, customOffsetString: custom };
  });

  const missingData = parseJson(files, `${dir}/${MISSING_FILE}`, false) ?? [];
  const missing = list(missingData, `${where}/${MISSING_FILE}`).map((m: Json, i: number) => {
    const at = `${where}/${MISSING_FILE}, entry ${i + 1}`;
    const label = intField(m, 'label', at);
    const annotationSetId = intField(m, 'annotation_set', at);
    need(taxonomy.labels.has(label), null, at, `label ${label} is not one of the folder's labels.`);
    need(setIds.has(annotationSetId), null, at, `annotation set ${annotationSetId} is not in annotation_sets.json5.`);
    const labelSet = taxonomy.labelSets.get(setIds.get(annotationSetId)!)!;
    need(labelSet.labelIds.includes(label), null, at, `label ${label} is not in label set ${labelSet.id} ("${labelSet.name}") of annotation set ${annotationSetId}.`);
    return { labelId: label, labelSetId: labelSet.id, annotationSetId };
  });
  const pairs = missing.map((m) => `${m.annotationSetId}:${m.labelId}`);
  const twice = pairs.findIndex((p, i) => pairs.indexOf(p) !== i);
  if (twice >= 0) throw new FolderError(`${where}/${MISSING_FILE}: label ${missing[twice].labelId} is marked missing twice in annotation set ${missing[twice].annotationSetId}.`);
  const annotationIds = annotations.map((a) => a.id);
  const dupAnnotation = annotationIds.find((id, i) => annotationIds.indexOf(id) !== i);
  if (dupAnnotation !== undefined) throw new FolderError(`${where}/annotations.json5: annotation ${dupAnnotation} is there twice.`);

  // A file named like one of the folder's own (an upload called document.txt) cannot be told from it: left out.
  const own = (name: string) => OWN_FILES.has(name) || /^page_\d+\.png$/.test(name);
  const original = own(sdkFileName(fileName)) ? undefined : files.read(`${dir}/${sdkFileName(fileName)}`);
  const searchable = own(sdkFileName(fileName, 'ocr', '.pdf')) ? undefined : files.read(`${dir}/${sdkFileName(fileName, 'ocr', '.pdf')}`);
  return {
    id,
    fileName,
    categoryId,
    datasetStatus,
    isReviewed: !!meta.is_reviewed,
    categoryIsRevised: !!meta.category_is_revised,
    createdAt: timeOf(meta.created_at, metaAt, 'created_at'),
    updatedAt: timeOf(meta.updated_at, metaAt, 'updated_at'),
    text: textString,
    pages,
    chars,
    hasBoxes: bboxZip !== undefined,
    hasFolder,
    annotationSets,
    annotations,
    missing,
    ...(original ? { original } : {}),
    ...(searchable ? { searchable } : {}),
  };
}

/** Reads and checks the whole folder; nothing is stored. */
export function readProjectFolder(files: FolderFiles): ProjectFolder {
  const metaData = parseJson(files, 'documents_meta.json5', false);
  if (metaData === undefined) {
    throw new FolderError(`${files.label} is not a project folder: it has no documents_meta.json5 (the SDK writes it beside categories_and_label_data.json5, or labels.json5 and label_sets.json5).`);
  }
  const nested = parseJson(files, 'categories_and_label_data.json5', false);
  const labelData = parseJson(files, 'labels.json5', false);
  const setData = parseJson(files, 'label_sets.json5', false);
  let taxonomy;
  let taxonomyFiles: string[];
  // The SDK reads labels.json5 and label_sets.json5 when they are there (Project.get_categories).
  if (labelData !== undefined || setData !== undefined) {
    if (labelData === undefined || setData === undefined) throw new FolderError(`${files.label}: ${labelData === undefined ? 'labels.json5' : 'label_sets.json5'} is missing beside ${labelData === undefined ? 'label_sets.json5' : 'labels.json5'}.`);
    taxonomy = flatTaxonomy(labelData, setData, files);
    taxonomyFiles = ['labels.json5', 'label_sets.json5'];
  } else if (nested !== undefined) {
    taxonomy = nestedTaxonomy(nested, `${files.label}: categories_and_label_data.json5`);
    taxonomyFiles = ['categories_and_label_data.json5'];
  } else {
    throw new FolderError(`${files.label}: the categories and labels are missing (categories_and_label_data.json5, or labels.json5 and label_sets.json5).`);
  }
  checkTaxonomy(taxonomy, files.label);

  const project = parseJson(files, PROJECT_FILE, false);
  const name = typeof project?.name === 'string' && project.name.trim() ? project.name.trim() : files.baseName;
  const lookups = {
    labelSets: new Map(taxonomy.labelSets.map((s) => [s.id, s])),
    labels: new Map(taxonomy.labels.map((l) => [l.id, l])),
    categories: new Set(taxonomy.categories.map((c) => c.id)),
  };
  const metas = list(metaData, `${files.label}: documents_meta.json5`);
  const documents = metas.map((m, i) => readDocument(files, m, i, lookups));
  const ids = documents.map((d) => d.id);
  const dup = ids.find((id, i) => ids.indexOf(id) !== i);
  if (dup !== undefined) throw new FolderError(`${files.label}: documents_meta.json5 lists document ${dup} twice.`);

  const hash = createHash('sha256');
  for (const f of ['documents_meta.json5', ...taxonomyFiles]) hash.update(`${f}\0`).update(files.read(f)!).update('\0');
  return { name, ...taxonomy, documents, fingerprint: hash.digest('hex') };
}
