// Documents: upload (file into the blob store, row in one transaction), list, detail with its
// annotation tree, PATCH/PUT (review, category, assignee, ...), delete, and the original file.
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Repos, UnitOfWork } from '../store/repositories/index.ts';
import type { DocumentRow, DocumentUpdate, NewDocument, UserRow } from '../store/schema.ts';
import type { DocumentListRow, DocumentView } from '../store/repositories/documentRepository.ts';
import type { PageSummary } from '../store/repositories/pageRepository.ts';
import type { BlobStore, NamedBlob } from '../blobs/blobStore.ts';
import { referencedBlobKeys } from '../blobs/referenced.ts';
import type { ListParams, Page } from '../../shared/listParams.ts';
import type { DocumentPatch, DocumentPut, DocumentUpload } from '../../shared/schemas/documents.ts';
import type { AnnotationService, DocumentTree } from './annotationService.ts';
import { HttpError, NotFoundError, UniqueViolation, ValidationError } from '../domain/errors.ts';
import { documentForMember, isMember, projectForField, publicDocument } from './access.ts';
import { DATASET_STATUS_NAMES, DatasetStatus, DocumentStatus, statusName } from '../domain/documentStatus.ts';
import { reviewBlockers } from '../domain/reviewRules.ts';
import { learningDatasetStatus } from '../domain/learningSplit.ts';
import { enqueueAnalysis } from '../ai/analysis.ts';
import type { JobQueue } from '../jobs/queue.ts';
import { jobs } from '../jobs/kinds.ts';

/** What multer hands over for the `data_file` part. */
export interface UploadedFile {
  path: string;
  originalname: string;
  size: number;
}

/**
 * What uploads need of document processing (main/pipeline, main/jobs/registry.ts) besides its jobs, which
 * the upload sends itself, in its transaction (queueProcessing).
 */
export interface DocumentPipelineHook {
  /** Refuses a file processing could never read (wrong type, encrypted, too many pages), before it is stored. */
  check?(file: string): Promise<void>;
  /** For sync=true uploads: resolves once processing of the document has ended, done or failed. */
  waitUntilProcessed(documentId: number): Promise<void>;
}

export interface UploadOptions {
  inTransaction?(repos: Repos, doc: DocumentRow): Promise<void>;
  /**
   * The client's Idempotency-Key: an upload retried under the same key by the same user (within
   * UPLOAD_KEY_KEPT_MS) answers the document the first one stored instead of storing the file again; the
   * key reused for another file or project is refused with 422. Stored with the document, in its transaction.
   */
  idempotencyKey?: string;
}

/** Continuous learning's default wait after a finished review (docs/continuous-learning.md). */
export const DEFAULT_LEARNING_DELAY_MS = 30_000;

/** How long an upload's idempotency key is kept: a retry within this time finds the first upload. */
export const UPLOAD_KEY_KEPT_MS = 24 * 60 * 60 * 1000;

/** A key the client may send: 1 to 255 visible ASCII characters (the IETF draft's advice; UUIDs fit). */
function checkIdempotencyKey(key: string): void {
  if (!/^[\x21-\x7e]{1,255}$/.test(key)) {
    throw new HttpError(400, 'The Idempotency-Key header must be 1 to 255 visible ASCII characters (a UUID, for example).', { code: 'idempotency_key_invalid' });
  }
}

const noPipeline: DocumentPipelineHook = { waitUntilProcessed: async () => {} };

export interface DocumentDetailView {
  doc: DocumentView;
  tree: DocumentTree;
  /** Its pages as the page endpoint lists them (compat.md: clients build their page objects from these). */
  pages: PageSummary[];
  /** Other documents of its project uploaded with the same bytes (empty for an anonymous reader of a public document). */
  duplicates: number[];
}

const unknownPk = (id: number | string) => `Invalid pk "${id}" - object does not exist.`;

/** A public link's token: 24 random bytes (192 bits), 32 base64url characters (access.ts PUBLIC_TOKEN). */
export const newPublicToken = (): string => randomBytes(24).toString('base64url');

