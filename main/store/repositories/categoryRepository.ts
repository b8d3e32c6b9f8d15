// Categories. A category and its default label set are one id: both rows are written together here
// (callers run these writes inside a unit of work so that neither exists without the other).
import type { Db } from '../db.ts';
import { now } from '../db.ts';
import { codecs, type CategoryRow } from '../schema.ts';
import type { ListParams, Page } from '../../../shared/listParams.ts';
import { containsFilter, intFilter, runList, type ListSpec } from '../listQuery.ts';
import { TaxonomyLinks } from './labelSetRepository.ts';

/** A category with its links: what the API shows for one. */
export interface CategoryView extends CategoryRow {
  /** Label sets linked to the category (its default label set included). */
  label_set_ids: number[];
  /** Labels of its default label set. */
  label_ids: number[];
  /** Its label sets with their labels, the default set first: the taxonomy clients read from a category. */
  schema: SchemaLabelSet[];
}

export interface SchemaLabelSet {
  id: number;
  name: string;
  has_multiple_sections: boolean;
  labels: { id: number; name: string; data_type: string; description: string; threshold: number }[];
}

const listSpec: ListSpec = {
  orderable: { id: 'categories.id', name: 'categories.name', created_at: 'categories.created_at', updated_at: 'categories.updated_at' },
  filters: {
    project: intFilter('categories.project_id'),
    project_id: intFilter('categories.project_id'),
    name: containsFilter('categories.name'),
  },
  createdAtColumn: 'categories.created_at',
  idColumn: 'categories.id',
  defaultOrder: [{ field: 'id', desc: false }],
};

export class CategoryRepository {
  private readonly links: TaxonomyLinks;

  constructor(private readonly db: Db) {
    this.links = new TaxonomyLinks(db);
  }

  private async hydrate(rows: CategoryRow[]): Promise<CategoryView[]> {
    const ids = rows.map((r) => r.id);
    // The default label set has the category's id, so its labels are keyed by the same ids.
    const [sets, labels, schemas] = await Promise.all([this.links.setIdsOfCategories(ids), this.links.labelIdsOfSets(ids), this.schemas(ids)]);
    return rows.map((r) => ({ ...r, label_set_ids: sets.get(r.id) ?? [], label_ids: labels.get(r.id) ?? [], schema: schemas.get(r.id) ?? [] }));
  }

  /** category id -> its label sets with their labels, in two queries for any number of categories. */
  private async schemas(categoryIds: number[]): Promise<Map<number, SchemaLabelSet[]>> {
    if (!categoryIds.length) return new Map();
    const sets = await this.db
      .selectFrom('label_set_categories as lsc')
      .innerJoin('label_sets as ls', 'ls.id', 'lsc.label_set_id')
      .select(['lsc.category_id', 'ls.id', 'ls.name', 'ls.has_multiple_sections', 'ls.is_default'])
      .where('lsc.category_id', 'in', categoryIds)
      .orderBy('ls.is_default', 'desc')
      .orderBy('ls.id')
      .execute();
    const setIds = [...new Set(sets.map((s) => s.id))];
    const labels = setIds.length
      ? await this.db
        .selectFrom('label_set_labels as lsl')
        .innerJoin('labels as l', 'l.id', 'lsl.label_id')
        .select(['lsl.label_set_id', 'l.id', 'l.name', 'l.data_type', 'l.description', 'l.threshold'])
        .where('lsl.label_set_id', 'in', setIds)
        .orderBy('l.id')
        .execute()
      : [];
    const labelsOf = new Map<number, SchemaLabelSet['labels']>();
    for (const { label_set_id, ...label } of labels) {
      const list = labelsOf.get(label_set_id) ?? [];
      list.push(label);
      labelsOf.set(label_set_id, list);
    }
    const out = new Map<number, SchemaLabelSet[]>();
    for (const s of sets) {
      const list = out.get(s.category_id) ?? [];
      list.push({ id: s.id, name: s.name, has_multiple_sections: codecs.labelSets.read(s).has_multiple_sections, labels: labelsOf.get(s.id) ?? [] });
      out.set(s.category_id, list);
    }
    return out;
  }

  /** Categories of the projects `userId` is a member of, with the list conventions applied. */
  async list(userId: number, params: ListParams): Promise<Page<CategoryView>> {
    const base = this.db
      .selectFrom('categories')
      .where('categories.project_id', 'in', (eb) => eb.selectFrom('project_members').select('project_id').where('user_id', '=', userId));
    const page = await runList<CategoryRow>(base, params, listSpec, (qb) => qb.selectAll('categories'));
    return { count: page.count, items: await this.hydrate(page.items) };
  }

  async findById(id: number): Promise<CategoryView | undefined> {
    return (await this.findByIds([id]))[0];
  }

  /** The categories with these ids that exist, in id order. */
  async findByIds(ids: number[]): Promise<CategoryView[]> {
    if (!ids.length) return [];
    const rows = await this.db.selectFrom('categories').selectAll().where('id', 'in', [...new Set(ids)]).orderBy('id').execute();
    return this.hydrate(rows);
  }

  /** A project's categories (plain rows), by id: what the categorization AI chooses from. */
  inProject(projectId: number): Promise<CategoryRow[]> {
    return this.db.selectFrom('categories').selectAll().where('project_id', '=', projectId).orderBy('id').execute();
  }

  /** id -> project id for the ids that exist, to check request bodies in one query. */
  async projectIdsOf(ids: number[]): Promise<Map<number, number>> {
    if (!ids.length) return new Map();
    const rows = await this.db.selectFrom('categories').select(['id', 'project_id']).where('id', 'in', [...new Set(ids)]).execute();
    return new Map(rows.map((r) => [r.id, r.project_id]));
  }

  /** The default label set first, then the category with the same id, then the link between them. */
  async create(projectId: number, name: string): Promise<CategoryRow> {
    const t = now();
    const set = await this.db
      .insertInto('label_sets')
      .values({ project_id: projectId, name, has_multiple_sections: 0, is_default: 1, created_at: t, updated_at: t })
      .returning('id')
      .executeTakeFirstOrThrow();
    const category = await this.db
      .insertInto('categories')
      .values({ id: set.id, project_id: projectId, name, created_at: t, updated_at: t })
      .returningAll()
      .executeTakeFirstOrThrow();
    await this.db.insertInto('label_set_categories').values({ label_set_id: set.id, category_id: set.id }).execute();
    return category;
  }

  /** Renames the category and its default label set, which carry the same name. */
  async rename(id: number, name: string): Promise<void> {
    const t = now();
    await this.db.updateTable('categories').set({ name, updated_at: t }).where('id', '=', id).execute();
    await this.db.updateTable('label_sets').set({ name, updated_at: t }).where('id', '=', id).where('is_default', '=', 1).execute();
  }

  /**
   * Removes the default label set; the foreign keys cascade to the category and every link, and set
   * the category of its documents to null.
   */
  async remove(id: number): Promise<void> {
    await this.db.deleteFrom('label_sets').where('id', '=', id).where('is_default', '=', 1).execute();
    // A category whose default label set was lost some other way still goes.
    await this.db.deleteFrom('categories').where('id', '=', id).execute();
  }
}
