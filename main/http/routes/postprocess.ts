// Post-process and document sets (compat.md): split / rotate / re-order a document's pages, and the
// documents a split derived from one original, with that original's file.
import { route, type RouteSpec } from '../route.ts';
import { DocumentSet, PostprocessRequest } from '../../../shared/schemas/postprocess.ts';
import { DocumentDetail } from '../../../shared/schemas/documents.ts';
import { z } from 'zod';
import { documentListOut, documentOut } from '../../mappers/documents.ts';
import { documentSetOut } from '../../mappers/postprocess.ts';
import { sendBlob } from '../sendFile.ts';

export const postprocessRoutes: RouteSpec[] = [
  route({
    method: 'post',
    path: '/api/v3/documents/:id/postprocess/',
    tag: 'documents',
    summary: 'Split, rotate (multiples of 90 degrees) and re-order the pages of a document',
    description:
      'A list with one object per resulting document, `{name, category, pages: [{id, number, angle}]}` (page ids alone are accepted too). ' +
      'Every page goes to exactly one document. The results are new documents of one document set, each processed and extracted; the original is removed. ' +
      'One object with all pages in their order and no rotation rejects a proposed split: the document is categorized and extracted as it is.',
    body: PostprocessRequest,
    response: z.array(DocumentDetail),
    status: 200,
    async handler(ctx) {
      const { postprocess, documents } = ctx.core.services;
      const results = await postprocess.postprocess(ctx.user, ctx.id(), ctx.body);
      return Promise.all(results.map(async (d) => documentOut(await documents.detail(ctx.user, d.id))));
    },
  }),
  route({
    method: 'get',
    path: '/api/v3/document-sets/:id/',
    tag: 'documents',
    summary: 'The documents derived from one original by a split (?expand=documents for their details)',
    query: { expand: '"documents": the documents as in the document list instead of their ids' },
    response: DocumentSet,
    async handler(ctx) {
      const { set, documents } = await ctx.core.services.postprocess.documentSet(ctx.user, ctx.id());
      const expand = String(ctx.query.expand ?? '').split(',').includes('documents');
      return documentSetOut(set, expand ? await Promise.all(documents.map(async (id) => documentListOut(await ctx.core.services.documents.get(ctx.user, id)))) : documents);
    },
  }),
  route({
    method: 'get',
    path: '/api/v3/document-sets/:id/original/',
    tag: 'documents',
    summary: 'The file the documents of a set were split from, as uploaded',
    produces: 'application/octet-stream',
    handler: async (ctx) => sendBlob(ctx, await ctx.core.services.postprocess.originalFile(ctx.user, ctx.id())),
  }),
];
