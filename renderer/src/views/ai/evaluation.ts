// Reading an AI record's `evaluation` (and the active model's score kept in `training.compared_with`).
// The schema types the common part only (score, metric, documents); the details per kind are read here,
// defensively, because model files from other Folios may carry evaluations of older shapes.
import type { AiOut } from '../../api/client.ts';

export type Evaluation = NonNullable<AiOut['evaluation']>;

export interface Score {
  precision: number;
  recall: number;
  f1: number;
  true_positives: number;
  false_positives: number;
  false_negatives: number;
}

export interface LabelScore extends Score {
  label: number;
  name: string;
  /** Evaluations made before near misses were counted lack it. */
  near_misses?: number;
}

export interface FieldError {
  label: number;
  name: string;
  kind: 'near_miss' | 'wrong' | 'missed' | 'extra';
  expected: string | null;
  found: string | null;
  distance: number | null;
  /** The right value at another place (evaluations before the by-value score lack it). */
  right_by_value?: boolean;
}

export interface DocumentResult {
  document: number;
  name: string;
  right: number;
  near_misses: number;
  right_by_value?: number;
  errors: FieldError[];
}

/** The by-value score of an extraction evaluation (evaluate.ts BY_VALUE_RULE). */
export interface ByValue {
  rule: string;
  overall: Score;
  labels: (Score & { label: number; name: string })[];
}

/** Whether the test set is big enough to decide (evaluate.ts testSetVerdict). */
export interface TestSet {
  documents: number;
  values: number;
  right_by_value: number;
  interval: [number, number] | null;
  enough: boolean;
  warning: string | null;
  rule: string;
}

/** The by-value figures; null for evaluations made before them. */
export function byValueOf(e: Evaluation): ByValue | null {
  const b = e.by_value as ByValue | undefined;
  return b && isScore(b.overall) && Array.isArray(b.labels) ? b : null;
}

export function testSetOf(e: Evaluation): TestSet | null {
  const t = e.test_set as TestSet | undefined;
  return t && typeof t.enough === 'boolean' ? t : null;
}

export interface CategoryScore {
  category: number;
  name: string;
  correct: number;
  total: number;
}

const isScore = (v: unknown): v is Score => !!v && typeof v === 'object' && typeof (v as Score).f1 === 'number';

/** Precision, recall and F1 over everything (extraction, splitting). */
export const overallOf = (e: Evaluation): Score | null => (isScore(e.overall) ? e.overall : null);

export function labelsOf(e: Evaluation): LabelScore[] {
  return Array.isArray(e.labels) ? (e.labels as unknown[]).filter((l): l is LabelScore => isScore(l) && typeof (l as LabelScore).name === 'string') : [];
}

/** Wrong predictions close to the expected text, overall; null when the evaluation predates them. */
export const nearMissesOf = (e: Evaluation): number | null => {
  const n = (e.overall as { near_misses?: unknown } | undefined)?.near_misses;
  return typeof n === 'number' ? n : null;
};

/** The per-document results of an extraction evaluation (empty for older evaluations). */
export function documentResultsOf(e: Evaluation): DocumentResult[] {
  return Array.isArray(e.document_results)
    ? (e.document_results as unknown[]).filter((d): d is DocumentResult => !!d && typeof (d as DocumentResult).document === 'number' && Array.isArray((d as DocumentResult).errors))
    : [];
}

export function categoriesOf(e: Evaluation): CategoryScore[] {
  return Array.isArray(e.categories)
    ? (e.categories as unknown[]).filter((c): c is CategoryScore => !!c && typeof (c as CategoryScore).total === 'number' && typeof (c as CategoryScore).name === 'string')
    : [];
}

/** How the screen names a model: its number, and the name a reviewer gave it. */
export const modelName = (m: Pick<AiOut, 'id' | 'name'>) => (m.name ? `AI #${m.id} (${m.name})` : `AI #${m.id}`);

/** What a model's evaluation is compared with on screen. */
export interface Reference {
  title: string;
  evaluation: Evaluation;
}

/**
 * The evaluation to compare `shown` with: the active model's. When training compared the two on the same
 * test documents, that figure (kept with the new record) is the fair one; else the active record's own.
 * An active model is compared with the one it replaced.
 */
export function referenceFor(shown: AiOut, active: AiOut | null): Reference | null {
  const compared = shown.training?.compared_with as { id?: number; evaluation?: Evaluation | null } | null | undefined;
  if (active && active.id !== shown.id) {
    if (compared?.id === active.id && compared.evaluation) return { title: `active ${modelName(active)}`, evaluation: compared.evaluation };
    return active.evaluation ? { title: `active ${modelName(active)}`, evaluation: active.evaluation } : null;
  }
  if (compared?.evaluation && typeof compared.id === 'number') return { title: `AI #${compared.id}, active before`, evaluation: compared.evaluation };
  return null;
}

export const percent = (v: number) => `${(v * 100).toFixed(1)} %`;
