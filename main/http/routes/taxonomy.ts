// Categories, labels and label sets (spec 2.2-2.4), each with list, detail, POST, PUT, PATCH, DELETE,
// and the row -> JSON mappers that other responses (document detail) embed.
import type { z } from 'zod';
import { route, type Ctx, type ListDoc, type RouteSpec } from '../route.ts';
import { envelope } from '../../../shared/schemas/common.ts';
import {
  Category, CategoryCreate, CategoryPatch, Label, LabelCreate, LabelPatch, LabelSet, LabelSetCreate, LabelSetPatch, type LabelDataType,
} from '../../../shared/schemas/taxonomy.ts';
import type { ListParams, Page } from '../../../shared/listParams.ts';
import type { UserRow } from '../../store/schema.ts';
import type { Services } from '../../services/index.ts';
import type { CategoryView } from '../../store/repositories/categoryRepository.ts';
import type { LabelView } from '../../store/repositories/labelRepository.ts';
import type { LabelSetView } from '../../store/repositories/labelSetRepository.ts';
import { bool, isoOut } from '../dto.ts';

/**
 * The name a client uses as an attribute (the service's SDK reads `category.<api_name>`): the name with
 * every run of other characters than letters, digits and "_" made one "_", and "_" before a leading digit.
 */
export function apiName(name: string): string {
  const cleaned = name.normalize('NFC').replace(/[^\p{L}\p{N}_]+/gu, '_').replace(/^_+|_+$/g, '');
  return /^\p{N}/u.test(cleaned) ? `_${cleaned}` : cleaned || '_';
}

export const categoryOut = (c: CategoryView) => ({
  id: c.id,
  name: c.name,
  project: c.project_id,
  label_sets: c.label_set_ids,
  labels: c.label_ids,
  schema: c.schema.map((s) => ({
    id: s.id,
    name: s.name,
    api_name: apiName(s.name),
    has_multiple_annotation_sets: s.has_multiple_sections,
    has_multiple_sections: s.has_multiple_sections,
    labels: s.labels.map((l) => ({
      id: l.id,
      name: l.name,
      api_name: apiName(l.name),
      data_type: l.data_type as LabelDataType,
      // Folio's AI keeps one value per label and annotation set: never several top candidates.
      has_multiple_top_candidates: false,
      threshold: l.threshold,
    })),
  })),
  created_at: isoOut(c.created_at),
  updated_at: isoOut(c.updated_at),
});

export const labelOut = (l: LabelView) => ({
  id: l.id,
  name: l.name,
  text: l.name,
  project: l.project_id,
  data_type: l.data_type,
  get_data_type_display: l.data_type,
  categories: l.category_ids,
  label_sets: l.label_set_ids,
  templates: l.label_set_ids,
  description: l.description,
  threshold: l.threshold,
  created_at: isoOut(l.created_at),
  updated_at: isoOut(l.updated_at),
});

export const labelSetOut = (s: LabelSetView) => ({
  id: s.id,
  name: s.name,
  project: s.project_id,
  categories: s.category_ids,
  labels: s.label_ids,
  has_multiple_sections: bool(s.has_multiple_sections),
  has_multiple_annotation_sets: bool(s.has_multiple_sections),
  is_default: bool(s.is_default),
  created_at: isoOut(s.created_at),
  updated_at: isoOut(s.updated_at),
});

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
    list(t: Taxonomy, user: UserRow, params: ListParams): Promise<Page<V>>;
    get(t: Taxonomy, user: UserRow, id: number): Promise<V>;
    create(t: Taxonomy, user: UserRow, body: z.infer<C>): Promise<V>;
    update(t: Taxonomy, user: UserRow, id: number, body: z.infer<P>, replace: boolean): Promise<V>;
    remove(t: Taxonomy, user: UserRow, id: number): Promise<void>;
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
