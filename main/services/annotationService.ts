// Annotations, annotation sets and missing annotations (spec 2.7-2.10, 3.2): creation under the
// annotation-set rules, review (one by one and in bulk), edits, and a document's annotation tree.
import type { Repos, UnitOfWork } from '../store/repositories/index.ts';
import type { AnnotationChanges, AnnotationWithSet } from '../store/repositories/annotationRepository.ts';
import type { AnnotationRow, AnnotationSetRow, DocumentRow, LabelRow, LabelSetRow, MissingAnnotationRow, UserRow } from '../store/schema.ts';
import type { ListParams, Page } from '../../shared/listParams.ts';
import type { AnnotationCreate, AnnotationPatch, DocumentAnnotationCreate, MissingAnnotationCreateItem } from '../../shared/schemas/annotations.ts';
import { normalize } from '../domain/normalization.ts';
import { labelDataType } from '../../shared/schemas/taxonomy.ts';
import { NotFoundError, PermissionError, ValidationError } from '../domain/errors.ts';
import { decideAnnotationSet, type SetRequest } from '../domain/annotationSetRules.ts';
import { fillsLabel, labelStatus, proposalWanted, reviewState, type LabelStatus, type ReviewSet, type ReviewState } from '../domain/reviewRules.ts';
import { machineSpans, samePosition, spanColumns, toStoredSpans, typedSpans, type SpanInput, type StoredSpan } from '../domain/spans.ts';
import { turnSpan, type PageMove } from '../domain/pageTurn.ts';
import { textInRects } from '../domain/geometry.ts';
import { documentForField, documentForMember } from './access.ts';

/** Labels and label sets that annotation rows refer to, loaded in one batch each. */
export interface Refs {
  labels: Map<number, LabelRow>;
  labelSets: Map<number, LabelSetRow>;
}

export interface AnnotationView {
  row: AnnotationWithSet;
  refs: Refs;
}

export interface TreeLabel {
  label: LabelRow;
  status: LabelStatus;
  missing: MissingAnnotationRow | null;
  annotations: AnnotationWithSet[];
}

export interface TreeSet {
  /** null for a potential set: a label set of the category without an annotation set yet. */
  annotationSet: AnnotationSetRow | null;
  labelSet: LabelSetRow;
  labels: TreeLabel[];
}

export interface DocumentTree {
  sets: TreeSet[];
  refs: Refs;
}

/** What the extraction AI hands over for one found value. */
export interface MachineAnnotationInput {
  documentId: number;
  labelId: number;
  annotationSetId?: number;
  labelSetId?: number;
  spans: SpanInput[];
  confidence: number | null;
  /** The label's data type when the AI was trained: a changed data type takes effect with the next AI. */
  dataType?: string;
}

export const stateOf = (a: Pick<AnnotationRow, 'origin' | 'revised' | 'is_correct'>): ReviewState =>
  reviewState({ origin: a.origin, revised: a.revised, isCorrect: a.is_correct });

const unknownPk = (id: number) => `Invalid pk "${id}" - object does not exist.`;

interface NewAnnotationInput {
  labelId: number;
  annotationSetId: number | null;
  labelSetId: number | null;
  spans: SpanInput[];
  isCorrect: boolean;
  revised: boolean;
  confidence: number | null;
  origin: 'human' | 'machine';
  userId: number | null;
  /** The reviewer typed the value (nothing readable in the box): stored with its boxes, without offsets. */
  typed?: boolean;
  /** Normalize with this data type instead of the label's current one. */
  dataType?: string;
}

/** Where a span is after its document's text changed (pipeline/textMerge.ts MergedSpan). */
export interface MovedSpan {
  start_offset: number;
  end_offset: number;
  offset_string: string;
  /** The span's new box when it was read again from its box (one per line of it). */
  line?: { page_index: number; x0: number; x1: number; y0: number; y1: number; top: number; bottom: number };
}

/** The `normalized` column: the API value of spec 2.14. */
const normalizedColumn = (text: string, dataType: string) => normalize(text, labelDataType(dataType) ?? 'Text');

export class AnnotationService {
  constructor(private readonly repos: Repos, private readonly uow: UnitOfWork) {}

  // --- creation --------------------------------------------------------------------------------

