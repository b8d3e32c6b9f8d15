// Every kind of background job Folio runs, and how each is sent: its payload, its dedupe key (what makes
// a second send of the same work the same job: senders are idempotent through it) and its attempts
// where they differ from the queue's default (5). Which worker runs a kind, its handler and what its
// final failure does: main/jobs/registry.ts, which registers every kind listed here (tsc refuses a kind
// without a registration). Senders call `queue.send(tx, jobs.<kind>(...))` in their own transaction
// (main/jobs/queue.ts); this file imports no handler, so services and handlers can both send.
import type { AiModelRow, DocumentRow } from '../store/schema.ts';
import type { JobRequest } from './queue.ts';

export const PROCESS_DOCUMENT = 'process-document';
export const READ_AGAIN = 'read-again-document';
export const ANALYZE_DOCUMENT = 'analyze-document';
export const SEND_CALLBACK = 'send-callback';
export const NOTIFY_ASSIGNEE = 'notify-assignee';
export const TRAIN_AI = 'train-ai';
export const NOTIFY_TRAINED = 'notify-trained';
export const LEARN_FROM_REVIEWS = 'learn-from-reviews';

export type JobKind =
  | typeof PROCESS_DOCUMENT
  | typeof READ_AGAIN
  | typeof ANALYZE_DOCUMENT
  | typeof SEND_CALLBACK
  | typeof NOTIFY_ASSIGNEE
  | typeof TRAIN_AI
  | typeof NOTIFY_TRAINED
  | typeof LEARN_FROM_REVIEWS;

type Doc = Pick<DocumentRow, 'id'>;
/** Whose work a document's processing is: its project and uploader (fair queueing, queue.ts). */
type Owned = Pick<DocumentRow, 'id' | 'project_id' | 'created_by'>;
/** A document in a given state: keys with updated_at make new work of a changed document a new job. */
type DocState = Owned & Pick<DocumentRow, 'updated_at'>;

/** Jobs of one project and uploader keep their order; different ones take turns. */
const fairKey = (doc: Owned) => `project:${doc.project_id}:user:${doc.created_by ?? 'none'}`;

/** Deliveries to servers Folio does not control: three attempts, the queue's back-off between them. */
const DELIVERY_ATTEMPTS = 3;

/** The request of each kind, by what it is about. */
export const jobs = {
  /** An upload (or a part of a split) processed: OCR, pages, text, searchable PDF. Once per document. */
  processDocument: (doc: Owned, opts: { urgent?: boolean } = {}): JobRequest => ({
    kind: PROCESS_DOCUMENT,
    documentId: doc.id,
    payload: { documentId: doc.id },
    dedupeKey: `process:${doc.id}`,
    fairKey: fairKey(doc),
    urgent: opts.urgent,
  }),

  /** A document that could not be processed (111), processed again at a user's request: a new job for each failed state. */
  retryProcessing: (doc: DocState): JobRequest => ({
    kind: PROCESS_DOCUMENT,
    documentId: doc.id,
    payload: { documentId: doc.id },
    dedupeKey: `process:${doc.id}:retry:${doc.updated_at}`,
    fairKey: fairKey(doc),
    // Someone pressed Retry and waits to see it work.
    urgent: true,
  }),

  /** A processed document read again with these OCR languages; a second request for the same state is the same reading. */
  readAgain: (doc: DocState, langs: string[]): JobRequest => ({
    kind: READ_AGAIN,
    documentId: doc.id,
    payload: { documentId: doc.id, langs },
    dedupeKey: `read-again:${doc.id}:${doc.updated_at}`,
    fairKey: fairKey(doc),
    // A reviewer asked for it and waits to see the page again.
    urgent: true,
  }),

  /** Splitting, categorization and extraction after OCR: a re-processed document is analysed again, a crashed job not twice. */
  analyzeDocument: (doc: DocState, opts: { urgent?: boolean } = {}): JobRequest => ({
    kind: ANALYZE_DOCUMENT,
    documentId: doc.id,
    payload: { documentId: doc.id },
    dedupeKey: `analyze:${doc.id}:${doc.updated_at}`,
    fairKey: fairKey(doc),
    urgent: opts.urgent,
  }),

  /** The completion callback (spec 6) once processing ended well, for a document that asked for one. */
  sendCallback: (doc: Doc): JobRequest => ({ kind: SEND_CALLBACK, documentId: doc.id, payload: { documentId: doc.id }, dedupeKey: `callback:${doc.id}`, maxAttempts: DELIVERY_ATTEMPTS }),

  /** The email to the assignee of a new upload. */
  notifyAssignee: (doc: Doc): JobRequest => ({ kind: NOTIFY_ASSIGNEE, documentId: doc.id, payload: { documentId: doc.id }, dedupeKey: `notify:${doc.id}`, maxAttempts: DELIVERY_ATTEMPTS }),

  /** The training of a new AI record, sent with it: training starts once the record commits. Two attempts, not five. */
  trainAi: (ai: Pick<AiModelRow, 'id'>): JobRequest => ({ kind: TRAIN_AI, payload: { aiId: ai.id }, dedupeKey: `train:${ai.id}`, maxAttempts: 2 }),

  /** The email that tells the requester a training ended, either way (committed with the result). */
  notifyTrained: (ai: Pick<AiModelRow, 'id'>): JobRequest => ({ kind: NOTIFY_TRAINED, payload: { aiId: ai.id }, dedupeKey: `notify-trained:${ai.id}`, maxAttempts: DELIVERY_ATTEMPTS }),

  /**
   * Continuous learning (ai/continuousLearning.ts): a finished review asks for a new extraction AI of the
   * category, `delayMs` later. Reviews sent while it waits join it (the key); it frees the key when it starts,
   * so that reviews from then on ask for the next one. One attempt more than a training's.
   */
  learnFromReviews: (category: { id: number; project_id: number }, delayMs: number): JobRequest => ({
    kind: LEARN_FROM_REVIEWS,
    payload: { categoryId: category.id, projectId: category.project_id },
    dedupeKey: `learn:${category.id}`,
    delayMs,
    maxAttempts: 3,
  }),
} satisfies Record<string, (...args: never[]) => JobRequest>;
