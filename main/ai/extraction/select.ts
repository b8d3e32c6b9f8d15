// From token probabilities to annotations: tokens of one class join into annotations, thresholds and
// per-label selection apply, and line items are grouped into one annotation set per row. Pure.
import { spansFromChars } from '../../domain/geometry.ts';
import type { CharBox } from '../../domain/geometry.ts';
import type { FeatureConfig } from './features.ts';
import { amountOf, edgeKey, flatText, plainCandidates, roundedTo5, roundingTwins, scoreCandidates, spanCandidates, spanContext, typedCandidates, type SpanCandidate, type SpanDocContext, type SpanModel } from './spans.ts';
import type { Token, TokenizedDocument } from './tokens.ts';
import { gapEm, tokenHeight } from './tokens.ts';
import type { ClassInfo } from './trainingData.ts';
import type { ExtractionDocument, ExtractionSchema, PredictedAnnotation } from './types.ts';

export interface LabelSetLayout {
  labelSetId: number;
  /** Its annotation sets span several lines in training (receipt items); else one set per row. */
  multiLine: boolean;
}

/**
 * What selection reads of a trained model; model.ts's ExtractionModel is this and more. Written here, not
 * taken from model.ts, because model.ts trains and predicts with this file's functions: each file needs
 * the other's, not both each other's.
 */
export interface SelectionModel {
  schema: ExtractionSchema;
  features: FeatureConfig;
  /** classes[k - 1] is forest class k; class 0 is none. */
  classes: ClassInfo[];
  labelSetLayouts: LabelSetLayout[];
  /** Scores candidate values of the labels of non-repeating label sets (spans.ts); null when there are none. */
  spans: SpanModel | null;
}

/** A label that training found on at least this share of the documents is taken where the token stage
 * found no run of it when its best candidate scores PRESENT_SCORE (a date written as no training date was). */
const EXPECTED_SHARE = 0.8;
const PRESENT_SCORE = 0.3;
/** A label's threshold when neither the caller nor the model names one (labels.json5's default). */
export const DEFAULT_THRESHOLD = 0.1;
/** Tolerance over the widest gap seen inside a training annotation, in em. */
const GAP_SLACK_EM = 0.35;
/** A label that repeats within one set keeps the annotations at least this fraction as confident as its best. */
const REPEAT_FRACTION = 0.5;
/** In multi-line sets, a run more than this many lines below the set's last line starts a new set. */
const MAX_SET_LINE_GAP = 2;

export interface Run {
  cls: number;
  tokens: Token[];
  probabilities: number[];
}

const confidenceOf = (run: Run) => run.probabilities.reduce((a, b) => a + b, 0) / run.probabilities.length;

export interface SelectOptions {
  /** Thresholds by label id that replace those stored with the model (a label's threshold changed since). */
  thresholds?: Readonly<Record<number, number>>;
}

/**
 * Each token takes its most likely class (none included; a label below its threshold counts as none); a
 * label of a non-repeating set that no token took gets its most likely free token; neighbouring tokens of
 * one class join into one annotation when their gap is one that training annotations had (weaker words
 * inside a name join too); annotations of repeating label sets form a set per row. A label of a
 * non-repeating label set keeps one value (several when training shows it repeating within a set): with a
 * span forest (model version 2) the best of its candidates (spans.ts), else its most confident run.
 */