  /** POST /documents/<id>/annotations/: an unknown document is a 404. */
  createForDocument(user: UserRow, documentId: number, input: DocumentAnnotationCreate): Promise<AnnotationView> {
    return this.uow(async (r) => this.createHuman(r, user, await documentForMember(r, user, documentId), input));
  }

  /** POST /annotations/: the document is a body field, so an unknown one is a 400 on it. */
  create(user: UserRow, input: AnnotationCreate): Promise<AnnotationView> {
    return this.uow(async (r) => this.createHuman(r, user, await documentForField(r, user, input.document), input));
  }

  /** A reviewer's annotation inside the caller's transaction (a region read again makes one of its text). */
  createForDocumentIn(r: Repos, user: UserRow, doc: DocumentRow, input: DocumentAnnotationCreate): Promise<AnnotationView> {
    return this.createHuman(r, user, doc, input);
  }

  private async createHuman(r: Repos, user: UserRow, doc: DocumentRow, input: DocumentAnnotationCreate): Promise<AnnotationView> {
    this.assertUnlocked(doc);
    const row = await this.insert(r, doc, {
      labelId: input.label,
      annotationSetId: input.annotation_set ?? null,
      labelSetId: input.label_set ?? input.label_set_id ?? null,
      spans: input.span,
      // A person drawing an annotation vouches for it ("Created by human", spec 3.2).
      isCorrect: input.is_correct ?? true,
      revised: input.is_revised ?? input.revised ?? false,
      confidence: input.confidence ?? null,
      origin: 'human',
      userId: user.id,
      typed: input.is_typed ?? false,
    });
    return this.view(r, row);
  }

  /**
   * For the extraction AI (main/ai/analysis.ts): a machine-made annotation that awaits feedback,
   * written inside the caller's transaction under the same annotation-set rules. Returns its id, or null
   * when it is not proposed: a reviewer declined that value before, or the label already has it there.
   */
  async createMachineAnnotation(r: Repos, input: MachineAnnotationInput): Promise<number | null> {
    const doc = await r.documents.findById(input.documentId);
    if (!doc) throw new NotFoundError(`Document ${input.documentId} not found.`);
    if (!(await this.proposable(r, doc, input))) return null;
    const row = await this.insert(r, doc, {
      labelId: input.labelId,
      annotationSetId: input.annotationSetId ?? null,
      labelSetId: input.labelSetId ?? null,
      spans: input.spans,
      isCorrect: false,
      revised: false,
      confidence: input.confidence,
      origin: 'machine',
      userId: null,
      dataType: input.dataType,
    });
    return row.id;
  }

  /**
   * Whether the AI may propose this value (domain/reviewRules.ts proposalWanted) against the label's
   * annotations on the document: the declined ones are what it remembers, whatever reading moved them.
   */
  private async proposable(r: Repos, doc: DocumentRow, input: MachineAnnotationInput): Promise<boolean> {
    const existing = await r.annotations.annotationsOfLabel(doc.id, input.labelId);
    if (!existing.length) return true;
    const [label] = await r.annotations.labelsByIds([input.labelId]);
    const spans = machineSpans(input.spans);
    const text = spanColumns(spans).offset_string;
    const labelSet = input.labelSetId === undefined ? undefined : await r.labelSets.findById(input.labelSetId);
    return proposalWanted(
      { spans, text, normalized: normalizedColumn(text, input.dataType ?? label?.data_type ?? 'Text') },
      existing.map((a) => ({ state: stateOf(a), spans: a.spans, text: a.offset_string, normalized: a.normalized })),
      // In a repeating label set the same value recurs legitimately (a quantity of 1 on two lines).
      { byValue: labelSet?.has_multiple_sections !== true },
    );
  }

  private async insert(r: Repos, doc: DocumentRow, input: NewAnnotationInput): Promise<AnnotationWithSet> {
    const label = await this.labelFor(r, doc, input.labelId, 'label');
    const setId = await this.resolveSet(r, doc, label, input.annotationSetId, input.labelSetId, 'annotation');
    // The AI's spans come from the document's own characters; a person's are read against them.
    const spans =
      input.origin === 'machine' ? this.machineStoredSpans(doc, input.spans) : input.typed ? this.typedStoredSpans(doc, input.spans) : await this.storedSpans(r, doc, label, input.spans);
    await this.assertNotDuplicate(r, doc.id, label, spans);
    const columns = spanColumns(spans);
    const id = await r.annotations.insertAnnotation({
      document_id: doc.id,
      annotation_set_id: setId,
      label_id: label.id,
      ...columns,
      normalized: normalizedColumn(columns.offset_string, input.dataType ?? label.data_type),
      is_correct: input.isCorrect,
      revised: input.revised,
      confidence: input.confidence,
      origin: input.origin,
      is_typed: input.typed,
      created_by: input.userId,
      revised_by: input.revised ? input.userId : null,
    });
    const row = (await r.annotations.findAnnotation(id))!;
    await this.afterWrite(r, row);
    return row;
  }

