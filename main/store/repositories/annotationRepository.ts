// Annotation sets, annotations and missing annotations of documents, plus the read-only look-ups of
// labels and label sets that the annotation rules and the document tree need (batched, never per row).
import type { Db } from '../db.ts';
import { now } from '../db.ts';
import { codecs, type AnnotationRow, type AnnotationSetRow, type AnnotationsTable, type LabelRow, type LabelSetRow, type MissingAnnotationRow, type Row } from '../schema.ts';
import type { StoredSpan } from '../../domain/spans.ts';
import type { Normalized } from '../../domain/normalization.ts';
import type { Insertable, Selectable, Updateable } from 'kysely';
import type { ListParams, Page } from '../../../shared/listParams.ts';
import { boolFilter, intFilter, runList, type ListSpec } from '../listQuery.ts';

/** An annotation with the label set of its annotation set (lists show both). */
export type AnnotationWithSet = AnnotationRow & { label_set_id: number };
export type NewAnnotation = Omit<Row<Insertable<AnnotationsTable>, typeof codecs.annotations>, 'created_at' | 'updated_at'>;
export type AnnotationChanges = Omit<Row<Updateable<AnnotationsTable>, typeof codecs.annotations>, 'id' | 'document_id' | 'created_at' | 'updated_at'>;
export type LabelInSet = LabelRow & { label_set_id: number };

const annotations = codecs.annotations;
const labelSets = codecs.labelSets;

const annotationListSpec: ListSpec = {
  orderable: {
    id: 'annotations.id',
    created_at: 'annotations.created_at',
    updated_at: 'annotations.updated_at',
    start_offset: 'annotations.start_offset',
    confidence: 'annotations.confidence',
  },
  filters: {
    id: intFilter('annotations.id'),
    document: intFilter('annotations.document_id'),
    document_id: intFilter('annotations.document_id'),
    project: intFilter('documents.project_id'),
    project_id: intFilter('documents.project_id'),
    label: intFilter('annotations.label_id'),
    label_set: intFilter('annotation_sets.label_set_id'),
    label_set_id: intFilter('annotation_sets.label_set_id'),
    annotation_set: intFilter('annotations.annotation_set_id'),
    is_correct: boolFilter('annotations.is_correct'),
    revised: boolFilter('annotations.revised'),
    is_revised: boolFilter('annotations.revised'),
  },
  createdAtColumn: 'annotations.created_at',
  idColumn: 'annotations.id',
  defaultOrder: [{ field: 'id', desc: false }],
};

const missingListSpec: ListSpec = {
  orderable: { id: 'missing_annotations.id', created_at: 'missing_annotations.created_at' },
  filters: {
    id: intFilter('missing_annotations.id'),
    document: intFilter('missing_annotations.document_id'),
    project: intFilter('documents.project_id'),
    label: intFilter('missing_annotations.label_id'),
    label_set: intFilter('missing_annotations.label_set_id'),
    annotation_set: intFilter('missing_annotations.annotation_set_id'),
  },
  createdAtColumn: 'missing_annotations.created_at',
  idColumn: 'missing_annotations.id',
  defaultOrder: [{ field: 'id', desc: false }],
};

/** One annotation with everything the CSV export shows of it. */
export interface ExportRow {
  document_id: number;
  data_file_name: string;
  category: string | null;
  label_set: string;
  label_set_id: number;
  annotation_set_id: number;
  label: string;
  label_id: number;
  data_type: string;
  id: number;
  offset_string: string;
  normalized: Normalized;
  confidence: number | null;
  origin: 'human' | 'machine';
  is_correct: boolean;
  revised: boolean;
  spans: StoredSpan[];
}

export class AnnotationRepository {
  constructor(private readonly db: Db) {}

  /** Every annotation of a project, in document and text order, for the CSV and per-document exports. */
  exportRows(projectId: number): Promise<ExportRow[]> {
    return this.db
      .selectFrom('annotations')
      .innerJoin('documents', 'documents.id', 'annotations.document_id')
      .innerJoin('annotation_sets', 'annotation_sets.id', 'annotations.annotation_set_id')
      .innerJoin('label_sets', 'label_sets.id', 'annotation_sets.label_set_id')
      .innerJoin('labels', 'labels.id', 'annotations.label_id')
      .leftJoin('categories', 'categories.id', 'documents.category_id')
      .select([
        'documents.id as document_id',
        'documents.data_file_name',
        'categories.name as category',
        'label_sets.name as label_set',
        'annotation_sets.label_set_id',
        'annotations.annotation_set_id',
        'labels.name as label',
        'labels.id as label_id',
        'labels.data_type',
        'annotations.id',
        'annotations.offset_string',
        'annotations.normalized',
        'annotations.confidence',
        'annotations.origin',
        'annotations.is_correct',
        'annotations.revised',
        'annotations.spans',
      ])
      .where('documents.project_id', '=', projectId)
      .orderBy('documents.id')
      // Typed annotations (no offsets) first, on PostgreSQL too.
      .orderBy('annotations.start_offset', (ob) => ob.asc().nullsFirst())
      .orderBy('annotations.id')
      .execute()
      .then(annotations.readAll);
  }

