// Every background job Folio runs, registered in one place: for each kind of kinds.ts (its name and how it
// is sent), the worker that runs it, its handler (written, with what makes it idempotent, where its code
// is) and what its final failure does. The chain of an upload reads here: process-document, then
// analyze-document, then send-callback; notify-assignee beside the first.
//
// core.ts makes one BackgroundJobs over the queue before the services (they send through the queue, and
// a sync upload waits through waitUntilProcessed), then registers the handlers once the services exist.
import { EventEmitter } from 'node:events';
import type { Repos, UnitOfWork } from '../store/repositories/index.ts';
import type { AiKind, JobRow } from '../store/schema.ts';
import { isUrgent } from '../store/repositories/jobRepository.ts';
import type { BlobStore } from '../blobs/blobStore.ts';
import type { Services } from '../services/index.ts';
import type { Trainer } from '../ai/trainers/types.ts';
import type { Mailer } from '../events/mailer.ts';
import type { CallbackPolicy } from '../events/callbackTargets.ts';
import type { JobHandler, JobQueue, JobWorker } from './queue.ts';
import { ANALYZE_DOCUMENT, jobs, LEARN_FROM_REVIEWS, NOTIFY_ASSIGNEE, NOTIFY_TRAINED, PROCESS_DOCUMENT, READ_AGAIN, SEND_CALLBACK, TRAIN_AI, type JobKind } from './kinds.ts';
import { processingFailed, readingAgainFailed, type AfterProcessing, type DocumentProcessor } from '../pipeline/processor.ts';
import { analysisHandlers, enqueueAnalysis } from '../ai/analysis.ts';
import { ModelFiles } from '../ai/modelFiles.ts';
import { onTrainingFailed, trainingHandlers } from '../ai/trainingJob.ts';
import { learningHandlers } from '../ai/continuousLearning.ts';
import { eventJobHandlers } from '../events/eventJobs.ts';
import { processingEnded } from '../domain/documentStatus.ts';

/**
 * The workers (lanes), each with its own jobs and its own number of jobs at once:
 * - documents: processing of uploads (OCR, pages, the searchable PDF) and readings again. OCR reads the
 *   pages of one document in parallel, so documents go one at a time, in their fair order (queue.ts).
 * - analysis: splitting, categorization and extraction after OCR. Apart from OCR, so that each document is
 *   ready for review as soon as it is read, not when the batch it came with is; it takes a fraction of a
 *   second of CPU a document.
 * - delivery: completion callbacks and emails, to servers Folio does not control. Several at once, one
 *   attempt a run (events/eventJobs.ts): a receiver that stalls holds up one slot, never processing.
 * - training: AI trainings, apart so that a long training never holds up document processing (nor the
 *   reverse), and continuous learning's decisions to train (ai/continuousLearning.ts). A training gives its
 *   turn back while urgent document work is open (ai/trainingJob.ts), so it never slows a sync upload.
 */
export type WorkerName = 'documents' | 'analysis' | 'delivery' | 'training';
const LANES: Record<WorkerName, { concurrency: number }> = {
  documents: { concurrency: 1 },
  analysis: { concurrency: 1 },
  delivery: { concurrency: 8 },
  training: { concurrency: 1 },
};
const WORKERS = Object.keys(LANES) as WorkerName[];

/** What the handlers are made of. */
export interface JobDeps {
  repos: Repos;
  uow: UnitOfWork;
  blobs: BlobStore;
  queue: JobQueue;
  services: Services;
  processor: DocumentProcessor;
  mailer: Mailer;
  trainers: Partial<Record<AiKind, Trainer>>;
  /** Where callbacks may go. */
  callbackPolicy: CallbackPolicy;
  /** The document details as the API answers them (the callback's body). */
  documentJson: (documentId: number) => Promise<unknown>;
  /** The address the links in emails point to. */
  baseUrl: () => string;
}

interface Registration {
  worker: WorkerName;
  handler(deps: JobDeps): JobHandler;
  /** After the last attempt failed (or the job was set aside), in the transaction that marks it failed. */
  onFailed?(job: JobRow, error: unknown, repos: Repos, deps: JobDeps): Promise<void>;
  /** Its end may be the end of a document's processing: a sync upload waits for it. */
  endsProcessing?: true;
}

/** After processing ended well, in its transaction: the completion callback, when the upload asked for one. */
const sendCallbackIfAsked = (queue: JobQueue) => async (r: Repos, doc: { id: number; callback_url: string | null }) => {
  if (doc.callback_url) await queue.send(r, jobs.sendCallback(doc));
};

/** OCR is followed by the analysis, as urgent as the processing was (a sync upload's). */
const afterProcessing = (d: JobDeps, job: JobRow): AfterProcessing => ({
  analysis: async (r, doc) => {
    // A split part's annotations came with its pages: they take the characters read there first.
    await d.services.readAgain.followNewText(r, doc);
    return enqueueAnalysis(d.queue, r, doc, { urgent: isUrgent(job) });
  },
});

const analysis = (d: JobDeps) =>
  analysisHandlers({ repos: d.repos, annotations: d.services.annotations, models: new ModelFiles(d.blobs), onProcessed: sendCallbackIfAsked(d.queue) });
const events = (d: JobDeps) => eventJobHandlers({ repos: d.repos, mailer: d.mailer, documentJson: d.documentJson, baseUrl: d.baseUrl, callbackPolicy: d.callbackPolicy });
const training = (d: JobDeps) => trainingHandlers({ repos: d.repos, uow: d.uow, queue: d.queue, blobs: d.blobs, trainers: d.trainers, mailer: d.mailer, baseUrl: d.baseUrl });

