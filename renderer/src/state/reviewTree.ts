// The document's annotation tree (GET /documents/<id>/ annotation_sets) as the review view reads it: the
// flat list of items the keyboard walks, the boxes the viewer draws, and what still blocks "finish review".
import type { AnnotationOut, DocumentOut } from '../api/client.ts';
import type { BoxOnPage } from '../viewer/types.ts';

export type TreeSet = DocumentOut['annotation_sets'][number];
export type TreeLabel = TreeSet['labels'][number];
export type LabelStatus = TreeLabel['status'];

/** One stop of the keyboard cursor: an annotation, or a label that has none (Unfilled / Not found). */
export type ReviewItem =
  | { kind: 'annotation'; key: string; set: TreeSet; label: TreeLabel; annotation: AnnotationOut }
  | { kind: 'label'; key: string; set: TreeSet; label: TreeLabel };

/** A set's key survives reloads: potential sets have no id yet, so they go by their label set. */
export const setKey = (set: TreeSet) => (set.id === null ? `potential-${set.label_set.id}` : `set-${set.id}`);
export const annotationKey = (id: number) => `a${id}`;
export const labelKey = (set: TreeSet, labelId: number) => `${setKey(set)}-label-${labelId}`;

export function reviewItems(sets: TreeSet[]): ReviewItem[] {
  const items: ReviewItem[] = [];
  for (const set of sets) {
    for (const label of set.labels) {
      if (!label.annotations.length) items.push({ kind: 'label', key: labelKey(set, label.id), set, label });
      for (const annotation of label.annotations) items.push({ kind: 'annotation', key: annotationKey(annotation.id), set, label, annotation });
    }
  }
  return items;
}

/** Spec 2.14: a value the label's data type cannot read is null while the text is not empty. */
export const notMachineReadable = (a: Pick<AnnotationOut, 'normalized' | 'offset_string'>) => a.normalized === null && a.offset_string.trim() !== '';

/**
 * Values kept as checked (accepted, or a person's) whose label's data type (Number, Positive Number,
 * Percentage, Date, True/False) cannot read them: the API refuses to finish the review while there are
 * any, since the next AI would learn them.
 */
export function unreadableValues(sets: TreeSet[]): Extract<ReviewItem, { kind: 'annotation' }>[] {
  return reviewItems(sets).flatMap((i) =>
    i.kind === 'annotation' && i.label.data_type !== 'Text' && notMachineReadable(i.annotation) && (i.annotation.review_state === 'Accepted' || i.annotation.review_state === 'Created by human') ? [i] : [],
  );
}

/** Whether a set can take another annotation set of its label set (spec 2.8, "repeats"). */
export const repeats = (set: TreeSet) => set.label_set.has_multiple_sections;

/** One box per span, colored by the annotation's review state. */
export function boxesOf(sets: TreeSet[]): BoxOnPage[] {
  const boxes: BoxOnPage[] = [];
  for (const set of sets) {
    for (const label of set.labels) {
      for (const a of label.annotations) {
        const title = `${label.name}: ${a.offset_string}`;
        for (const s of a.span) boxes.push({ annotationId: a.id, pageIndex: s.page_index, x0: s.x0, x1: s.x1, y0: s.y0, y1: s.y1, state: a.review_state, title });
      }
    }
  }
  return boxes;
}

/**
 * Why the document cannot be marked reviewed yet (spec 3.1), mirroring the API's rule: annotations awaiting
 * feedback, and unfilled labels, except in potential sets of repeating label sets (a repeating section may
 * occur zero times). Empty: "finish review" is enabled. The API still has the last word.
 */
export function reviewBlockers(sets: TreeSet[]): string[] {
  let pending = 0;
  let unfilled = 0;
  for (const set of sets) {
    for (const label of set.labels) {
      pending += label.annotations.filter((a) => a.review_state === 'Feedback required').length;
      if (label.status === 'Unfilled' && !(set.id === null && repeats(set))) unfilled += 1;
    }
  }
  const reasons: string[] = [];
  if (pending) reasons.push(`${pending} annotation${pending === 1 ? ' awaits' : 's await'} feedback`);
  if (unfilled) reasons.push(`${unfilled} label${unfilled === 1 ? ' is' : 's are'} unfilled`);
  return reasons;
}

/** Labels a new annotation can take: every label of every label set of the document, once per set. */
export interface LabelChoice {
  labelId: number;
  labelName: string;
  labelSetId: number;
  labelSetName: string;
  repeats: boolean;
}

export function labelChoices(sets: TreeSet[]): LabelChoice[] {
  const seen = new Set<string>();
  const out: LabelChoice[] = [];
  for (const set of sets) {
    for (const label of set.labels) {
      const key = `${set.label_set.id}:${label.id}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ labelId: label.id, labelName: label.name, labelSetId: set.label_set.id, labelSetName: set.label_set.name, repeats: repeats(set) });
    }
  }
  return out;
}

/** The annotation sets (with an id) of one label set on the document, in the tree's order. */
export const setsOfLabelSet = (sets: TreeSet[], labelSetId: number) => sets.filter((s) => s.id !== null && s.label_set.id === labelSetId);

/** A readable name for an annotation set: repeating sets are numbered in document order. */
export function setTitle(sets: TreeSet[], set: TreeSet): string {
  if (!repeats(set)) return set.label_set.name;
  if (set.id === null) return `${set.label_set.name} (none yet)`;
  const index = setsOfLabelSet(sets, set.label_set.id).findIndex((s) => s.id === set.id);
  return `${set.label_set.name} ${index + 1}`;
}

/**
 * The one label still unfilled on the document (no annotation, not marked missing), if exactly one is,
 * counted as "finish review" counts them (a repeating label set's potential set may stay empty): the label
 * a new annotation is most likely for. Null when none or several are unfilled.
 */
export function onlyUnfilledLabel(sets: TreeSet[]): { set: TreeSet; label: TreeLabel } | null {
  const unfilled = sets.flatMap((set) => (set.id === null && repeats(set) ? [] : set.labels.filter((l) => l.status === 'Unfilled').map((label) => ({ set, label }))));
  return unfilled.length === 1 ? unfilled[0] : null;
}
