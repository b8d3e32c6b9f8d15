// The `train-ai` job: trains the model of one AI record, evaluates it and the active model of the same
// scope on the same test documents, stores the file, and makes the new model active only when it scores
// better (or nothing is active yet). Progress is written to the record as it goes, so clients can poll.
// Training runs in its own worker (main/jobs/registry.ts), so a long training never holds up document
// processing. The training is sent with its AI record (services/aiModelService.ts, jobs.trainAi).
import type { Repos, UnitOfWork } from '../store/repositories/index.ts';
import type { AiKind, AiModelRow, JobRow } from '../store/schema.ts';
import type { BlobStore } from '../blobs/blobStore.ts';
import type { JobContext, JobHandler, JobQueue } from '../jobs/queue.ts';
import { NotNowError } from '../jobs/queue.ts';
import { ANALYZE_DOCUMENT, jobs, NOTIFY_TRAINED, PROCESS_DOCUMENT, READ_AGAIN, TRAIN_AI } from '../jobs/kinds.ts';
import { now } from '../store/db.ts';
import { NothingToTrain, type AiEvaluation, type Trainer } from './trainers/types.ts';
import { TrainingCancelled } from './extraction/index.ts';
import type { Mailer } from '../events/mailer.ts';
import { trainingCompleted } from '../events/messages.ts';
import { sendMail } from '../events/eventJobs.ts';

export interface TrainingJobDeps {
  repos: Repos;
  uow: UnitOfWork;
  /** Sends the email job that tells the requester the training ended. */
  queue: JobQueue;
  blobs: BlobStore;
  trainers: Partial<Record<AiKind, Trainer>>;
  mailer: Mailer;
  /** The address the links in emails point to. */
  baseUrl: () => string;
}

/**
 * Whether a newly evaluated model should replace the active one. Both were scored on the same test
 * documents just now. Without test documents nothing can be compared: the newer model, trained on the
 * current reviews, takes over (documented in the README). A tie keeps the active one.
 */
function beatsActive(candidate: AiEvaluation | null, active: AiEvaluation | null, hasActive: boolean): boolean {
  if (!hasActive) return true;
  if (candidate !== null && active !== null) return candidate.score > active.score;
  if (candidate === null && active === null) return true;
  // Only one could be scored (the active model's file no longer reads, say): the scored one wins.
  return candidate !== null;
}

/**
 * Why a new model was or was not made active, as the record keeps it (`training.activation`) and the API
 * answers it (`activation`): its score and the active one's on the same test documents, or why there was
 * nothing to compare.
 */
export interface Activation {
  activated: boolean;
  reason: string;
  score: number | null;
  active_ai: number | null;
  active_score: number | null;
  test_documents: number | null;
}

/** A new model file scored against the active model of its scope, on the same test documents. */
export interface Comparison {
  evaluation: AiEvaluation | null;
  active: AiModelRow | undefined;
  activeEvaluation: AiEvaluation | null;
  /** The new model should take over (beatsActive). */
  wins: boolean;
  activation: Activation;
}

const figure = (e: AiEvaluation) => `${e.metric === 'f1' ? 'F1' : 'accuracy'} ${e.score.toFixed(3)}`;

/** The reason beatsActive decided as it did, in words. */
function activationOf(evaluation: AiEvaluation | null, active: AiModelRow | undefined, activeEvaluation: AiEvaluation | null, wins: boolean): Activation {
  const base = { activated: wins, score: evaluation?.score ?? null, active_ai: active?.id ?? null, active_score: activeEvaluation?.score ?? null, test_documents: evaluation?.documents ?? activeEvaluation?.documents ?? null };
  if (!active) return { ...base, reason: evaluation ? `no active AI: made active (${figure(evaluation)} on ${evaluation.documents} test documents)` : 'no active AI: made active (no test documents to score it on)' };
  if (evaluation && activeEvaluation) {
    const on = `on the same ${evaluation.documents} test document${evaluation.documents === 1 ? '' : 's'}`;
    return wins
      ? { ...base, reason: `better than the active AI ${active.id}: ${figure(evaluation)} against ${activeEvaluation.score.toFixed(3)} ${on}` }
      : { ...base, reason: `not better than the active AI ${active.id}: ${figure(evaluation)} against ${activeEvaluation.score.toFixed(3)} ${on}; the active AI stays` };
  }
  if (!evaluation && !activeEvaluation) return { ...base, reason: `no test documents: nothing to compare, so the newer AI replaces the active AI ${active.id}` };
  return evaluation
    ? { ...base, reason: `the active AI ${active.id} could not be scored (its file does not read): the new one, ${figure(evaluation)}, replaces it` }
    : { ...base, reason: `the new AI could not be scored; the active AI ${active.id} (${figure(activeEvaluation!)}) stays` };
}