export function selectAnnotations(
  model: SelectionModel,
  doc: ExtractionDocument,
  tokenized: TokenizedDocument,
  probabilities: Float64Array[],
  options: SelectOptions = {},
): PredictedAnnotation[] {
  const labels = new Map(model.schema.labels.map((l) => [l.id, l]));
  const labelSets = new Map(model.schema.labelSets.map((s) => [s.id, s]));
  const info = (cls: number) => model.classes[cls - 1];
  const thresholdOf = (cls: number) => options.thresholds?.[info(cls).labelId] ?? labels.get(info(cls).labelId)?.threshold ?? DEFAULT_THRESHOLD;
  const repeating = (cls: number) => labelSets.get(info(cls).labelSetId)?.hasMultipleSections ?? false;

  const runs = tokenRuns(model, tokenized, probabilities, thresholdOf);
  const kept: Run[] = [];
  const byClass = new Map<number, Run[]>();
  for (const run of runs) {
    if (confidenceOf(run) < thresholdOf(run.cls)) continue;
    byClass.set(run.cls, [...(byClass.get(run.cls) ?? []), run]);
  }
  for (const [cls, list] of byClass) {
    if (repeating(cls)) {
      kept.push(...list);
      continue;
    }
    if (model.spans) continue; // chosen among candidates below
    list.sort((a, b) => confidenceOf(b) - confidenceOf(a));
    const top = confidenceOf(list[0]);
    kept.push(...(info(cls).repeatsInSet ? list.filter((r) => confidenceOf(r) >= REPEAT_FRACTION * top) : [list[0]]));
  }
  const setIndex = groupIntoSets(kept, model);

  const chosen: Chosen[] = kept.map((run) => ({ cls: run.cls, start: run.tokens[0].start, end: run.tokens[run.tokens.length - 1].end, confidence: confidenceOf(run), setIndex: setIndex.get(run) ?? 0 }));
  if (model.spans) chosen.push(...chooseSpans(model, model.spans, doc, tokenized, probabilities, runs, new Set(byClass.keys()), thresholdOf));

  const chars = charsByOffset(doc.chars);
  const pageHeights = doc.pageSizes.map((p) => p.height);
  return chosen
    .map((k): PredictedAnnotation => {
      const c = info(k.cls);
      const spans = spansFromChars(doc.text, charsIn(chars, k.start, k.end), pageHeights);
      return {
        labelId: c.labelId,
        labelSetId: c.labelSetId,
        setIndex: k.setIndex,
        startOffset: k.start,
        endOffset: k.end,
        text: spans.map((s) => s.offset_string).join(' '),
        confidence: Math.round(k.confidence * 1e4) / 1e4,
        spans,
      };
    })
    .sort((a, b) => a.startOffset - b.startOffset || a.labelId - b.labelId);
}

interface Chosen {
  cls: number;
  start: number;
  end: number;
  confidence: number;
  setIndex: number;
}

/** One value per label of a non-repeating label set (several only where training shows the label repeating
 * in a set): the best scored candidate. Whether the label is on the document at all stays the token
 * stage's decision (a run of it reached the label's threshold): the span forest only learnt to rank the
 * candidates of documents that have the value, so its scores say which, not whether; except for a label
 * that training found on nearly every document (EXPECTED_SHARE), which is taken when its best candidate
 * scores PRESENT_SCORE and the label's threshold; any other label's best candidate must also reach the
 * label's acceptance score learnt in training (SpanModel minScores). */
function chooseSpans(
  model: SelectionModel,
  spans: SpanModel,
  doc: ExtractionDocument,
  tokenized: TokenizedDocument,
  probabilities: Float64Array[],
  runs: Run[],
  present: ReadonlySet<number>,
  thresholdOf: (cls: number) => number,
): Chosen[] {
  if (!tokenized.tokens.length) return [];
  const dataTypes = new Map(model.schema.labels.map((l) => [l.id, l.dataType]));
  const repeatingSets = new Set(model.schema.labelSets.filter((s) => s.hasMultipleSections).map((s) => s.id));
  const ctx = spanContext(tokenized, doc.text, probabilities, spans.words);
  const out: Chosen[] = [];
  model.classes.forEach((c, k) => {
    const cls = k + 1;
    if (repeatingSets.has(c.labelSetId)) return;
    const expected = (spans.documentShare[k] ?? 0) >= EXPECTED_SHARE;
    if (!present.has(cls) && !expected) return;
    const classRuns = runs.filter((r) => r.cls === cls).map((r) => ({ start: r.tokens[0].start, end: r.tokens[r.tokens.length - 1].end }));
    const candidates = plainCandidates(typedCandidates(spanCandidates(ctx, cls, c, dataTypes.get(c.labelId) ?? 'Text', classRuns), spans.typed[k] ?? false), spans.plainTails[k] ?? false);
    const scores = scoreCandidates(spans, ctx, candidates, dataTypes.get(c.labelId) ?? 'Text');
    const order = candidates.map((_, i) => i).sort((a, b) => scores[b] - scores[a] || candidates[a].start - candidates[b].start);
    if (!order.length) return;
    const top = scores[order[0]];
    if (!present.has(cls) && (top < PRESENT_SCORE || top < thresholdOf(cls))) return;
    // The best candidate may give way to the whole of a value over several lines, then to its rounding twin.
    const first = (i: number) => order.unshift(...order.splice(order.indexOf(i), 1));
    if (!c.repeatsInSet) first(wholeLinesAround(candidates, scores, order[0], probabilities, cls, ctx.wordSets.edgeShares[k]));
    const rounding = spans.roundedTwins?.[k] ?? -1;
    if (rounding >= 0) first(roundingTwin(ctx, candidates, scores, order[0], rounding));
    // A label not expected on nearly every document must reach its acceptance score (model.ts acceptanceScores).
    if (!expected && top < (spans.minScores[k] ?? 0)) return;
    const picked: SpanCandidate[] = [];
    for (const i of order) {
      if (picked.length && (!c.repeatsInSet || scores[i] < REPEAT_FRACTION * top)) break;
      const cand = candidates[i];
      if (picked.some((p) => Math.min(p.end, cand.end) > Math.max(p.start, cand.start))) continue;
      picked.push(cand);
      out.push({ cls, start: cand.start, end: cand.end, confidence: scores[i], setIndex: 0 });
    }
  });
  return out;
}

