// The trainer of each AI kind, as the training job and the AI service use them.
import type { AiKind } from '../../store/schema.ts';
import type { Trainer } from './types.ts';
import { categorizationTrainer } from './categorizationTrainer.ts';
import { extractionTrainer } from './extractionTrainer.ts';
import { splittingTrainer } from './splittingTrainer.ts';

export const TRAINERS: Record<AiKind, Trainer> = {
  extraction: extractionTrainer,
  categorization: categorizationTrainer,
  splitting: splittingTrainer,
};