/** An expiry a client sends for a public link: an ISO 8601 date-time with its offset, in the future; null: never. */
export function publicExpiry(value: string | null, field: string, now = Date.now()): string | null {
  if (value === null) return null;
  const when = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(value.trim()) ? Date.parse(value) : NaN;
  if (!Number.isFinite(when)) throw ValidationError.of(field, `"${value}" is not a date-time with its offset, such as 2030-01-31T18:00:00Z.`);
  if (when <= now) throw ValidationError.of(field, `${value} is in the past: the link would never work. Give a time in the future, or null for a link that does not expire.`);
  return new Date(when).toISOString();
}

/** The uploaded file's name without any client path or control characters. */
export function cleanFileName(raw: string): string {
  const name = path.basename(raw.replace(/\\/g, '/')).replace(/[\x00-\x1f\x7f]/g, '').trim();
  return name.slice(0, 255) || 'document';
}

export class DocumentService {
  constructor(
    private readonly repos: Repos,
    private readonly uow: UnitOfWork,
    private readonly blobs: BlobStore,
    private readonly annotations: AnnotationService,
    private readonly queue: JobQueue,
    private readonly pipeline: DocumentPipelineHook = noPipeline,
    /** Why a callback_url is refused as far as the URL tells (a literal private or metadata address), or null. */
    private readonly callbackRefusal: (url: string) => string | null = () => null,
    /** How long continuous learning waits after a finished review for more before it trains (FOLIO_LEARNING_DELAY_SECONDS). */
    private readonly learningDelayMs = DEFAULT_LEARNING_DELAY_MS,
  ) {}

  /** A 400 at the time the URL is given, rather than a refusal recorded after processing. */
  private checkCallbackUrl(url: string | null | undefined): void {
    const why = url ? this.callbackRefusal(url) : null;
    if (why) throw ValidationError.of('callback_url', why);
  }

  /**
   * In a new document's transaction: its processing (the job commits with the document, or neither does)
   * and, when it has an assignee, the email that tells them.
   */
  private async queueProcessing(r: Repos, doc: DocumentRow, urgent = false): Promise<void> {
    await this.queue.send(r, jobs.processDocument(doc, { urgent }));
    if (doc.assignee_id !== null) await this.queue.send(r, jobs.notifyAssignee(doc));
  }

  /**
   * `opts.inTransaction` writes beside the new document in its transaction (the import watcher records
   * the upload there, so that a crash can never leave a document without that record or the reverse).
   */
  async upload(user: UserRow, input: DocumentUpload, file: UploadedFile | undefined, opts: UploadOptions = {}): Promise<DocumentView> {
    const project = await projectForField(this.repos, user, input.project, 'project');
    this.checkCallbackUrl(input.callback_url);
    if (!file) throw ValidationError.of('data_file', 'No file was submitted.');
    // An empty file is stored like a damaged one: processing ends it in 111, "The file is empty." (issue 31).
    const categoryField = input.category == null && input.category_template != null ? 'category_template' : 'category';
    const requested = input.category ?? input.category_template;
    const categoryId = requested == null ? null : await this.categoryOf(this.repos, project.id, requested, categoryField);
    const assigneeId = input.assignee == null ? null : await this.memberOf(this.repos, project.id, input.assignee);

    const key = opts.idempotencyKey;
    if (key !== undefined) checkIdempotencyKey(key);
    await this.pipeline.check?.(file.path);
    const blob = await this.blobs.adopt(file.path);
    const fingerprint = `${blob.key}:${project.id}`;
    if (key !== undefined) {
      const first = await this.uploadUnderKey(user, key, fingerprint, blob.key);
      if (first) return first;
    }
    let doc: DocumentView;
    try {
      const t = new Date().toISOString();
      doc = await this.uow(async (r) => {
        const row = await r.documents.insert({
          project_id: project.id,
          category_id: categoryId,
          data_file_name: cleanFileName(file.originalname),
          blob_key: blob.key,
          file_size: blob.size,
          status: DocumentStatus.QUEUING_FOR_OCR,
          dataset_status: input.dataset_status ?? DatasetStatus.NONE,
          is_reviewed: false,
          number_of_pages: 0,
          assignee_id: assigneeId,
          callback_url: input.callback_url ?? null,
          created_by: user.id,
          // "Revised" records a later correction (PATCH); a category named at upload is simply the category.
          category_is_revised: false,
          created_at: t,
          updated_at: t,
        });
        // A sync upload's client waits for the answer: it goes ahead of every batch.
        await this.queueProcessing(r, row, input.sync === true);
        if (key !== undefined) await r.documents.insertUploadKey({ user_id: user.id, key, fingerprint, document_id: row.id }, UPLOAD_KEY_KEPT_MS);
        await opts.inTransaction?.(r, row);
        // Read inside the transaction: an asynchronous upload answers the document as queued, even if
        // processing has already moved it on by the time the response is written.
        return (await r.documents.findById(row.id))!;
      });
    } catch (err) {
      // The same key sent twice at once: the other upload committed first, and is the answer.
      const first = key !== undefined && err instanceof UniqueViolation ? await this.uploadUnderKey(user, key, fingerprint, blob.key) : undefined;
      if (first) return first;
      await this.releaseBlobs([blob.key]);
      throw err;
    }
    if (!input.sync) return doc;
    await this.pipeline.waitUntilProcessed(doc.id);
    return (await this.repos.documents.findById(doc.id))!;
  }