  /**
   * After the document's text changed (read again): every annotation's spans through `move`, inside the
   * caller's transaction. A span `move` gives no place keeps its box and text without offsets (nothing
   * to point at any more); a corrected text stays the correction. Typed values have no offsets and are
   * left as they are. `remove` picks annotations to delete instead (machine proposals to extract anew).
   */
  async rewriteSpans(r: Repos, documentId: number, move: (span: StoredSpan) => MovedSpan[], remove: (a: AnnotationRow) => boolean = () => false): Promise<void> {
    const rows = await r.annotations.annotationsOfDocument(documentId);
    const labels = new Map((await r.annotations.labelsByIds(rows.map((a) => a.label_id))).map((l) => [l.id, l]));
    for (const a of rows) {
      if (remove(a)) {
        await r.annotations.removeAnnotation(a.id);
        continue;
      }
      if (a.is_typed) continue;
      const spans = a.spans.flatMap((span): StoredSpan[] => {
        const moved = move(span);
        const corrected = span.offset_string !== span.offset_string_original;
        if (!moved.length) return [{ ...span, start_offset: null, end_offset: null }];
        return moved.map((m) => ({
          ...span,
          ...(m.line ?? {}),
          start_offset: m.start_offset,
          end_offset: m.end_offset,
          offset_string: corrected && moved.length === 1 ? span.offset_string : m.offset_string,
          offset_string_original: m.offset_string,
        }));
      });
      const columns = spanColumns(spans);
      if (JSON.stringify(columns.spans) === JSON.stringify(a.spans)) continue;
      const label = labels.get(a.label_id);
      await r.annotations.updateAnnotations([a.id], { ...columns, normalized: normalizedColumn(columns.offset_string, label?.data_type ?? 'Text') });
    }
  }

  /**
   * Every annotation's boxes (typed ones too) turned with their pages, inside the caller's transaction:
   * `moves` gives, by the page index a span is on, the clockwise turn its page received, the page's size
   * before it (points, as shown) and its new index. Offsets are left to the reading that follows.
   */
  async turnBoxes(r: Repos, documentId: number, moves: ReadonlyMap<number, PageMove>): Promise<void> {
    if (!moves.size) return;
    for (const a of await r.annotations.annotationsOfDocument(documentId)) {
      const spans = a.spans.map((s) => {
        const move = moves.get(s.page_index);
        return move ? turnSpan(s, move.angle, move.width, move.height, move.to) : s;
      });
      if (JSON.stringify(spans) !== JSON.stringify(a.spans)) await r.annotations.updateAnnotations([a.id], { spans: spanColumns(spans).spans });
    }
  }

  // --- reading ---------------------------------------------------------------------------------

  async get(user: UserRow, id: number): Promise<AnnotationView> {
    const row = await this.repos.annotations.findAnnotation(id);
    if (!row) throw new NotFoundError('Annotation not found.');
    await documentForMember(this.repos, user, row.document_id, 'Annotation');
    return this.view(this.repos, row);
  }

  /** One page of annotations with their labels and label sets: three queries whatever the limit. */
  async list(user: UserRow, params: ListParams): Promise<{ page: Page<AnnotationWithSet>; refs: Refs }> {
    const page = await this.repos.annotations.listAnnotations(user.id, params);
    return { page, refs: await this.loadRefs(this.repos, page.items) };
  }

  // --- changes ---------------------------------------------------------------------------------

