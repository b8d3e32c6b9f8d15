// Annotations (spec 2.8, 3.2), bulk review and missing annotations (2.9).
import { z } from 'zod';
import { route, type RouteSpec } from '../route.ts';
import { envelope } from '../../../shared/schemas/common.ts';
import {
  Annotation, AnnotationCreate, AnnotationPatch, BulkReview, DocumentAnnotationCreate, MissingAnnotation, MissingAnnotationCreate, MissingAnnotationPatch, MissingAnnotationPut,
  type MissingAnnotationCreateItem,
} from '../../../shared/schemas/annotations.ts';
import { annotationOut, missingOut } from '../../mappers/annotations.ts';

const base = '/api/v3/annotations/';
const missingBase = '/api/v3/missing-annotations/';
const annotationList = {
  filters: {
    document: 'document id',
    project: 'project id',
    label: 'label id',
    label_set: 'label set id (of the annotation set)',
    annotation_set: 'annotation set id',
    is_correct: 'true or false',
    revised: 'true or false',
  },
  ordering: ['id', 'created_at', 'updated_at', 'start_offset', 'confidence'],
};

export const annotationRoutes: RouteSpec[] = [
  route({
    method: 'get',
    path: base,
    tag: 'annotations',
    summary: "List annotations of the caller's projects",
    list: annotationList,
    cache: true,
    response: envelope(Annotation),
    async handler(ctx) {
      const params = ctx.list();
      const { page, refs } = await ctx.core.services.annotations.list(ctx.user, params);
      return ctx.page(page, params, (a) => annotationOut(a, refs));
    },
  }),
  route({
    method: 'post',
    path: base,
    tag: 'annotations',
    summary: 'Create an annotation (annotation set chosen or created by the rules of spec 2.8)',
    body: AnnotationCreate,
    response: Annotation,
    async handler({ core, user, body }) {
      const v = await core.services.annotations.create(user, body);
      return annotationOut(v.row, v.refs);
    },
  }),
  route({
    method: 'get',
    path: `${base}:id/`,
    tag: 'annotations',
    summary: 'Annotation detail',
    response: Annotation,
    async handler(ctx) {
      const v = await ctx.core.services.annotations.get(ctx.user, ctx.id());
      return annotationOut(v.row, v.refs);
    },
  }),
  route({
    method: 'patch',
    path: `${base}:id/`,
    tag: 'annotations',
    summary: 'Accept or decline (revised, is_correct), relabel, move or correct an annotation',
    body: AnnotationPatch,
    response: Annotation,
    async handler(ctx) {
      const v = await ctx.core.services.annotations.patch(ctx.user, ctx.id(), ctx.body);
      return annotationOut(v.row, v.refs);
    },
  }),
  route({
    method: 'put',
    path: `${base}:id/`,
    tag: 'annotations',
    summary: 'Replace an annotation',
    body: AnnotationCreate,
    response: Annotation,
    async handler(ctx) {
      const v = await ctx.core.services.annotations.replace(ctx.user, ctx.id(), ctx.body);
      return annotationOut(v.row, v.refs);
    },
  }),
  route({
    method: 'delete',
    path: `${base}:id/`,
    tag: 'annotations',
    summary: 'Delete an annotation',
    handler: async (ctx) => ctx.core.services.annotations.remove(ctx.user, ctx.id()),
  }),
  route({
    method: 'get',
    path: '/api/v3/documents/:id/annotations/',
    tag: 'annotations',
    summary: 'List the annotations of one document',
    list: { filters: { ...annotationList.filters, document: 'taken from the path' }, ordering: annotationList.ordering },
    response: envelope(Annotation),
    async handler(ctx) {
      const doc = await ctx.core.services.documents.get(ctx.user, ctx.id());
      const params = ctx.list();
      params.filters.document = String(doc.id);
      const { page, refs } = await ctx.core.services.annotations.list(ctx.user, params);
      return ctx.page(page, params, (a) => annotationOut(a, refs));
    },
  }),
  route({
    method: 'post',
    path: '/api/v3/documents/:id/annotations/',
    tag: 'annotations',
    summary: 'Create an annotation on this document (spans may carry top and bottom)',
    body: DocumentAnnotationCreate,
    response: Annotation,
    async handler(ctx) {
      const v = await ctx.core.services.annotations.createForDocument(ctx.user, ctx.id(), ctx.body);
      return annotationOut(v.row, v.refs);
    },
  }),
  route({
    method: 'patch',
    path: '/api/v3/documents/:id/update-annotations/',
    tag: 'annotations',
    summary: 'Accept or decline many annotations of a document at once (all or nothing)',
    body: BulkReview,
    response: z.array(Annotation),
    async handler(ctx) {
      const { rows, refs } = await ctx.core.services.annotations.bulkReview(ctx.user, ctx.id(), ctx.body);
      return rows.map((a) => annotationOut(a, refs));
    },
  }),
  route({
    method: 'get',
    path: missingBase,
    tag: 'missing-annotations',
    summary: "List missing annotations of the caller's projects",
    list: {
      filters: { document: 'document id', project: 'project id', label: 'label id', label_set: 'label set id', annotation_set: 'annotation set id' },
      ordering: ['id', 'created_at'],
    },
    response: envelope(MissingAnnotation),
    async handler(ctx) {
      const params = ctx.list();
      return ctx.page(await ctx.core.services.annotations.listMissing(ctx.user, params), params, missingOut);
    },
  }),
  route({
    method: 'post',
    path: missingBase,
    tag: 'missing-annotations',
    summary: 'Mark a label as absent from a document (one body, or a list: all or nothing)',
    body: MissingAnnotationCreate,
    response: z.union([MissingAnnotation, z.array(MissingAnnotation)]),
    async handler({ core, user, body }) {
      const isList = Array.isArray(body);
      const items: MissingAnnotationCreateItem[] = isList ? body : [body];
      const created = (await core.services.annotations.createMissing(user, items, isList)).map(missingOut);
      return isList ? created : created[0];
    },
  }),
  route({
    method: 'get',
    path: `${missingBase}:id/`,
    tag: 'missing-annotations',
    summary: 'Missing annotation detail',
    response: MissingAnnotation,
    handler: async (ctx) => missingOut(await ctx.core.services.annotations.getMissing(ctx.user, ctx.id())),
  }),
  ...(['put', 'patch'] as const).map((method) =>
    route({
      method,
      path: `${missingBase}:id/`,
      tag: 'missing-annotations',
      summary: method === 'put'
        ? 'Replace a missing annotation: its label, label set or annotation set in the same document (document and label required)'
        : 'Move a missing annotation to another label, label set or annotation set of the same document',
      body: method === 'put' ? MissingAnnotationPut : MissingAnnotationPatch,
      response: MissingAnnotation,
      handler: async (ctx) => missingOut(await ctx.core.services.annotations.updateMissing(ctx.user, ctx.id(), ctx.body, method === 'put')),
    }),
  ),
  route({
    method: 'delete',
    path: `${missingBase}:id/`,
    tag: 'missing-annotations',
    summary: 'Remove a missing annotation (the label is Unfilled again)',
    handler: async (ctx) => ctx.core.services.annotations.removeMissing(ctx.user, ctx.id()),
  }),
];