export async function compareWithActive(repos: Repos, blobs: BlobStore, trainer: Trainer, scope: AiModelRow, file: string): Promise<Comparison> {
  const active = await repos.aiModels.findActive(scope.kind, scope.project_id, scope.category_id);
  const files = [file];
  if (active?.model_blob) files.push((await blobs.read(active.model_blob)).toString('utf8'));
  const [evaluation, activeEvaluation = null] = await trainer.evaluate(repos, scope, files);
  const wins = beatsActive(evaluation, activeEvaluation, !!active);
  return { evaluation, active, activeEvaluation, wins, activation: activationOf(evaluation, active, activeEvaluation, wins) };
}

/**
 * The jobs someone waits for when urgent (jobRepository.ts isUrgent): a sync upload's OCR and extraction, a
 * retry, a reading again, a document a reviewer opened. No training runs while one of them is open.
 */
const PIPELINE_KINDS = [PROCESS_DOCUMENT, READ_AGAIN, ANALYZE_DOCUMENT];
/** How long a training that gave its turn back waits before it looks again. */
export const TRAINING_WAIT_MS = 1_000;
/** How often a running training looks for urgent work that has come since it started. */
const PREEMPT_POLL_MS = 250;

/** Throws NotNowError while urgent pipeline work is open: the training waits, its attempt not counted. */
async function waitForUrgentWork(repos: Repos): Promise<void> {
  const open = await repos.jobs.countUrgentOpen(PIPELINE_KINDS);
  if (open > 0) throw new NotNowError(`Waiting: ${open} document job${open === 1 ? '' : 's'} someone waits for (a sync upload, say) come first.`, TRAINING_WAIT_MS);
}

/** The record's stage while its training waits for urgent document work. */
const WAITING_STAGE = 'waiting for documents being processed';

/** Urgent work came while training: the training stops, gives its turn back and starts again later. */
class Preempted extends Error {}

