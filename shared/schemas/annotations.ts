// Annotations, spans, missing annotations and the annotation-set tree of a document (spec 2.7-2.10,
// compat.md), plus the lenient scalar readers the document and annotation bodies share.
import { z } from 'zod';
import { Id, Timestamp } from './common.ts';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const digits = (v: unknown) => (typeof v === 'string' && /^\s*-?\d+\s*$/.test(v) ? Number(v) : v);

/** A related record: its id, an object carrying it (`{"id": 3, ...}`), or the id as a form string. */
export const Ref = z.preprocess((v) => digits(isObject(v) && 'id' in v ? v.id : v), Id).describe('id, or an object with an id');

/** An integer that may come as a form or multipart string. */
export const FormInt = <T extends z.ZodType>(inner: T) => z.preprocess(digits, inner);

const TRUE = new Set(['true', '1', 'yes', 'on']);
const FALSE = new Set(['false', '0', 'no', 'off']);
/** A boolean that may come as `True`/`False`/`true`/`false`/`1`/`0` (compat.md, upload `sync`). */
export const FormBool = z.preprocess((v) => {
  if (typeof v === 'number' && (v === 0 || v === 1)) return v === 1;
  if (typeof v !== 'string') return v;
  const s = v.trim().toLowerCase();
  return TRUE.has(s) ? true : FALSE.has(s) ? false : v;
}, z.boolean({ error: 'Must be a boolean (true or false).' }));

const coordinate = z.number({ error: 'A number is required.' }).finite();
const offset = z.number().int().min(0).nullable().optional();

export const SpanIn = z
  .object({
    page_index: z.number().int().min(0),
    x0: coordinate,
    x1: coordinate,
    y0: coordinate,
    y1: coordinate,
    top: coordinate.nullable().optional(),
    bottom: coordinate.nullable().optional(),
    offset_string: z.string().max(100_000).nullable().optional()
      .describe('a correction of the text found inside the rectangle; left out, the found text'),
    // Read-only (spec 2.10): accepted for clients that echo spans back, ignored on processed documents
    // (the characters inside the rectangle decide) and dropped on documents not processed yet.
    start_offset: offset.describe('read-only: ignored'),
    end_offset: offset.describe('read-only: ignored'),
  })
  .superRefine((s, ctx) => {
    if (s.x1 < s.x0) ctx.addIssue({ code: 'custom', path: ['x1'], message: 'x1 must not be less than x0.' });
    if (s.y1 < s.y0) ctx.addIssue({ code: 'custom', path: ['y1'], message: 'y1 must not be less than y0.' });
  });
export type SpanIn = z.infer<typeof SpanIn>;

const Spans = z.array(SpanIn).min(1, 'Send at least one span.').max(1000);
const Confidence = z.number().min(0).max(1).nullable();

const annotationFields = {
  label: Ref,
  annotation_set: Ref.nullable().optional().describe('an annotation set of the document (re-use it)'),
  label_set: Ref.nullable().optional().describe('a label set: a new annotation set when it repeats, else its only one'),
  label_set_id: Ref.nullable().optional().describe('same as label_set (spelling of the request samples)'),
  span: Spans,
  is_correct: z.boolean().optional(),
  is_revised: z.boolean().optional(),
  revised: z.boolean().optional().describe('same as is_revised'),
  confidence: Confidence.optional(),
  is_typed: z.boolean().optional()
    .describe('true: the reviewer typed the value because nothing can be read in the box; each span keeps its box and its offset_string (required), without offsets'),
};

/** POST /documents/<id>/annotations/: the document comes from the path. */
export const DocumentAnnotationCreate = z.object(annotationFields);
export type DocumentAnnotationCreate = z.infer<typeof DocumentAnnotationCreate>;
/** POST /annotations/ and PUT /annotations/<id>/. */
export const AnnotationCreate = z.object({ document: Ref, ...annotationFields });
export type AnnotationCreate = z.infer<typeof AnnotationCreate>;

export const AnnotationPatch = z.object({
  label: Ref.optional(),
  annotation_set: Ref.optional(),
  span: Spans.optional(),
  is_correct: z.boolean().optional(),
  revised: z.boolean().optional(),
  is_revised: z.boolean().optional().describe('same as revised'),
  confidence: Confidence.optional(),
});
export type AnnotationPatch = z.infer<typeof AnnotationPatch>;

export const BulkReview = z.object({
  ids: z.array(Ref).min(1, 'Send at least one annotation id.').max(10_000),
  is_correct: z.boolean().optional(),
  revised: z.boolean().optional(),
  is_revised: z.boolean().optional().describe('same as revised'),
});