  /**
   * The document stored under `key` by `user` (an upload retried), or undefined when the key is new. A key
   * that named another file or project is refused (422); the file just adopted is let go unless a document
   * names it.
   */
  private async uploadUnderKey(user: UserRow, key: string, fingerprint: string, blobKey: string): Promise<DocumentView | undefined> {
    const stored = await this.repos.documents.findUploadKey(user.id, key, UPLOAD_KEY_KEPT_MS);
    if (!stored) return undefined;
    if (stored.fingerprint !== fingerprint) {
      await this.releaseBlobs([blobKey]);
      throw new HttpError(
        422,
        `The Idempotency-Key "${key}" was used for another upload (document ${stored.document_id}, a different file or project). Send a new key for a new upload.`,
        { code: 'idempotency_key_reused', document: stored.document_id },
      );
    }
    return (await this.repos.documents.findById(stored.document_id))!;
  }

  /**
   * POST documents/<id>/retry/: a document that could not be processed (111) goes back to the queue, its
   * file processed again from the start (then analysed, as after an upload). Any other status is a 409.
   */
  async retryProcessing(user: UserRow, id: number): Promise<DocumentView> {
    await documentForMember(this.repos, user, id);
    await this.uow(async (r) => {
      // Checked where it counts: two requests at once queue one job.
      const current = await r.documents.findById(id);
      if (!current) throw new NotFoundError('Document not found.');
      if (current.status !== DocumentStatus.COULD_NOT_BE_PROCESSED) {
        throw new HttpError(409, `Only a document that could not be processed (status 111) can be retried; this one is "${statusName(current.status)}" (${current.status}).`);
      }
      await r.documents.update(id, { status: DocumentStatus.QUEUING_FOR_OCR, status_reason: null });
      await this.queue.send(r, jobs.retryProcessing(current));
    });
    return (await this.repos.documents.findById(id))!;
  }

  /** A document Folio makes itself (a part of a split), queued for processing, in the caller's transaction. */
  async insertDerived(r: Repos, values: NewDocument): Promise<DocumentRow> {
    const row = await r.documents.insert(values);
    await this.queueProcessing(r, row);
    return row;
  }

  list(user: UserRow, params: ListParams): Promise<Page<DocumentListRow>> {
    return this.repos.documents.list(user.id, params);
  }

  get(user: UserRow, id: number): Promise<DocumentView> {
    return documentForMember(this.repos, user, id);
  }

  /** The detail of a public document by its link's token, for anyone (access.ts publicDocument: 404, 410). */
  async publicDetail(token: string): Promise<DocumentDetailView> {
    return this.view(await publicDocument(this.repos, token), false);
  }

  /**
   * POST documents/<id>/public-link/: the document is public with a new link (a new token, `expiresAt` or no
   * expiry); the link it had stops working. Members only.
   */
  async newPublicLink(user: UserRow, id: number, expiresAt: string | null): Promise<DocumentView> {
    const expiry = publicExpiry(expiresAt, 'expires_at');
    await this.uow(async (r) => {
      const doc = await documentForMember(r, user, id);
      await r.documents.update(doc.id, { is_public: true, public_token: newPublicToken(), public_expires_at: expiry });
    });
    return (await this.repos.documents.findById(id))!;
  }

