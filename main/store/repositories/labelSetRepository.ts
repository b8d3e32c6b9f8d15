// Label sets and the two link tables of the taxonomy (label set <-> category, label set <-> label).
// Reads load many ids at once so that lists and document details never query once per row.
import { sql, type SelectQueryBuilder } from 'kysely';
import type { Db } from '../db.ts';
import { now } from '../db.ts';
import { codecs, type Database, type LabelSetRow, type LabelSetsTable } from '../schema.ts';
import type { Selectable } from 'kysely';
import type { ListParams, Page } from '../../../shared/listParams.ts';
import { boolFilter, containsFilter, intFilter, parseIntStrict, runList, type Filter, type ListSpec } from '../listQuery.ts';

/** A label set with its links: what the API shows for one. */
export interface LabelSetView extends LabelSetRow {
  category_ids: number[];
  label_ids: number[];
}

/** `?label_set=3,4` style filter: rows whose `column` is in the ids that `sub` selects for the given ids. */
export const subqueryFilter =
  (column: string, sub: (db: Db, ids: number[]) => SelectQueryBuilder<Database, any, any>, db: Db): Filter =>
  (qb, raw, name) => {
    const ids = raw.split(',').map((x) => parseIntStrict(x, name));
    return qb.where(sql.ref(column), 'in', sub(db, ids));
  };

/** Groups (key, value) pairs into key -> sorted distinct values; every asked key gets an entry. */
function groupIds(keys: number[], pairs: { k: number; v: number }[]): Map<number, number[]> {
  const out = new Map<number, number[]>(keys.map((k) => [k, []]));
  for (const { k, v } of pairs) {
    const list = out.get(k);
    if (list && !list.includes(v)) list.push(v);
  }
  for (const list of out.values()) list.sort((a, b) => a - b);
  return out;
}

const uniq = (ids: number[]): number[] => [...new Set(ids)];

/** Batch reads of the link tables, shared by the three taxonomy repositories. */
export class TaxonomyLinks {
  constructor(private readonly db: Db) {}

  /** label set id -> ids of the categories it is linked to. */
  async categoryIdsOfSets(labelSetIds: number[]): Promise<Map<number, number[]>> {
    const ids = uniq(labelSetIds);
    if (!ids.length) return new Map();
    const rows = await this.db
      .selectFrom('label_set_categories')
      .select(['label_set_id as k', 'category_id as v'])
      .where('label_set_id', 'in', ids)
      .execute();
    return groupIds(ids, rows);
  }

  /** label set id -> ids of its labels. */
  async labelIdsOfSets(labelSetIds: number[]): Promise<Map<number, number[]>> {
    const ids = uniq(labelSetIds);
    if (!ids.length) return new Map();
    const rows = await this.db
      .selectFrom('label_set_labels')
      .select(['label_set_id as k', 'label_id as v'])
      .where('label_set_id', 'in', ids)
      .execute();
    return groupIds(ids, rows);
  }

  /** category id -> ids of the label sets linked to it (its default label set included). */
  async setIdsOfCategories(categoryIds: number[]): Promise<Map<number, number[]>> {
    const ids = uniq(categoryIds);
    if (!ids.length) return new Map();
    const rows = await this.db
      .selectFrom('label_set_categories')
      .select(['category_id as k', 'label_set_id as v'])
      .where('category_id', 'in', ids)
      .execute();
    return groupIds(ids, rows);
  }

  /** label id -> ids of the label sets holding it. */
  async setIdsOfLabels(labelIds: number[]): Promise<Map<number, number[]>> {
    const ids = uniq(labelIds);
    if (!ids.length) return new Map();
    const rows = await this.db
      .selectFrom('label_set_labels')
      .select(['label_id as k', 'label_set_id as v'])
      .where('label_id', 'in', ids)
      .execute();
    return groupIds(ids, rows);
  }

  /** label id -> ids of the categories of every label set holding it (a label's derived categories). */
  async categoryIdsOfLabels(labelIds: number[]): Promise<Map<number, number[]>> {
    const ids = uniq(labelIds);
    if (!ids.length) return new Map();
    const rows = await this.db
      .selectFrom('label_set_labels as lsl')
      .innerJoin('label_set_categories as lsc', 'lsc.label_set_id', 'lsl.label_set_id')
      .select(['lsl.label_id as k', 'lsc.category_id as v'])
      .where('lsl.label_id', 'in', ids)
      .execute();
    return groupIds(ids, rows);
  }
}

export class LabelSetRepository {
  private readonly links: TaxonomyLinks;
  private readonly listSpec: ListSpec;

  constructor(private readonly db: Db) {
    this.links = new TaxonomyLinks(db);
    this.listSpec = {
      orderable: { id: 'label_sets.id', name: 'label_sets.name', created_at: 'label_sets.created_at' },
      filters: {
        project: intFilter('label_sets.project_id'),
        project_id: intFilter('label_sets.project_id'),
        is_default: boolFilter('label_sets.is_default'),
        name: containsFilter('label_sets.name'),
        category: subqueryFilter(
          'label_sets.id',
          (d, ids) => d.selectFrom('label_set_categories').select('label_set_id').where('category_id', 'in', ids),
          db,
        ),
      },
      createdAtColumn: 'label_sets.created_at',
      idColumn: 'label_sets.id',
      defaultOrder: [{ field: 'id', desc: false }],
    };
  }

