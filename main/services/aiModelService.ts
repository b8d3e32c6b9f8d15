// AI records for the API: start a training (refused with a 400 that says what is missing), list and read
// records, switch the active model, download and upload model files, delete. The training itself is the
// `train-ai` job (main/ai/trainingJob.ts); this service only checks requests, writes records and sends
// the job with the record.
import fs from 'node:fs';
import type { Repos, UnitOfWork } from '../store/repositories/index.ts';
import type { AiKind, AiModelRow, UserRow } from '../store/schema.ts';
import type { BlobStore, NamedBlob } from '../blobs/blobStore.ts';
import type { ListParams, Page } from '../../shared/listParams.ts';
import type { AiPatch } from '../../shared/schemas/ais.ts';
import type { Trainer } from '../ai/trainers/types.ts';
import type { UploadedFile } from './documentService.ts';
import { NotFoundError, ValidationError } from '../domain/errors.ts';
import { projectForField, recordForField, recordForMember } from './access.ts';
import { DatasetStatus, DocumentStatus } from '../domain/documentStatus.ts';
import { compareWithActive } from '../ai/trainingJob.ts';
import type { JobQueue } from '../jobs/queue.ts';
import { jobs } from '../jobs/kinds.ts';

export const AI_NAMES: Record<AiKind, string> = { extraction: 'extraction AI', categorization: 'categorization AI', splitting: 'splitting AI' };

/** Where a new AI belongs: a category (extraction) or a project (the other kinds). */
export interface AiScope {
  category?: number;
  project?: number;
  name?: string;
  description?: string;
}

export class AiModelService {
  constructor(
    private readonly repos: Repos,
    private readonly uow: UnitOfWork,
    private readonly blobs: BlobStore,
    private readonly trainers: Partial<Record<AiKind, Trainer>>,
    private readonly queue: JobQueue,
  ) {}

  /** Records the AI and queues its training, after checking there is something to learn from. */
  async create(user: UserRow, kind: AiKind, scope: AiScope): Promise<AiModelRow> {
    const { projectId, categoryId } = await this.resolveScope(user, kind, scope);
    await this.checkTrainingData(kind, projectId, categoryId);
    return this.uow(async (r) => {
      const ai = await r.aiModels.insert({
        kind,
        project_id: projectId,
        category_id: categoryId,
        status: 'queued',
        name: scope.name ?? '',
        description: scope.description ?? '',
        evaluation: null,
        training: null,
        model_blob: null,
        model_size: null,
        stage: null,
        error: null,
        created_by: user.id,
        started_at: null,
        finished_at: null,
      });
      // Sent with the record: training starts once it commits.
      await this.queue.send(r, jobs.trainAi(ai));
      return ai;
    });
  }

  /**
   * A model file made elsewhere (another Folio, a backup): checked, evaluated on this scope's test
   * documents like a trained one, and made active under the same rule.
   */
  async upload(user: UserRow, kind: AiKind, scope: AiScope, file: UploadedFile | undefined): Promise<AiModelRow> {
    const { projectId, categoryId } = await this.resolveScope(user, kind, scope);
    if (!file) throw ValidationError.of('file', 'No model file was submitted (multipart part "file").');
    const text = await fs.promises.readFile(file.path, 'utf8');
    const trainer = this.trainer(kind);
    try {
      trainer.check(text);
    } catch (err) {
      throw ValidationError.of('file', `Not a Folio ${AI_NAMES[kind]} model file: ${(err as Error).message}.`);
    }
    const draft = { kind, project_id: projectId, category_id: categoryId } as AiModelRow;
    const { evaluation, wins, activation } = await compareWithActive(this.repos, this.blobs, trainer, draft, text);
    const blob = await this.blobs.put(Buffer.from(text, 'utf8'));
    const t = new Date().toISOString();
    return this.uow(async (r) => {
      const ai = await r.aiModels.insert({
        kind,
        project_id: projectId,
        category_id: categoryId,
        status: 'done',
        progress: 100,
        stage: 'done',
        origin: 'uploaded',
        name: scope.name ?? file.originalname,
        description: scope.description ?? '',
        evaluation: evaluation ?? null,
        training: { activation },
        model_blob: blob.key,
        model_size: blob.size,
        error: null,
        created_by: user.id,
        started_at: t,
        finished_at: t,
      });
      if (wins) await r.aiModels.activate(ai);
      return (await r.aiModels.findById(ai.id))!;
    });
  }