  /** PATCH: accept or decline (revised, is_correct), relabel, move to another set, correct the spans. */
  patch(user: UserRow, id: number, c: AnnotationPatch): Promise<AnnotationView> {
    return this.uow(async (r) => {
      const { row: a, doc } = await this.editable(r, user, id);
      const label = await this.labelFor(r, doc, c.label ?? a.label_id, 'label');
      const changes: AnnotationChanges = {};
      if (c.label !== undefined || c.annotation_set !== undefined) {
        changes.label_id = label.id;
        changes.annotation_set_id = await this.resolveSet(r, doc, label, c.annotation_set ?? a.annotation_set_id, null, 'annotation');
      }
      // A typed value stays typed: its spans are boxes with the text sent.
      const spans = !c.span ? a.spans : a.is_typed ? this.typedStoredSpans(doc, c.span) : await this.storedSpans(r, doc, label, c.span, a.spans);
      if (c.span || c.label !== undefined) {
        const columns = spanColumns(spans);
        Object.assign(changes, c.span ? columns : {}, { normalized: normalizedColumn(columns.offset_string, label.data_type) });
      }
      if (c.label !== undefined || c.span) await this.assertNotDuplicate(r, doc.id, label, spans, a.id);
      Object.assign(changes, this.reviewChanges(user, a, c.is_correct, c.revised ?? c.is_revised));
      if (c.confidence !== undefined) changes.confidence = c.confidence;
      await r.annotations.updateAnnotations([a.id], changes);
      const row = (await r.annotations.findAnnotation(a.id))!;
      await this.afterWrite(r, row);
      return this.view(r, row);
    });
  }

  /** PUT: every field of the create body; omitted review flags get the defaults of a human annotation. */
  replace(user: UserRow, id: number, body: AnnotationCreate): Promise<AnnotationView> {
    return this.uow(async (r) => {
      const { row: a, doc } = await this.editable(r, user, id);
      if (body.document !== doc.id) throw ValidationError.of('document', 'An annotation cannot move to another document.');
      const label = await this.labelFor(r, doc, body.label, 'label');
      let annotationSetId = body.annotation_set ?? null;
      const labelSetId = body.label_set ?? body.label_set_id ?? null;
      // Naming the label set the annotation is already in keeps it in its set rather than opening another.
      if (annotationSetId === null && labelSetId === a.label_set_id) annotationSetId = a.annotation_set_id;
      const setId = await this.resolveSet(r, doc, label, annotationSetId, labelSetId, 'annotation');
      const typed = body.is_typed ?? a.is_typed;
      const spans = typed ? this.typedStoredSpans(doc, body.span) : await this.storedSpans(r, doc, label, body.span, a.spans);
      await this.assertNotDuplicate(r, doc.id, label, spans, a.id);
      const revised = body.is_revised ?? body.revised ?? false;
      const columns = spanColumns(spans);
      await r.annotations.updateAnnotations([a.id], {
        label_id: label.id,
        annotation_set_id: setId,
        ...columns,
        normalized: normalizedColumn(columns.offset_string, label.data_type),
        is_correct: (body.is_correct ?? true),
        revised: revised,
        revised_by: revised ? user.id : null,
        confidence: body.confidence ?? null,
        is_typed: typed,
      });
      const row = (await r.annotations.findAnnotation(a.id))!;
      await this.afterWrite(r, row);
      return this.view(r, row);
    });
  }

  async remove(user: UserRow, id: number): Promise<void> {
    await this.uow(async (r) => {
      const { row } = await this.editable(r, user, id);
      await r.annotations.removeAnnotation(row.id);
    });
  }

  /** PATCH /documents/<id>/update-annotations/: the same review flags on many annotations, all or nothing. */
  bulkReview(user: UserRow, documentId: number, body: { ids: number[]; is_correct?: boolean; revised?: boolean; is_revised?: boolean }): Promise<{ rows: AnnotationWithSet[]; refs: Refs }> {
    return this.uow(async (r) => {
      const doc = await documentForMember(r, user, documentId);
      this.assertUnlocked(doc);
      const revised = body.revised ?? body.is_revised;
      if (body.is_correct === undefined && revised === undefined) {
        throw ValidationError.of('non_field_errors', 'Send is_correct and/or revised: there is nothing to change.');
      }
      const ids = [...new Set(body.ids)];
      const found = await r.annotations.annotationsByIds(ids);
      const ours = new Set(found.filter((a) => a.document_id === doc.id).map((a) => a.id));
      const foreign = ids.filter((id) => !ours.has(id));
      if (foreign.length) throw ValidationError.of('ids', `Not annotations of document ${doc.id}: ${foreign.join(', ')}.`);
      // Rows differ in their current flags only when one flag is left out; group them by the outcome.
      const groups = new Map<string, { ids: number[]; changes: AnnotationChanges }>();
      for (const a of found) {
        const changes = this.reviewChanges(user, a, body.is_correct, revised);
        const key = JSON.stringify(changes);
        const g = groups.get(key) ?? { ids: [], changes };
        g.ids.push(a.id);
        groups.set(key, g);
      }
      for (const g of groups.values()) await r.annotations.updateAnnotations(g.ids, g.changes);
      const rows = await r.annotations.annotationsByIds(ids);
      for (const row of rows) await this.afterWrite(r, row);
      return { rows, refs: await this.loadRefs(r, rows) };
    });
  }

