// The per-document export (README, Export): one row per document with a column per label, grouped by
// label set, and the annotation sets of repeating label sets (has_multiple_sections) as rows of their
// own; after the label columns whether the document is reviewed and, per label, the review state of each
// value, so that a reader sees what a person checked. Builds the table once; csvRows and xlsxSheets lay
// it out for the two formats. Pure.
import { csvForm, type DataType, type Normalized } from './normalization.ts';
import { fillsLabel, type ReviewState } from './reviewRules.ts';
import type { XlsxCell, XlsxSheet } from './xlsx.ts';

/** What the export holds: `reviewedOnly` leaves out the values no person has checked yet. */
export interface DocumentTableOptions {
  reviewedOnly?: boolean;
}

/**
 * The one rule of which annotations give a value: every annotation the per-annotation CSV lists (human
 * ones, and the AI's, which it only keeps at or above the label's threshold) except declined ones.
 * Annotations awaiting feedback count, being the AI's current answer, unless the export is of reviewed
 * values only: then only those a person accepted, made or corrected (Accepted, Created by human).
 */
export const countsInDocumentExport = (state: ReviewState, options: DocumentTableOptions = {}): boolean =>
  options.reviewedOnly ? fillsLabel(state) : state !== 'Declined';

/** After the label columns: the document's review flag, then a review-state column per label column. */
export const REVIEW_COLUMN = 'is_reviewed';
/** The header of a label column's review-state column. */
export const reviewHeader = (labelHeader: string) => `${labelHeader} (review)`;

/** A text value as the review screen shows it: runs of white space (the OCR's, line breaks) as one space. */
export const collapseWhiteSpace = (s: string): string => s.trim().split(/\s+/).join(' ');

export const DOCUMENT_COLUMNS = [
  'document_id', 'data_file_name', 'category', 'status', 'dataset_status', 'assignee', 'created_at', 'updated_at', 'link',
] as const;
/** Which annotation set a row of a repeating label set shows: its label set, its place among the
 * document's sets of that label set (1-based, in creation order), its id. */
export const SET_COLUMNS = ['label_set', 'set_index', 'annotation_set'] as const;

/** Data types whose values are numbers in the API form, and so number cells in XLSX. */
const NUMERIC: ReadonlySet<DataType> = new Set(['Number', 'Positive Number', 'Percentage']);

export interface TableDocument {
  id: number;
  data_file_name: string;
  category: string | null;
  status: string;
  dataset_status: string;
  assignee: string | null;
  created_at: string;
  updated_at: string;
  link: string;
  is_reviewed: boolean;
}

export interface TableLabelSet {
  id: number;
  name: string;
  repeating: boolean;
  /** In column order. */
  labels: { id: number; name: string }[];
}

export interface TableAnnotation {
  documentId: number;
  annotationSetId: number;
  labelSetId: number;
  labelSetName: string;
  labelId: number;
  labelName: string;
  dataType: DataType;
  state: ReviewState;
  normalized: Normalized;
}

export interface LabelColumn {
  labelSetId: number;
  labelId: number;
  header: string;
  /** The header of its review-state column. */
  reviewHeader: string;
  repeating: boolean;
}

/**
 * A cell of a label column: the CSV forms of its values, one per line, and the number when it is exactly
 * one; `review` the review state of each value, line for line, or when no value is shown, the state of
 * what was left out (awaiting feedback before declined).
 */
export interface LabelValue {
  text: string;
  number: number | null;
  review: string;
}

export interface SetRow {
  labelSetName: string;
  index: number;
  annotationSetId: number;
  values: Map<string, LabelValue>;
}

export interface DocumentTableRow {
  document: TableDocument;
  values: Map<string, LabelValue>;
  sets: SetRow[];
}

export interface DocumentTable {
  columns: LabelColumn[];
  rows: DocumentTableRow[];
}

const key = (labelSetId: number, labelId: number) => `${labelSetId}:${labelId}`;

/**
 * Header of each label column: the label's name when no other column (nor a document or set column)
 * has that name, ignoring case; else "<label set> / <label>", numbered when even that repeats.
 */