/** A candidate grown by whole lines (wholeLinesAround) is taken when it scores at least `score` of the
 * candidate's score, its added lines are printed within `size` times the candidate's text size, and either
 * its added tokens are at least `likely` as likely of the class as the candidate's own, or it ends on a
 * word that closes at least `closes` of the training values holding it where the candidate does not. */
const WHOLE_LINES = { likely: 0.7, score: 0.4, size: 1.3, closes: 0.5 };

/**
 * The best candidate, or a candidate holding it and whole lines above or below it that read as the rest of
 * the same value: a name printed over two lines ("POPULAR BOOK" above "CO. (M) SDN BHD", "PASARAYA BORONG
 * PINTAR" above "SDN BHD"). The span forest learns from few such names (most are one line) and ranks the
 * line with the legal form first, while the token forest rates the words of the other line as the class
 * as much, or the line below ends on a word that closes the label's values ("SDN BHD" under a shop's name,
 * where the token forest doubts the short line); a line in another text size (a handwritten name above the
 * shop's) is not taken. Measured on `bench:receipts-dev` (3 splits, 6 seeds): company F1 0.741 -> 0.763,
 * found 0.892 -> 0.899, address 0.353 -> 0.355, dates and totals unchanged (no seed worse; the token
 * condition alone 0.759, the closing word 0.004 more; without the size condition 0.756; likely 0.8 or
 * score 0.3 about as good; the same for words opening values above, or a line ending on "&", changed
 * nothing). Returns the index of the candidate to take.
 */
export function wholeLinesAround(
  candidates: readonly SpanCandidate[],
  scores: readonly number[],
  best: number,
  probabilities: Float64Array[],
  cls: number,
  shares: ReadonlyMap<string, readonly [number, number]> = new Map(),
): number {
  const own = candidates[best].tokens;
  const closes = (t: Token) => (shares.get(edgeKey(t.text) ?? '')?.[1] ?? 0) >= WHOLE_LINES.closes;
  const likely = (ts: readonly Token[]) => ts.reduce((s, t) => s + probabilities[t.index][cls], 0) / ts.length;
  const size = (ts: readonly Token[]) => ts.reduce((s, t) => s + tokenHeight(t), 0) / ts.length;
  const ids = new Set(own.map((t) => t.index));
  const lines = new Set(own.map((t) => t.lineNo));
  let pick = best;
  candidates.forEach((c, i) => {
    if (i === best || scores[i] < WHOLE_LINES.score * scores[best] || (pick !== best && scores[i] <= scores[pick])) return;
    const held = c.tokens.filter((t) => ids.has(t.index)).length;
    const added = c.tokens.filter((t) => !ids.has(t.index));
    if (held !== own.length || !added.length || added.some((t) => lines.has(t.lineNo))) return;
    const ratio = size(added) / size(own);
    if (ratio > WHOLE_LINES.size || ratio < 1 / WHOLE_LINES.size) return;
    const last = own[own.length - 1];
    const closesHere = c.tokens[c.tokens.length - 1] !== last && closes(c.tokens[c.tokens.length - 1]) && !closes(last);
    if (likely(added) >= WHOLE_LINES.likely * likely(own) || closesHere) pick = i;
  });
  return pick;
}