  private memberProjects(userId: number) {
    return this.db.selectFrom('project_members').select('project_id').where('user_id', '=', userId);
  }

  // --- annotation sets -------------------------------------------------------------------------

  setsOfDocument(documentId: number): Promise<AnnotationSetRow[]> {
    return this.db.selectFrom('annotation_sets').selectAll().where('document_id', '=', documentId).orderBy('id').execute();
  }

  /**
   * Removes the given annotation sets of a document that hold neither an annotation nor a "not found"
   * mark: an empty set left behind (an undone "mark missing", proposals taken back) is not shown as a set
   * to fill. A label set's potential set takes its place in the document tree.
   */
  async removeEmptySets(documentId: number, ids: readonly number[]): Promise<void> {
    if (!ids.length) return;
    await this.db
      .deleteFrom('annotation_sets')
      .where('document_id', '=', documentId)
      .where('id', 'in', [...ids])
      .where((eb) => eb.not(eb.exists(eb.selectFrom('annotations').select('annotations.id').whereRef('annotations.annotation_set_id', '=', 'annotation_sets.id'))))
      .where((eb) => eb.not(eb.exists(eb.selectFrom('missing_annotations').select('missing_annotations.id').whereRef('missing_annotations.annotation_set_id', '=', 'annotation_sets.id'))))
      .execute();
  }

  findSet(id: number): Promise<AnnotationSetRow | undefined> {
    return this.db.selectFrom('annotation_sets').selectAll().where('id', '=', id).executeTakeFirst();
  }

  setsOfDocumentForLabelSet(documentId: number, labelSetId: number): Promise<AnnotationSetRow[]> {
    return this.db
      .selectFrom('annotation_sets')
      .selectAll()
      .where('document_id', '=', documentId)
      .where('label_set_id', '=', labelSetId)
      .orderBy('id')
      .execute();
  }