function headers(columns: { setName: string; labelName: string }[]): { header: string; reviewHeader: string }[] {
  const fixed = new Set<string>([...DOCUMENT_COLUMNS, ...SET_COLUMNS, REVIEW_COLUMN]);
  const counts = new Map<string, number>();
  for (const c of columns) counts.set(c.labelName.toLowerCase(), (counts.get(c.labelName.toLowerCase()) ?? 0) + 1);
  const used = new Set<string>(fixed);
  const unique = (plain: string) => {
    let header = plain;
    for (let n = 2; used.has(header.toLowerCase()); n++) header = `${plain} (${n})`;
    used.add(header.toLowerCase());
    return header;
  };
  const names = columns.map((c) => unique(counts.get(c.labelName.toLowerCase()) === 1 && !fixed.has(c.labelName.toLowerCase()) ? c.labelName : `${c.setName} / ${c.labelName}`));
  return names.map((header) => ({ header, reviewHeader: unique(reviewHeader(header)) }));
}

const valueText = (a: TableAnnotation) => {
  const text = csvForm(a.normalized, a.dataType);
  return a.dataType === 'Text' ? collapseWhiteSpace(text) : text;
};

/** The cell of a label's annotations (in text order): the shown ones' values and states, or what was left out. */
function cellValue(annotations: TableAnnotation[], options: DocumentTableOptions): LabelValue {
  const shown = annotations.filter((a) => countsInDocumentExport(a.state, options));
  const text = shown.map(valueText).join('\n');
  const only = shown.length === 1 ? shown[0] : undefined;
  const number = only && NUMERIC.has(only.dataType) && typeof only.normalized === 'number' && Number.isFinite(only.normalized) ? only.normalized : null;
  const left = annotations.map((a) => a.state);
  const review = shown.length ? shown.map((a) => a.state).join('\n') : left.includes('Feedback required') ? 'Feedback required' : (left[0] ?? '');
  return { text, number, review };
}

/**
 * The table of `documents` (in their order). Columns: the labels of `labelSets` in that order, then any
 * label set or label that counted annotations of these documents use and the taxonomy no longer lists
 * (a label taken out of a label set keeps its values). Annotations of other documents are ignored; those
 * that do not count give no value and no row, only their state in the review column of a cell.
 */
export function buildDocumentTable(
  documents: readonly TableDocument[],
  labelSets: readonly TableLabelSet[],
  annotations: readonly TableAnnotation[],
  options: DocumentTableOptions = {},
): DocumentTable {
  const docIds = new Set(documents.map((d) => d.id));
  const own = annotations.filter((a) => docIds.has(a.documentId));
  const counted = own.filter((a) => countsInDocumentExport(a.state, options));

  // Columns: taxonomy first, then what annotations add, grouped by label set.
  const groups = new Map<number, { name: string; repeating: boolean; labels: Map<number, string> }>();
  for (const s of labelSets) groups.set(s.id, { name: s.name, repeating: s.repeating, labels: new Map(s.labels.map((l) => [l.id, l.name])) });
  const repeatingIds = new Set(labelSets.filter((s) => s.repeating).map((s) => s.id));
  const setOrder = new Map(labelSets.map((s, i) => [s.id, i]));
  const extra = [...counted].sort((a, b) => a.labelSetId - b.labelSetId || a.labelId - b.labelId);
  for (const a of extra) {
    // A label set the taxonomy did not name cannot be known to repeat: its sets count as one row.
    if (!groups.has(a.labelSetId)) groups.set(a.labelSetId, { name: a.labelSetName, repeating: false, labels: new Map() });
    const g = groups.get(a.labelSetId)!;
    if (!g.labels.has(a.labelId)) g.labels.set(a.labelId, a.labelName);
  }
  const flat = [...groups.entries()].flatMap(([setId, g]) => [...g.labels].map(([labelId, labelName]) => ({ setId, setName: g.name, repeating: g.repeating, labelId, labelName })));
  const names = headers(flat);
  const columns = flat.map((c, i) => ({ labelSetId: c.setId, labelId: c.labelId, ...names[i], repeating: c.repeating }));

  // Values: annotations by document, then by annotation set (repeating) or label set (the rest). A
  // repeating set is a row when one of its annotations counts.
  const byDocument = new Map<number, TableAnnotation[]>();
  for (const a of own) {
    if (!byDocument.has(a.documentId)) byDocument.set(a.documentId, []);
    byDocument.get(a.documentId)!.push(a);
  }
  const rowSets = new Set(counted.map((a) => a.annotationSetId));
  const rows = documents.map((document): DocumentTableRow => {
    const single = new Map<string, TableAnnotation[]>();
    const sets = new Map<number, { labelSetId: number; labelSetName: string; cells: Map<string, TableAnnotation[]> }>();
    for (const a of byDocument.get(document.id) ?? []) {
      const k = key(a.labelSetId, a.labelId);
      let cells = single;
      if (repeatingIds.has(a.labelSetId)) {
        if (!rowSets.has(a.annotationSetId)) continue;
        if (!sets.has(a.annotationSetId)) sets.set(a.annotationSetId, { labelSetId: a.labelSetId, labelSetName: groups.get(a.labelSetId)!.name, cells: new Map() });
        cells = sets.get(a.annotationSetId)!.cells;
      }
      if (!cells.has(k)) cells.set(k, []);
      cells.get(k)!.push(a);
    }
    const values = (cells: Map<string, TableAnnotation[]>) => new Map([...cells].map(([k, list]) => [k, cellValue(list, options)]));
    // Annotation set ids grow with creation, so their order is the order the sets were made in.
    const setRows: SetRow[] = [];
    const seen = new Map<number, number>();
    const ordered = [...sets.entries()].sort((a, b) => setOrder.get(a[1].labelSetId)! - setOrder.get(b[1].labelSetId)! || a[0] - b[0]);
    for (const [annotationSetId, s] of ordered) {
      const index = (seen.get(s.labelSetId) ?? 0) + 1;
      seen.set(s.labelSetId, index);
      setRows.push({ labelSetName: s.labelSetName, index, annotationSetId, values: values(s.cells) });
    }
    return { document, values: values(single), sets: setRows };
  });
  return { columns, rows };
}

