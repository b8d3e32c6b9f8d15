// Documents (spec 2.5, compat.md): the multipart upload, PATCH/PUT bodies, list items and detail.
import { z } from 'zod';
import { Id, Name, Timestamp } from './common.ts';
import { AnnotationSetTree, FormBool, FormInt, PublicAnnotationSetTree, Ref } from './annotations.ts';
import { PageOut } from './geometry.ts';

const nothing = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

export const DatasetStatusCode = FormInt(
  z.number({ error: 'Must be one of 0 (none), 1 (preparation), 2 (training), 3 (test), 4 (excluded).' }).int().min(0).max(4),
).describe('0 none, 1 preparation, 2 training, 3 test, 4 excluded');

/** An http(s) URL; the empty string means none (compat.md). */
export const CallbackUrl = z
  .preprocess((v) => (nothing(v) ? null : typeof v === 'string' ? v.trim() : v), z.url({ protocol: /^https?$/, error: 'Enter a valid http or https URL.' }).max(2000).nullable())
  .describe('http or https URL; empty means none');

/** A user by email or id; empty means nobody. */
export const AssigneeRef = z
  .preprocess((v) => (nothing(v) ? null : v), z.union([Id, z.string().trim().max(320)]).nullable())
  .describe('email (or id) of a project member');

const CategoryRef = z.preprocess((v) => (nothing(v) ? null : v), Ref.nullable());

/** Fields of the multipart upload (spec 2.5); `data_file` is the file part. */
export const DocumentUpload = z.object({
  project: FormInt(Id),
  data_file: z.string().meta({ format: 'binary' }).optional().describe('the file (required; a file part, not a text field)'),
  category: CategoryRef.optional().describe('a category of the project; skips automatic categorization'),
  category_template: CategoryRef.optional().describe('older spelling of category (the SDK of this API family sends it)'),
  sync: FormBool.optional().describe('true: answer when processing has finished'),
  assignee: AssigneeRef.optional(),
  callback_url: CallbackUrl.optional(),
  dataset_status: DatasetStatusCode.optional(),
});
export type DocumentUpload = z.infer<typeof DocumentUpload>;

export const DocumentPatch = z.object({
  is_reviewed: z.boolean().optional().describe('true only when nothing awaits feedback and no label is unfilled'),
  category: CategoryRef.optional(),
  dataset_status: DatasetStatusCode.optional(),
  assignee: AssigneeRef.optional(),
  data_file_name: Name.optional(),
  callback_url: CallbackUrl.optional(),
  is_public: z
    .boolean()
    .optional()
    .describe('true: anyone with the public link (public_link.url, a random token) reads the document without authentication; made public from private it gets a new token; false ends the link'),
  public_expires_at: z
    .string()
    .nullable()
    .optional()
    .describe('when the public link stops working (ISO 8601 date-time with offset, in the future); null: never. Only for a public document'),
});
export type DocumentPatch = z.infer<typeof DocumentPatch>;

/** POST documents/<id>/public-link/: a new public link (the old one stops working). */
export const PublicLinkCreate = z.object({
  expires_at: z.string().nullable().optional().describe('when the new link stops working (ISO 8601 date-time with offset, in the future); null or left out: never'),
});

export const PublicLink = z.object({
  token: z.string().describe('the random token of the link (192 bits, base64url)'),
  url: z.string().describe('the API path anyone reads the document at: /api/v3/public/<token>/'),
  expires_at: z.string().nullable().describe('when the link stops working; null: never'),
  expired: z.boolean(),
});

/** PUT replaces: project and data_file_name are required, omitted fields go back to their defaults. */
export const DocumentPut = DocumentPatch.extend({ project: Ref, data_file_name: Name });
export type DocumentPut = z.infer<typeof DocumentPut>;

export const DocumentListItem = z.object({
  id: Id,
  project: Id,
  number_of_pages: z.number().int(),
  data_file_name: z.string(),
  content_hash: z.string().describe('SHA-256 of the uploaded file (hex): the same bytes, the same hash'),
  file_url: z.string().describe('path of the searchable PDF'),
  original_file_url: z.string().describe('path of the uploaded file'),
  thumbnail_url: z.string().nullable(),
  callback_url: z.string().nullable(),
  category: Id.nullable(),
  category_confidence: z.number().nullable(),
  category_is_revised: z.boolean(),
  dataset_status: z.number().int(),
  status_data: z.number().int().describe('the status code; list items carry no `status` (compat.md: the SDK passes them as keywords beside its own `status`)'),
  status_reason: z.string().nullable(),
  labeling_available: z.number().int().describe('1 when ready for review'),
  is_reviewed: z.boolean(),
  is_public: z.boolean(),
  proposed_split: z
    .array(
      z.object({
        category: Id.nullable(),
        category_confidence: z.number().nullable(),
        pages: z.array(Id).describe('page ids of the proposed document, in order'),
        confidence: z.number().describe("the splitting AI's probability that a document starts at the first page"),
      }),
    )
    .nullable()
    .describe('while waiting for splitting confirmation (41): the documents the splitting AI proposes'),
  extraction_ai: Id.nullable().describe('the extraction AI whose annotations the document carries'),
  document_set: Id.nullable(),
  assignee: Id.nullable().describe('user id, as the SDK reads and sends it'),
  assignee_email: z.string().nullable().describe("the assignee's email"),
  created_by: Id.nullable(),
  created_at: Timestamp,
  updated_at: Timestamp,
  ocr_time: z.number().nullable(),
  extraction_time: z.number().nullable(),
  processing_time: z.number().nullable(),
});

export const DocumentDetail = DocumentListItem.extend({
  status: z.tuple([z.number().int(), z.string()]).describe('[code, name]'),
  text: z.string().nullable(),
  pages: z.array(PageOut).describe('the pages as GET documents/<id>/pages/ lists them, one per page of text'),
  ocr_engine: z.string().nullable().describe('the OCR engine and version that read its scanned pages ("native tesseract 5.3.0"); null when every page had a text layer'),
  annotation_sets: z.array(AnnotationSetTree),
  duplicate_of: z.array(Id).describe('other documents of the project uploaded with the same bytes, by id (on an upload: the earlier copies)'),
  public_link: PublicLink.nullable().optional().describe('while the document is public: its link, for members of its project to share'),
});
export type DocumentDetail = z.infer<typeof DocumentDetail>;

/**
 * A public document as anyone with its link reads it without being a member of its project (spec 5.1):
 * the document itself, its pages and its values. Nothing of the project's workings: no callback URL (its
 * query may hold a secret), assignee, uploader, project, category, AI or document-set ids, review fields,
 * other documents, and no declined annotations. An allow-list: a field added to the detail stays private
 * until it is added here.
 */
export const PublicDocumentDetail = DocumentDetail.pick({
  id: true,
  number_of_pages: true,
  data_file_name: true,
  thumbnail_url: true,
  status: true,
  status_data: true,
  labeling_available: true,
  is_public: true,
  text: true,
  pages: true,
  ocr_engine: true,
}).extend({ annotation_sets: z.array(PublicAnnotationSetTree) });
export type PublicDocumentDetail = z.infer<typeof PublicDocumentDetail>;

/** Version 2 upload answer: the detail plus the category as `category_template`. */
export const DocumentDetailV2 = DocumentDetail.extend({ category_template: Id.nullable().describe('same as category') });
export const DocumentListItemV2 = DocumentListItem.extend({ category_template: Id.nullable().describe('same as category') });

export const FileNotReady = z.object({ detail: z.string() });