/** A label's values are the rounded (or unrounded) one of two twin amounts in at least this share of the
 * training documents that had both (SpanModel roundedTwins) for the twin to be taken instead. */
const TWIN_PREFERENCE = 0.75;

/**
 * The best candidate, or its rounding twin among the candidates ("30.90" for "30.91", an amount within 5
 * cents with the other rounding) when the label's training values were mostly the twin's kind: of two
 * totals printed a few cents apart, the one paid (rounded to 5 cents) or the one summed, as the
 * reviewers labelled them (`rounding`: the share of rounded ones). The surest such twin; the best candidate
 * when it is already of the preferred kind or has no twin. Returns the index of the candidate to take.
 */
export function roundingTwin(ctx: SpanDocContext, candidates: readonly SpanCandidate[], scores: readonly number[], best: number, rounding: number): number {
  const wantRounded = rounding >= TWIN_PREFERENCE ? true : rounding <= 1 - TWIN_PREFERENCE ? false : null;
  const valueOf = (c: SpanCandidate) => amountOf(flatText(ctx.cps, c));
  const value = valueOf(candidates[best]);
  if (wantRounded === null || !Number.isFinite(value) || roundedTo5(value) === wantRounded) return best;
  let pick = best;
  candidates.forEach((c, i) => {
    const v = valueOf(c);
    if (!Number.isFinite(v) || !roundingTwins([v], value).length || roundedTo5(v) !== wantRounded) return;
    if (pick === best || scores[i] > scores[pick]) pick = i;
  });
  return pick;
}

/**
 * Token-level runs: each token takes its most likely class (none included; a label below its threshold
 * counts as none); a label of a non-repeating set that no token took gets its most likely free token;
 * neighbouring tokens of one class join into one run when their gap is one that training annotations had
 * (weaker words inside a name join too).
 */
export function tokenRuns(
  model: Pick<SelectionModel, 'schema' | 'classes'>,
  tokenized: TokenizedDocument,
  probabilities: Float64Array[],
  thresholdOf: (cls: number) => number,
): Run[] {
  const labelSets = new Map(model.schema.labelSets.map((s) => [s.id, s]));
  const best = probabilities.map((p) => {
    let cls = 0;
    for (let k = 1; k < p.length; k++) if (p[k] > p[cls]) cls = k;
    return cls && p[cls] >= thresholdOf(cls) ? cls : 0;
  });
  // A label of a non-repeating set that no token has as its most likely class still gets its most likely
  // free token, when that reaches the threshold: such a label is expected once on every document.
  const assigned = new Set(best);
  model.classes.forEach((c, k) => {
    const cls = k + 1;
    if (assigned.has(cls) || labelSets.get(c.labelSetId)?.hasMultipleSections) return;
    let top = -1;
    probabilities.forEach((p, i) => {
      if (best[i] === 0 && p[cls] >= thresholdOf(cls) && (top < 0 || p[cls] > probabilities[top][cls])) top = i;
    });
    if (top >= 0) best[top] = cls;
  });
  growRuns(tokenized, best, probabilities, model, thresholdOf);
  return joinRuns(tokenized, best, probabilities, model);
}

/** A token that is most likely none joins a neighbouring annotation of a multi-token label when it reaches
 * that label's threshold: the words inside a name or an address are often weaker than its edges. */
function growRuns(doc: TokenizedDocument, best: number[], probabilities: Float64Array[], model: Pick<SelectionModel, 'classes'>, thresholdOf: (cls: number) => number): void {
  const joins = (from: Token, to: Token, cls: number) => {
    const maxGap = model.classes[cls - 1].maxGapEm;
    const [a, b] = from.index < to.index ? [from, to] : [to, from];
    return maxGap !== null && best[to.index] === 0 && probabilities[to.index][cls] >= thresholdOf(cls) && gapEm(a, b) <= maxGap + GAP_SLACK_EM;
  };
  for (const line of doc.lines) {
    for (let k = 1; k < line.tokens.length; k++) {
      const cls = best[line.tokens[k - 1].index];
      if (cls && joins(line.tokens[k - 1], line.tokens[k], cls)) best[line.tokens[k].index] = cls;
    }
    for (let k = line.tokens.length - 2; k >= 0; k--) {
      const cls = best[line.tokens[k + 1].index];
      if (cls && joins(line.tokens[k + 1], line.tokens[k], cls)) best[line.tokens[k].index] = cls;
    }
  }
}

