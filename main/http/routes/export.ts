// Exports of a project's data (spec 4, README Export): the CSV with one row per annotation, and the table
// with one row per document as CSV or XLSX. Scripts and spreadsheet tools that cannot set headers use the
// `token` query parameter (spec 5).
import { route, RESPONDED, type Ctx, type RouteSpec } from '../route.ts';
import { ValidationError } from '../../domain/errors.ts';
import { DATASET_STATUS_NAMES } from '../../domain/documentStatus.ts';
import { MAX_EXPORT_DOCUMENTS, type DocumentExportFilter } from '../../services/exportService.ts';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const documentQuery = {
  category: 'only documents of this category (id), with the columns of its label sets only',
  dataset_status: 'only documents with this dataset status: 0 none, 1 preparation, 2 training, 3 test, 4 excluded',
  token: 'the API token, for tools that cannot set the Authorization header (GET only)',
};

const DOCUMENT_TABLE =
  'One row per document: id, file name, category, status, dataset status, assignee, created and updated, a link to it in the app, then a column per label ' +
  '(grouped by label set; "<label set> / <label>" where the label name alone would repeat) with the normalized values in the CSV forms of spec 2.14, ' +
  'several values of one label one per line. Declined annotations give no value. ';

/** One optional integer query parameter: absent, or a single value in range; anything else is a 400. */
function intParam(ctx: Ctx<unknown>, name: string, ok: (n: number) => boolean, expected: string): number | undefined {
  const raw = ctx.query[name];
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string') throw ValidationError.of(name, `Give ${name} once, as ${expected}.`);
  const n = /^\s*\d+\s*$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(n) || !ok(n)) throw ValidationError.of(name, `Must be ${expected}, got "${raw}".`);
  return n;
}

function documentFilter(ctx: Ctx<unknown>): DocumentExportFilter {
  const category = intParam(ctx, 'category', (n) => n > 0, 'a category id');
  const datasetStatus = intParam(ctx, 'dataset_status', (n) => Object.hasOwn(DATASET_STATUS_NAMES, n), 'one of 0, 1, 2, 3, 4');
  return { ...(category === undefined ? {} : { category }), ...(datasetStatus === undefined ? {} : { datasetStatus }) };
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
