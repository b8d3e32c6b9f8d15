// What every kind of AI (extraction, categorization, splitting) provides to the training job: train from
// the store's documents, and evaluate any model file of its kind on the current test documents, so a new
// model and the active one are compared on the same documents before the new one may take over.
import type { Repos } from '../../store/repositories/index.ts';
import type { AiKind, AiModelRow } from '../../store/schema.ts';

/** The evaluation as stored with the record and shown by the API (snake_case, like the rest of it). */
export interface AiEvaluation {
  /** The number compared when deciding which model is active: F1 (extraction, splitting) or accuracy (categorization). */
  score: number;
  /** What `score` is. */
  metric: 'f1' | 'accuracy';
  documents: number;
  [detail: string]: unknown;
}

export interface TrainerInput {
  repos: Repos;
  model: AiModelRow;
  signal: AbortSignal;
  onProgress: (percent: number, stage: string) => void;
}

export interface TrainerOutput {
  /** The model file, as stored and downloaded. */
  file: string;
  /** What the model learnt from (documents, seconds...), shown as `training` on the record. */
  training: Record<string, unknown>;
}

export interface Trainer {
  kind: AiKind;
  /** Throws NothingToTrain when the data cannot make a model. */
  train(input: TrainerInput): Promise<TrainerOutput>;
  /**
   * Scores model files of this kind on the scope's test documents, read once for all of them: one
   * evaluation per file, null when there are no test documents or the file cannot be read.
   */
  evaluate(repos: Repos, model: AiModelRow, files: string[]): Promise<(AiEvaluation | null)[]>;
  /** Refuses a file that is not a model of this kind (upload), with a message that says why. */
  check(file: string): void;
}

/** Training cannot start or cannot produce a model from the data there is: the reason is the user's to fix. */
export class NothingToTrain extends Error {}

/** Each file scored by `score`; a file that does not read (an old active model, say) scores null. */
export function scoreEach(files: string[], score: (file: string) => AiEvaluation): (AiEvaluation | null)[] {
  return files.map((file) => {
    try {
      return score(file);
    } catch {
      return null;
    }
  });
}

export const snakeScore = (s: { precision: number; recall: number; f1: number; truePositives: number; falsePositives: number; falseNegatives: number }) => ({
  precision: s.precision,
  recall: s.recall,
  f1: s.f1,
  true_positives: s.truePositives,
  false_positives: s.falsePositives,
  false_negatives: s.falseNegatives,
});
