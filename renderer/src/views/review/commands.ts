// The reviewer's actions as undoable commands (state/review.ts runs them): each pairs the API call that
// does it with the call that undoes it, and follows records that undo/redo re-create under new ids.
import type { AnnotationOut, FolioClient, MissingOut } from '../../api/client.ts';
import type { MissingAnnotationCreateItem } from '../../../../shared/schemas/annotations.ts';
import { useReview, type Command, type IdRef, type IdRefs } from '../../state/review.ts';
import type { TreeLabel, TreeSet } from '../../state/reviewTree.ts';

export interface CommandContext {
  documentId: number;
  annotations: IdRefs;
  missing: IdRefs;
}

/** The context of the document under review (commands are built when the reviewer acts). */
export function commandContext(): CommandContext {
  const s = useReview.getState();
  if (s.documentId === null) throw new Error('No document is open.');
  return { documentId: s.documentId, annotations: s.annotationRefs, missing: s.missingRefs };
}

const quoted = (text: string) => `“${text.length > 40 ? `${text.slice(0, 39)}…` : text}”`;

type SpanBody = { page_index: number; x0: number; x1: number; y0: number; y1: number; offset_string?: string };
const rectOf = (s: SpanBody): SpanBody => ({ page_index: s.page_index, x0: s.x0, x1: s.x1, y0: s.y0, y1: s.y1 });

/** Creates a missing-annotation record and points `ref` at it (a new one the first time). */
async function createMissing(c: FolioClient, ctx: CommandContext, body: MissingAnnotationCreateItem, ref: IdRef | null): Promise<{ ref: IdRef; record: MissingOut }> {
  const record = await c.createMissing(body);
  if (ref) ctx.missing.move(ref, record.id);
  return { ref: ref ?? ctx.missing.of(record.id), record };
}

/**
 * A label's "not found" record, which the API drops when an annotation fills the label: undoing the
 * filling action puts it back, so the label returns to Not found rather than Unfilled.
 */
function missingGuard(ctx: CommandContext, set: TreeSet, label: TreeLabel | undefined) {
  if (!label || label.missing_annotation === null || set.id === null) return null;
  const ref = ctx.missing.of(label.missing_annotation);
  const body = { document: ctx.documentId, label: label.id, label_set: set.label_set.id, annotation_set: set.id };
  return { restore: (c: FolioClient) => createMissing(c, ctx, body, ref) };
}

export interface AnnotationAt {
  set: TreeSet;
  label: TreeLabel;
  annotation: AnnotationOut;
}

/** Accept (revised, correct) or decline (revised, incorrect) one annotation. */
export function reviewCommand(ctx: CommandContext, { set, label, annotation: a }: AnnotationAt, verdict: 'accept' | 'decline'): Command {
  const ref = ctx.annotations.of(a.id);
  const before = { is_correct: a.is_correct, revised: a.revised };
  const guard = verdict === 'accept' ? missingGuard(ctx, set, label) : null;
  return {
    title: `${verdict === 'accept' ? 'Accept' : 'Decline'} ${label.name} ${quoted(a.offset_string)}`,
    perform: async (c) => void (await c.updateAnnotation(ref.id, { is_correct: verdict === 'accept', revised: true })),
    async revert(c) {
      await c.updateAnnotation(ref.id, before);
      await guard?.restore(c);
    },
  };
}

/** Accept every annotation of a set (or of several: the whole document) that awaits feedback, in one request. */
export function acceptAllCommand(ctx: CommandContext, sets: TreeSet | TreeSet[], setName: string): Command | null {
  const list = Array.isArray(sets) ? sets : [sets];
  const pending = list.flatMap((set) => set.labels.flatMap((l) => l.annotations.filter((a) => a.review_state === 'Feedback required')));
  if (!pending.length) return null;
  const refs = pending.map((a) => ctx.annotations.of(a.id));
  const guards = list.flatMap((set) => set.labels.filter((l) => l.annotations.some((a) => a.review_state === 'Feedback required')).map((l) => missingGuard(ctx, set, l)));
  return {
    title: `Accept ${pending.length} annotation${pending.length === 1 ? '' : 's'} of ${setName}`,
    perform: async (c) => void (await c.reviewAnnotations(ctx.documentId, refs.map((r) => r.id), true)),
    async revert(c) {
      await c.reviewAnnotations(ctx.documentId, refs.map((r) => r.id), false, false);
      for (const g of guards) await g?.restore(c);
    },
  };
}

/** Corrects the text of each span (custom offset string); undo sends the texts back as they were. */
export function editTextCommand(ctx: CommandContext, { label, annotation: a }: AnnotationAt, texts: string[]): Command {
  const ref = ctx.annotations.of(a.id);
  const withTexts = (t: string[]) => a.span.map((s, i) => ({ ...rectOf(s), offset_string: t[i] }));
  const before = a.span.map((s) => s.offset_string);
  return {
    title: `Correct ${label.name} to ${quoted(texts.join(' '))}`,
    perform: async (c) => void (await c.updateAnnotation(ref.id, { span: withTexts(texts) })),
    revert: async (c) => void (await c.updateAnnotation(ref.id, { span: withTexts(before) })),
  };
}