  /** The detail without an access check, for the system's own messages (the completion callback). */
  async detailById(id: number): Promise<DocumentDetailView> {
    const doc = await this.repos.documents.findById(id);
    if (!doc) throw new NotFoundError('Document not found.');
    return this.view(doc);
  }

  async detail(user: UserRow, id: number): Promise<DocumentDetailView> {
    const doc = await documentForMember(this.repos, user, id);
    return this.view(doc);
  }

  private async view(doc: DocumentView, member = true): Promise<DocumentDetailView> {
    const [tree, pages, duplicates] = await Promise.all([
      this.annotations.documentTree(doc),
      this.repos.pages.listForDocument(doc.id),
      // The rest of the project is not an anonymous reader's business.
      member ? this.repos.documents.sameFile(doc.project_id, doc.blob_key, doc.id) : Promise.resolve([]),
    ]);
    return { doc, tree, pages, duplicates };
  }

  /**
   * POST documents/<id>/prioritize/: a reviewer opened a document that is still waiting; its queued steps
   * go ahead of every batch (queue.ts expedite). Nothing changes for a document whose steps run or ended.
   */
  async prioritize(user: UserRow, id: number): Promise<DocumentView> {
    const doc = await documentForMember(this.repos, user, id);
    await this.uow((r) => this.queue.expedite(r, doc.id));
    return (await this.repos.documents.findById(doc.id))!;
  }

  /**
   * POST documents/<id>/extract-again/: the category's active extraction AI reads the document again (a
   * durable analysis job, like after processing). Machine annotations still awaiting review give way to
   * the new ones; accepted, declined, corrected and human annotations stay as the reviewer left them.
   */
  async extractAgain(user: UserRow, id: number): Promise<DocumentView> {
    const doc = await documentForMember(this.repos, user, id);
    await this.uow(async (r) => {
      // Checked in the transaction: two requests at once queue one extraction.
      const current = (await r.documents.findById(doc.id))!;
      if (current.status !== DocumentStatus.DONE) {
        throw ValidationError.of('non_field_errors', `The document cannot be extracted again while it is "${statusName(current.status)}": wait until it is done.`);
      }
      if (current.category_id === null) throw ValidationError.of('non_field_errors', 'The document has no category: choose its category first, then extract again.');
      const ai = await r.aiModels.findActive('extraction', current.project_id, current.category_id);
      if (!ai) {
        const category = await r.categories.findById(current.category_id);
        throw ValidationError.of('non_field_errors', `The category "${category?.name ?? current.category_id}" has no active extraction AI: train one on the AI tab first.`);
      }
      for (const a of await r.annotations.annotationsOfDocument(doc.id)) {
        if (a.origin === 'machine' && !a.revised) await r.annotations.removeAnnotation(a.id);
      }
      await r.documents.update(doc.id, { status: DocumentStatus.QUEUING_FOR_EXTRACTION, status_reason: null, is_reviewed: false });
      // Queued with the status change: the job commits with it, or neither does.
      await enqueueAnalysis(this.queue, r, (await r.documents.findById(doc.id))!, { splitting: false, urgent: true });
    });
    return (await this.repos.documents.findById(doc.id))!;
  }

  async patch(user: UserRow, id: number, changes: DocumentPatch): Promise<DocumentView> {
    await this.uow(async (r) => {
      const doc = await documentForMember(r, user, id);
      await this.apply(r, doc, changes);
    });
    return (await this.repos.documents.findById(id))!;
  }

  /** PUT replaces: required fields must be there (the schema), omitted ones go back to their defaults. */
  async replace(user: UserRow, id: number, body: DocumentPut): Promise<DocumentView> {
    await this.uow(async (r) => {
      const doc = await documentForMember(r, user, id);
      if (body.project !== doc.project_id) throw ValidationError.of('project', 'A document cannot be moved to another project.');
      await this.apply(r, doc, {
        data_file_name: body.data_file_name,
        category: body.category ?? null,
        dataset_status: body.dataset_status ?? DatasetStatus.NONE,
        assignee: body.assignee ?? null,
        callback_url: body.callback_url ?? null,
        is_public: body.is_public ?? false,
        public_expires_at: body.public_expires_at ?? null,
        is_reviewed: body.is_reviewed ?? false,
      });
    });
    return (await this.repos.documents.findById(id))!;
  }

