// AI models (compat.md "AI models"): /api/v3/extraction-ais/, /category-ais/ and /splitting-ais/, each with
// list (filter project_id), create (starts training), detail (poll status and progress), PATCH (name,
// active), DELETE, and `upload/` for a model file; `/aimodel/file/<id>/` downloads any model's file.
import type { z } from 'zod';
import { route, type Ctx, type RouteSpec } from '../route.ts';
import { envelope } from '../../../shared/schemas/common.ts';
import { AiModel, AiPatch, AiPut, AiUpload, ExtractionAiCreate, ProjectAiCreate } from '../../../shared/schemas/ais.ts';
import type { AiScope } from '../../services/aiModelService.ts';
import { aiModelOut } from '../../mappers/ais.ts';
import { sendBlob } from '../sendFile.ts';

/** extraction, categorization or splitting, as the API names the kinds. */
type AiKind = z.infer<typeof AiModel>['kind'];

interface Collection {
  kind: AiKind;
  path: string;
  create: z.ZodType;
  scope(body: any): AiScope;
}

const projectScope = (b: z.infer<typeof ProjectAiCreate>): AiScope => ({ project: b.project ?? b.project_id, name: b.name, description: b.description });

const COLLECTIONS: Collection[] = [
  { kind: 'extraction', path: '/api/v3/extraction-ais/', create: ExtractionAiCreate, scope: (b: z.infer<typeof ExtractionAiCreate>) => ({ ...b }) },
  { kind: 'categorization', path: '/api/v3/category-ais/', create: ProjectAiCreate, scope: projectScope },
  { kind: 'splitting', path: '/api/v3/splitting-ais/', create: ProjectAiCreate, scope: projectScope },
];

const what = (kind: AiKind) => `${kind} AI`;

function collectionRoutes(c: Collection): RouteSpec[] {
  const tag = 'ai-models';
  const service = (ctx: Ctx<unknown>) => ctx.core.services.aiModels;
  const scopeNote = c.kind === 'extraction' ? 'a category' : 'a project';
  return [
    route({
      method: 'get',
      path: c.path,
      tag,
      summary: `List the ${what(c.kind)}s of the caller's projects`,
      list: {
        filters: { project_id: 'project id (also project)', category: 'category id', active: 'true or false', status: 'queued, training, done or failed' },
        ordering: ['id', 'created_at', 'updated_at', 'status', 'active', 'category'],
      },
      response: envelope(AiModel),
      async handler(ctx) {
        const params = ctx.list();
        return ctx.page(await service(ctx).list(ctx.user, c.kind, params), params, aiModelOut);
      },
    }),
    route({
      method: 'post',
      path: c.path,
      tag,
      summary: `Train a new ${what(c.kind)} for ${scopeNote}; poll the record for its status`,
      description: 'Refused with 400 when there is no processed training document (dataset_status 2). The requester gets an email when training ends.',
      body: c.create,
      response: AiModel,
      handler: async (ctx) => aiModelOut(await service(ctx).create(ctx.user, c.kind, c.scope(ctx.body))),
    }),
    route({
      method: 'post',
      path: `${c.path}upload/`,
      tag,
      summary: `Upload a ${what(c.kind)} model file (multipart, part "file") for ${scopeNote}`,
      description: 'The file is checked, evaluated on the test documents and made active when it scores better than the active model.',
      bodyMode: 'multipart',
      fileField: 'file',
      body: AiUpload,
      response: AiModel,
      async handler(ctx) {
        const b = ctx.body;
        const scope: AiScope = { category: b.category, project: b.project ?? b.project_id, name: b.name, description: b.description };
        return aiModelOut(await service(ctx).upload(ctx.user, c.kind, scope, ctx.file));
      },
    }),
    route({
      method: 'get',
      path: `${c.path}:id/`,
      tag,
      summary: `One ${what(c.kind)}: status, progress, evaluation, active`,
      response: AiModel,
      handler: async (ctx) => aiModelOut(await service(ctx).get(ctx.user, c.kind, ctx.id())),
    }),
    route({
      method: 'patch',
      path: `${c.path}:id/`,
      tag,
      summary: `Rename a ${what(c.kind)} or switch which model is active`,
      body: AiPatch,
      response: AiModel,
      handler: async (ctx) => aiModelOut(await service(ctx).patch(ctx.user, c.kind, ctx.id(), ctx.body)),
    }),
    route({
      method: 'put',
      path: `${c.path}:id/`,
      tag,
      summary: `Replace the name and description of a ${what(c.kind)} (name required; a left-out description becomes empty), optionally switching it active`,
      body: AiPut,
      response: AiModel,
      handler: async (ctx) => aiModelOut(await service(ctx).patch(ctx.user, c.kind, ctx.id(), { ...ctx.body, description: ctx.body.description ?? '' })),
    }),
    route({
      method: 'delete',
      path: `${c.path}:id/`,
      tag,
      summary: `Delete a ${what(c.kind)} and its model file`,
      handler: async (ctx) => service(ctx).remove(ctx.user, c.kind, ctx.id()),
    }),
  ];
}

export const aiRoutes: RouteSpec[] = [
  ...COLLECTIONS.flatMap(collectionRoutes),
  route({
    method: 'get',
    path: '/aimodel/file/:id/',
    tag: 'ai-models',
    summary: 'Download the model file of any AI (JSON)',
    produces: 'application/json',
    handler: async (ctx) => sendBlob(ctx, await ctx.core.services.aiModels.file(ctx.user, ctx.id())),
  }),
];