  private async hydrate(rows: Selectable<LabelSetsTable>[]): Promise<LabelSetView[]> {
    const ids = rows.map((r) => r.id);
    const [cats, labels] = await Promise.all([this.links.categoryIdsOfSets(ids), this.links.labelIdsOfSets(ids)]);
    return rows.map((r) => ({ ...codecs.labelSets.read(r), category_ids: cats.get(r.id) ?? [], label_ids: labels.get(r.id) ?? [] }));
  }

  /** Label sets of the projects `userId` is a member of, with the list conventions applied. */
  async list(userId: number, params: ListParams): Promise<Page<LabelSetView>> {
    const base = this.db
      .selectFrom('label_sets')
      .where('label_sets.project_id', 'in', (eb) => eb.selectFrom('project_members').select('project_id').where('user_id', '=', userId));
    const page = await runList<Selectable<LabelSetsTable>>(base, params, this.listSpec, (qb) => qb.selectAll('label_sets'));
    return { count: page.count, items: await this.hydrate(page.items) };
  }

  async findById(id: number): Promise<LabelSetView | undefined> {
    return (await this.findByIds([id]))[0];
  }

  /** The label sets with these ids that exist, in id order. */
  async findByIds(ids: number[]): Promise<LabelSetView[]> {
    if (!ids.length) return [];
    const rows = await this.db.selectFrom('label_sets').selectAll().where('id', 'in', uniq(ids)).orderBy('id').execute();
    return this.hydrate(rows);
  }

  /** Label sets linked to a category, its default label set first. */
  async forCategory(categoryId: number): Promise<LabelSetView[]> {
    const rows = await this.db
      .selectFrom('label_sets')
      .selectAll('label_sets')
      .where('id', 'in', (eb) => eb.selectFrom('label_set_categories').select('label_set_id').where('category_id', '=', categoryId))
      .orderBy('is_default', 'desc')
      .orderBy('id')
      .execute();
    return this.hydrate(rows);
  }

  /** label set id -> its label ids (an entry for every asked id). */
  labelIds(labelSetIds: number[]): Promise<Map<number, number[]>> {
    return this.links.labelIdsOfSets(labelSetIds);
  }

  /** label set id -> its category ids (an entry for every asked id). */
  categoryIds(labelSetIds: number[]): Promise<Map<number, number[]>> {
    return this.links.categoryIdsOfSets(labelSetIds);
  }

  /** id -> project id for the ids that exist, to check request bodies in one query. */
  async projectIdsOf(ids: number[]): Promise<Map<number, number>> {
    if (!ids.length) return new Map();
    const rows = await this.db.selectFrom('label_sets').select(['id', 'project_id']).where('id', 'in', uniq(ids)).execute();
    return new Map(rows.map((r) => [r.id, r.project_id]));
  }

  /** Ids and names of a project's label sets, the categories' default ones included (for name checks that fold case beyond ASCII). */
  names(projectId: number): Promise<{ id: number; name: string; is_default: boolean }[]> {
    return this.db.selectFrom('label_sets').select(['id', 'name', 'is_default']).where('project_id', '=', projectId).execute().then(codecs.labelSets.readAll);
  }

  async insert(input: { projectId: number; name: string; hasMultipleSections: boolean; isDefault: boolean }): Promise<LabelSetRow> {
    const t = now();
    const row = await this.db
      .insertInto('label_sets')
      .values(
        codecs.labelSets.write({
          project_id: input.projectId,
          name: input.name,
          has_multiple_sections: input.hasMultipleSections,
          is_default: input.isDefault,
          created_at: t,
          updated_at: t,
        }),
      )
      .returningAll()
      .executeTakeFirstOrThrow();
    return codecs.labelSets.read(row);
  }

  async update(id: number, changes: { name?: string; hasMultipleSections?: boolean }): Promise<void> {
    await this.db
      .updateTable('label_sets')
      .set(
        codecs.labelSets.write({
          ...(changes.name !== undefined ? { name: changes.name } : {}),
          ...(changes.hasMultipleSections !== undefined ? { has_multiple_sections: changes.hasMultipleSections } : {}),
          updated_at: now(),
        }),
      )
      .where('id', '=', id)
      .execute();
  }

  /** Replaces the label set's labels. */
  async setLabels(labelSetId: number, labelIds: number[]): Promise<void> {
    await this.db.deleteFrom('label_set_labels').where('label_set_id', '=', labelSetId).execute();
    const ids = uniq(labelIds);
    if (ids.length) await this.db.insertInto('label_set_labels').values(ids.map((label_id) => ({ label_set_id: labelSetId, label_id }))).execute();
  }

  /** Replaces the label set's categories. */
  async setCategories(labelSetId: number, categoryIds: number[]): Promise<void> {
    await this.db.deleteFrom('label_set_categories').where('label_set_id', '=', labelSetId).execute();
    const ids = uniq(categoryIds);
    if (ids.length) {
      await this.db.insertInto('label_set_categories').values(ids.map((category_id) => ({ label_set_id: labelSetId, category_id }))).execute();
    }
  }

  /** Deleting cascades to the link rows and to annotation sets made for this label set. */
  async remove(id: number): Promise<void> {
    await this.db.deleteFrom('label_sets').where('id', '=', id).execute();
  }
}
