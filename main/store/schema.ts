// Row types of every table, as kysely sees them. Booleans are stored as 0/1, JSON as text, timestamps as ISO
// 8601 UTC text. The row types the repositories return and accept (UserRow, DocumentRow, ...) have booleans
// and parsed JSON instead: each table's encoded columns are named once below (`codecs`), and its repository
// reads and writes through rowCodec.ts.
import type { Generated, Insertable, Selectable, Updateable } from 'kysely';
import { rowCodec, type Decoded, type RowCodec } from './rowCodec.ts';
import type { StoredSpan } from '../domain/spans.ts';
import type { Normalized } from '../domain/normalization.ts';

export interface UsersTable {
  id: Generated<number>;
  email: string;
  password_hash: string;
  name: string;
  is_admin: number;
  created_at: string;
  updated_at: string;
}

/** An OpenID Connect identity (issuer + subject) and the account it signs in to (migration 0013). */
export interface SsoIdentitiesTable {
  id: Generated<number>;
  issuer: string;
  subject: string;
  user_id: number;
  /** The email claim at the last sign-in (null until the first, for a link an administrator made). */
  email: string | null;
  /** 1: the link was vouched for when made (a trusted email, or an administrator's `folio user sso-link`). */
  vouched: number;
  created_at: string;
  last_sign_in_at: string;
}

export interface AuthTokensTable {
  user_id: number;
  /** Random per-token value; the token itself is HMAC(secret, user_id:nonce) and is never stored. */
  nonce: string;
  token_hash: string;
  created_at: string;
}

export interface ProjectsTable {
  id: Generated<number>;
  name: string;
  /** JSON array of tesseract language codes used when OCR reads this project's pages. Migration 0005. */
  ocr_languages: Generated<string>;
  /** 1: multi-page uploads go through the splitting AI (migration 0006). */
  splitting_enabled: Generated<number>;
  /** 1: finished reviews join the training/test data and train the category's AI (migration 0018; docs/continuous-learning.md). */
  continuous_learning: Generated<number>;
  created_by: number | null;
  created_at: string;
  updated_at: string;
}

export interface ProjectMembersTable {
  project_id: number;
  user_id: number;
  role: 'owner' | 'member';
  created_at: string;
}

export interface LabelSetsTable {
  id: Generated<number>;
  project_id: number;
  name: string;
  has_multiple_sections: number;
  /** 1 for the label set that stands for a category itself (it shares the category's id). */
  is_default: number;
  created_at: string;
  updated_at: string;
}

export interface CategoriesTable {
  /** Same value as the id of the category's default label set. */
  id: number;
  project_id: number;
  name: string;
  created_at: string;
  updated_at: string;
}

export interface LabelSetCategoriesTable {
  label_set_id: number;
  category_id: number;
}

export interface LabelsTable {
  id: Generated<number>;
  project_id: number;
  name: string;
  data_type: string;
  description: string;
  threshold: number;
  created_at: string;
  updated_at: string;
}

export interface LabelSetLabelsTable {
  label_set_id: number;
  label_id: number;
}

export interface DocumentsTable {
  id: Generated<number>;
  project_id: number;
  category_id: number | null;
  data_file_name: string;
  blob_key: string;
  file_size: number;
  status: number;
  status_reason: string | null;
  dataset_status: number;
  is_reviewed: number;
  assignee_id: number | null;
  callback_url: string | null;
  created_by: number | null;
  category_confidence: number | null;
  category_is_revised: number;
  number_of_pages: number;
  text: string | null;
  document_set_id: number | null;
  ocr_time: number | null;
  extraction_time: number | null;
  processing_time: number | null;
  /** 1: the detail answers without authentication (spec 5.1). Migration 0002. */
  is_public: Generated<number>;
  /** The searchable PDF made by processing (migration 0005). */
  searchable_blob_key: Generated<string | null>;
  /** JSON list of proposed documents `[{category, pages: [page ids]}]` while status is 41 (migration 0006). */
  proposed_split: Generated<string | null>;
  /** The extraction AI whose annotations the document carries (migration 0006). */
  extraction_ai_id: Generated<number | null>;
  /** While public: the random token of its public link, and when that link stops working (null: never). Migration 0015. */
  public_token: Generated<string | null>;
  public_expires_at: Generated<string | null>;
  created_at: string;
  updated_at: string;
}

