// The project's data as CSV (spec 4, export/all.csv): one row per annotation with its document,
// category, label set, annotation set, label, text, normalized value in the CSV form of spec 2.14,
// confidence, review state, page and box. And the per-document table (README, Export): one row per
// document and a column per label, as CSV or as an XLSX workbook (domain/documentTable.ts), of the
// documents the document list shows under the same filters (the list's own query, so the two agree).
import type { Repos } from '../store/repositories/index.ts';
import type { UserRow } from '../store/schema.ts';
import { csvRecord } from '../domain/csv.ts';
import { csvForm } from '../domain/normalization.ts';
import { labelDataType } from '../../shared/schemas/taxonomy.ts';
import { stateOf } from './annotationService.ts';
import { projectForMember } from './access.ts';
import { ValidationError } from '../domain/errors.ts';
import { DATASET_STATUS_NAMES, statusName } from '../domain/documentStatus.ts';
import { buildDocumentTable, csvRows, xlsxSheets, type DocumentTable, type DocumentTableOptions, type TableLabelSet } from '../domain/documentTable.ts';
import type { ListParams } from '../../shared/listParams.ts';
import { writeXlsx } from '../domain/xlsx.ts';

export const CSV_COLUMNS = [
  'document_id', 'data_file_name', 'category', 'label_set', 'annotation_set', 'label', 'annotation_id', 'text',
  'normalized', 'confidence', 'review_state', 'page', 'x0', 'y0', 'x1', 'y1',
] as const;

const round = (v: number) => Math.round(v * 1000) / 1000;

/** Caps of one per-document export, built in memory: documents, and rows with the repeating sets. */
export const MAX_EXPORT_DOCUMENTS = 20_000;
export const MAX_EXPORT_ROWS = 100_000;

/**
 * Which documents and values the per-document export holds: the document list's filters, date bounds and
 * ordering as the list takes them (limit and offset aside: the export holds every document), and
 * whether only values a person checked count.
 */
export type DocumentExportFilter = Partial<Pick<ListParams, 'filters' | 'ordering' | 'createdAfter' | 'createdBefore'>> & DocumentTableOptions;

const DATASET_STATUS_LIST = /^[0-4](,[0-4])*$/;

/**
 * The category ids a `category` filter names, all of them this project's (else a 400: a typo gives an
 * empty file otherwise); null for "without category". Which label sets give columns follows from it.
 */
function namedCategories(raw: string | undefined, inProject: readonly { id: number }[]): number[] | null | undefined {
  if (raw === undefined) return undefined;
  if (raw.trim() === '' || raw.trim() === 'null') return null;
  const ids = raw.split(',').map((x) => x.trim());
  for (const id of ids) {
    if (!/^\d+$/.test(id) || !inProject.some((c) => c.id === Number(id))) {
      throw ValidationError.of('category', `Invalid pk "${id}" - object does not exist in this project.`);
    }
  }
  return ids.map(Number);
}

export class ExportService {
  constructor(private readonly repos: Repos) {}

  async projectCsv(user: UserRow, projectId: number): Promise<string> {
    await projectForMember(this.repos, user, projectId);
    const rows = await this.repos.annotations.exportRows(projectId);
    const out = [csvRecord(CSV_COLUMNS)];
    for (const r of rows) {
      const spans = r.spans;
      const first = spans[0];
      const onFirstPage = spans.filter((s) => s.page_index === first?.page_index);
      const dataType = labelDataType(r.data_type) ?? 'Text';
      const normalized = r.normalized;
      out.push(
        csvRecord([
          r.document_id,
          r.data_file_name,
          r.category,
          r.label_set,
          r.annotation_set_id,
          r.label,
          r.id,
          r.offset_string,
          csvForm(normalized, dataType),
          r.confidence,
          stateOf(r),
          first ? first.page_index + 1 : null,
          first ? round(Math.min(...onFirstPage.map((s) => s.x0))) : null,
          first ? round(Math.min(...onFirstPage.map((s) => s.y0))) : null,
          first ? round(Math.max(...onFirstPage.map((s) => s.x1))) : null,
          first ? round(Math.max(...onFirstPage.map((s) => s.y1))) : null,
        ]),
      );
    }
    return out.join('');
  }

