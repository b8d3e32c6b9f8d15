// Documents (spec 2.5, compat.md): multipart upload (v3 and v2), list, detail with the annotation
// tree (public documents answer without authentication), PATCH/PUT/DELETE, and the file downloads.
import { z } from 'zod';
import { route, type Ctx, type RouteSpec } from '../route.ts';
import { sendBlob } from '../sendFile.ts';
import { envelope } from '../../../shared/schemas/common.ts';
import {
  DocumentDetail, DocumentDetailV2, DocumentListItem, DocumentListItemV2, DocumentPatch, DocumentPut, DocumentUpload, PublicDocumentDetail,
} from '../../../shared/schemas/documents.ts';
import type { DocumentDetailView } from '../../services/documentService.ts';
import { documentListOut, documentOut, documentV2Out as v2 } from '../../mappers/documents.ts';

const base = '/api/v3/documents/';
const v2Base = '/api/v2/docs/';

/** The document list's filters and ordering (the per-document export takes the same, routes/export.ts). */
export const documentList = {
  filters: {
    project: 'project id (also project_id)',
    category: 'category id',
    is_reviewed: 'true or false',
    dataset_status: '0 none, 1 preparation, 2 training, 3 test, 4 excluded',
    status: 'status code (also status_data)',
    assignee: 'email or user id of the assignee',
    document_set: 'document set id',
    id: 'document id',
    name: 'file name contains (case-insensitive)',
    q: 'full-text search: every word of q (as a word prefix, any order, case and accents ignored) in the document text, or q in the file name; operators and punctuation are plain text',
    content_hash: 'SHA-256 of the uploaded file (64 hex digits; content_hash of each document): finds earlier uploads of the same bytes',
  },
  ordering: ['id', 'created_at', 'updated_at', 'data_file_name', 'status_data', 'dataset_status', 'number_of_pages', 'is_reviewed', 'category', 'assignee'],
};

async function upload(ctx: Ctx<DocumentUpload>): Promise<DocumentDetailView> {
  const { documents } = ctx.core.services;
  const doc = await documents.upload(ctx.user, ctx.body, ctx.file, { idempotencyKey: ctx.header('Idempotency-Key') });
  return documents.detail(ctx.user, doc.id);
}

/** The handler of a route that sends the document back through a job: the service's step, then its detail (202). */
function queuesAgain(step: (documents: Ctx<unknown>['core']['services']['documents'], user: Ctx<unknown>['user'], id: number) => Promise<{ id: number }>) {
  return async (ctx: Ctx<unknown>) => {
    const { documents } = ctx.core.services;
    const doc = await step(documents, ctx.user, ctx.id());
    return documentOut(await documents.detail(ctx.user, doc.id));
  };
}