  /** Writes the changes, then checks the review rules against the changed document: all or nothing. */
  private async apply(r: Repos, doc: DocumentView, c: DocumentPatch): Promise<void> {
    const update: DocumentUpdate = {};
    if (c.category !== undefined) {
      const categoryId = c.category === null ? null : await this.categoryOf(r, doc.project_id, c.category);
      if (categoryId !== doc.category_id) {
        update.category_id = categoryId;
        update.category_is_revised = true;
        if (categoryId !== null && doc.status === DocumentStatus.DONE) Object.assign(update, await this.extractionForCategory(r, doc, categoryId));
      }
    }
    if (c.assignee !== undefined) update.assignee_id = c.assignee === null ? null : await this.memberOf(r, doc.project_id, c.assignee);
    if (c.dataset_status !== undefined) update.dataset_status = c.dataset_status;
    if (c.data_file_name !== undefined) update.data_file_name = cleanFileName(c.data_file_name);
    if (c.callback_url !== undefined) {
      this.checkCallbackUrl(c.callback_url);
      update.callback_url = c.callback_url;
    }
    if (c.is_public !== undefined) update.is_public = c.is_public;
    // The public link: a new token whenever the document becomes public (an old link never comes back), none
    // while it is private; a PATCH that says public again of a public document keeps its link.
    const willBePublic = c.is_public ?? doc.is_public;
    if (willBePublic && (!doc.is_public || doc.public_token === null)) {
      update.public_token = newPublicToken();
      update.public_expires_at = null;
    }
    if (!willBePublic) {
      update.public_token = null;
      update.public_expires_at = null;
    }
    if (c.public_expires_at !== undefined && c.public_expires_at !== null && !willBePublic) {
      throw ValidationError.of('public_expires_at', 'Only a public document has a link to expire: send is_public: true with it.');
    }
    if (c.public_expires_at !== undefined && willBePublic) update.public_expires_at = publicExpiry(c.public_expires_at, 'public_expires_at');
    if (c.is_reviewed !== undefined) update.is_reviewed = c.is_reviewed;
    await r.documents.update(doc.id, update);

    if (c.is_reviewed) {
      const changed = (await r.documents.findById(doc.id))!;
      const reasons = reviewBlockers(this.annotations.reviewSets(await this.annotations.documentTree(changed, r)));
      if (reasons.length) throw new ValidationError({ is_reviewed: reasons });
      if (!doc.is_reviewed) await this.learnFromReview(r, changed, c.dataset_status !== undefined);
    }
  }

  /**
   * Continuous learning (docs/continuous-learning.md), in the transaction that finishes the review: a
   * document whose dataset status is still None joins the training data, or 1 in 5 the test data
   * (domain/learningSplit.ts); a status the reviewer set (before, or in this same request) is never
   * changed. A training document then asks for a new AI of its category, debounced (jobs/kinds.ts).
   */
  private async learnFromReview(r: Repos, doc: DocumentRow, datasetGiven: boolean): Promise<void> {
    const project = await r.projects.findById(doc.project_id);
    if (!project?.continuous_learning) return;
    let dataset = doc.dataset_status;
    if (dataset === DatasetStatus.NONE && !datasetGiven) {
      dataset = learningDatasetStatus(doc.project_id, doc.id);
      await r.documents.update(doc.id, { dataset_status: dataset });
    }
    if (dataset === DatasetStatus.TRAINING && doc.category_id !== null && doc.status === DocumentStatus.DONE) {
      await this.queue.send(r, jobs.learnFromReviews({ id: doc.category_id, project_id: doc.project_id }, this.learningDelayMs));
    }
  }

