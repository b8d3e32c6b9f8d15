// Which annotation set an annotation (or a missing annotation) goes into: spec 2.8's table and the
// invalid conditions 7.1 and 7.2, as one pure decision: re-use a set, create one, or refuse with a reason.

export interface DocumentFacts {
  id: number;
  projectId: number;
  categoryId: number | null;
}

export interface LabelSetFacts {
  id: number;
  name: string;
  projectId: number;
  hasMultipleSections: boolean;
  /** Categories using this label set (a category's default label set is linked to that category). */
  categoryIds: number[];
  labelIds: number[];
}

export interface AnnotationSetFacts {
  id: number;
  documentId: number;
  labelSetId: number;
}

export interface SetRequest {
  /** Annotations follow table 2.8; missing annotations name an existing set or the only one there can be. */
  purpose: 'annotation' | 'missing';
  document: DocumentFacts;
  labelId: number;
  labelName: string;
  annotationSetId?: number | null;
  labelSetId?: number | null;
  /** The annotation set `annotationSetId` names, when it exists. */
  annotationSet?: AnnotationSetFacts;
  /** The label set `labelSetId` names, or else the label set of `annotationSet`, when it exists. */
  labelSet?: LabelSetFacts;
  /** The document's annotation sets of `labelSet`, oldest first. */
  existingSets: AnnotationSetFacts[];
}

/** The row of table 2.8 a decision came from (tests and logs name it). */
export type SetRule =
  | 'repeating: new set by label_set'
  | 'repeating: existing set by annotation_set'
  | 'single: existing set by annotation_set'
  | 'single: existing set re-used for label_set'
  | 'single: first set created for label_set'
  | 'missing: only set of a repeating label set'
  | 'missing: first set of a repeating label set';

export type SetDecision =
  | { kind: 'reuse'; annotationSetId: number; rule: SetRule }
  | { kind: 'create'; labelSetId: number; rule: SetRule }
  | { kind: 'refuse'; field: string; message: string };

const refuse = (field: string, message: string): SetDecision => ({ kind: 'refuse', field, message });
const unknownPk = (id: number) => `Invalid pk "${id}" - object does not exist.`;

function labelCheck(req: SetRequest, labelSet: LabelSetFacts): SetDecision | undefined {
  if (labelSet.labelIds.includes(req.labelId)) return undefined;
  return refuse('label', `Label "${req.labelName}" (${req.labelId}) is not in label set "${labelSet.name}" (${labelSet.id}).`);
}

function byAnnotationSet(req: SetRequest, id: number): SetDecision {
  const set = req.annotationSet;
  if (!set || set.documentId !== req.document.id) return refuse('annotation_set', `Annotation set ${id} is not an annotation set of document ${req.document.id}.`);
  if (req.labelSetId != null && req.labelSetId !== set.labelSetId) {
    return refuse('label_set', `Annotation set ${id} belongs to label set ${set.labelSetId}, not to label set ${req.labelSetId}.`);
  }
  const labelSet = req.labelSet;
  if (!labelSet || labelSet.id !== set.labelSetId) throw new Error(`The facts of label set ${set.labelSetId} are missing.`);
  const bad = labelCheck(req, labelSet);
  if (bad) return bad;
  return { kind: 'reuse', annotationSetId: set.id, rule: labelSet.hasMultipleSections ? 'repeating: existing set by annotation_set' : 'single: existing set by annotation_set' };
}

function byLabelSet(req: SetRequest, id: number): SetDecision {
  const ls = req.labelSet;
  // Ids of another project are answered like unknown ids: their existence is not revealed.
  if (!ls || ls.id !== id || ls.projectId !== req.document.projectId) return refuse('label_set', unknownPk(id));
  const category = req.document.categoryId;
  if (category !== null && !ls.categoryIds.includes(category)) {
    return refuse('label_set', `Label set "${ls.name}" (${ls.id}) is not a label set of the document's category (${category}).`);
  }
  const bad = labelCheck(req, ls);
  if (bad) return bad;
  const existing = req.existingSets.filter((s) => s.labelSetId === ls.id && s.documentId === req.document.id);

  if (req.purpose === 'missing') {
    if (existing.length === 1) return { kind: 'reuse', annotationSetId: existing[0].id, rule: ls.hasMultipleSections ? 'missing: only set of a repeating label set' : 'single: existing set re-used for label_set' };
    if (existing.length === 0) return { kind: 'create', labelSetId: ls.id, rule: ls.hasMultipleSections ? 'missing: first set of a repeating label set' : 'single: first set created for label_set' };
    return refuse('annotation_set', `Document ${req.document.id} has ${existing.length} annotation sets of label set "${ls.name}" (${existing.map((s) => s.id).join(', ')}): name one with annotation_set.`);
  }
  if (ls.hasMultipleSections) return { kind: 'create', labelSetId: ls.id, rule: 'repeating: new set by label_set' };
  // 7.2: a label set without multiple sections never gets a second annotation set on a document.
  if (existing.length) return { kind: 'reuse', annotationSetId: existing[0].id, rule: 'single: existing set re-used for label_set' };
  return { kind: 'create', labelSetId: ls.id, rule: 'single: first set created for label_set' };
}

export function decideAnnotationSet(req: SetRequest): SetDecision {
  if (req.annotationSetId != null) return byAnnotationSet(req, req.annotationSetId);
  if (req.labelSetId != null) return byLabelSet(req, req.labelSetId);
  // 7.1
  return refuse('annotation_set', 'Send annotation_set (an annotation set of this document) or label_set (its label set).');
}