  // --- missing annotations ---------------------------------------------------------------------

  /** One body or a list (all or nothing). Errors of list items are keyed `<index>.<field>`. */
  createMissing(user: UserRow, items: MissingAnnotationCreateItem[], isList: boolean): Promise<MissingAnnotationRow[]> {
    return this.uow(async (r) => {
      const created: MissingAnnotationRow[] = [];
      for (const [i, item] of items.entries()) {
        const target = await this.missingTarget(r, user, item, isList ? `${i}.` : '');
        created.push(await r.annotations.insertMissing({ ...target, created_by: user.id }));
      }
      return created;
    });
  }

  /**
   * PUT (replace: document and label required) or PATCH: moves the mark to another label or annotation set
   * of the same document, under the rules of a new one. Naming another document is a 400: a mark belongs to
   * its document.
   */
  updateMissing(user: UserRow, id: number, changes: Partial<MissingAnnotationCreateItem>, replace = false): Promise<MissingAnnotationRow> {
    return this.uow(async (r) => {
      const { row } = await this.visibleMissing(r, user, id);
      if (changes.document !== undefined && changes.document !== row.document_id) {
        throw ValidationError.of('document', 'A missing annotation stays with its document; delete it and mark the label missing in the other document.');
      }
      const setNamed = changes.label_set != null || changes.label_set_id != null || changes.annotation_set != null;
      // PUT replaces: the body alone says where the mark goes, checked as POST checks it (issue 31), so a
      // PUT without label_set or annotation_set is the same 400 as a POST without them.
      const item: MissingAnnotationCreateItem = replace ? { ...changes, document: row.document_id } as MissingAnnotationCreateItem : {
        document: row.document_id,
        label: changes.label ?? row.label_id,
        // A new label set without a new annotation set means: that label set's set, not the old one.
        label_set: changes.label_set ?? changes.label_set_id ?? (setNamed ? null : row.label_set_id),
        annotation_set: changes.annotation_set ?? (setNamed ? null : row.annotation_set_id),
      };
      const target = await this.missingTarget(r, user, item, '', row.id);
      await r.annotations.updateMissing(row.id, { label_id: target.label_id, label_set_id: target.label_set_id, annotation_set_id: target.annotation_set_id });
      return (await r.annotations.findMissing(row.id))!;
    });
  }

  /** Where a missing annotation goes, checked as spec 3.2 asks: a label not filled there and not marked
   * already (`self`: the mark being moved, which does not count against itself). */
  private async missingTarget(r: Repos, user: UserRow, item: MissingAnnotationCreateItem, p: string, self?: number) {
    const doc = await documentForField(r, user, item.document, `${p}document`);
    this.assertUnlocked(doc);
    const label = await this.labelFor(r, doc, item.label, `${p}label`);
    const labelSetId = item.label_set ?? item.label_set_id ?? null;
    if (labelSetId === null && item.annotation_set == null) throw ValidationError.of(`${p}label_set`, 'This field is required.');
    const setId = await this.resolveSet(r, doc, label, item.annotation_set ?? null, labelSetId, 'missing', p);
    const filled = (await r.annotations.annotationsOfLabel(doc.id, label.id)).find((a) => a.annotation_set_id === setId && fillsLabel(stateOf(a)));
    if (filled) {
      throw ValidationError.of(`${p}label`, `Label "${label.name}" has an accepted annotation (${filled.id}) in annotation set ${setId}: it cannot be marked missing.`);
    }
    const already = await r.annotations.findMissingFor(setId, label.id);
    if (already && already.id !== self) {
      throw ValidationError.of(`${p}label`, `Label "${label.name}" is already marked missing in annotation set ${setId}.`);
    }
    const set = (await r.annotations.findSet(setId))!;
    return { document_id: doc.id, label_id: label.id, label_set_id: set.label_set_id, annotation_set_id: setId };
  }