  /**
   * A processed document given another category is extracted again with that category's active
   * extraction AI, the way processing does (the analysis job, no splitting): the old category's machine
   * proposals still awaiting review go, human annotations and reviewed ones stay, and the review opens
   * again for the new proposals. Without an active AI for the category nothing more changes.
   */
  private async extractionForCategory(r: Repos, doc: DocumentRow, categoryId: number): Promise<DocumentUpdate> {
    if (!(await r.aiModels.findActive('extraction', doc.project_id, categoryId))) return {};
    const proposals = (await r.annotations.annotationsOfDocument(doc.id)).filter((a) => a.origin === 'machine' && !a.revised);
    for (const a of proposals) await r.annotations.removeAnnotation(a.id);
    await r.annotations.removeEmptySets(doc.id, [...new Set(proposals.map((a) => a.annotation_set_id))]);
    await r.documents.update(doc.id, { category_id: categoryId, category_is_revised: true });
    const changed = (await r.documents.findById(doc.id))!;
    return { status: await enqueueAnalysis(this.queue, r, changed, { splitting: false, urgent: true }), is_reviewed: false, extraction_ai_id: null };
  }

  /**
   * The document goes with its pages (cascade), then every file of it no row names any more. A document of
   * a dataset (any dataset status but none) stays: as the hosted service, Folio refuses, so that training
   * and test data are not lost by a script's clean-up (the SDK's tests expect the refusal).
   */
  async remove(user: UserRow, id: number): Promise<void> {
    const doc = await documentForMember(this.repos, user, id);
    if (doc.dataset_status !== DatasetStatus.NONE) {
      const name = DATASET_STATUS_NAMES[doc.dataset_status] ?? String(doc.dataset_status);
      throw ValidationError.of('dataset_status', `Cannot delete documents which are part of a dataset (dataset status ${name}): set its dataset status to None first.`);
    }
    const pages = await this.repos.pages.listForDocument(doc.id);
    await this.uow((r) => r.documents.remove(doc.id));
    await this.releaseBlobs([doc.blob_key, doc.searchable_blob_key, ...pages.flatMap((p) => [p.image_blob, p.thumbnail_blob])]);
  }

  /** The uploaded bytes with the name they were uploaded under. */
  async originalFile(user: UserRow, id: number): Promise<NamedBlob> {
    const doc = await documentForMember(this.repos, user, id);
    if (!(await this.blobs.exists(doc.blob_key))) throw new NotFoundError('The file of this document is missing from the data folder.');
    return { key: doc.blob_key, name: doc.data_file_name };
  }

  /** The searchable PDF made by processing; until it exists, a 404 that says why there is none. */
  async searchablePdf(user: UserRow, id: number): Promise<NamedBlob> {
    const doc = await documentForMember(this.repos, user, id);
    if (!doc.searchable_blob_key) throw new NotFoundError(`The searchable PDF is not ready yet (status ${statusName(doc.status)}).`);
    const name = doc.data_file_name.replace(/\.[^.]*$/, '') + '.pdf';
    return { key: doc.searchable_blob_key, name };
  }

  /**
   * Identical files share one blob (two uploads, a page image of two documents, a split's original): each
   * goes only when no row names it any more, by the list the start-up sweep goes by.
   */
  private async releaseBlobs(keys: readonly (string | null)[]): Promise<void> {
    const used = await referencedBlobKeys(this.repos);
    for (const key of new Set(keys)) if (key && !used.has(key)) await this.blobs.remove(key);
  }

  private async categoryOf(r: Repos, projectId: number, categoryId: number, field = 'category'): Promise<number> {
    // Spec 7.3: a category of another project is refused like an unknown one.
    if ((await r.categories.projectIdsOf([categoryId])).get(categoryId) !== projectId) throw ValidationError.of(field, unknownPk(categoryId));
    return categoryId;
  }

  /** Spec 5.3 and 7.4: the assignee must be a member of the document's project. */
  private async memberOf(r: Repos, projectId: number, assignee: number | string): Promise<number> {
    // A form field is a string: "7" is the id 7 in an upload as in a JSON PATCH (no email is only digits).
    const ref = typeof assignee === 'string' && /^\d+$/.test(assignee) ? Number(assignee) : assignee;
    const user = typeof ref === 'number' ? await r.users.findById(ref) : await r.users.findByEmail(ref);
    if (!user) throw ValidationError.of('assignee', typeof ref === 'number' ? `Invalid user id ${ref}: no such user.` : `No user with the email ${ref}.`);
    if (!(await isMember(r, user, projectId))) throw ValidationError.of('assignee', `${user.email} is not a member of project ${projectId}.`);
    return user.id;
  }
}