/** Neighbouring tokens of one class on a line join when their gap is one a training annotation had;
 * classes whose annotations span lines also join a run with the overlapping run on the next line. */
function joinRuns(doc: TokenizedDocument, best: number[], probabilities: Float64Array[], model: Pick<SelectionModel, 'classes'>): Run[] {
  const runs: Run[] = [];
  let current: Run | null = null;
  for (const t of doc.tokens) {
    const cls = best[t.index];
    if (!cls) {
      current = null;
      continue;
    }
    const prev: Token | undefined = current?.tokens[current.tokens.length - 1];
    const maxGap = model.classes[cls - 1].maxGapEm;
    if (current && prev && current.cls === cls && prev.lineNo === t.lineNo && prev.column + 1 === t.column && maxGap !== null && gapEm(prev, t) <= maxGap + GAP_SLACK_EM) {
      current.tokens.push(t);
      current.probabilities.push(probabilities[t.index][cls]);
    } else {
      current = { cls, tokens: [t], probabilities: [probabilities[t.index][cls]] };
      runs.push(current);
    }
  }
  // Runs on consecutive lines that overlap horizontally form one annotation (a bank name above its IBAN).
  const merged: Run[] = [];
  for (const run of runs) {
    if (!model.classes[run.cls - 1].multiLine) {
      merged.push(run);
      continue;
    }
    const first = run.tokens[0];
    const last = run.tokens[run.tokens.length - 1];
    const above = merged.find((r) => {
      const end = r.tokens[r.tokens.length - 1];
      return r.cls === run.cls && end.lineNo + 1 === first.lineNo && end.page === first.page && Math.min(end.x1, last.x1) > Math.max(r.tokens[0].x0, first.x0);
    });
    if (above) {
      above.tokens.push(...run.tokens);
      above.probabilities.push(...run.probabilities);
    } else merged.push(run);
  }
  return merged;
}

/** Annotation set numbers per label set: rows of a repeating set in reading order; 0 for the others. */
function groupIntoSets(runs: Run[], model: SelectionModel): Map<Run, number> {
  const index = new Map<Run, number>();
  const layouts = new Map(model.labelSetLayouts.map((l) => [l.labelSetId, l]));
  const repeating = new Set(model.schema.labelSets.filter((s) => s.hasMultipleSections).map((s) => s.id));
  const bySet = new Map<number, Run[]>();
  for (const run of runs) {
    const setId = model.classes[run.cls - 1].labelSetId;
    if (!repeating.has(setId)) continue;
    bySet.set(setId, [...(bySet.get(setId) ?? []), run]);
  }
  for (const [setId, list] of bySet) {
    list.sort((a, b) => a.tokens[0].lineNo - b.tokens[0].lineNo || a.tokens[0].x0 - b.tokens[0].x0);
    const multiLine = layouts.get(setId)?.multiLine ?? false;
    let n = -1;
    let lastLine = -Infinity;
    let labelsInSet = new Set<number>();
    for (const run of list) {
      const c = model.classes[run.cls - 1];
      const line = run.tokens[0].lineNo;
      const newSet = multiLine
        ? line - lastLine > MAX_SET_LINE_GAP || (labelsInSet.has(c.labelId) && !c.repeatsInSet)
        : line !== lastLine;
      if (n < 0 || newSet) {
        n += 1;
        labelsInSet = new Set();
      }
      labelsInSet.add(c.labelId);
      lastLine = Math.max(lastLine, run.tokens[run.tokens.length - 1].lineNo);
      index.set(run, n);
    }
  }
  return index;
}

function charsByOffset(chars: readonly CharBox[]): Map<number, CharBox> {
  return new Map(chars.map((c) => [c.offset, c]));
}

function charsIn(chars: Map<number, CharBox>, start: number, end: number): CharBox[] {
  const out: CharBox[] = [];
  for (let o = start; o < end; o++) {
    const c = chars.get(o);
    if (c) out.push(c);
  }
  return out;
}