export interface AnnotationSetsTable {
  id: Generated<number>;
  document_id: number;
  label_set_id: number;
  created_at: string;
}

export interface AnnotationsTable {
  id: Generated<number>;
  document_id: number;
  annotation_set_id: number;
  label_id: number;
  /** JSON array of spans (see shared/schemas). */
  spans: string;
  offset_string: string;
  start_offset: number | null;
  end_offset: number | null;
  is_correct: number;
  revised: number;
  confidence: number | null;
  origin: 'human' | 'machine';
  custom_offset_string: number;
  created_by: number | null;
  revised_by: number | null;
  /** JSON text of the normalized value (spec 2.14), null until normalized. Migration 0002. */
  normalized: string | null;
  /** 1: the reviewer typed the value, nothing was read in its box; its spans have no offsets. Migration 0007. */
  is_typed: Generated<number>;
  created_at: string;
  updated_at: string;
}

export interface MissingAnnotationsTable {
  id: Generated<number>;
  document_id: number;
  label_id: number;
  label_set_id: number;
  annotation_set_id: number;
  created_by: number | null;
  created_at: string;
}

export interface PagesTable {
  id: Generated<number>;
  document_id: number;
  /** 1-based. */
  number: number;
  width_pt: number;
  height_pt: number;
  rotation: number;
  image_blob: string | null;
  image_width: number | null;
  image_height: number | null;
  thumbnail_blob: string | null;
  has_text_layer: number;
  ocr: number;
  /** JSON `[[offset, text, x0, x1, y0, y1, line_index], ...]` in text order. */
  chars: string;
  created_at: string;
  /** How OCR read the page (migration 0009); null for pages with a text layer. `ocr_engine`: "wasm",
   * "native"...; `ocr_engine_version`: "tesseract 5.3.0"; `ocr_turn`: clockwise turn applied (0, 90, 180,
   * 270); `ocr_osd_confidence`: orientation detection's confidence, null when it could not tell. */
  ocr_engine: string | null;
  ocr_engine_version: string | null;
  ocr_turn: number | null;
  ocr_osd_confidence: number | null;
}

/** One try at delivering a completion callback (spec 6). Migration 0004. */
export interface CallbackAttemptsTable {
  id: Generated<number>;
  document_id: number;
  url: string;
  /** 1-based within one delivery. */
  attempt: number;
  /** The receiver's answer; null when none came (refused, timed out). */
  status_code: number | null;
  error: string | null;
  duration_ms: number;
  created_at: string;
}

export type OutboxState = 'queued' | 'sent' | 'kept' | 'failed';

/** An email: sent through SMTP when configured, else kept for the API to list (spec 6 rule 5). Migration 0004. */
export interface OutboxTable {
  id: Generated<number>;
  to_address: string;
  subject: string;
  text: string;
  html: string | null;
  /** What the message is about: 'upload', 'training', ... */
  kind: string;
  document_id: number | null;
  state: OutboxState;
  attempts: number;
  last_error: string | null;
  created_at: string;
  sent_at: string | null;
  /** The delivery job that writes this message (its dedupe key), so that its retries update this row. Migration 0012. */
  delivery_key: Generated<string | null>;
}

export type JobState = 'queued' | 'running' | 'done' | 'failed';

/** One unit of background work (main/jobs/jobQueue.ts). Migration 0003. */
export interface JobsTable {
  id: Generated<number>;
  kind: string;
  document_id: number | null;
  /** JSON text handed to the handler. */
  payload: string;
  state: JobState;
  /** Unique when set: enqueueing the same logical job again is a no-op. */
  dedupe_key: string | null;
  /** Starts so far that ended in an error (a start cut short by the process's death is given back). */
  attempts: number;
  max_attempts: number;
  /** Safe points (heartbeats) passed in the current run. Migration 0008. */
  progress: Generated<number>;
  /** Interruptions in a row at the same progress, and that progress (null: never interrupted). */
  interruptions: Generated<number>;
  interrupted_at: number | null;
  /** Place in its kind's queue, higher first (main/jobs/fairness.ts). Migration 0012. */
  priority: Generated<number>;
  /** Whose work it is (project and uploader): jobs of one key keep their order, keys take turns. */
  fair_key: Generated<string | null>;
  /** Not claimed before this time (backoff after a failure). */
  run_after: string;
  /** The runner instance that claimed it while 'running'. */
  locked_by: string | null;
  locked_at: string | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
}

