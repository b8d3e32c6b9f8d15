// Scores predicted annotations against the accepted annotations of test documents: precision, recall and
// F1 per label and overall (micro average: every annotation counts once, whatever its label). Pure.
import type { Evaluation, ExtractionSchema, LabelScore, PredictedAnnotation, TrainingAnnotation } from './types.ts';

/** "exact" (default): a prediction is right when label, label set, first and last character offset all
 * equal those of an accepted annotation. "overlap": label and label set equal and the character ranges
 * share at least one character. Each accepted annotation is matched at most once. */
export type MatchRule = 'exact' | 'overlap';

export interface EvaluatedDocument {
  gold: readonly TrainingAnnotation[];
  predicted: readonly PredictedAnnotation[];
}

interface Range {
  labelId: number;
  labelSetId: number;
  start: number;
  end: number;
}

const matches = (rule: MatchRule, p: Range, g: Range) =>
  p.labelId === g.labelId &&
  p.labelSetId === g.labelSetId &&
  (rule === 'exact' ? p.start === g.start && p.end === g.end : Math.min(p.end, g.end) > Math.max(p.start, g.start));

export function score(tp: number, fp: number, fn: number): LabelScore {
  const precision = tp + fp ? tp / (tp + fp) : 0;
  const recall = tp + fn ? tp / (tp + fn) : 0;
  const f1 = precision + recall ? (2 * precision * recall) / (precision + recall) : 0;
  return { precision, recall, f1, truePositives: tp, falsePositives: fp, falseNegatives: fn };
}

/** Gold ranges of an annotation: from its first to its last character, over all its spans. */
function goldRange(a: TrainingAnnotation): Range {
  const spans = a.spans?.length ? a.spans : [a];
  return { labelId: a.labelId, labelSetId: a.labelSetId, start: Math.min(...spans.map((s) => s.startOffset)), end: Math.max(...spans.map((s) => s.endOffset)) };
}

export function evaluate(documents: readonly EvaluatedDocument[], schema: ExtractionSchema, rule: MatchRule = 'exact'): Evaluation {
  const labelIds = new Set(schema.labels.map((l) => l.id));
  const counts = new Map<number, { tp: number; fp: number; fn: number }>();
  const count = (labelId: number) => {
    let c = counts.get(labelId);
    if (!c) counts.set(labelId, (c = { tp: 0, fp: 0, fn: 0 }));
    return c;
  };
  for (const doc of documents) {
    const gold = doc.gold.filter((a) => a.correct && labelIds.has(a.labelId)).map(goldRange);
    const used = new Array<boolean>(gold.length).fill(false);
    for (const p of doc.predicted) {
      const range = { labelId: p.labelId, labelSetId: p.labelSetId, start: p.startOffset, end: p.endOffset };
      const hit = gold.findIndex((g, i) => !used[i] && matches(rule, range, g));
      if (hit >= 0) {
        used[hit] = true;
        count(p.labelId).tp += 1;
      } else count(p.labelId).fp += 1;
    }
    gold.forEach((g, i) => {
      if (!used[i]) count(g.labelId).fn += 1;
    });
  }
  const names = new Map(schema.labels.map((l) => [l.id, l.name]));
  const labels: Evaluation['labels'] = {};
  let [tp, fp, fn] = [0, 0, 0];
  for (const [labelId, c] of [...counts].sort((a, b) => a[0] - b[0])) {
    labels[String(labelId)] = { labelId, name: names.get(labelId) ?? String(labelId), ...score(c.tp, c.fp, c.fn) };
    [tp, fp, fn] = [tp + c.tp, fp + c.fp, fn + c.fn];
  }
  return { rule, labels, overall: score(tp, fp, fn), documents: documents.length };
}
