// Categories, labels and label sets (spec 2.2-2.4), each with list, detail, POST, PUT, PATCH, DELETE.
import type { z } from 'zod';
import { route, type Caller, type Ctx, type ListDoc, type RouteSpec } from '../route.ts';
import { envelope } from '../../../shared/schemas/common.ts';
import {
  Category, CategoryCreate, CategoryPatch, Label, LabelCreate, LabelPatch, LabelSet, LabelSetCreate, LabelSetPatch,
} from '../../../shared/schemas/taxonomy.ts';
import type { ListParams, Page } from '../../../shared/listParams.ts';
import type { Services } from '../../services/index.ts';
import { categoryOut, labelOut, labelSetOut } from '../../mappers/taxonomy.ts';

type Taxonomy = Services['taxonomy'];

/** What differs between the three collections; the six routes of each are built alike from it. */
interface Collection<V, C extends z.ZodType, P extends z.ZodType> {
  path: string;
  tag: string;
  noun: string;
  list: ListDoc;
  create: C;
  patch: P;
  response: z.ZodType;
  out: (v: V) => unknown;
  ops: {
    list(t: Taxonomy, user: Caller, params: ListParams): Promise<Page<V>>;
    get(t: Taxonomy, user: Caller, id: number): Promise<V>;
    create(t: Taxonomy, user: Caller, body: z.infer<C>): Promise<V>;
    update(t: Taxonomy, user: Caller, id: number, body: z.infer<P>, replace: boolean): Promise<V>;
    remove(t: Taxonomy, user: Caller, id: number): Promise<void>;
  };
}

function collectionRoutes<V, C extends z.ZodType, P extends z.ZodType>(c: Collection<V, C, P>, deleteSummary: string): RouteSpec[] {
  const detail = `${c.path}:id/`;
  const t = (ctx: Ctx<unknown>) => ctx.core.services.taxonomy;
  return [
    route({
      method: 'get',
      path: c.path,
      tag: c.tag,
      summary: `List the ${c.noun}s of the caller's projects`,
      list: c.list,
      response: envelope(c.response),
      async handler(ctx) {
        const params = ctx.list();
        return ctx.page(await c.ops.list(t(ctx), ctx.user, params), params, c.out);
      },
    }),
    route({
      method: 'post',
      path: c.path,
      tag: c.tag,
      summary: `Create a ${c.noun}`,
      body: c.create,
      response: c.response,
      handler: async (ctx) => c.out(await c.ops.create(t(ctx), ctx.user, ctx.body as z.infer<C>)),
    }),
    route({
      method: 'get',
      path: detail,
      tag: c.tag,
      summary: `${c.noun[0].toUpperCase()}${c.noun.slice(1)} detail`,
      response: c.response,
      handler: async (ctx) => c.out(await c.ops.get(t(ctx), ctx.user, ctx.id())),
    }),
    route({
      method: 'put',
      path: detail,
      tag: c.tag,
      summary: `Replace a ${c.noun} (omitted optional fields get their defaults)`,
      body: c.create,
      response: c.response,
      handler: async (ctx) => c.out(await c.ops.update(t(ctx), ctx.user, ctx.id(), ctx.body as z.infer<P>, true)),
    }),
    route({
      method: 'patch',
      path: detail,
      tag: c.tag,
      summary: `Change the named fields of a ${c.noun}`,
      body: c.patch,
      response: c.response,
      handler: async (ctx) => c.out(await c.ops.update(t(ctx), ctx.user, ctx.id(), ctx.body as z.infer<P>, false)),
    }),
    route({
      method: 'delete',
      path: detail,
      tag: c.tag,
      summary: deleteSummary,
      handler: (ctx) => c.ops.remove(t(ctx), ctx.user, ctx.id()),
    }),
  ];
}

const byProject = { project: 'project id', project_id: 'project id (same as project)' };

export const taxonomyRoutes: RouteSpec[] = [
  ...collectionRoutes(
    {
      path: '/api/v3/categories/',
      tag: 'categories',
      noun: 'category',
      list: { filters: { ...byProject, name: 'name contains (case-insensitive)' }, ordering: ['id', 'name', 'created_at', 'updated_at'] },
      create: CategoryCreate,
      patch: CategoryPatch,
      response: Category,
      out: categoryOut,
      ops: {
        list: (t, u, p) => t.listCategories(u, p),
        get: (t, u, id) => t.getCategory(u, id),
        create: (t, u, b) => t.createCategory(u, b),
        update: (t, u, id, b) => t.updateCategory(u, id, b),
        remove: (t, u, id) => t.removeCategory(u, id),
      },
    },
    'Delete a category with its default label set (its documents become uncategorized)',
  ),
  ...collectionRoutes(
    {
      path: '/api/v3/labels/',
      tag: 'labels',
      noun: 'label',
      list: {
        filters: {
          ...byProject,
          category: 'labels of any label set linked to this category',
          label_set: 'labels of this label set',
          name: 'name contains (case-insensitive)',
        },
        ordering: ['id', 'name', 'created_at', 'updated_at'],
      },
      create: LabelCreate,
      patch: LabelPatch,
      response: Label,
      out: labelOut,
      ops: {
        list: (t, u, p) => t.listLabels(u, p),
        get: (t, u, id) => t.getLabel(u, id),
        create: (t, u, b) => t.createLabel(u, b),
        update: (t, u, id, b, replace) => t.updateLabel(u, id, b, replace),
        remove: (t, u, id) => t.removeLabel(u, id),
      },
    },
    'Delete a label with its annotations',
  ),
  ...collectionRoutes(
    {
      path: '/api/v3/label-sets/',
      tag: 'label-sets',
      noun: 'label set',
      list: {
        filters: {
          ...byProject,
          category: 'label sets linked to this category',
          is_default: 'true: only the default label sets of categories',
          name: 'name contains (case-insensitive)',
        },
        ordering: ['id', 'name', 'created_at'],
      },
      create: LabelSetCreate,
      patch: LabelSetPatch,
      response: LabelSet,
      out: labelSetOut,
      ops: {
        list: (t, u, p) => t.listLabelSets(u, p),
        get: (t, u, id) => t.getLabelSet(u, id),
        create: (t, u, b) => t.createLabelSet(u, b),
        update: (t, u, id, b, replace) => t.updateLabelSet(u, id, b, replace),
        remove: (t, u, id) => t.removeLabelSet(u, id),
      },
    },
    'Delete a label set (not a default one: delete its category instead)',
  ),
];