/** Gives the annotation another label of its annotation set. */
export function changeLabelCommand(ctx: CommandContext, { set, label, annotation: a }: AnnotationAt, target: TreeLabel): Command {
  const ref = ctx.annotations.of(a.id);
  const fills = a.review_state === 'Accepted' || a.review_state === 'Created by human';
  const guard = fills ? missingGuard(ctx, set, target) : null;
  return {
    title: `Relabel ${quoted(a.offset_string)} from ${label.name} to ${target.name}`,
    perform: async (c) => void (await c.updateAnnotation(ref.id, { label: target.id })),
    async revert(c) {
      await c.updateAnnotation(ref.id, { label: label.id });
      await guard?.restore(c);
    },
  };
}

/** Records that the label is absent from the document in this set (Not found, spec 2.9). */
export function markMissingCommand(ctx: CommandContext, set: TreeSet, label: TreeLabel): Command {
  const body: MissingAnnotationCreateItem = { document: ctx.documentId, label: label.id, label_set: set.label_set.id, ...(set.id !== null ? { annotation_set: set.id } : {}) };
  let ref: IdRef | null = null;
  return {
    title: `Mark ${label.name} missing`,
    async perform(c) {
      const made = await createMissing(c, ctx, body, ref);
      ref = made.ref;
    },
    // Undone, a set the mark alone opened goes with it (the API drops an emptied set), so redo opens
    // one again from the label set instead of naming the set that is gone.
    revert: async (c) => void (ref && (await c.deleteMissing(ref.id))),
  };
}

/** Takes a label's "not found" record away: it is Unfilled again. */
export function restoreCommand(ctx: CommandContext, set: TreeSet, label: TreeLabel): Command | null {
  if (label.missing_annotation === null || set.id === null) return null;
  const ref = ctx.missing.of(label.missing_annotation);
  // A set holding nothing but this mark is dropped with it (the API leaves no empty set): undo opens the
  // label set's set again rather than naming the one that is gone.
  const alone = set.labels.every((l) => !l.annotations.length && (l.id === label.id || l.missing_annotation === null));
  const body: MissingAnnotationCreateItem = { document: ctx.documentId, label: label.id, label_set: set.label_set.id, ...(alone ? {} : { annotation_set: set.id }) };
  return {
    title: `Restore ${label.name}`,
    perform: (c) => c.deleteMissing(ref.id),
    revert: async (c) => void (await createMissing(c, ctx, body, ref)),
  };
}

/** Deletes an annotation a person made; undo makes it again, with its corrected texts and flags. */
export function deleteCommand(ctx: CommandContext, { label, annotation: a }: AnnotationAt): Command {
  const ref = ctx.annotations.of(a.id);
  const body = {
    document: ctx.documentId,
    label: a.label.id,
    annotation_set: a.annotation_set,
    span: a.span.map((s) => ({ ...rectOf(s), offset_string: s.offset_string })),
    is_correct: a.is_correct,
    revised: a.revised,
    confidence: a.confidence,
    // A typed value has no characters on the page to read again: it comes back typed, with its text.
    is_typed: a.is_typed,
  };
  return {
    title: `Delete ${label.name} ${quoted(a.offset_string)}`,
    perform: (c) => c.deleteAnnotation(ref.id),
    revert: async (c) => ctx.annotations.move(ref, (await c.createAnnotation(body)).id),
  };
}

export interface NewAnnotation {
  labelId: number;
  labelName: string;
  /** Spec 2.8: an existing annotation set, or the label set to open (or re-use) one for. */
  target: { annotationSet: number } | { labelSet: number };
  /** Rectangles on the page (one per line); the API reads their characters. */
  spans: SpanBody[];
  text: string;
  /** The reviewer typed `text` (nothing could be read in the one span's box): stored with is_typed. */
  typed?: boolean;
  /** The target label as the tree shows it, when the target set exists (its "not found" record). */
  existing?: { set: TreeSet; label: TreeLabel };
}

/** Creates a human annotation; `onCreated` learns its id (the cursor moves there). */
export function createCommand(ctx: CommandContext, input: NewAnnotation, onCreated?: (id: number) => void): Command {
  let ref: IdRef | null = null;
  const where = 'annotationSet' in input.target ? { annotation_set: input.target.annotationSet } : { label_set: input.target.labelSet };
  const body: { document: number; label: number; span: SpanBody[]; annotation_set?: number; label_set?: number; is_typed?: boolean } = {
    document: ctx.documentId,
    label: input.labelId,
    span: input.typed ? input.spans.map((s) => ({ ...rectOf(s), offset_string: input.text })) : input.spans.map(rectOf),
    ...where,
    ...(input.typed ? { is_typed: true } : {}),
  };
  const guard = input.existing ? missingGuard(ctx, input.existing.set, input.existing.label) : null;
  return {
    title: `${input.typed ? 'Type' : 'Label'} ${quoted(input.text)} as ${input.labelName}`,
    async perform(c) {
      const a = await c.createAnnotation(body);
      if (ref) ctx.annotations.move(ref, a.id);
      else ref = ctx.annotations.of(a.id);
      // Redo goes to the set made now instead of opening yet another one of a repeating label set.
      delete body.label_set;
      body.annotation_set = a.annotation_set;
      onCreated?.(a.id);
    },
    async revert(c) {
      if (ref) await c.deleteAnnotation(ref.id);
      await guard?.restore(c);
    },
  };
}