export type AiKind = 'extraction' | 'categorization' | 'splitting';
export type AiStatus = 'queued' | 'training' | 'done' | 'failed';

/** A trained (or uploaded) AI model. Migration 0006. */
export interface AiModelsTable {
  id: Generated<number>;
  kind: AiKind;
  project_id: number;
  /** The category of an extraction AI; null for categorization and splitting AIs. */
  category_id: number | null;
  status: AiStatus;
  progress: Generated<number>;
  stage: string | null;
  error: string | null;
  active: Generated<number>;
  origin: Generated<'trained' | 'uploaded'>;
  name: Generated<string>;
  description: Generated<string>;
  /** JSON evaluation on the test documents (AiEvaluation, main/ai/trainers/types.ts). */
  evaluation: string | null;
  /** JSON: documents and seconds of training. */
  training: string | null;
  /** Blob key of the model file. */
  model_blob: string | null;
  model_size: number | null;
  created_by: number | null;
  created_at: string;
  updated_at: string;
  started_at: string | null;
  finished_at: string | null;
}

/** The documents derived from one original by a split (migration 0006). */
export interface DocumentSetsTable {
  id: Generated<number>;
  project_id: number;
  original_blob_key: string;
  original_file_name: string;
  original_number_of_pages: number;
  created_by: number | null;
  created_at: string;
}

/** A folder the import watcher polls (main/imports/importWatcher.ts). Migration 0011. */
export interface ImportFoldersTable {
  id: Generated<number>;
  project_id: number;
  category_id: number | null;
  /** Absolute, symbolic links resolved. */
  path: string;
  enabled: Generated<number>;
  /** The uploader of its documents; null once that account was removed. */
  created_by: number | null;
  last_scan_at: string | null;
  last_error: string | null;
  last_error_at: string | null;
  last_import_at: string | null;
  last_import_file: string | null;
  last_import_document_id: number | null;
  created_at: string;
  updated_at: string;
}

/** One upload the import watcher made; `moved_at` null while the file still waits to go to done/. Migration 0011. */
export interface ImportFolderFilesTable {
  id: Generated<number>;
  folder_id: number;
  file_name: string;
  content_hash: string;
  document_id: number | null;
  moved_at: string | null;
  created_at: string;
}

/** An upload's idempotency key, written with its document (migration 0014). */
export interface UploadKeysTable {
  id: Generated<number>;
  user_id: number;
  key: string;
  /** What was uploaded under the key: the file's SHA-256 and the project. */
  fingerprint: string;
  document_id: number;
  created_at: string;
}

/** A project folder imported into a project (migration 0016). */
export interface ProjectImportsTable {
  id: Generated<number>;
  project_id: number;
  fingerprint: string;
  source: string;
  counts: string;
  created_by: number | null;
  created_at: string;
}

export interface FolioMigrationsTable {
  name: string;
  applied_at: string;
}

export interface Database {
  users: UsersTable;
  auth_tokens: AuthTokensTable;
  sso_identities: SsoIdentitiesTable;
  projects: ProjectsTable;
  project_members: ProjectMembersTable;
  label_sets: LabelSetsTable;
  categories: CategoriesTable;
  label_set_categories: LabelSetCategoriesTable;
  labels: LabelsTable;
  label_set_labels: LabelSetLabelsTable;
  documents: DocumentsTable;
  annotation_sets: AnnotationSetsTable;
  annotations: AnnotationsTable;
  missing_annotations: MissingAnnotationsTable;
  pages: PagesTable;
  callback_attempts: CallbackAttemptsTable;
  outbox: OutboxTable;
  jobs: JobsTable;
  ai_models: AiModelsTable;
  document_sets: DocumentSetsTable;
  import_folders: ImportFoldersTable;
  import_folder_files: ImportFolderFilesTable;
  upload_keys: UploadKeysTable;
  project_imports: ProjectImportsTable;
  folio_migrations: FolioMigrationsTable;
}

/** A proposed document of a split, as `documents.proposed_split` holds it (ProposedDocument, main/ai/analysis.ts). */
export interface StoredProposedDocument {
  category: number | null;
  category_confidence: number | null;
  pages: number[];
  confidence: number;
}