export const ReviewStateName = z.enum(['Feedback required', 'Accepted', 'Declined', 'Created by human']);
export const LabelStatusName = z.enum(['Feedback required', 'Accepted', 'Created by human', 'Not found', 'Unfilled']);

export const SpanOut = z.object({
  page_index: z.number().int(),
  x0: z.number(),
  x1: z.number(),
  y0: z.number(),
  y1: z.number(),
  top: z.number().nullable(),
  bottom: z.number().nullable(),
  offset_string: z.string(),
  offset_string_original: z.string(),
  custom_offset_string: z.boolean(),
  start_offset: z.number().int().nullable(),
  end_offset: z.number().int().nullable(),
});

export const LabelRef = z.object({ id: Id, name: z.string(), data_type: z.string() });
export const LabelSetRef = z.object({
  id: Id,
  name: z.string(),
  has_multiple_sections: z.boolean(),
  has_multiple_annotation_sets: z.boolean().describe('same as has_multiple_sections'),
  is_default: z.boolean(),
});

export const Annotation = z.object({
  id: Id,
  document: Id,
  label: LabelRef,
  label_set: LabelSetRef,
  label_set_id: Id.describe("the label set's id (compat.md: clients send and read both spellings)"),
  annotation_set: Id,
  span: z.array(SpanOut),
  bboxes: z.array(SpanOut).describe('the same spans (compat.md): the SDK builds one span each from these, not one over every line from start_offset/end_offset'),
  offset_string: z.string(),
  offset_string_original: z.string(),
  custom_offset_string: z.boolean(),
  start_offset: z.number().int().nullable(),
  end_offset: z.number().int().nullable(),
  is_correct: z.boolean(),
  revised: z.boolean(),
  is_revised: z.boolean(),
  confidence: z.number().nullable(),
  origin: z.enum(['human', 'machine']),
  is_typed: z.boolean().describe('the value was typed by the reviewer, not read from the document: its spans have no offsets'),
  review_state: ReviewStateName,
  normalized: z.union([z.number(), z.string(), z.boolean()]).nullable(),
  created_by: Id.nullable(),
  revised_by: Id.nullable(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Annotation = z.infer<typeof Annotation>;

export const AnnotationSetLabel = z.object({
  id: Id,
  name: z.string(),
  data_type: z.string(),
  status: LabelStatusName,
  missing_annotation: Id.nullable().describe('the missing-annotation record when the label is Not found'),
  annotations: z.array(Annotation),
});

export const AnnotationSetTree = z.object({
  id: Id.nullable().describe('null for a potential set: a label set of the category without an annotation set yet'),
  label_set: LabelSetRef,
  labels: z.array(AnnotationSetLabel),
});

/**
 * An annotation as a reader of a public document sees it (who made or revised it, and when, are the
 * project's business): what the public viewer draws and lists.
 */
export const PublicAnnotation = Annotation.pick({
  id: true,
  document: true,
  label: true,
  label_set: true,
  annotation_set: true,
  span: true,
  offset_string: true,
  start_offset: true,
  end_offset: true,
  confidence: true,
  is_typed: true,
  review_state: true,
  normalized: true,
});

export const PublicAnnotationSetTree = z.object({
  id: Id.nullable(),
  label_set: LabelSetRef,
  labels: z.array(LabelRef.extend({ annotations: z.array(PublicAnnotation).describe('declined ones left out') })),
});

const missingFields = z.object({
  document: Ref,
  label: Ref,
  label_set: Ref.nullable().optional(),
  label_set_id: Ref.nullable().optional().describe('same as label_set'),
  annotation_set: Ref.nullable().optional().describe('needed when the document holds several sets of a repeating label set'),
});
export type MissingAnnotationCreateItem = z.infer<typeof missingFields>;
/** PUT names the document and the label again; PATCH any of the fields. */
export const MissingAnnotationPut = missingFields;
export const MissingAnnotationPatch = missingFields.partial();
const missingList = z.array(missingFields).min(1, 'Send at least one missing annotation.').max(10_000);

/**
 * One body or a list of them. Validated against the shape actually sent first, so that errors name
 * the fields (`label`, `1.label`) rather than a bare "Invalid input" of the union.
 */
export const MissingAnnotationCreate = z.preprocess((v, ctx) => {
  const r = (Array.isArray(v) ? missingList : missingFields).safeParse(v);
  if (!r.success) for (const issue of r.error.issues) ctx.addIssue({ ...issue } as Parameters<typeof ctx.addIssue>[0]);
  return v;
}, z.union([missingFields, missingList]));

export const MissingAnnotation = z.object({
  id: Id,
  document: Id,
  label: Id,
  label_set: Id,
  annotation_set: Id,
  created_by: Id.nullable(),
  created_at: Timestamp,
});
