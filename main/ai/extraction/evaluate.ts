// Scores predicted annotations against the accepted annotations of test documents: precision, recall and
// F1 per label and overall (micro average: every annotation counts once, whatever its label). Pure.
import type { DocumentResult, Evaluation, ExtractionSchema, FieldError, LabelScore, PredictedAnnotation, TrainingAnnotation } from './types.ts';

/** "exact" (default): a prediction is right when label, label set, first and last character offset all
 * equal those of an accepted annotation. "overlap": label and label set equal and the character ranges
 * share at least one character. Each accepted annotation is matched at most once. */
export type MatchRule = 'exact' | 'overlap';

export interface EvaluatedDocument {
  gold: readonly TrainingAnnotation[];
  predicted: readonly PredictedAnnotation[];
  /** Names the document in the per-document results (default its position). */
  id?: number | string;
  name?: string;
}

/**
 * A near miss: a prediction that is not right by the match rule, of the same label and label set as an
 * expected annotation that nothing matched, whose text is within NEAR_MISS_RATIO of it by normalized
 * Levenshtein distance (edits / length of the longer text, after collapsing white space and ignoring
 * case; at least one edit is always allowed). "60.31" for "60.30", an address without its last word, the
 * right text at another place: a reviewer fixes these in a keystroke. Near misses still count as a false
 * positive and a false negative in the F1 figures; they are counted apart so that one can see them.
 */
export const NEAR_MISS_RATIO = 0.2;
export const NEAR_MISS_RULE = `same label and label set, text within normalized Levenshtein distance ${NEAR_MISS_RATIO} (edits / longer length, white space collapsed, case ignored, at least 1 edit)`;

interface Range {
  labelId: number;
  labelSetId: number;
  start: number;
  end: number;
  text: string;
}

const nearForm = (s: string) => s.replace(/\s+/g, ' ').trim().toLowerCase();

/** Levenshtein distance over code points (two rows). */
export function editDistance(a: string, b: string): number {
  const x = Array.from(a);
  const y = Array.from(b);
  let prev = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const row = [i];
    for (let j = 1; j <= y.length; j++) row.push(Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (x[i - 1] === y[j - 1] ? 0 : 1)));
    prev = row;
  }
  return prev[y.length];
}

/** Edits between two annotation texts when they are near (NEAR_MISS_RATIO), else null. */
export function nearMissDistance(found: string, expected: string): number | null {
  const a = nearForm(found);
  const b = nearForm(expected);
  const d = editDistance(a, b);
  const allowed = Math.max(1, NEAR_MISS_RATIO * Math.max(Array.from(a).length, Array.from(b).length));
  return d <= allowed ? d : null;
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
  return { labelId: a.labelId, labelSetId: a.labelSetId, start: Math.min(...spans.map((s) => s.startOffset)), end: Math.max(...spans.map((s) => s.endOffset)), text: a.text };
}

export function evaluate(documents: readonly EvaluatedDocument[], schema: ExtractionSchema, rule: MatchRule = 'exact'): Evaluation {
  const labelIds = new Set(schema.labels.map((l) => l.id));
  const names = new Map(schema.labels.map((l) => [l.id, l.name]));
  const nameOf = (labelId: number) => names.get(labelId) ?? String(labelId);
  const counts = new Map<number, { tp: number; fp: number; fn: number; near: number }>();
  const count = (labelId: number) => {
    let c = counts.get(labelId);
    if (!c) counts.set(labelId, (c = { tp: 0, fp: 0, fn: 0, near: 0 }));
    return c;
  };
  const results: DocumentResult[] = [];
  documents.forEach((doc, n) => {
    const gold = doc.gold.filter((a) => a.correct && labelIds.has(a.labelId)).map(goldRange);
    const used = new Array<boolean>(gold.length).fill(false);
    const unmatched: Range[] = [];
    for (const p of doc.predicted) {
      const range = { labelId: p.labelId, labelSetId: p.labelSetId, start: p.startOffset, end: p.endOffset, text: p.text };
      const hit = gold.findIndex((g, i) => !used[i] && matches(rule, range, g));
      if (hit >= 0) {
        used[hit] = true;
        count(p.labelId).tp += 1;
      } else {
        count(p.labelId).fp += 1;
        unmatched.push(range);
      }
    }
    gold.forEach((g, i) => {
      if (!used[i]) count(g.labelId).fn += 1;
    });
    const errors = fieldErrors(unmatched, gold.filter((_, i) => !used[i]), nameOf);
    const nearMisses = errors.filter((e) => e.kind === 'near_miss').length;
    for (const e of errors) if (e.kind === 'near_miss') count(e.labelId).near += 1;
    results.push({ id: doc.id ?? n, name: doc.name ?? String(doc.id ?? n + 1), right: used.filter(Boolean).length, nearMisses, errors });
  });
  const labels: Evaluation['labels'] = {};
  let [tp, fp, fn, near] = [0, 0, 0, 0];
  for (const [labelId, c] of [...counts].sort((a, b) => a[0] - b[0])) {
    labels[String(labelId)] = { labelId, name: nameOf(labelId), ...score(c.tp, c.fp, c.fn), nearMisses: c.near };
    [tp, fp, fn, near] = [tp + c.tp, fp + c.fp, fn + c.fn, near + c.near];
  }
  return { rule, labels, overall: { ...score(tp, fp, fn), nearMisses: near }, documents: documents.length, nearMissRule: NEAR_MISS_RULE, documentResults: results };
}

/**
 * The wrong fields of one document: per label, unmatched predictions and expected annotations paired,
 * nearest first; a pair within the near-miss distance is a near miss, another pair is "wrong", and what
 * is left over is "missed" (expected) or "extra" (found). Rows in the order of the expected text.
 */
function fieldErrors(found: Range[], expected: Range[], nameOf: (labelId: number) => string): FieldError[] {
  const errors: FieldError[] = [];
  const key = (r: Range) => `${r.labelSetId}:${r.labelId}`;
  for (const k of new Set([...found, ...expected].map(key))) {
    const f = found.filter((r) => key(r) === k);
    const e = expected.filter((r) => key(r) === k).sort((a, b) => a.start - b.start);
    const pairs: { fi: number; ei: number; d: number; near: boolean }[] = [];
    f.forEach((p, fi) =>
      e.forEach((g, ei) => {
        const near = nearMissDistance(p.text, g.text);
        pairs.push({ fi, ei, d: near ?? editDistance(nearForm(p.text), nearForm(g.text)), near: near !== null });
      }),
    );
    pairs.sort((a, b) => Number(b.near) - Number(a.near) || a.d - b.d || a.ei - b.ei || a.fi - b.fi);
    const fUsed = new Set<number>();
    const eUsed = new Set<number>();
    for (const p of pairs) {
      if (fUsed.has(p.fi) || eUsed.has(p.ei)) continue;
      fUsed.add(p.fi);
      eUsed.add(p.ei);
      errors.push({ labelId: e[p.ei].labelId, name: nameOf(e[p.ei].labelId), kind: p.near ? 'near_miss' : 'wrong', expected: e[p.ei].text, found: f[p.fi].text, distance: p.d });
    }
    e.forEach((g, ei) => {
      if (!eUsed.has(ei)) errors.push({ labelId: g.labelId, name: nameOf(g.labelId), kind: 'missed', expected: g.text, found: null, distance: null });
    });
    f.forEach((p, fi) => {
      if (!fUsed.has(fi)) errors.push({ labelId: p.labelId, name: nameOf(p.labelId), kind: 'extra', expected: null, found: p.text, distance: null });
    });
  }
  return errors.sort((a, b) => a.labelId - b.labelId);
}