  /**
   * The per-document table of the project's documents the document list shows under `filter` (in its
   * order, by id unless `filter.ordering` says otherwise). A category filter keeps that category's label
   * sets as columns (of "without category", the label sets of no category). `linkBase` +
   * `#/documents/<id>` opens a document in the app.
   */
  async documentTable(user: UserRow, projectId: number, filter: DocumentExportFilter, linkBase: string): Promise<DocumentTable> {
    await projectForMember(this.repos, user, projectId);
    const categories = await this.repos.categories.inProject(projectId);
    const filters: Record<string, string> = { ...filter.filters };
    // The export is of this project: a project filter given as well could only narrow it to nothing.
    delete filters.project_id;
    filters.project = String(projectId);
    const ds = filters.dataset_status;
    if (ds !== undefined && !DATASET_STATUS_LIST.test(ds.trim())) {
      throw ValidationError.of('dataset_status', `Must be one of 0, 1, 2, 3, 4 (or several, comma-separated), got "${ds}".`);
    }
    const docs = await this.repos.documents.list(user.id, { limit: MAX_EXPORT_DOCUMENTS, offset: 0, ordering: filter.ordering ?? [], createdAfter: filter.createdAfter, createdBefore: filter.createdBefore, filters });
    const chosen = namedCategories(filters.category ?? filters.category_id, categories);
    if (docs.count > MAX_EXPORT_DOCUMENTS) {
      throw ValidationError.of('non_field_errors', `The export would hold ${docs.count} documents, more than the ${MAX_EXPORT_DOCUMENTS} one file takes: narrow it with the list's filters.`);
    }

    const setIds = (await this.repos.labelSets.names(projectId)).map((s) => s.id);
    const sets = await this.repos.labelSets.findByIds(setIds);
    const labels = new Map((await this.repos.annotations.labelsByIds(sets.flatMap((s) => s.label_ids))).map((l) => [l.id, l]));
    // Grouped as the project's setup shows them: each category's own label set, then its others; label
    // sets of no category last. With categories, only their label sets; without category, those of none.
    const order = (chosen === undefined ? categories : categories.filter((c) => chosen?.includes(c.id))).flatMap((c) =>
      sets.filter((s) => s.category_ids.includes(c.id)).sort((a, b) => Number(b.id === c.id) - Number(a.id === c.id) || a.id - b.id),
    );
    if (!chosen) order.push(...sets.filter((s) => !s.category_ids.length));
    const labelSets: TableLabelSet[] = [...new Map(order.map((s) => [s.id, s])).values()].map((s) => ({
      id: s.id,
      name: s.name,
      repeating: s.has_multiple_sections,
      labels: [...s.label_ids].sort((a, b) => a - b).map((id) => ({ id, name: labels.get(id)!.name })),
    }));

    const annotations = (await this.repos.annotations.exportRows(projectId)).map((r) => ({
      documentId: r.document_id,
      annotationSetId: r.annotation_set_id,
      labelSetId: r.label_set_id,
      labelSetName: r.label_set,
      labelId: r.label_id,
      labelName: r.label,
      dataType: labelDataType(r.data_type) ?? 'Text',
      state: stateOf(r),
      normalized: r.normalized,
    }));
    const names = new Map(categories.map((c) => [c.id, c.name]));
    const documents = docs.items.map((d) => ({
      id: d.id,
      data_file_name: d.data_file_name,
      category: d.category_id === null ? null : (names.get(d.category_id) ?? null),
      status: statusName(d.status),
      dataset_status: DATASET_STATUS_NAMES[d.dataset_status] ?? String(d.dataset_status),
      assignee: d.assignee_email,
      created_at: d.created_at,
      updated_at: d.updated_at,
      link: `${linkBase}#/documents/${d.id}`,
      is_reviewed: d.is_reviewed,
    }));
    const table = buildDocumentTable(documents, labelSets, annotations, { reviewedOnly: filter.reviewedOnly });
    const rows = table.rows.reduce((n, r) => n + 1 + r.sets.length, 0);
    if (rows > MAX_EXPORT_ROWS) {
      throw ValidationError.of('non_field_errors', `The export would hold ${rows} rows with the repeating label sets, more than the ${MAX_EXPORT_ROWS} one file takes: narrow it with the list's filters.`);
    }
    return table;
  }

  async documentsCsv(user: UserRow, projectId: number, filter: DocumentExportFilter, linkBase: string): Promise<string> {
    return csvRows(await this.documentTable(user, projectId, filter, linkBase)).map(csvRecord).join('');
  }

  async documentsXlsx(user: UserRow, projectId: number, filter: DocumentExportFilter, linkBase: string): Promise<Buffer> {
    return writeXlsx(xlsxSheets(await this.documentTable(user, projectId, filter, linkBase)));
  }
}
