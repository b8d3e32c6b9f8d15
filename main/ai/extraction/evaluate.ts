// Scores predicted annotations against the accepted annotations of test documents: precision, recall and
// F1 per label and overall (micro average: every annotation counts once, whatever its label). Pure.
import type { DocumentResult, Evaluation, ExtractionSchema, FieldError, LabelScore, PredictedAnnotation, TestSetVerdict, TrainingAnnotation } from './types.ts';
import { normalize, type DataType } from '../../domain/normalization.ts';

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

/**
 * The by-value score beside the position-based one: a prediction is right when its label and label set
 * are those of an accepted annotation of the document with the same value, wherever either stands (the
 * total printed twice, the date of the header or of the footer: an export holds the same value). Values
 * compare normalized by the label's data type (domain/normalization.ts, spec 2.14: "13.04.2024" and
 * "13/04/2024" are 2024-04-13, "1.234,50" and "1234.50" are 1234.5); text, and a value that does not
 * normalize, compares as its text with white space collapsed. Each accepted value is matched once.
 */
export const BY_VALUE_RULE =
  'same label and label set, same value anywhere in the document: dates, numbers, percentages and yes/no normalized by the data type (spec 2.14), text with white space collapsed; each expected value matched once';

/** The key two values of a label compare by (BY_VALUE_RULE). */
export function valueKey(text: string, dataType: string): string {
  const collapsed = text.replace(/\s+/g, ' ').trim();
  if (dataType === 'Text') return `text:${collapsed}`;
  const value = normalize(collapsed, dataType as DataType);
  return value === null ? `text:${collapsed}` : `value:${JSON.stringify(value)}`;
}

/**
 * Below these the test set decides nothing. The by-value recall is a proportion of expected values; its
 * 95 % Wilson score interval says how far the true figure may lie from the measured one. Two models whose
 * figures differ by less than that interval's half-width cannot be told apart, and a difference under 10
 * points is the one a reviewer asks about, so the set is enough when the half-width is at most 10 points
 * (about 35 values at 90 % right, 96 at 50 %). Values of one document share its layout and scan, so they
 * are not independent draws: at least 10 documents besides.
 */
export const MIN_TEST_DOCUMENTS = 10;
export const MAX_INTERVAL_HALF_WIDTH = 0.1;
export const TEST_SET_RULE = `enough when there are at least ${MIN_TEST_DOCUMENTS} test documents and the 95 % Wilson interval of the by-value recall is at most ±${MAX_INTERVAL_HALF_WIDTH * 100} points`;

/** The 95 % Wilson score interval of `right` out of `n`. */
export function wilsonInterval(right: number, n: number, z = 1.959964): [number, number] {
  const p = right / n;
  const z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / (1 + z2 / n);
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}

const pct = (x: number) => `${Math.round(x * 100)} %`;