  list(user: UserRow, kind: AiKind, params: ListParams): Promise<Page<AiModelRow>> {
    return this.repos.aiModels.list(user.id, kind, params);
  }

  async get(user: UserRow, kind: AiKind | undefined, id: number): Promise<AiModelRow> {
    const ai = await this.repos.aiModels.findById(id);
    const what = kind ? AI_NAMES[kind][0].toUpperCase() + AI_NAMES[kind].slice(1) : 'AI model';
    // An AI of another kind is not there for this kind's endpoints.
    return recordForMember(this.repos, user, ai && (!kind || ai.kind === kind) ? ai : undefined, what);
  }

  async patch(user: UserRow, kind: AiKind, id: number, changes: AiPatch): Promise<AiModelRow> {
    const ai = await this.get(user, kind, id);
    await this.uow(async (r) => {
      if (changes.name !== undefined || changes.description !== undefined) {
        await r.aiModels.update(id, { name: changes.name ?? ai.name, description: changes.description ?? ai.description });
      }
      if (changes.active === true && !ai.active) {
        if (ai.status !== 'done') throw ValidationError.of('active', `Only a finished AI can be active; this one is ${ai.status}.`);
        await r.aiModels.activate(ai);
      }
      if (changes.active === false && ai.active) await r.aiModels.update(id, { active: false });
    });
    return (await this.repos.aiModels.findById(id))!;
  }

  async remove(user: UserRow, kind: AiKind, id: number): Promise<void> {
    const ai = await this.get(user, kind, id);
    await this.uow((r) => r.aiModels.remove(ai.id));
    if (ai.model_blob && (await this.repos.aiModels.countByBlob(ai.model_blob)) === 0) await this.blobs.remove(ai.model_blob);
  }

  /** The model file with a name that says what it is. */
  async file(user: UserRow, id: number): Promise<NamedBlob> {
    const ai = await this.get(user, undefined, id);
    if (!ai.model_blob) throw new NotFoundError(`The model file is not there yet (the AI is ${ai.status}).`);
    return { key: ai.model_blob, name: `folio-${ai.kind}-ai-${ai.id}.json` };
  }

  private trainer(kind: AiKind): Trainer {
    const trainer = this.trainers[kind];
    if (!trainer) throw new Error(`No trainer for ${kind} AIs.`);
    return trainer;
  }

  private async resolveScope(user: UserRow, kind: AiKind, scope: AiScope): Promise<{ projectId: number; categoryId: number | null }> {
    if (kind === 'extraction') {
      if (scope.category === undefined) throw ValidationError.of('category', 'This field is required.');
      const category = await recordForField(this.repos, user, await this.repos.categories.findById(scope.category), 'category', scope.category);
      return { projectId: category.project_id, categoryId: category.id };
    }
    if (scope.project === undefined) throw ValidationError.of('project', 'This field is required.');
    const project = await projectForField(this.repos, user, scope.project, 'project');
    if (kind === 'splitting' && !project.splitting_enabled) {
      throw ValidationError.of('project', 'Document splitting is not enabled for this project: set splitting_enabled true on the project first.');
    }
    return { projectId: project.id, categoryId: null };
  }

  /** Spec 3.3 and 8: at least one document in the training dataset, processed and usable. */
  private async checkTrainingData(kind: AiKind, projectId: number, categoryId: number | null): Promise<void> {
    const training = (await this.repos.documents.inDataset(projectId, DatasetStatus.TRAINING, categoryId ?? undefined)).filter((d) => d.status === DocumentStatus.DONE);
    if (kind === 'extraction' && !training.length) {
      throw ValidationError.of('category', 'The category has no training document yet: in the Documents tab, select processed documents of this category and set their dataset status to Training (API: dataset_status 2).');
    }
    if (kind === 'categorization' && !training.some((d) => d.category_id !== null)) {
      throw ValidationError.of('project', 'The project has no categorized training document yet: in the Documents tab, give processed documents a category and set their dataset status to Training (API: category and dataset_status 2).');
    }
    if (kind === 'splitting' && !training.length) {
      throw ValidationError.of('project', 'The project has no training document yet: in the Documents tab, select processed documents and set their dataset status to Training (API: dataset_status 2).');
    }
  }
}
