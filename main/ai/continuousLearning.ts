// Continuous learning (docs/continuous-learning.md): the `learn-from-reviews` job a finished review sends
// (services/documentService.ts), debounced by its dedupe key and delay (jobs/kinds.ts). When it runs it
// decides whether enough has changed for a new extraction AI of the category and, if so, writes the AI
// record and sends its training (`train-ai`, ai/trainingJob.ts) in one transaction, exactly as a training
// started by hand; the training then makes it active only when it beats the active AI on the test documents.
//
// The rule: a new AI is trained when the category has at least one processed training document (dataset
// status Training) that the last AI trained for the category did not learn from (its `training.document_ids`).
// At most one training per category at a time: while an AI of the category is queued or training, the job
// gives its turn back (NotNowError) and looks again later, keeping its dedupe key, so that the reviews
// finished meanwhile join it rather than asking for a training each.
import type { Repos, UnitOfWork } from '../store/repositories/index.ts';
import type { AiModelRow, CategoryRow } from '../store/schema.ts';
import type { JobContext, JobHandler, JobQueue } from '../jobs/queue.ts';
import { NotNowError } from '../jobs/queue.ts';
import { jobs, LEARN_FROM_REVIEWS } from '../jobs/kinds.ts';
import { DatasetStatus } from '../domain/documentStatus.ts';
import { datasetDocuments, extractionSchema } from './aiData.ts';

/** How long a learning job waits before it looks again while the category's AI is still training. */
export const BUSY_RETRY_MS = 5_000;

export interface LearningDeps {
  repos: Repos;
  uow: UnitOfWork;
  queue: JobQueue;
}

/** What the last AI of a category learnt from: the documents its trainer reported, or those it was asked to learn from. */
function learntFrom(ai: AiModelRow | undefined): Set<number> {
  const training = (ai?.training ?? {}) as { document_ids?: unknown; requested_documents?: unknown };
  const ids = Array.isArray(training.document_ids) ? training.document_ids : Array.isArray(training.requested_documents) ? training.requested_documents : [];
  return new Set(ids.filter((id): id is number => typeof id === 'number'));
}

/** The newest trained (not uploaded) extraction AI of the category, in any state. */
async function lastTrained(repos: Repos, category: CategoryRow): Promise<AiModelRow | undefined> {
  const all = await repos.aiModels.ofCategory(category.id);
  return all.filter((a) => a.kind === 'extraction' && a.origin === 'trained').at(-1);
}

const busy = (ai: AiModelRow | undefined) => ai !== undefined && (ai.status === 'queued' || ai.status === 'training');

export function learningHandlers(deps: LearningDeps): Record<string, JobHandler> {
  const { repos } = deps;
  return {
    async [LEARN_FROM_REVIEWS](ctx: JobContext<{ categoryId: number }>) {
      const category = await repos.categories.findById(ctx.payload.categoryId);
      if (!category) return;
      const project = await repos.projects.findById(category.project_id);
      if (!project?.continuous_learning) return;
      const last = await lastTrained(repos, category);
      if (busy(last)) throw new NotNowError(`AI ${last!.id} of this category is still ${last!.status}: one training at a time per category.`, BUSY_RETRY_MS);
      // From here on, a finished review asks for the next training: this one reads the data as it is now.
      await repos.jobs.releaseDedupeKey(ctx.job.id);
      if (!(await extractionSchema(repos, category.id)).labels.length) return;
      const known = learntFrom(last);
      const training = await datasetDocuments(repos, category.project_id, DatasetStatus.TRAINING, category.id);
      const added = training.filter((d) => !known.has(d.id)).map((d) => d.id);
      if (!added.length) return;
      await ctx.completeWith(async (r) => {
        // Checked again in the transaction that writes the record: two learning jobs never both start one.
        if (busy(await lastTrained(r, category))) throw new NotNowError('Another training of this category was just started.', BUSY_RETRY_MS);
        const ai = await r.aiModels.insert({
          kind: 'extraction',
          project_id: category.project_id,
          category_id: category.id,
          status: 'queued',
          name: '',
          description: `Trained by continuous learning: ${added.length} training document${added.length === 1 ? '' : 's'} new since ${last ? `AI ${last.id}` : 'the start'} (${added.join(', ')}).`,
          evaluation: null,
          training: { trigger: 'continuous-learning', requested_documents: training.map((d) => d.id), new_documents: added, previous_ai: last?.id ?? null },
          model_blob: null,
          model_size: null,
          stage: null,
          error: null,
          // Nobody asked for it: no email at its end (the AI screen shows it).
          created_by: null,
          started_at: null,
          finished_at: null,
        });
        await deps.queue.send(r, jobs.trainAi(ai));
      });
    },
  };
}