  createSet(documentId: number, labelSetId: number): Promise<AnnotationSetRow> {
    return this.db
      .insertInto('annotation_sets')
      .values({ document_id: documentId, label_set_id: labelSetId, created_at: now() })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  // --- annotations -----------------------------------------------------------------------------

  private annotationsWithSet() {
    return this.db
      .selectFrom('annotations')
      .innerJoin('annotation_sets', 'annotation_sets.id', 'annotations.annotation_set_id')
      .selectAll('annotations')
      .select('annotation_sets.label_set_id');
  }

  findAnnotation(id: number): Promise<AnnotationWithSet | undefined> {
    return this.annotationsWithSet().where('annotations.id', '=', id).executeTakeFirst().then(annotations.read);
  }

  annotationsOfDocument(documentId: number): Promise<AnnotationWithSet[]> {
    return this.annotationsWithSet().where('annotations.document_id', '=', documentId).orderBy('annotations.id').execute().then(annotations.readAll);
  }

  annotationsByIds(ids: number[]): Promise<AnnotationWithSet[]> {
    if (!ids.length) return Promise.resolve([]);
    return this.annotationsWithSet().where('annotations.id', 'in', ids).orderBy('annotations.id').execute().then(annotations.readAll);
  }

  /** The document's annotations of one label (the duplicate check compares their positions). */
  annotationsOfLabel(documentId: number, labelId: number): Promise<AnnotationRow[]> {
    return this.db.selectFrom('annotations').selectAll().where('document_id', '=', documentId).where('label_id', '=', labelId).execute().then(annotations.readAll);
  }

  listAnnotations(userId: number, params: ListParams): Promise<Page<AnnotationWithSet>> {
    const base = this.db
      .selectFrom('annotations')
      .innerJoin('annotation_sets', 'annotation_sets.id', 'annotations.annotation_set_id')
      .innerJoin('documents', 'documents.id', 'annotations.document_id')
      .where('documents.project_id', 'in', this.memberProjects(userId))
      .select('annotations.id');
    return runList<Selectable<AnnotationsTable> & { label_set_id: number }>(base, params, annotationListSpec, (qb) =>
      qb.clearSelect().selectAll('annotations').select('annotation_sets.label_set_id'),
    ).then(annotations.readPage);
  }

  async insertAnnotation(values: NewAnnotation): Promise<number> {
    const t = now();
    const r = await this.db.insertInto('annotations').values(annotations.write({ ...values, created_at: t, updated_at: t })).returning('id').executeTakeFirstOrThrow();
    return r.id;
  }

  async updateAnnotations(ids: number[], changes: AnnotationChanges): Promise<void> {
    if (!ids.length) return;
    await this.db.updateTable('annotations').set(annotations.write({ ...changes, updated_at: now() })).where('id', 'in', ids).execute();
  }

  async removeAnnotation(id: number): Promise<void> {
    await this.db.deleteFrom('annotations').where('id', '=', id).execute();
  }

  // --- missing annotations ---------------------------------------------------------------------

  findMissing(id: number): Promise<MissingAnnotationRow | undefined> {
    return this.db.selectFrom('missing_annotations').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findMissingFor(annotationSetId: number, labelId: number): Promise<MissingAnnotationRow | undefined> {
    return this.db
      .selectFrom('missing_annotations')
      .selectAll()
      .where('annotation_set_id', '=', annotationSetId)
      .where('label_id', '=', labelId)
      .executeTakeFirst();
  }

  missingOfDocument(documentId: number): Promise<MissingAnnotationRow[]> {
    return this.db.selectFrom('missing_annotations').selectAll().where('document_id', '=', documentId).orderBy('id').execute();
  }

  listMissing(userId: number, params: ListParams): Promise<Page<MissingAnnotationRow>> {
    const base = this.db
      .selectFrom('missing_annotations')
      .innerJoin('documents', 'documents.id', 'missing_annotations.document_id')
      .where('documents.project_id', 'in', this.memberProjects(userId))
      .select('missing_annotations.id');
    return runList<MissingAnnotationRow>(base, params, missingListSpec, (qb) => qb.clearSelect().selectAll('missing_annotations'));
  }

  insertMissing(values: { document_id: number; label_id: number; label_set_id: number; annotation_set_id: number; created_by: number | null }): Promise<MissingAnnotationRow> {
    return this.db.insertInto('missing_annotations').values({ ...values, created_at: now() }).returningAll().executeTakeFirstOrThrow();
  }

  async updateMissing(id: number, values: { label_id: number; label_set_id: number; annotation_set_id: number }): Promise<void> {
    await this.db.updateTable('missing_annotations').set(values).where('id', '=', id).execute();
  }

  async removeMissing(id: number): Promise<void> {
    await this.db.deleteFrom('missing_annotations').where('id', '=', id).execute();
  }

  /** Drops the "not found" record of a label once an annotation fills it. */
  async removeMissingFor(annotationSetId: number, labelId: number): Promise<void> {
    await this.db.deleteFrom('missing_annotations').where('annotation_set_id', '=', annotationSetId).where('label_id', '=', labelId).execute();
  }

  // --- labels and label sets (read-only) -------------------------------------------------------
  // Plain rows in batches for annotation lists and the document tree, which need names and flags but
  // not the links the taxonomy repositories attach to each record (two more queries per call).

  labelsByIds(ids: number[]): Promise<LabelRow[]> {
    if (!ids.length) return Promise.resolve([]);
    return this.db.selectFrom('labels').selectAll().where('id', 'in', [...new Set(ids)]).execute();
  }

  labelSetsByIds(ids: number[]): Promise<LabelSetRow[]> {
    if (!ids.length) return Promise.resolve([]);
    return this.db.selectFrom('label_sets').selectAll().where('id', 'in', [...new Set(ids)]).execute().then(labelSets.readAll);
  }

  /** The label sets of a category together with the given ones (the document tree's label sets). */
  labelSetsOfCategoryAnd(categoryId: number | null, ids: number[]): Promise<LabelSetRow[]> {
    const unique = [...new Set(ids)];
    if (categoryId === null && !unique.length) return Promise.resolve([]);
    return this.db
      .selectFrom('label_sets')
      .selectAll()
      .where((eb) => {
        const ors = [];
        if (unique.length) ors.push(eb('id', 'in', unique));
        if (categoryId !== null) ors.push(eb('id', 'in', eb.selectFrom('label_set_categories').select('label_set_id').where('category_id', '=', categoryId)));
        return eb.or(ors);
      })
      .orderBy('id')
      .execute()
      .then(labelSets.readAll);
  }

  /** The labels of label sets, one row per (label set, label), in label id order. */
  labelsOfLabelSets(labelSetIds: number[]): Promise<LabelInSet[]> {
    if (!labelSetIds.length) return Promise.resolve([]);
    return this.db
      .selectFrom('label_set_labels')
      .innerJoin('labels', 'labels.id', 'label_set_labels.label_id')
      .selectAll('labels')
      .select('label_set_labels.label_set_id')
      .where('label_set_labels.label_set_id', 'in', [...new Set(labelSetIds)])
      .orderBy('labels.id')
      .execute();
  }
}
