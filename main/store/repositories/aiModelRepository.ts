// AI model records (extraction, categorization, splitting) and document sets. At most one model per
// kind and scope (category for extraction, project otherwise) is active; `activate` keeps it so.
import type { Db } from '../db.ts';
import { now } from '../db.ts';
import { codecs, type AiKind, type AiModelRow, type AiModelsTable, type AiModelUpdate, type DocumentSetRow, type NewAiModel } from '../schema.ts';
import type { Selectable } from 'kysely';
import type { ListParams, Page } from '../../../shared/listParams.ts';
import { boolFilter, intFilter, runList, type Filter, type ListSpec } from '../listQuery.ts';

const models = codecs.aiModels;

const statusFilter: Filter = (qb, raw) => qb.where('ai_models.status', '=', raw);

const listSpec: ListSpec = {
  orderable: {
    id: 'ai_models.id',
    created_at: 'ai_models.created_at',
    updated_at: 'ai_models.updated_at',
    status: 'ai_models.status',
    active: 'ai_models.active',
    category: 'ai_models.category_id',
  },
  filters: {
    project: intFilter('ai_models.project_id'),
    project_id: intFilter('ai_models.project_id'),
    category: intFilter('ai_models.category_id'),
    category_id: intFilter('ai_models.category_id'),
    active: boolFilter('ai_models.active'),
    status: statusFilter,
  },
  createdAtColumn: 'ai_models.created_at',
  idColumn: 'ai_models.id',
  defaultOrder: [{ field: 'id', desc: false }],
};

export class AiModelRepository {
  constructor(private readonly db: Db) {}

  async insert(values: Omit<NewAiModel, 'created_at' | 'updated_at'>): Promise<AiModelRow> {
    const t = now();
    const row = await this.db.insertInto('ai_models').values(models.write({ ...values, created_at: t, updated_at: t })).returningAll().executeTakeFirstOrThrow();
    return models.read(row);
  }

  findById(id: number): Promise<AiModelRow | undefined> {
    return this.db.selectFrom('ai_models').selectAll().where('id', '=', id).executeTakeFirst().then(models.read);
  }

  async update(id: number, changes: Omit<AiModelUpdate, 'id' | 'created_at'>): Promise<void> {
    await this.db.updateTable('ai_models').set(models.write({ ...changes, updated_at: now() })).where('id', '=', id).execute();
  }

  async remove(id: number): Promise<void> {
    await this.db.deleteFrom('ai_models').where('id', '=', id).execute();
  }

  /** Models of one kind in the projects `userId` is a member of, with the list conventions applied. */
  list(userId: number, kind: AiKind, params: ListParams): Promise<Page<AiModelRow>> {
    const base = this.db
      .selectFrom('ai_models')
      .where('ai_models.kind', '=', kind)
      .where('ai_models.project_id', 'in', (eb) => eb.selectFrom('project_members').select('project_id').where('user_id', '=', userId));
    return runList<Selectable<AiModelsTable>>(base, params, listSpec, (qb) => qb.selectAll('ai_models')).then(models.readPage);
  }

  /** The model in use for a kind and scope: extraction by category, the others by project. */
  findActive(kind: AiKind, projectId: number, categoryId: number | null = null): Promise<AiModelRow | undefined> {
    let q = this.db.selectFrom('ai_models').selectAll().where('kind', '=', kind).where('project_id', '=', projectId).where('active', '=', 1);
    if (kind === 'extraction') q = q.where('category_id', '=', categoryId);
    return q.orderBy('id', 'desc').executeTakeFirst().then(models.read);
  }

  /** Every extraction AI of a category, oldest first (continuous learning looks at the newest trained one). */
  ofCategory(categoryId: number): Promise<AiModelRow[]> {
    return this.db.selectFrom('ai_models').selectAll().where('kind', '=', 'extraction').where('category_id', '=', categoryId).orderBy('id').execute().then(models.readAll);
  }

  /** Makes `model` the active one of its kind and scope; the previous one stops being active. Call in a unit of work. */
  async activate(model: Pick<AiModelRow, 'id' | 'kind' | 'project_id' | 'category_id'>): Promise<void> {
    let q = this.db.updateTable('ai_models').set({ active: 0, updated_at: now() }).where('kind', '=', model.kind).where('project_id', '=', model.project_id).where('active', '=', 1);
    if (model.kind === 'extraction') q = q.where('category_id', '=', model.category_id);
    await q.execute();
    await this.db.updateTable('ai_models').set({ active: 1, updated_at: now() }).where('id', '=', model.id).execute();
  }

  /** How many models keep this file (an uploaded copy shares the content-addressed blob). */
  async countByBlob(key: string): Promise<number> {
    const r = await this.db.selectFrom('ai_models').select((eb) => eb.fn.countAll<number>().as('n')).where('model_blob', '=', key).executeTakeFirstOrThrow();
    return Number(r.n);
  }

  /** Blob keys of model files and of split originals, for the blob sweep. */
  async blobKeys(): Promise<string[]> {
    const models = await this.db.selectFrom('ai_models').select('model_blob').where('model_blob', 'is not', null).execute();
    const sets = await this.db.selectFrom('document_sets').select('original_blob_key').execute();
    return [...models.map((m) => m.model_blob!), ...sets.map((s) => s.original_blob_key)];
  }

  // --- document sets ---------------------------------------------------------------------------

  insertDocumentSet(values: Omit<DocumentSetRow, 'id' | 'created_at'>): Promise<DocumentSetRow> {
    return this.db.insertInto('document_sets').values({ ...values, created_at: now() }).returningAll().executeTakeFirstOrThrow();
  }

  findDocumentSet(id: number): Promise<DocumentSetRow | undefined> {
    return this.db.selectFrom('document_sets').selectAll().where('id', '=', id).executeTakeFirst();
  }
}
