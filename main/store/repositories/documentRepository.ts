// Documents: the list with its filters, single rows with the assignee's email, writes, and the
// blob reference count that decides when an uploaded file may be removed.
import { sql } from 'kysely';
import type { Db } from '../db.ts';
import { now } from '../db.ts';
import { codecs, type DocumentRow, type DocumentsTable, type DocumentUpdate, type NewDocument, type UploadKeyRow } from '../schema.ts';
import type { Selectable } from 'kysely';
import type { ListParams, Page } from '../../../shared/listParams.ts';
import { ValidationError } from '../../domain/errors.ts';
import { boolFilter, containsFilter, intFilter, runList, type Filter, type ListSpec } from '../listQuery.ts';
import { isPostgres } from '../dialect.ts';
import { textMatches } from '../textSearch.ts';

const documents = codecs.documents;

/** A document with its assignee's email (the API names users by email) and the page whose thumbnail stands
 * for it (the first page that has one; null until processing has drawn it). */
export type DocumentView = DocumentRow & { assignee_email: string | null; thumbnail_page_id: number | null };
/** List rows leave out the (possibly large) text. */
export type DocumentListRow = Omit<DocumentView, 'text'>;

/** `?assignee=` takes a user id, an email, or `null` for unassigned documents. */
const assigneeFilter: Filter = (qb, raw, name) => {
  if (raw === '' || raw === 'null' || /^\s*\d+\s*$/.test(raw)) return intFilter('documents.assignee_id')(qb, raw.trim(), name);
  return qb.where('documents.assignee_id', 'in', (eb: any) => eb.selectFrom('users').select('id').where('email', '=', raw.trim()));
};

/** `?q=`: every word in the document text (full-text index, any order), or the whole of q in the file name. */
const textSearchFilter = (postgres: boolean): Filter => (qb, raw, name) => {
  const q = raw.trim();
  if (!q) return qb;
  const inText = textMatches(postgres, q);
  const inName = containsFilter('documents.data_file_name');
  if (!inText) return inName(qb, q, name);
  const pattern = `%${q.toLowerCase().replace(/[%_\\]/g, (c) => `\\${c}`)}%`;
  return qb.where(sql<boolean>`(${inText} or lower(documents.data_file_name) like ${pattern} escape '\\')`);
};

/** `?content_hash=`: documents whose uploaded bytes have this SHA-256 (the blob key of content-addressed storage). */
const contentHashFilter: Filter = (qb, raw, name) => {
  const hash = raw.trim().toLowerCase();
  if (!/^[0-9a-f]{64}$/.test(hash)) throw ValidationError.of(name, 'Must be the SHA-256 of the file: 64 hexadecimal characters.');
  return qb.where('documents.blob_key', '=', hash);
};

/** The list's fields; `?q=` searches the store's own full-text index. */
const listSpecFor = (postgres: boolean): ListSpec => ({
  orderable: {
    id: 'documents.id',
    created_at: 'documents.created_at',
    updated_at: 'documents.updated_at',
    // As a reviewer reads a list of names: "alpha.pdf" before "Beta.pdf" (SQLite's nocase, on both stores).
    data_file_name: sql`lower(documents.data_file_name)`,
    status_data: 'documents.status',
    status: 'documents.status',
    dataset_status: 'documents.dataset_status',
    number_of_pages: 'documents.number_of_pages',
    is_reviewed: 'documents.is_reviewed',
    category: 'documents.category_id',
    assignee: 'assignee.email',
  },
  filters: {
    id: intFilter('documents.id'),
    project: intFilter('documents.project_id'),
    project_id: intFilter('documents.project_id'),
    category: intFilter('documents.category_id'),
    category_id: intFilter('documents.category_id'),
    is_reviewed: boolFilter('documents.is_reviewed'),
    is_public: boolFilter('documents.is_public'),
    dataset_status: intFilter('documents.dataset_status'),
    status: intFilter('documents.status'),
    status_data: intFilter('documents.status'),
    assignee: assigneeFilter,
    document_set: intFilter('documents.document_set_id'),
    name: containsFilter('documents.data_file_name'),
    data_file_name: containsFilter('documents.data_file_name'),
    q: textSearchFilter(postgres),
    content_hash: contentHashFilter,
  },
  createdAtColumn: 'documents.created_at',
  idColumn: 'documents.id',
  defaultOrder: [{ field: 'id', desc: false }],
});

const LIST_COLUMNS = [
  'documents.id', 'documents.project_id', 'documents.category_id', 'documents.data_file_name', 'documents.blob_key',
  'documents.file_size', 'documents.status', 'documents.status_reason', 'documents.dataset_status', 'documents.is_reviewed',
  'documents.assignee_id', 'documents.callback_url', 'documents.created_by', 'documents.category_confidence',
  'documents.category_is_revised', 'documents.number_of_pages', 'documents.document_set_id', 'documents.ocr_time',
  'documents.extraction_time', 'documents.processing_time', 'documents.is_public', 'documents.created_at', 'documents.updated_at',
  'documents.searchable_blob_key', 'documents.proposed_split', 'documents.extraction_ai_id',
] as const;

export class DocumentRepository {
  private readonly listSpec: ListSpec;

  constructor(private readonly db: Db) {
    this.listSpec = listSpecFor(isPostgres(db));
  }

  private withAssignee() {
    return this.db.selectFrom('documents').leftJoin('users as assignee', 'assignee.id', 'documents.assignee_id');
  }