export function trainingHandlers(deps: TrainingJobDeps): Record<string, JobHandler> {
  const { repos } = deps;
  return {
    async [TRAIN_AI](ctx: JobContext<{ aiId: number }>) {
      const ai = await repos.aiModels.findById(ctx.payload.aiId);
      if (!ai || ai.status === 'done' || ai.status === 'failed') return;
      const trainer = deps.trainers[ai.kind];
      if (!trainer) throw new Error(`No trainer for ${ai.kind} AIs in this version.`);
      try {
        await waitForUrgentWork(repos);
      } catch (err) {
        if (ai.stage !== WAITING_STAGE) await repos.aiModels.update(ai.id, { stage: WAITING_STAGE });
        throw err;
      }
      await repos.aiModels.update(ai.id, { status: 'training', progress: 0, stage: 'starting', started_at: now(), error: null });
      // Urgent work that comes while training stops it at once (the worker thread is ended): it never runs
      // beside a sync upload's extraction, and starts again from the beginning once that is done.
      const preempt = new AbortController();
      const watch = setInterval(() => {
        void repos.jobs.countUrgentOpen(PIPELINE_KINDS).then((n) => {
          if (n > 0 && !preempt.signal.aborted) preempt.abort(new Preempted('urgent document work came'));
        }, () => {});
      }, PREEMPT_POLL_MS);
      watch.unref();
      const signal = AbortSignal.any([ctx.signal, preempt.signal]);
      // Progress writes are serialized and never awaited by training: a slow disk must not slow the learner.
      let writing = Promise.resolve();
      let lastPercent = -1;
      const onProgress = (percent: number, stage: string) => {
        const p = Math.max(0, Math.min(99, Math.round(percent)));
        if (p === lastPercent) return;
        lastPercent = p;
        // The heartbeat records how far the job got: a kill at 40 % and one at 60 % are not "the same step"
        // (jobQueue.ts sets aside only a job that stops the process again and again at one point). Its
        // throw on stop is not needed here: training gets ctx.signal.
        writing = writing.then(() => repos.aiModels.update(ai.id, { progress: p, stage })).then(() => ctx.heartbeat()).catch(() => {});
      };
      let output;
      try {
        output = await trainer.train({ repos, model: ai, signal, onProgress });
        if (preempt.signal.aborted && !ctx.signal.aborted) throw new TrainingCancelled();
      } catch (err) {
        clearInterval(watch);
        await writing;
        if (err instanceof TrainingCancelled && preempt.signal.aborted && !ctx.signal.aborted) {
          await repos.aiModels.update(ai.id, { status: 'queued', progress: 0, stage: WAITING_STAGE });
          throw new NotNowError('Stopped: document work someone waits for (a sync upload, say) came while training; it starts again after that.', TRAINING_WAIT_MS);
        }
        if (err instanceof TrainingCancelled) throw err; // the runner hands the job back on stop
        if (!(err instanceof NothingToTrain)) throw err; // retried, then onTrainingFailed
        await ctx.completeWith((r) => finishFailed(deps.queue, r, ai, err.message));
        return;
      }
      clearInterval(watch);
      await writing;
      await repos.aiModels.update(ai.id, { progress: 95, stage: 'evaluating' });
      const { evaluation, active, activeEvaluation, wins, activation } = await compareWithActive(repos, deps.blobs, trainer, ai, output.file);
      const blob = await deps.blobs.put(Buffer.from(output.file, 'utf8'));
      await ctx.completeWith(async (r) => {
        await r.aiModels.update(ai.id, {
          status: 'done',
          progress: 100,
          stage: 'done',
          evaluation: evaluation ?? null,
          // What continuous learning wrote when it asked for the training (its trigger) stays beside the trainer's figures.
          training: { ...((ai.training ?? {}) as object), ...output.training, compared_with: active ? { id: active.id, evaluation: activeEvaluation } : null, activation },
          model_blob: blob.key,
          model_size: blob.size,
          finished_at: now(),
        });
        if (wins) await r.aiModels.activate(ai);
        await notifyRequester(deps.queue, r, ai);
      });
    },

    async [NOTIFY_TRAINED](ctx: JobContext<{ aiId: number }>) {
      const { payload } = ctx;
      const ai = await repos.aiModels.findById(payload.aiId);
      const requester = ai?.created_by == null ? undefined : await repos.users.findById(ai.created_by);
      if (!ai || !requester) return;
      const project = await repos.projects.findById(ai.project_id);
      const category = ai.category_id === null ? undefined : await repos.categories.findById(ai.category_id);
      const content = trainingCompleted({
        baseUrl: deps.baseUrl(),
        aiId: ai.id,
        kind: ai.kind,
        categoryName: category?.name ?? null,
        projectName: project?.name ?? '',
        succeeded: ai.status === 'done',
        active: ai.active,
        reason: ai.error,
      });
      await sendMail(deps.mailer, { to: requester.email, ...content, kind: 'training' }, ctx);
    },
  };
}

/** After the last attempt failed (the worker's onFailed, in its transaction). */
export async function onTrainingFailed(queue: JobQueue, job: JobRow, error: unknown, r: Repos): Promise<void> {
  if (job.kind !== TRAIN_AI) return;
  const aiId = (JSON.parse(job.payload) as { aiId: number }).aiId;
  const ai = await r.aiModels.findById(aiId);
  if (ai) await finishFailed(queue, r, ai, `Training failed: ${(error as Error)?.message ?? String(error)}`);
}

async function finishFailed(queue: JobQueue, r: Repos, ai: AiModelRow, reason: string): Promise<void> {
  await r.aiModels.update(ai.id, { status: 'failed', stage: 'failed', error: reason, finished_at: now() });
  await notifyRequester(queue, r, ai);
}

/** The requester hears of the end of training either way (an email job, committed with the result). */
async function notifyRequester(queue: JobQueue, r: Repos, ai: AiModelRow): Promise<void> {
  if (ai.created_by !== null) await queue.send(r, jobs.notifyTrained(ai));
}