export const documentRoutes: RouteSpec[] = [
  route({
    method: 'post',
    path: `${base}:id/retry/`,
    tag: 'documents',
    summary: 'Process again a document that could not be processed (status 111)',
    description:
      'A Folio addition. Queues the document for processing again from its uploaded file: the status goes to 0 (queuing for OCR), then ' +
      'as after an upload. For a document whose processing failed for a passing reason (the machine was out of disk space, or stopped ' +
      'again and again). A document in any other status is a 409.',
    response: DocumentDetail,
    status: 202,
    handler: queuesAgain((documents, user, id) => documents.retryProcessing(user, id)),
  }),
  route({
    method: 'post',
    path: base,
    tag: 'documents',
    summary: 'Upload a document (multipart/form-data only); it is queued for processing',
    bodyMode: 'multipart',
    body: DocumentUpload,
    response: DocumentDetail,
    handler: async (ctx) => documentOut(await upload(ctx)),
  }),
  route({
    method: 'post',
    path: '/api/v2/docs/',
    tag: 'documents',
    summary: 'Upload a document, version 2 (the answer adds category_template)',
    bodyMode: 'multipart',
    body: DocumentUpload,
    response: DocumentDetailV2,
    handler: async (ctx) => v2(documentOut(await upload(ctx))),
  }),
  route({
    method: 'get',
    path: v2Base,
    tag: 'documents',
    summary: "List the documents of the caller's projects, version 2 (each adds category_template)",
    list: documentList,
    response: envelope(DocumentListItemV2),
    async handler(ctx) {
      const params = ctx.list();
      return ctx.page(await ctx.core.services.documents.list(ctx.user, params), params, (d) => v2(documentListOut(d)));
    },
  }),
  route({
    method: 'get',
    path: `${v2Base}:id/`,
    tag: 'documents',
    summary: 'Document detail, version 2: what a v2 client polls after its upload (adds category_template)',
    cache: true,
    response: DocumentDetailV2,
    handler: async (ctx) => v2(documentOut(await ctx.core.services.documents.detail(ctx.user, ctx.id()))),
  }),
  route({
    method: 'get',
    path: base,
    tag: 'documents',
    summary: "List the documents of the caller's projects",
    list: documentList,
    response: envelope(DocumentListItem),
    async handler(ctx) {
      const params = ctx.list();
      return ctx.page(await ctx.core.services.documents.list(ctx.user, params), params, documentListOut);
    },
  }),
  route({
    method: 'get',
    path: `${base}:id/`,
    tag: 'documents',
    summary: 'Document detail with its annotation sets (members of its project; anyone else reads a public document through its public link, /api/v3/public/<token>/)',
    cache: true,
    response: DocumentDetail,
    handler: async (ctx) => documentOut(await ctx.core.services.documents.detail(ctx.user, ctx.id())),
  }),
  route({
    method: 'patch',
    path: `${base}:id/`,
    tag: 'documents',
    summary: 'Change a document; is_reviewed true only when nothing awaits feedback and no label is unfilled',
    body: DocumentPatch,
    response: DocumentDetail,
    async handler(ctx) {
      const { documents } = ctx.core.services;
      const doc = await documents.patch(ctx.user, ctx.id(), ctx.body);
      return documentOut(await documents.detail(ctx.user, doc.id));
    },
  }),
  route({
    method: 'put',
    path: `${base}:id/`,
    tag: 'documents',
    summary: 'Replace the changeable fields of a document (project and data_file_name required)',
    body: DocumentPut,
    response: DocumentDetail,
    async handler(ctx) {
      const { documents } = ctx.core.services;
      const doc = await documents.replace(ctx.user, ctx.id(), ctx.body);
      return documentOut(await documents.detail(ctx.user, doc.id));
    },
  }),
  route({
    method: 'delete',
    path: `${base}:id/`,
    tag: 'documents',
    summary: 'Delete a document with its annotations (and its file unless another document shares it)',
    handler: async (ctx) => ctx.core.services.documents.remove(ctx.user, ctx.id()),
  }),
  route({
    method: 'post',
    path: `${base}:id/extract-again/`,
    tag: 'documents',
    summary: "Extract a processed document again with its category's active extraction AI",
    description:
      'Queues the analysis job that runs after processing: the status goes to 1 (queuing for extraction), 20, and back to 2 (Done), ' +
      'and the completion callback is sent again. Machine annotations awaiting review are replaced by the new ones; accepted, declined, ' +
      'corrected and human annotations stay. The document is no longer reviewed. A document that is not Done, has no category, or whose ' +
      'category has no active extraction AI is a 400 saying which.',
    response: DocumentDetail,
    status: 202,
    handler: queuesAgain((documents, user, id) => documents.extractAgain(user, id)),
  }),
  route({
    method: 'get',
    path: '/doc/show-original/:id/',
    tag: 'documents',
    summary: 'Download the uploaded file',
    produces: 'application/octet-stream',
    handler: async (ctx) => sendBlob(ctx, await ctx.core.services.documents.originalFile(ctx.user, ctx.id())),
  }),
  route({
    method: 'get',
    path: '/doc/show/:id/',
    tag: 'documents',
    summary: 'Download the searchable PDF (once processing has made it)',
    produces: 'application/pdf',
    handler: async (ctx) => sendBlob(ctx, await ctx.core.services.documents.searchablePdf(ctx.user, ctx.id())),
  }),
];