  /** The first page with a thumbnail, per document row (index pages(document_id, number) makes it one seek). */
  private thumbnailPage() {
    return sql<number | null>`(select p.id from pages p where p.document_id = documents.id and p.thumbnail_blob is not null order by p.number limit 1)`.as('thumbnail_page_id');
  }

  list(userId: number, params: ListParams): Promise<Page<DocumentListRow>> {
    const base = this.withAssignee().where('documents.project_id', 'in', (eb) =>
      eb.selectFrom('project_members').select('project_id').where('user_id', '=', userId),
    );
    return runList<Omit<Selectable<DocumentsTable>, 'text'> & Pick<DocumentListRow, 'assignee_email' | 'thumbnail_page_id'>>(base.select('documents.id'), params, this.listSpec, (qb) =>
      qb.clearSelect().select([...LIST_COLUMNS, 'assignee.email as assignee_email', this.thumbnailPage()]),
    ).then(documents.readPage);
  }

  findById(id: number): Promise<DocumentView | undefined> {
    return this.withAssignee().selectAll('documents').select(['assignee.email as assignee_email', this.thumbnailPage()]).where('documents.id', '=', id).executeTakeFirst().then(documents.read);
  }

  /** The document whose public link has this token (migration 0015); undefined for any other token. */
  findByPublicToken(token: string): Promise<DocumentView | undefined> {
    return this.withAssignee()
      .selectAll('documents')
      .select(['assignee.email as assignee_email', this.thumbnailPage()])
      .where('documents.public_token', '=', token)
      .where('documents.is_public', '=', 1)
      .executeTakeFirst()
      .then(documents.read);
  }

  async insert(values: NewDocument): Promise<DocumentRow> {
    return documents.read(await this.db.insertInto('documents').values(documents.write(values)).returningAll().executeTakeFirstOrThrow());
  }

  /** The upload `userId` made under idempotency key `key` within the last `keptMs` (migration 0014). */
  findUploadKey(userId: number, key: string, keptMs: number): Promise<UploadKeyRow | undefined> {
    const since = new Date(Date.now() - keptMs).toISOString();
    return this.db.selectFrom('upload_keys').selectAll().where('user_id', '=', userId).where('key', '=', key).where('created_at', '>=', since).executeTakeFirst();
  }

  /**
   * Records the key of an upload, in the transaction that inserts its document; first removes this user's
   * key of the same name older than `keptMs`, and every key older than that (a key is kept that long).
   */
  async insertUploadKey(v: { user_id: number; key: string; fingerprint: string; document_id: number }, keptMs: number): Promise<void> {
    const since = new Date(Date.now() - keptMs).toISOString();
    await this.db.deleteFrom('upload_keys').where('created_at', '<', since).execute();
    await this.db.insertInto('upload_keys').values({ ...v, created_at: now() }).execute();
  }

  async update(id: number, changes: DocumentUpdate): Promise<void> {
    await this.db.updateTable('documents').set(documents.write({ ...changes, updated_at: now() })).where('id', '=', id).execute();
  }

  /** Every document of a project, by id (a project folder's export). */
  ofProject(projectId: number): Promise<DocumentRow[]> {
    return this.db.selectFrom('documents').selectAll().where('project_id', '=', projectId).orderBy('id').execute().then(documents.readAll);
  }

  /** A project's documents in one dataset status (training, test), optionally of one category, by id. */
  inDataset(projectId: number, datasetStatus: number, categoryId?: number): Promise<DocumentRow[]> {
    let q = this.db.selectFrom('documents').selectAll().where('project_id', '=', projectId).where('dataset_status', '=', datasetStatus);
    if (categoryId !== undefined) q = q.where('category_id', '=', categoryId);
    return q.orderBy('id').execute().then(documents.readAll);
  }

  /** The documents a split made from one original, by id. */
  async idsInSet(documentSetId: number): Promise<number[]> {
    const rows = await this.db.selectFrom('documents').select('id').where('document_set_id', '=', documentSetId).orderBy('id').execute();
    return rows.map((r) => r.id);
  }

  /** Documents whose processing had not ended (to resume after a restart). */
  async idsWithStatus(statuses: number[]): Promise<number[]> {
    const rows = await this.db.selectFrom('documents').select('id').where('status', 'in', statuses).orderBy('id').execute();
    return rows.map((r) => r.id);
  }

  /** Annotations, annotation sets and missing annotations go with it (foreign key cascade). */
  async remove(id: number): Promise<void> {
    await this.db.deleteFrom('documents').where('id', '=', id).execute();
  }

  /** Every blob key documents refer to (for the start-up sweep of unreferenced files). */
  async blobKeys(): Promise<string[]> {
    const rows = await this.db.selectFrom('documents').select(['blob_key', 'searchable_blob_key']).execute();
    return rows.flatMap((r) => [r.blob_key, r.searchable_blob_key]).filter((k): k is string => !!k);
  }

  /** Other documents of the project with the same uploaded bytes (identical files share one blob key). */
  async sameFile(projectId: number, blobKey: string, exceptId: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom('documents')
      .select('id')
      .where('project_id', '=', projectId)
      .where('blob_key', '=', blobKey)
      .where('id', '!=', exceptId)
      .orderBy('id')
      .execute();
    return rows.map((r) => r.id);
  }

  /** How many documents keep this file (identical uploads share one content-addressed blob). */
  async countByBlob(blobKey: string): Promise<number> {
    const r = await this.db.selectFrom('documents').select(sql<number>`count(*)`.as('n')).where('blob_key', '=', blobKey).executeTakeFirstOrThrow();
    return Number(r.n);
  }
}
