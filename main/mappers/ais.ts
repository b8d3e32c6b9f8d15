// AI models (compat.md "AI models") as the API shows them. Why mappers live in main/mappers: dto.ts.
import type { z } from 'zod';
import type { AiModel } from '../../shared/schemas/ais.ts';
import type { AiModelRow } from '../store/schema.ts';
import { isoOut } from './dto.ts';

export function aiModelOut(ai: AiModelRow): z.infer<typeof AiModel> {
  const training = ai.training as Record<string, unknown> | null;
  return {
    id: ai.id,
    kind: ai.kind,
    project: ai.project_id,
    project_id: ai.project_id,
    category: ai.category_id,
    name: ai.name,
    description: ai.description,
    status: ai.status,
    progress: ai.progress,
    stage: ai.stage,
    error: ai.error,
    active: ai.active,
    origin: ai.origin,
    evaluation: ai.evaluation as z.infer<typeof AiModel>['evaluation'],
    training,
    training_seconds: typeof training?.seconds === 'number' ? training.seconds : null,
    activation: (training?.activation as z.infer<typeof AiModel>['activation'] | undefined) ?? null,
    trigger: training?.trigger === 'continuous-learning' ? 'continuous-learning' : 'manual',
    file_url: ai.model_blob ? `/aimodel/file/${ai.id}/` : null,
    model_size: ai.model_size,
    created_by: ai.created_by,
    created_at: isoOut(ai.created_at),
    updated_at: isoOut(ai.updated_at),
    started_at: isoOut(ai.started_at),
    finished_at: isoOut(ai.finished_at),
  };
}
