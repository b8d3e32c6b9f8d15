// The `train-ai` job: trains the model of one AI record, evaluates it and the active model of the same
// scope on the same test documents, stores the file, and makes the new model active only when it scores
// better (or nothing is active yet). Progress is written to the record as it goes, so clients can poll.
// Training runs in its own worker (main/jobs/registry.ts), so a long training never holds up document
// processing. The training is sent with its AI record (services/aiModelService.ts, jobs.trainAi).
import type { Repos, UnitOfWork } from '../store/repositories/index.ts';
import type { AiKind, AiModelRow, JobRow } from '../store/schema.ts';
import type { BlobStore } from '../blobs/blobStore.ts';
import type { JobContext, JobHandler, JobQueue } from '../jobs/queue.ts';
import { jobs, NOTIFY_TRAINED, TRAIN_AI } from '../jobs/kinds.ts';
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

/** A new model file scored against the active model of its scope, on the same test documents. */
export interface Comparison {
  evaluation: AiEvaluation | null;
  active: AiModelRow | undefined;
  activeEvaluation: AiEvaluation | null;
  /** The new model should take over (beatsActive). */
  wins: boolean;
}

export async function compareWithActive(repos: Repos, blobs: BlobStore, trainer: Trainer, scope: AiModelRow, file: string): Promise<Comparison> {
  const active = await repos.aiModels.findActive(scope.kind, scope.project_id, scope.category_id);
  const files = [file];
  if (active?.model_blob) files.push((await blobs.read(active.model_blob)).toString('utf8'));
  const [evaluation, activeEvaluation = null] = await trainer.evaluate(repos, scope, files);
  return { evaluation, active, activeEvaluation, wins: beatsActive(evaluation, activeEvaluation, !!active) };
}

export function trainingHandlers(deps: TrainingJobDeps): Record<string, JobHandler> {
  const { repos } = deps;
  return {
    async [TRAIN_AI](ctx: JobContext<{ aiId: number }>) {
      const ai = await repos.aiModels.findById(ctx.payload.aiId);
      if (!ai || ai.status === 'done' || ai.status === 'failed') return;
      const trainer = deps.trainers[ai.kind];
      if (!trainer) throw new Error(`No trainer for ${ai.kind} AIs in this version.`);
      await repos.aiModels.update(ai.id, { status: 'training', progress: 0, stage: 'starting', started_at: now(), error: null });
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
        output = await trainer.train({ repos, model: ai, signal: ctx.signal, onProgress });
      } catch (err) {
        await writing;
        if (err instanceof TrainingCancelled) throw err; // the runner hands the job back on stop
        if (!(err instanceof NothingToTrain)) throw err; // retried, then onTrainingFailed
        await ctx.completeWith((r) => finishFailed(deps.queue, r, ai, err.message));
        return;
      }
      await writing;
      await repos.aiModels.update(ai.id, { progress: 95, stage: 'evaluating' });
      const { evaluation, active, activeEvaluation, wins } = await compareWithActive(repos, deps.blobs, trainer, ai, output.file);
      const blob = await deps.blobs.put(Buffer.from(output.file, 'utf8'));
      await ctx.completeWith(async (r) => {
        await r.aiModels.update(ai.id, {
          status: 'done',
          progress: 100,
          stage: 'done',
          evaluation: evaluation ?? null,
          training: { ...output.training, compared_with: active ? { id: active.id, evaluation: activeEvaluation } : null },
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
