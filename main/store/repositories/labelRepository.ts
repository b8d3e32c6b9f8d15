// Labels and their label set memberships. A label's categories are derived from those memberships.
import type { Db } from '../db.ts';
import { now } from '../db.ts';
import type { LabelRow } from '../schema.ts';
import type { ListParams, Page } from '../../../shared/listParams.ts';
import { containsFilter, intFilter, runList, type ListSpec } from '../listQuery.ts';
import { subqueryFilter, TaxonomyLinks } from './labelSetRepository.ts';

/** A label with its links: what the API shows for one. */
export interface LabelView extends LabelRow {
  label_set_ids: number[];
  /** Categories of every label set holding the label. */
  category_ids: number[];
}

export interface LabelValues {
  name: string;
  dataType: string;
  description: string;
  threshold: number;
}

export class LabelRepository {
  private readonly links: TaxonomyLinks;
  private readonly listSpec: ListSpec;

  constructor(private readonly db: Db) {
    this.links = new TaxonomyLinks(db);
    this.listSpec = {
      orderable: { id: 'labels.id', name: 'labels.name', created_at: 'labels.created_at', updated_at: 'labels.updated_at' },
      filters: {
        project: intFilter('labels.project_id'),
        project_id: intFilter('labels.project_id'),
        name: containsFilter('labels.name'),
        label_set: subqueryFilter(
          'labels.id',
          (d, ids) => d.selectFrom('label_set_labels').select('label_id').where('label_set_id', 'in', ids),
          db,
        ),
        category: subqueryFilter(
          'labels.id',
          (d, ids) =>
            d
              .selectFrom('label_set_labels as lsl')
              .innerJoin('label_set_categories as lsc', 'lsc.label_set_id', 'lsl.label_set_id')
              .select('lsl.label_id')
              .where('lsc.category_id', 'in', ids),
          db,
        ),
      },
      createdAtColumn: 'labels.created_at',
      idColumn: 'labels.id',
      defaultOrder: [{ field: 'id', desc: false }],
    };
  }

  private async hydrate(rows: LabelRow[]): Promise<LabelView[]> {
    const ids = rows.map((r) => r.id);
    const [sets, cats] = await Promise.all([this.links.setIdsOfLabels(ids), this.links.categoryIdsOfLabels(ids)]);
    return rows.map((r) => ({ ...r, label_set_ids: sets.get(r.id) ?? [], category_ids: cats.get(r.id) ?? [] }));
  }

  /** Labels of the projects `userId` is a member of, with the list conventions applied. */
  async list(userId: number, params: ListParams): Promise<Page<LabelView>> {
    const base = this.db
      .selectFrom('labels')
      .where('labels.project_id', 'in', (eb) => eb.selectFrom('project_members').select('project_id').where('user_id', '=', userId));
    const page = await runList<LabelRow>(base, params, this.listSpec, (qb) => qb.selectAll('labels'));
    return { count: page.count, items: await this.hydrate(page.items) };
  }

  async findById(id: number): Promise<LabelView | undefined> {
    return (await this.findByIds([id]))[0];
  }

  /** The labels with these ids that exist, in id order. */
  async findByIds(ids: number[]): Promise<LabelView[]> {
    if (!ids.length) return [];
    const rows = await this.db.selectFrom('labels').selectAll().where('id', 'in', [...new Set(ids)]).orderBy('id').execute();
    return this.hydrate(rows);
  }

  /** id -> project id for the ids that exist, to check request bodies in one query. */
  async projectIdsOf(ids: number[]): Promise<Map<number, number>> {
    if (!ids.length) return new Map();
    const rows = await this.db.selectFrom('labels').select(['id', 'project_id']).where('id', 'in', [...new Set(ids)]).execute();
    return new Map(rows.map((r) => [r.id, r.project_id]));
  }

  /** Ids and names of a project's labels (for name checks that must fold case beyond ASCII). */
  names(projectId: number): Promise<{ id: number; name: string }[]> {
    return this.db.selectFrom('labels').select(['id', 'name']).where('project_id', '=', projectId).execute();
  }

  async insert(projectId: number, v: LabelValues): Promise<LabelRow> {
    const t = now();
    return this.db
      .insertInto('labels')
      .values({ project_id: projectId, name: v.name, data_type: v.dataType, description: v.description, threshold: v.threshold, created_at: t, updated_at: t })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async update(id: number, v: Partial<LabelValues>): Promise<void> {
    await this.db
      .updateTable('labels')
      .set({
        ...(v.name !== undefined ? { name: v.name } : {}),
        ...(v.dataType !== undefined ? { data_type: v.dataType } : {}),
        ...(v.description !== undefined ? { description: v.description } : {}),
        ...(v.threshold !== undefined ? { threshold: v.threshold } : {}),
        updated_at: now(),
      })
      .where('id', '=', id)
      .execute();
  }

  /** Replaces the label sets holding the label. */
  async setLabelSets(labelId: number, labelSetIds: number[]): Promise<void> {
    await this.db.deleteFrom('label_set_labels').where('label_id', '=', labelId).execute();
    const ids = [...new Set(labelSetIds)];
    if (ids.length) await this.db.insertInto('label_set_labels').values(ids.map((label_set_id) => ({ label_set_id, label_id: labelId }))).execute();
  }

  async remove(id: number): Promise<void> {
    await this.db.deleteFrom('labels').where('id', '=', id).execute();
  }
}