/**
 * The encoded columns of each table: 0/1 columns are booleans, JSON text columns their parsed values in the
 * rows the repositories return and accept. An AI's evaluation and training are objects here: their types
 * (AiEvaluation, main/ai/trainers/types.ts) live above the store, which the mapper casts to.
 */
export const codecs = {
  users: rowCodec<'is_admin'>(['is_admin']),
  ssoIdentities: rowCodec<'vouched'>(['vouched']),
  projects: rowCodec<'splitting_enabled' | 'continuous_learning', { ocr_languages: string[] }>(['splitting_enabled', 'continuous_learning'], ['ocr_languages']),
  labelSets: rowCodec<'has_multiple_sections' | 'is_default'>(['has_multiple_sections', 'is_default']),
  documents: rowCodec<'is_reviewed' | 'category_is_revised' | 'is_public', { proposed_split: StoredProposedDocument[] }>(
    ['is_reviewed', 'category_is_revised', 'is_public'],
    ['proposed_split'],
  ),
  annotations: rowCodec<'is_correct' | 'revised' | 'custom_offset_string' | 'is_typed', { spans: StoredSpan[]; normalized: Normalized }>(
    ['is_correct', 'revised', 'custom_offset_string', 'is_typed'],
    ['spans', 'normalized'],
  ),
  pages: rowCodec<'has_text_layer' | 'ocr'>(['has_text_layer', 'ocr']),
  aiModels: rowCodec<'active', { evaluation: object; training: object }>(['active'], ['evaluation', 'training']),
  importFolders: rowCodec<'enabled'>(['enabled']),
  projectImports: rowCodec<never, { counts: Record<string, number> }>([], ['counts']),
};
/** A table's rows (Selectable, Insertable, Updateable) as the repositories return and accept them. */
export type Row<R, C> = C extends RowCodec<infer B, infer J> ? Decoded<R, B, J> : never;

export type UserRow = Row<Selectable<UsersTable>, typeof codecs.users>;
export type SsoIdentityRow = Row<Selectable<SsoIdentitiesTable>, typeof codecs.ssoIdentities>;
export type ProjectRow = Row<Selectable<ProjectsTable>, typeof codecs.projects>;
export type LabelSetRow = Row<Selectable<LabelSetsTable>, typeof codecs.labelSets>;
export type CategoryRow = Selectable<CategoriesTable>;
export type LabelRow = Selectable<LabelsTable>;
export type DocumentRow = Row<Selectable<DocumentsTable>, typeof codecs.documents>;
export type NewDocument = Row<Insertable<DocumentsTable>, typeof codecs.documents>;
export type DocumentUpdate = Row<Updateable<DocumentsTable>, typeof codecs.documents>;
export type AnnotationSetRow = Selectable<AnnotationSetsTable>;
export type AnnotationRow = Row<Selectable<AnnotationsTable>, typeof codecs.annotations>;
export type MissingAnnotationRow = Selectable<MissingAnnotationsTable>;
export type PageRow = Row<Selectable<PagesTable>, typeof codecs.pages>;
export type CallbackAttemptRow = Selectable<CallbackAttemptsTable>;
export type NewCallbackAttempt = Insertable<CallbackAttemptsTable>;
export type OutboxRow = Selectable<OutboxTable>;
export type NewOutboxMessage = Insertable<OutboxTable>;
export type OutboxUpdate = Updateable<OutboxTable>;
export type JobRow = Selectable<JobsTable>;
export type AiModelRow = Row<Selectable<AiModelsTable>, typeof codecs.aiModels>;
export type NewAiModel = Row<Insertable<AiModelsTable>, typeof codecs.aiModels>;
export type AiModelUpdate = Row<Updateable<AiModelsTable>, typeof codecs.aiModels>;
export type DocumentSetRow = Selectable<DocumentSetsTable>;
export type ImportFolderRow = Row<Selectable<ImportFoldersTable>, typeof codecs.importFolders>;
export type ProjectImportRow = Row<Selectable<ProjectImportsTable>, typeof codecs.projectImports>;
export type ImportFolderUpdate = Row<Updateable<ImportFoldersTable>, typeof codecs.importFolders>;
export type ImportFolderFileRow = Selectable<ImportFolderFilesTable>;
export type UploadKeyRow = Selectable<UploadKeysTable>;