const documentCells = (d: TableDocument): (string | number | null)[] => [
  d.id, d.data_file_name, d.category, d.status, d.dataset_status, d.assignee, d.created_at, d.updated_at, d.link,
];

/** The label columns' values, then the document's review flag and each label column's review states. */
const labelCells = (columns: LabelColumn[], values: Map<string, LabelValue>, document: TableDocument, asNumber: boolean): XlsxCell[] => [
  ...columns.map((c) => {
    const v = values.get(key(c.labelSetId, c.labelId));
    if (!v?.text) return null;
    return asNumber && v.number !== null ? v.number : v.text;
  }),
  document.is_reviewed ? 'True' : 'False',
  ...columns.map((c) => values.get(key(c.labelSetId, c.labelId))?.review || null),
];

const labelHeaders = (columns: LabelColumn[]) => [...columns.map((c) => c.header), REVIEW_COLUMN, ...columns.map((c) => c.reviewHeader)];

/**
 * CSV layout: the document columns, the set columns, every label column, is_reviewed and every label's
 * review column. A document's row holds the non-repeating label sets with empty set columns; each
 * annotation set of a repeating label set follows it as a row of its own that repeats the document
 * columns (is_reviewed too) and fills the set columns.
 */
export function csvRows(table: DocumentTable): (string | number | null)[][] {
  const out: (string | number | null)[][] = [[...DOCUMENT_COLUMNS, ...SET_COLUMNS, ...labelHeaders(table.columns)]];
  for (const row of table.rows) {
    const doc = documentCells(row.document);
    out.push([...doc, null, null, null, ...(labelCells(table.columns, row.values, row.document, false) as (string | null)[])]);
    for (const s of row.sets) out.push([...doc, s.labelSetName, s.index, s.annotationSetId, ...(labelCells(table.columns, s.values, row.document, false) as (string | null)[])]);
  }
  return out;
}

export const XLSX_SHEETS = { documents: 'Documents', sets: 'Repeating sets' } as const;

/**
 * XLSX layout: sheet "Documents" with one row per document and the non-repeating label columns; sheet
 * "Repeating sets" with one row per annotation set of a repeating label set, its document's columns, the
 * set columns and the repeating label columns. Each sheet's label columns are followed by is_reviewed
 * and their review columns. Numeric values are number cells.
 */
export function xlsxSheets(table: DocumentTable): XlsxSheet[] {
  const single = table.columns.filter((c) => !c.repeating);
  const repeating = table.columns.filter((c) => c.repeating);
  const documents: XlsxCell[][] = [[...DOCUMENT_COLUMNS, ...labelHeaders(single)]];
  const sets: XlsxCell[][] = [[...DOCUMENT_COLUMNS, ...SET_COLUMNS, ...labelHeaders(repeating)]];
  for (const row of table.rows) {
    const doc = documentCells(row.document);
    documents.push([...doc, ...labelCells(single, row.values, row.document, true)]);
    for (const s of row.sets) sets.push([...doc, s.labelSetName, s.index, s.annotationSetId, ...labelCells(repeating, s.values, row.document, true)]);
  }
  return [
    { name: XLSX_SHEETS.documents, rows: documents },
    { name: XLSX_SHEETS.sets, rows: sets },
  ];
}
