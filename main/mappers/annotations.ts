// Annotations (spec 2.8, 3.2) and missing annotations (2.9) as the API shows them, and the annotation tree
// that the document detail embeds. Why mappers live in main/mappers: dto.ts.
import type { z } from 'zod';
import type { Annotation, MissingAnnotation, PublicAnnotation, PublicAnnotationSetTree } from '../../shared/schemas/annotations.ts';
import type { LabelRow, LabelSetRow, MissingAnnotationRow } from '../store/schema.ts';
import type { AnnotationWithSet } from '../store/repositories/annotationRepository.ts';
import { stateOf, type DocumentTree, type Refs } from '../services/annotationService.ts';
import type { StoredSpan } from '../domain/spans.ts';
import { isoOut } from './dto.ts';

export const labelRefOut = (l: LabelRow) => ({ id: l.id, name: l.name, data_type: l.data_type });

export const labelSetRefOut = (ls: LabelSetRow) => ({
  id: ls.id,
  name: ls.name,
  has_multiple_sections: ls.has_multiple_sections,
  has_multiple_annotation_sets: ls.has_multiple_sections,
  is_default: ls.is_default,
});

const spanOut = (s: StoredSpan) => ({ ...s, custom_offset_string: s.offset_string !== s.offset_string_original });

export function annotationOut(a: AnnotationWithSet, refs: Refs): z.infer<typeof Annotation> {
  const spans = a.spans.map(spanOut);
  return {
    id: a.id,
    document: a.document_id,
    label: labelRefOut(refs.labels.get(a.label_id)!),
    label_set: labelSetRefOut(refs.labelSets.get(a.label_set_id)!),
    label_set_id: a.label_set_id,
    annotation_set: a.annotation_set_id,
    span: spans,
    // The SDK makes one span per line from `bboxes`; without them it falls back to one span from the
    // top-level offsets, which it refuses for an annotation over several lines (compat.md).
    bboxes: spans,
    offset_string: a.offset_string,
    offset_string_original: spans.map((s) => s.offset_string_original).filter(Boolean).join(' '),
    custom_offset_string: a.custom_offset_string,
    start_offset: a.start_offset,
    end_offset: a.end_offset,
    is_correct: a.is_correct,
    revised: a.revised,
    is_revised: a.revised,
    confidence: a.confidence,
    origin: a.origin,
    is_typed: a.is_typed,
    review_state: stateOf(a),
    normalized: a.normalized,
    created_by: a.created_by,
    revised_by: a.revised_by,
    created_at: isoOut(a.created_at),
    updated_at: isoOut(a.updated_at),
  };
}

/** `annotation_sets` of the document detail: sets, their labels with a status, the annotations. */
export const annotationSetsOut = (tree: DocumentTree) =>
  tree.sets.map((s) => ({
    id: s.annotationSet?.id ?? null,
    label_set: labelSetRefOut(s.labelSet),
    labels: s.labels.map((l) => ({
      ...labelRefOut(l.label),
      status: l.status,
      missing_annotation: l.missing?.id ?? null,
      annotations: l.annotations.map((a) => annotationOut(a, tree.refs)),
    })),
  }));

/** An annotation as a reader of a public document sees it (PublicAnnotation: an allow-list). */
const publicAnnotationOut = (a: AnnotationWithSet, refs: Refs): z.infer<typeof PublicAnnotation> => {
  const full = annotationOut(a, refs);
  return {
    id: full.id,
    document: full.document,
    label: full.label,
    label_set: full.label_set,
    annotation_set: full.annotation_set,
    span: full.span,
    offset_string: full.offset_string,
    start_offset: full.start_offset,
    end_offset: full.end_offset,
    confidence: full.confidence,
    is_typed: full.is_typed,
    review_state: full.review_state,
    normalized: full.normalized,
  };
};

/** `annotation_sets` of a public document: the values without declined ones, nor review status per label. */
export const publicAnnotationSetsOut = (tree: DocumentTree): z.infer<typeof PublicAnnotationSetTree>[] =>
  tree.sets.map((s) => ({
    id: s.annotationSet?.id ?? null,
    label_set: labelSetRefOut(s.labelSet),
    labels: s.labels.map((l) => ({
      ...labelRefOut(l.label),
      annotations: l.annotations.filter((a) => stateOf(a) !== 'Declined').map((a) => publicAnnotationOut(a, tree.refs)),
    })),
  }));

export const missingOut = (m: MissingAnnotationRow): z.infer<typeof MissingAnnotation> => ({
  id: m.id,
  document: m.document_id,
  label: m.label_id,
  label_set: m.label_set_id,
  annotation_set: m.annotation_set_id,
  created_by: m.created_by,
  created_at: isoOut(m.created_at),
});