export function testSetVerdict(documents: number, values: number, rightByValue: number): TestSetVerdict {
  const interval = values ? wilsonInterval(rightByValue, values) : null;
  const half = interval ? (interval[1] - interval[0]) / 2 : 1;
  const enough = documents >= MIN_TEST_DOCUMENTS && half <= MAX_INTERVAL_HALF_WIDTH;
  const docs = `${documents} test ${documents === 1 ? 'document' : 'documents'}`;
  const vals = `${values} expected ${values === 1 ? 'value' : 'values'}`;
  let warning: string | null = null;
  if (!enough) {
    const measured = interval
      ? `${rightByValue} of ${values} right by value, ${pct(rightByValue / values)}, could as well be anything from ${pct(interval[0])} to ${pct(interval[1])} (95 % interval)`
      : 'nothing to score';
    warning = `Too few test documents to decide: ${docs}, ${vals}; ${measured}. Mark at least ${MIN_TEST_DOCUMENTS} reviewed documents as test documents (more when the interval stays wider than ±${MAX_INTERVAL_HALF_WIDTH * 100} points) before trusting this score or comparing AIs by it.`;
  }
  return { documents, values, rightByValue, interval, enough, warning, rule: TEST_SET_RULE };
}

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
  const types = new Map(schema.labels.map((l) => [l.id, l.dataType]));
  const keyOf = (labelId: number, text: string) => valueKey(text, types.get(labelId) ?? 'Text');
  const byValueCounts = new Map<number, { tp: number; fp: number; fn: number }>();
  const countByValue = (labelId: number) => {
    let c = byValueCounts.get(labelId);
    if (!c) byValueCounts.set(labelId, (c = { tp: 0, fp: 0, fn: 0 }));
    return c;
  };
  const nameOf = (labelId: number) => names.get(labelId) ?? String(labelId);
  const counts = new Map<number, { tp: number; fp: number; fn: number; near: number }>();
  const count = (labelId: number) => {
    let c = counts.get(labelId);
    if (!c) counts.set(labelId, (c = { tp: 0, fp: 0, fn: 0, near: 0 }));
    return c;
  };
  const results: DocumentResult[] = [];
  let [totalValues, totalRightByValue] = [0, 0];
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
    const errors = fieldErrors(unmatched, gold.filter((_, i) => !used[i]), nameOf, keyOf);
    const nearMisses = errors.filter((e) => e.kind === 'near_miss').length;
    for (const e of errors) if (e.kind === 'near_miss') count(e.labelId).near += 1;
    // By value: the document's expected values per label and label set, each matched once, wherever it stands.
    const expected = new Map<string, number>();
    const slot = (labelSetId: number, labelId: number, text: string) => `${labelSetId}:${labelId}:${keyOf(labelId, text)}`;
    for (const g of gold) expected.set(slot(g.labelSetId, g.labelId, g.text), (expected.get(slot(g.labelSetId, g.labelId, g.text)) ?? 0) + 1);
    let rightByValue = 0;
    for (const p of doc.predicted) {
      const k = slot(p.labelSetId, p.labelId, p.text);
      const left = expected.get(k) ?? 0;
      if (left > 0) {
        expected.set(k, left - 1);
        countByValue(p.labelId).tp += 1;
        rightByValue += 1;
      } else countByValue(p.labelId).fp += 1;
    }
    for (const g of gold) countByValue(g.labelId);
    for (const [k, left] of expected) if (left > 0) countByValue(Number(k.split(':')[1])).fn += left;
    totalValues += gold.length;
    totalRightByValue += rightByValue;
    results.push({ id: doc.id ?? n, name: doc.name ?? String(doc.id ?? n + 1), right: used.filter(Boolean).length, nearMisses, rightByValue, errors });
  });
  const labels: Evaluation['labels'] = {};
  let [tp, fp, fn, near] = [0, 0, 0, 0];
  for (const [labelId, c] of [...counts].sort((a, b) => a[0] - b[0])) {
    labels[String(labelId)] = { labelId, name: nameOf(labelId), ...score(c.tp, c.fp, c.fn), nearMisses: c.near };
    [tp, fp, fn, near] = [tp + c.tp, fp + c.fp, fn + c.fn, near + c.near];
  }
  const byValueLabels: Evaluation['byValue']['labels'] = {};
  let [vtp, vfp, vfn] = [0, 0, 0];
  for (const [labelId, c] of [...byValueCounts].sort((a, b) => a[0] - b[0])) {
    byValueLabels[String(labelId)] = { labelId, name: nameOf(labelId), ...score(c.tp, c.fp, c.fn) };
    [vtp, vfp, vfn] = [vtp + c.tp, vfp + c.fp, vfn + c.fn];
  }
  return {
    rule,
    labels,
    overall: { ...score(tp, fp, fn), nearMisses: near },
    documents: documents.length,
    nearMissRule: NEAR_MISS_RULE,
    documentResults: results,
    byValue: { rule: BY_VALUE_RULE, overall: score(vtp, vfp, vfn), labels: byValueLabels },
    testSet: testSetVerdict(documents.length, totalValues, totalRightByValue),
  };
}

/**
 * The wrong fields of one document: per label, unmatched predictions and expected annotations paired,
 * nearest first; a pair within the near-miss distance is a near miss, another pair is "wrong", and what
 * is left over is "missed" (expected) or "extra" (found). Rows in the order of the expected text.
 */
function fieldErrors(found: Range[], expected: Range[], nameOf: (labelId: number) => string, keyOf: (labelId: number, text: string) => string): FieldError[] {
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
      const g = e[p.ei];
      const rightByValue = keyOf(g.labelId, g.text) === keyOf(g.labelId, f[p.fi].text);
      errors.push({ labelId: g.labelId, name: nameOf(g.labelId), kind: p.near ? 'near_miss' : 'wrong', expected: g.text, found: f[p.fi].text, distance: p.d, rightByValue });
    }
    e.forEach((g, ei) => {
      if (!eUsed.has(ei)) errors.push({ labelId: g.labelId, name: nameOf(g.labelId), kind: 'missed', expected: g.text, found: null, distance: null, rightByValue: false });
    });
    f.forEach((p, fi) => {
      if (!fUsed.has(fi)) errors.push({ labelId: p.labelId, name: nameOf(p.labelId), kind: 'extra', expected: null, found: p.text, distance: null, rightByValue: false });
    });
  }
  return errors.sort((a, b) => a.labelId - b.labelId);
}
