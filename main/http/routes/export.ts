// Exports of a project's data (spec 4, README Export): the CSV with one row per annotation, and the table
// with one row per document as CSV or XLSX, of the documents the document list shows under the same
// query (its filters, dates and ordering, parsed by the same code). Scripts and spreadsheet tools that
// cannot set headers use the `token` query parameter (spec 5).
import { route, RESPONDED, type Ctx, type RouteSpec } from '../route.ts';
import { ValidationError } from '../../domain/errors.ts';
import { MAX_EXPORT_DOCUMENTS, type DocumentExportFilter } from '../../services/exportService.ts';
import { documentList } from './documents.ts';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

// The list's filters but project: the export is of the project in its path.
const listFilters = Object.fromEntries(Object.entries(documentList.filters).filter(([name]) => name !== 'project'));
const documentQuery = {
  ...listFilters,
  category: 'only documents of this category (id; several comma-separated; null for those without), with the columns of its label sets only',
  dataset_status: 'only documents with this dataset status: 0 none, 1 preparation, 2 training, 3 test, 4 excluded (several comma-separated)',
  ordering: `the rows' order, as the document list takes it: ${documentList.ordering.join(', ')}, "-" first for descending (default id)`,
  created_at_after: 'only documents created after this date (YYYY-MM-DD, the day itself excluded) or ISO 8601 timestamp',
  created_at_before: 'only documents created before this date (YYYY-MM-DD, the day itself excluded) or ISO 8601 timestamp',
  reviewed_only: 'true: only values a person checked (review state Accepted or Created by human); values awaiting feedback are left out, their review column says so',
  token: 'the API token, for tools that cannot set the Authorization header (GET only)',
};

const DOCUMENT_TABLE =
  'The documents of the document list (GET /api/v3/documents/) with the same filters, in its order; limit and offset do not apply. ' +
  'One row per document: id, file name, category, status, dataset status, assignee, created and updated, a link to it in the app, then a column per label ' +
  '(grouped by label set; "<label set> / <label>" where the label name alone would repeat) with the normalized values in the CSV forms of spec 2.14 ' +
  '(text with its runs of white space as one space, as the app shows it), several values of one label one per line; then is_reviewed (True or False) and ' +
  'per label column "<header> (review)": the review state of each value, line for line (Accepted, Created by human, Feedback required), or of what was ' +
  'left out when no value is shown (Feedback required, Declined). Declined annotations give no value. ';

/** `reviewed_only`: absent or false for every value the AI and people gave, true for checked ones only. */
function reviewedOnly(ctx: Ctx<unknown>): boolean {
  const raw = ctx.query.reviewed_only;
  if (raw === undefined) return false;
  const v = typeof raw === 'string' ? raw.trim().toLowerCase() : undefined;
  if (v === 'true' || v === '1') return true;
  if (v === 'false' || v === '0' || v === '') return false;
  throw ValidationError.of('reviewed_only', `Must be true or false, got ${JSON.stringify(raw)}.`);
}

/** The document list's query as the list parses it, and the export's own choice. */
function documentFilter(ctx: Ctx<unknown>): DocumentExportFilter {
  const { filters, ordering, createdAfter, createdBefore } = ctx.list();
  delete filters.reviewed_only;
  return { filters, ordering, createdAfter, createdBefore, reviewedOnly: reviewedOnly(ctx) };
}

export const exportRoutes: RouteSpec[] = [
  route({
    method: 'get',
    path: '/api/v3/projects/:id/export/all.csv',
    tag: 'export',
    summary: 'Every annotation of the project as CSV (RFC 4180, UTF-8): document, label, text, normalized value, review state, page and box',
    produces: 'text/csv',
    async handler(ctx) {
      const id = ctx.id();
      const csv = await ctx.core.services.exports.projectCsv(ctx.user, id);
      ctx.res
        .status(200)
        .set({ 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': `attachment; filename="project-${id}.csv"` })
        .send(csv);
      return RESPONDED;
    },
  }),
  route({
    method: 'get',
    path: '/api/v3/projects/:id/export/documents.csv',
    tag: 'export',
    summary: 'The project as a table with one row per document, as CSV (RFC 4180, UTF-8)',
    description:
      DOCUMENT_TABLE +
      'Each annotation set of a repeating label set (has_multiple_sections) is a row of its own after its document\'s row: the document columns again, ' +
      `label_set, set_index (1, 2, ... per label set) and annotation_set filled, only that label set's columns. At most ${MAX_EXPORT_DOCUMENTS} documents per file.`,
    produces: 'text/csv',
    query: documentQuery,
    async handler(ctx) {
      const id = ctx.id();
      const filter = documentFilter(ctx);
      const csv = await ctx.core.services.exports.documentsCsv(ctx.user, id, filter, ctx.url('/'));
      ctx.res
        .status(200)
        .set({ 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': `attachment; filename="project-${id}-documents.csv"` })
        .send(csv);
      return RESPONDED;
    },
  }),
  route({
    method: 'get',
    path: '/api/v3/projects/:id/export/documents.xlsx',
    tag: 'export',
    summary: 'The project as a table with one row per document, as an Excel workbook (XLSX)',
    description:
      DOCUMENT_TABLE +
      'Sheet "Documents" holds a row per document with the labels of non-repeating label sets; sheet "Repeating sets" a row per annotation set of a ' +
      'repeating label set (has_multiple_sections): the document columns, label_set, set_index and annotation_set, and that label set\'s columns. ' +
      `A single value of a number or percentage label is a number cell, every other value a text cell (dates as ISO 8601 text). At most ${MAX_EXPORT_DOCUMENTS} documents per file.`,
    produces: XLSX_TYPE,
    query: documentQuery,
    async handler(ctx) {
      const id = ctx.id();
      const filter = documentFilter(ctx);
      const xlsx = await ctx.core.services.exports.documentsXlsx(ctx.user, id, filter, ctx.url('/'));
      ctx.res
        .status(200)
        .set({ 'Content-Type': XLSX_TYPE, 'Content-Disposition': `attachment; filename="project-${id}-documents.xlsx"` })
        .send(xlsx);
      return RESPONDED;
    },
  }),
];