  async getMissing(user: UserRow, id: number): Promise<MissingAnnotationRow> {
    return (await this.visibleMissing(this.repos, user, id)).row;
  }

  listMissing(user: UserRow, params: ListParams): Promise<Page<MissingAnnotationRow>> {
    return this.repos.annotations.listMissing(user.id, params);
  }

  /** The label goes back to Unfilled (spec 3.2). */
  async removeMissing(user: UserRow, id: number): Promise<void> {
    await this.uow(async (r) => {
      const { row, doc } = await this.visibleMissing(r, user, id);
      this.assertUnlocked(doc);
      await r.annotations.removeMissing(row.id);
      // A set the mark alone opened (mark missing, then undone) goes with it.
      await r.annotations.removeEmptySets(doc.id, [row.annotation_set_id]);
    });
  }

  // --- the document tree -----------------------------------------------------------------------

  /**
   * The document's annotation sets with their labels and annotations, followed by the potential sets
   * (spec 2.5). Six queries whatever the number of annotations.
   */
  async documentTree(doc: DocumentRow, r: Repos = this.repos): Promise<DocumentTree> {
    const sets = await r.annotations.setsOfDocument(doc.id);
    const annotations = await r.annotations.annotationsOfDocument(doc.id);
    const missing = await r.annotations.missingOfDocument(doc.id);
    const labelSets = await r.annotations.labelSetsOfCategoryAnd(doc.category_id, sets.map((s) => s.label_set_id));
    const members = await r.annotations.labelsOfLabelSets(labelSets.map((ls) => ls.id));

    const labels = new Map<number, LabelRow>();
    const labelIdsOfSet = new Map<number, number[]>();
    for (const { label_set_id, ...label } of members) {
      labels.set(label.id, label);
      const ids = labelIdsOfSet.get(label_set_id) ?? [];
      ids.push(label.id);
      labelIdsOfSet.set(label_set_id, ids);
    }
    // Labels taken out of a label set after they were used still show, under the set that holds them.
    const stray = [...annotations.map((a) => a.label_id), ...missing.map((m) => m.label_id)].filter((id) => !labels.has(id));
    for (const l of await r.annotations.labelsByIds(stray)) labels.set(l.id, l);
    const labelSetById = new Map(labelSets.map((ls) => [ls.id, ls]));

    const key = (setId: number, labelId: number) => `${setId}:${labelId}`;
    const annotationsAt = new Map<string, AnnotationWithSet[]>();
    const usedLabelsOfSet = new Map<number, Set<number>>();
    const use = (setId: number, labelId: number) => {
      const s = usedLabelsOfSet.get(setId) ?? new Set<number>();
      s.add(labelId);
      usedLabelsOfSet.set(setId, s);
    };
    for (const a of annotations) {
      const k = key(a.annotation_set_id, a.label_id);
      const list = annotationsAt.get(k);
      if (list) list.push(a);
      else annotationsAt.set(k, [a]);
      use(a.annotation_set_id, a.label_id);
    }
    const missingAt = new Map<string, MissingAnnotationRow>();
    for (const m of missing) {
      missingAt.set(key(m.annotation_set_id, m.label_id), m);
      use(m.annotation_set_id, m.label_id);
    }

    const treeLabels = (setId: number | null, labelSetId: number): TreeLabel[] => {
      const ids = [...(labelIdsOfSet.get(labelSetId) ?? [])];
      const own = new Set(ids);
      if (setId !== null) for (const id of usedLabelsOfSet.get(setId) ?? []) if (!own.has(id)) ids.push(id);
      return ids.map((id) => {
        const anns = setId === null ? [] : annotationsAt.get(key(setId, id)) ?? [];
        const miss = setId === null ? null : missingAt.get(key(setId, id)) ?? null;
        return { label: labels.get(id)!, status: labelStatus(anns.map(stateOf), miss !== null), missing: miss, annotations: anns };
      });
    };

    // A set of a repeating label set left with nothing in it (its annotations deleted, an undo in review)
    // is not shown: it would only add unfilled labels that block the review. The set stays in the store, so
    // a request naming it still works; without other sets its label set shows as a potential set again.
    const shown = sets.filter((s) => usedLabelsOfSet.has(s.id) || labelSetById.get(s.label_set_id)?.has_multiple_sections !== true);
    const out: TreeSet[] = shown.map((s) => ({ annotationSet: s, labelSet: labelSetById.get(s.label_set_id)!, labels: treeLabels(s.id, s.label_set_id) }));
    const present = new Set(shown.map((s) => s.label_set_id));
    const potential = labelSets.filter((ls) => !present.has(ls.id)).sort((a, b) => Number(b.is_default) - Number(a.is_default) || a.id - b.id);
    for (const ls of potential) out.push({ annotationSet: null, labelSet: ls, labels: treeLabels(null, ls.id) });
    return { sets: out, refs: { labels, labelSets: labelSetById } };
  }