/** THE list: every kind of kinds.ts, with its worker, handler and failure rule. */
export const registry: Record<JobKind, Registration> = {
  /** pipeline/processor.ts: a failure no retry cures ends in 111 at once; the last failed attempt too. */
  [PROCESS_DOCUMENT]: {
    worker: 'documents',
    handler: (d) => (ctx) => d.processor.process(ctx, afterProcessing(d, ctx.job)),
    onFailed: processingFailed,
    endsProcessing: true,
  },
  /** pipeline/processor.ts: a reading that fails leaves the document as it was read before. */
  [READ_AGAIN]: {
    worker: 'documents',
    handler: (d) => (ctx) => d.processor.readAgain(ctx, (r, doc) => d.services.readAgain.afterDocumentRead(r, doc)),
    onFailed: readingAgainFailed,
    endsProcessing: true,
  },
  /** ai/analysis.ts: splitting, categorization, extraction; its end is the end of processing. */
  [ANALYZE_DOCUMENT]: { worker: 'analysis', handler: (d) => analysis(d)[ANALYZE_DOCUMENT], onFailed: processingFailed, endsProcessing: true },
  /** events/eventJobs.ts: one attempt a run, each recorded (events/callbacks.ts, the outbox); three in all (kinds.ts). */
  [SEND_CALLBACK]: { worker: 'delivery', handler: (d) => events(d)[SEND_CALLBACK] },
  [NOTIFY_ASSIGNEE]: { worker: 'delivery', handler: (d) => events(d)[NOTIFY_ASSIGNEE] },
  /** ai/trainingJob.ts: two attempts (kinds.ts); after the last the record is failed and its requester told. */
  [TRAIN_AI]: { worker: 'training', handler: (d) => training(d)[TRAIN_AI], onFailed: (job, error, r, d) => onTrainingFailed(d.queue, job, error, r) },
  [NOTIFY_TRAINED]: { worker: 'delivery', handler: (d) => training(d)[NOTIFY_TRAINED] },
  /** ai/continuousLearning.ts: a finished review's request for a new AI of its category, debounced (kinds.ts). */
  [LEARN_FROM_REVIEWS]: { worker: 'training', handler: (d) => learningHandlers({ repos: d.repos, uow: d.uow, queue: d.queue })[LEARN_FROM_REVIEWS] },
};

/** Every kind Folio runs (the PostgreSQL queue makes a pg-boss queue of each at start-up). */
export const JOB_KINDS = Object.keys(registry) as JobKind[];

const registrationOf = (kind: string): Registration | undefined => (Object.hasOwn(registry, kind) ? registry[kind as JobKind] : undefined);

/** How often a waiting upload looks at its document besides hearing of job ends. */
const ENDED_POLL_MS = 5_000;

/** The queue with Folio's workers, and the end of a document's processing for sync uploads. */
export class BackgroundJobs {
  private readonly ended = new EventEmitter().setMaxListeners(0);
  private workers: Record<WorkerName, JobWorker> | undefined;

  constructor(
    readonly queue: JobQueue,
    private readonly repos: Repos,
    /** How long a sync=true upload waits for the result before answering with the document as it stands. */
    private readonly syncTimeoutMs = 300_000,
  ) {
    // Whichever process ran the job: an API process without workers hears of the ends through the queue.
    queue.ended((job) => {
      if (registrationOf(job.kind)?.endsProcessing && job.document_id !== null) this.ended.emit('settled', job.document_id);
    });
  }

  /** Makes the workers with every kind's handler (not started). Once. */
  register(deps: JobDeps, log?: (message: string, error?: unknown) => void): Record<WorkerName, JobWorker> {
    if (this.workers) throw new Error('The jobs are registered once.');
    const made = {} as Record<WorkerName, JobWorker>;
    for (const name of WORKERS) {
      const kinds = (Object.keys(registry) as JobKind[]).filter((k) => registry[k].worker === name);
      const worker = this.queue.handle(Object.fromEntries(kinds.map((k) => [k, registry[k].handler(deps)])), {
        concurrency: LANES[name].concurrency,
        onFailed: async (job, error, repos) => registrationOf(job.kind)?.onFailed?.(job, error, repos, deps),
        log,
      });
      made[name] = worker;
    }
    this.workers = made;
    return made;
  }

  /** For sync=true uploads: resolves once processing of the document has ended, done or failed (or at the timeout). */
  async waitUntilProcessed(documentId: number): Promise<void> {
    await new Promise<void>((resolve) => {
      // A settled job may be a step (OCR before extraction): the document's status says whether it ended.
      const check = () =>
        void this.repos.documents.findById(documentId).then((d) => {
          if (!d || processingEnded(d.status)) finish();
        });
      const onSettled = (id: number) => {
        if (id === documentId) check();
      };
      const timer = setTimeout(() => finish(), this.syncTimeoutMs);
      // A notice lost on the way (PostgreSQL's listening connection dropped and came back) costs one poll.
      const poll = setInterval(check, ENDED_POLL_MS);
      const finish = () => {
        clearTimeout(timer);
        clearInterval(poll);
        this.ended.off('settled', onSettled);
        resolve();
      };
      this.ended.on('settled', onSettled);
      // Registered first, then checked: a document finished in between is not missed.
      check();
    });
  }
}