  /** The tree as the review rules see it. */
  reviewSets(tree: DocumentTree): ReviewSet[] {
    return tree.sets.map((s) => ({
      annotationSetId: s.annotationSet?.id ?? null,
      labelSetName: s.labelSet.name,
      hasMultipleSections: s.labelSet.has_multiple_sections,
      labels: s.labels.map((l) => ({
        name: l.label.name,
        status: l.status,
        dataType: labelDataType(l.label.data_type) ?? 'Text',
        annotations: l.annotations.map((a) => ({ id: a.id, state: stateOf(a), text: a.offset_string, unreadable: a.normalized === null && a.offset_string.trim() !== '' })),
      })),
    }));
  }

  // --- shared steps ----------------------------------------------------------------------------

  /** Spec 3.1: a reviewed document is locked until is_reviewed is set back to false. */
  private assertUnlocked(doc: DocumentRow): void {
    if (doc.is_reviewed) {
      throw new PermissionError(`Document ${doc.id} is reviewed and its annotations are locked: set is_reviewed to false first.`);
    }
  }

  private async editable(r: Repos, user: UserRow, id: number): Promise<{ row: AnnotationWithSet; doc: DocumentRow }> {
    const row = await r.annotations.findAnnotation(id);
    if (!row) throw new NotFoundError('Annotation not found.');
    const doc = await documentForMember(r, user, row.document_id, 'Annotation');
    this.assertUnlocked(doc);
    return { row, doc };
  }

  private async visibleMissing(r: Repos, user: UserRow, id: number): Promise<{ row: MissingAnnotationRow; doc: DocumentRow }> {
    const row = await r.annotations.findMissing(id);
    if (!row) throw new NotFoundError('Missing annotation not found.');
    return { row, doc: await documentForMember(r, user, row.document_id, 'Missing annotation') };
  }

  /** A label of the document's project (ids of other projects are answered like unknown ids). */
  private async labelFor(r: Repos, doc: DocumentRow, labelId: number, field: string): Promise<LabelRow> {
    const [label] = await r.annotations.labelsByIds([labelId]);
    if (!label || label.project_id !== doc.project_id) throw ValidationError.of(field, unknownPk(labelId));
    return label;
  }

  /** Applies spec 2.8 (domain/annotationSetRules.ts) and creates the set when the rules say so. */
  private async resolveSet(
    r: Repos, doc: DocumentRow, label: LabelRow, annotationSetId: number | null, labelSetId: number | null,
    purpose: SetRequest['purpose'], fieldPrefix = '',
  ): Promise<number> {
    const annotationSet = annotationSetId === null ? undefined : await r.annotations.findSet(annotationSetId);
    const onDocument = annotationSet && annotationSet.document_id === doc.id ? annotationSet : undefined;
    const labelSetRowId = onDocument ? onDocument.label_set_id : labelSetId;
    const ls = labelSetRowId === null ? undefined : await r.labelSets.findById(labelSetRowId);
    const decision = decideAnnotationSet({
      purpose,
      document: { id: doc.id, projectId: doc.project_id, categoryId: doc.category_id },
      labelId: label.id,
      labelName: label.name,
      annotationSetId,
      labelSetId,
      annotationSet: annotationSet && { id: annotationSet.id, documentId: annotationSet.document_id, labelSetId: annotationSet.label_set_id },
      labelSet: ls && {
        id: ls.id,
        name: ls.name,
        projectId: ls.project_id,
        hasMultipleSections: ls.has_multiple_sections,
        categoryIds: ls.category_ids,
        labelIds: ls.label_ids,
      },
      existingSets: ls && !onDocument
        ? (await r.annotations.setsOfDocumentForLabelSet(doc.id, ls.id)).map((s) => ({ id: s.id, documentId: s.document_id, labelSetId: s.label_set_id }))
        : [],
    });
    if (decision.kind === 'refuse') throw ValidationError.of(`${fieldPrefix}${decision.field}`, decision.message);
    if (decision.kind === 'reuse') return decision.annotationSetId;
    return (await r.annotations.createSet(doc.id, decision.labelSetId)).id;
  }

  /**
   * Spans as stored, their text and offsets read from the characters inside them (domain/spans.ts):
   * one read of the touched pages' characters per request, whatever the number of spans.
   */
  private async storedSpans(r: Repos, doc: DocumentRow, label: LabelRow, spans: SpanInput[], previous: StoredSpan[] = []): Promise<StoredSpan[]> {
    this.assertOnPages(doc, spans);
    const { chars, heights } = await r.pages.charsForDocument(doc.id, [...new Set(spans.map((s) => s.page_index))]);
    // A box on a date, number, percentage or yes/no value leaves out the punctuation at its edges.
    const trimPunctuation = (labelDataType(label.data_type) ?? 'Text') !== 'Text';
    return toStoredSpans(spans, previous, textInRects(doc.text ?? '', chars, heights, { trimPunctuation }));
  }

  private typedStoredSpans(doc: DocumentRow, spans: SpanInput[]): StoredSpan[] {
    this.assertOnPages(doc, spans);
    return typedSpans(spans);
  }

  private machineStoredSpans(doc: DocumentRow, spans: SpanInput[]): StoredSpan[] {
    this.assertOnPages(doc, spans);
    return machineSpans(spans);
  }

  /** Once the document's pages are known, every span must lie on one of them. */
  private assertOnPages(doc: DocumentRow, spans: SpanInput[]): void {
    const pages = doc.number_of_pages;
    const bad = pages > 0 ? spans.findIndex((s) => s.page_index >= pages) : -1;
    if (bad >= 0) throw ValidationError.of(`span.${bad}.page_index`, `Document ${doc.id} has ${pages} page${pages === 1 ? '' : 's'} (page_index 0 to ${pages - 1}).`);
  }

  /** The same label on the same place twice is refused (compat.md). */
  private async assertNotDuplicate(r: Repos, documentId: number, label: LabelRow, spans: StoredSpan[], exceptId?: number): Promise<void> {
    const same = (await r.annotations.annotationsOfLabel(documentId, label.id)).find((a) => a.id !== exceptId && samePosition(a.spans, spans));
    if (!same) return;
    const hint = stateOf(same) === 'Declined' ? ': it was declined, accept it instead' : '';
    throw ValidationError.of('non_field_errors', `This text is already labelled "${label.name}" (annotation ${same.id})${hint}.`);
  }

  /** The columns a review action changes; revised_by names whoever left the annotation revised. */
  private reviewChanges(user: UserRow, a: AnnotationRow, isCorrect: boolean | undefined, revised: boolean | undefined): AnnotationChanges {
    if (isCorrect === undefined && revised === undefined) return {};
    const nowRevised = revised ?? a.revised;
    return {
      ...(isCorrect !== undefined ? { is_correct: isCorrect } : {}),
      ...(revised !== undefined ? { revised } : {}),
      revised_by: nowRevised ? user.id : null,
    };
  }

  /** A filled label is no longer "not found": its missing record goes. */
  private async afterWrite(r: Repos, row: AnnotationRow): Promise<void> {
    if (fillsLabel(stateOf(row))) await r.annotations.removeMissingFor(row.annotation_set_id, row.label_id);
  }

  private async loadRefs(r: Repos, rows: AnnotationWithSet[]): Promise<Refs> {
    const [labels, labelSets] = [await r.annotations.labelsByIds(rows.map((a) => a.label_id)), await r.annotations.labelSetsByIds(rows.map((a) => a.label_set_id))];
    return { labels: new Map(labels.map((l) => [l.id, l])), labelSets: new Map(labelSets.map((ls) => [ls.id, ls])) };
  }

  private async view(r: Repos, row: AnnotationWithSet): Promise<AnnotationView> {
    return { row, refs: await this.loadRefs(r, [row]) };
  }
}
