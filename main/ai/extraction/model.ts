// The extraction model: trains one multi-class forest over the tokens of a category's training documents
// (classes: each label within each label set, plus none) and predicts a document's annotations with it:
// token probabilities, tokens joined into annotations, annotations selected and grouped into sets.
import { DEFAULT_FOREST, predictForest, trainForest, type ForestModel, type ForestOptions } from './forest.ts';
import { documentFeatures, learnFeatureConfig } from './features.ts';
import { DEFAULT_THRESHOLD, selectAnnotations, tokenRuns, type LabelSetLayout, type SelectionModel, type SelectOptions } from './select.ts';
import { amountOf, candidateRows, flatText, learnSpanWords, NO_SPAN_WORDS, numberTail, NUMBER_TAIL_SHARE, plainCandidates, rankRows, readable, READABLE_SHARE, roundedTo5, roundingTwins, typedCandidates, spanCandidates, spanContext, type SpanCandidate, type SpanDocContext, type SpanModel } from './spans.ts';
import { classKey, labelDocuments, type LabelledDocument } from './trainingData.ts';
import { tokenize } from './tokens.ts';
import type { ExtractionDocument, ExtractionSchema, PredictedAnnotation, ProgressListener, TrainingDocument } from './types.ts';

/** 2: the span forest (spans.ts) and ClassInfo.maxLines. 3: the span stage's own learnt words (context
 * words that tell values from look-alikes, value words) and its amount, edge and text-size features.
 * 4: dates and amounts anywhere on the document as candidates, the form of the tokens at a candidate's
 * edges, and the ranking stage (spans.ts rankRows). 5: the words a class's values start and end with
 * (SpanWords starts, ends), the form of a candidate's own first and last line, and a span and a ranking
 * forest per class (SpanModel forests, rankers). 6: where a candidate's edges and the tokens just outside
 * them stand in the class's values (SpanWords edgeShares) and the form of the first token of the line
 * below. 7: a text class whose training values never hold a number past their first word keeps only the
 * candidates without one (SpanModel plainTails: a registration number after a company name). Files of other
 * versions are refused (their features differ). */
export const MODEL_VERSION = 7;

/** A text class with fewer training values than this is never plain-tailed (SpanModel plainTails). */
const MIN_PLAIN_VALUES = 3;

/** A trained model: what selection reads (schema, features, classes, label set layouts, the span forest:
 * SelectionModel in select.ts) and the token forest with the training's figures. */
export interface ExtractionModel extends SelectionModel {
  version: number;
  forest: ForestModel;
  training: { documents: number; tokens: number; annotatedTokens: number; seconds: number };
}

export interface TrainOptions {
  forest?: Partial<ForestOptions>;
  /** Weight of tokens of declined annotations (the model's past mistakes) against other negatives. */
  hardNegativeWeight?: number;
  onProgress?: ProgressListener;
  /** Checked between steps; true stops training with a TrainingCancelled error. */
  shouldStop?: () => boolean;
}

export class TrainingCancelled extends Error {
  constructor() {
    super('training was cancelled');
    this.name = 'TrainingCancelled';
  }
}

/** The training documents hold no accepted annotation of the schema's labels. */
export class NothingToLearn extends Error {
  constructor(message = "the training documents have no accepted annotations of the category's labels") {
    super(message);
    this.name = 'NothingToLearn';
  }
}

/** Documents in a fixed order, by a hash of their text (then their id): the folds of the span stage and the
 * forests' bootstrap samples depend on the order, so the same documents train the same model however they
 * are listed, even when their ids differ (documents uploaded side by side take ids in any order). */
function trainingOrder(docs: readonly TrainingDocument[]): TrainingDocument[] {
  const keyed = docs.map((d) => ({ d, hash: textHash(d.text), id: String(d.id) }));
  keyed.sort((a, b) => a.hash - b.hash || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return keyed.map((k) => k.d);
}

/** FNV-1a over the UTF-16 code units of a text. */
function textHash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

export function trainExtractionModel(input: readonly TrainingDocument[], schema: ExtractionSchema, options: TrainOptions = {}): ExtractionModel {
  const started = performance.now();
  const docs = trainingOrder(input);
  const progress = options.onProgress ?? (() => {});
  const check = () => {
    if (options.shouldStop?.()) throw new TrainingCancelled();
  };
  progress(0, 'tokenizing');
  const tokenized = docs.map((d) => {
    check();
    return tokenize(d);
  });
  const { labelled, classes } = labelDocuments(docs, tokenized, schema);
  if (!classes.length) throw new NothingToLearn();
  const features = learnFeatureConfig(labelled);
  progress(5, 'features');
  const X: Float32Array[] = [];
  const y: number[] = [];
  const weights: number[] = [];
  /** Rows of each document in X: [first, end). */
  const docRows: [number, number][] = [];
  labelled.forEach((l, n) => {
    check();
    const from = X.length;
    documentFeatures(l.doc, features).forEach((row, i) => {
      X.push(row);
      y.push(l.classes[i]);
      weights.push(l.hardNegative[i] ? (options.hardNegativeWeight ?? 3) : 1);
    });
    docRows.push([from, X.length]);
    progress(5 + Math.round((15 * (n + 1)) / labelled.length), 'features');
  });
  const forestOptions = { ...DEFAULT_FOREST, ...options.forest };
  const spanLabels = classes.some((c) => !schema.labelSets.find((s) => s.id === c.labelSetId)?.hasMultipleSections);
  const tokenShare = spanLabels ? 60 : 79;
  const forest = trainForest(X, y, forestOptions, weights, (done) => {
    check();
    progress(20 + Math.floor((tokenShare * done) / forestOptions.trees), 'trees');
  });
  const labelSetLayouts = learnLabelSetLayouts(docs, schema, tokenized);
  const partial = { schema, features, classes };
  const spans = spanLabels ? trainSpanForest(docs, labelled, X, y, weights, docRows, partial, forestOptions, check, (p) => progress(80 + Math.floor(19 * p), 'spans')) : null;
  progress(100, 'done');
  return {
    version: MODEL_VERSION,
    schema,
    features,
    classes,
    labelSetLayouts,
    forest,
    spans,
    training: { documents: docs.length, tokens: X.length, annotatedTokens: y.filter((c) => c > 0).length, seconds: (performance.now() - started) / 1000 },
  };
}

/** Token forests of the cross-fitting folds are smaller: they only describe candidates for the span forest. */
const FOLD_TREES = 30;
const FOLDS = 3;
/** Trees of the span forests, of their cross-fitted folds and of the ranking forests. 120 rather than 60:
 * on bench:receipts-dev (3 seeds x 3 splits) the values found rose from 0.850 to 0.861, the payslips
 * unchanged. With a span and a ranking forest per label, 200 rather than 120 (6 seeds x 3 splits): found
 * 0.876 -> 0.882, address F1 0.343 -> 0.350, total 0.858 -> 0.862, the payslips unchanged, training of 80
 * receipts ~8 s instead of ~7.5 s on the busy machine. */
const SPAN_TREES = 200;

/**
 * The span forest learns from candidates described with token probabilities that a token forest gives on
 * documents it has NOT seen (cross-fitting in FOLDS folds): in-sample probabilities are near certain, and
 * a span forest trained on them would trust the token forest far more than prediction on new documents can.
 * A candidate is positive when it is exactly an accepted annotation of its class; the accepted annotations
 * themselves join as candidates, so that every value teaches even when no seed reached it.
 */
function trainSpanForest(
  docs: readonly TrainingDocument[],
  labelled: LabelledDocument[],
  X: Float32Array[],
  y: number[],
  weights: number[],
  docRows: [number, number][],
  model: Pick<ExtractionModel, 'schema' | 'classes' | 'features'>,
  forestOptions: ForestOptions,
  check: () => void,
  progress: (fraction: number) => void,
): SpanModel | null {
  const folds = Math.min(FOLDS, docs.length);
  const probabilities: Float64Array[][] = new Array(docs.length);
  for (let f = 0; f < folds; f++) {
    check();
    const inFold = (n: number) => n % folds === f;
    const rows: number[] = [];
    docRows.forEach(([a, b], n) => {
      if (!inFold(n) || folds === 1) for (let i = a; i < b; i++) rows.push(i);
    });
    const foldForest = trainForest(rows.map((i) => X[i]), rows.map((i) => y[i]), { ...forestOptions, trees: FOLD_TREES, seed: forestOptions.seed + 1 + f }, rows.map((i) => weights[i]));
    // A fold whose training rows lack a class gives fewer columns: pad so every class has its column.
    const width = Math.max(...y) + 1;
    docRows.forEach(([a, b], n) => {
      if (!inFold(n)) return;
      probabilities[n] = predictForest(foldForest, X.slice(a, b)).map((p) => {
        const out = new Float64Array(width);
        out.set(p.subarray(0, width));
        return out;
      });
    });
    progress((f + 1) / (folds + 2));
  }
  const labels = new Map(model.schema.labels.map((l) => [l.id, l]));
  const repeatingSets = new Set(model.schema.labelSets.filter((s) => s.hasMultipleSections).map((s) => s.id));
  const classIndex = new Map(model.classes.map((c, k) => [classKey(c.labelSetId, c.labelId), k + 1]));
  // Candidates per document and class with which of them are values; then the words they teach.
  const readableValues = model.classes.map(() => 0);
  const values = model.classes.map(() => 0);
  /** Per class: its training values that hold a digit-heavy token past their first (spans.ts numberTail). */
  const numberTails = model.classes.map(() => 0);
  const documentsWith = model.classes.map(() => 0);
  const perDoc = docs.map((d, n) => {
    check();
    const doc = labelled[n].doc;
    const probs = probabilities[n];
    const runs = tokenRuns(model, doc, probs, (cls) => labels.get(model.classes[cls - 1].labelId)?.threshold ?? DEFAULT_THRESHOLD);
    const gold = new Map<number, { start: number; end: number }[]>();
    for (const a of d.annotations) {
      const cls = classIndex.get(classKey(a.labelSetId, a.labelId));
      if (!a.correct || cls === undefined) continue;
      const ranges = a.spans?.length ? a.spans : [a];
      const range = { start: Math.min(...ranges.map((r) => r.startOffset)), end: Math.max(...ranges.map((r) => r.endOffset)) };
      gold.set(cls, [...(gold.get(cls) ?? []), range]);
    }
    const ctx = spanContext(doc, d.text, probs, NO_SPAN_WORDS);
    const byClass = new Map<number, { candidates: SpanCandidate[]; gold: boolean[] }>();
    model.classes.forEach((c, k) => {
      const cls = k + 1;
      if (repeatingSets.has(c.labelSetId)) return;
      const classRuns = runs.filter((r) => r.cls === cls).map((r) => ({ start: r.tokens[0].start, end: r.tokens[r.tokens.length - 1].end }));
      const dataType = labels.get(c.labelId)?.dataType ?? 'Text';
      const goldHere = gold.get(cls) ?? [];
      if (goldHere.length) documentsWith[k] += 1;
      for (const g of goldHere) {
        readableValues[k] += readable(ctx, g, dataType) ? 1 : 0;
        numberTails[k] += numberTail({ tokens: doc.tokens.filter((t) => t.end > g.start && t.start < g.end) }) ? 1 : 0;
        values[k] += 1;
      }
      const candidates = spanCandidates(ctx, cls, c, dataType, classRuns);
      const isGold = (r: { start: number; end: number }) => goldHere.some((g) => g.start === r.start && g.end === r.end);
      for (const g of goldHere) {
        if (candidates.some(isGold)) break;
        const tokens = doc.tokens.filter((t) => t.end > g.start && t.start < g.end);
        if (tokens.length) candidates.push({ cls, start: g.start, end: g.end, tokens, trimmed: g.start !== tokens[0].start || g.end !== tokens[tokens.length - 1].end, isRun: false, readable: readable(ctx, g, dataType) });
      }
      byClass.set(cls, { candidates, gold: candidates.map(isGold) });
    });
    return { doc, text: d.text, probs, byClass, amounts: ctx.amounts };
  });
  // A class whose values read as its data type competes among the candidates that read so (typedCandidates).
  const typed = model.classes.map((c, k) => (labels.get(c.labelId)?.dataType ?? 'Text') !== 'Text' && values[k] > 0 && readableValues[k] >= READABLE_SHARE * values[k]);
  // A text class whose values never carry a number after their first word competes among candidates without one.
  const plainTails = model.classes.map((c, k) => (labels.get(c.labelId)?.dataType ?? 'Text') === 'Text' && values[k] >= MIN_PLAIN_VALUES && numberTails[k] <= NUMBER_TAIL_SHARE * values[k]);
  for (const { byClass } of perDoc) {
    for (const [cls, here] of byClass) {
      const kept = plainCandidates(typedCandidates(here.candidates, typed[cls - 1]), plainTails[cls - 1]);
      if (kept.length === here.candidates.length) continue;
      byClass.set(cls, { candidates: kept, gold: here.candidates.map((c, i) => (kept.includes(c) ? i : -1)).filter((i) => i >= 0).map((i) => here.gold[i]) });
    }
  }
  const words = learnSpanWords(perDoc, model.classes.length);
  /** Per document and class: its candidates' rows in SX, [first, end), with what the ranking stage reads. */
  const groups: CandidateGroup[] = [];
  const SX: Float32Array[] = [];
  const sy: number[] = [];
  perDoc.forEach(({ doc, text, probs, byClass }, n) => {
    check();
    const ctx = spanContext(doc, text, probs, words);
    for (const [cls, { candidates, gold }] of byClass) {
      const from = SX.length;
      candidateRows(ctx, candidates).forEach((row, i) => {
        SX.push(row);
        sy.push(gold[i] ? 1 : 0);
      });
      groups.push({ doc: n, from, to: SX.length, ctx, candidates, dataType: labels.get(model.classes[cls - 1].labelId)?.dataType ?? 'Text' });
    }
  });
  progress((folds + 1) / (folds + 2));
  if (!sy.some((v) => v === 1)) return null;
  const spanOptions = { ...forestOptions, trees: SPAN_TREES, seed: forestOptions.seed + 101 };
  const forests = perClassForests(SX, sy, model.classes.length, spanOptions, check);
  const roundedTwins = roundedTwinShares(perDoc, model.classes.length);
  return { forests, words, ...(trainRanker(groups, SX, sy, folds, model.classes.length, spanOptions, check) ?? { rankers: null, minScores: model.classes.map(() => 0) }), typed, plainTails, documentShare: documentsWith.map((n) => n / docs.length), roundedTwins };
}

/** A class's rounding preference is told from at least this many training values with a rounding twin. */
const MIN_TWIN_VALUES = 3;

/**
 * Per class: of its training values that have a twin amount with the other rounding on their document
 * (spans.ts roundingTwins: "30.91" printed beside "30.90"), the share that are the one rounded to 5 cents;
 * -1 with fewer than MIN_TWIN_VALUES such values. A receipt's total is mostly the rounded amount paid, yet
 * whether the labels say so is the reviewers' convention, so it is learnt, not assumed.
 */
function roundedTwinShares(perDoc: readonly { byClass: Map<number, { candidates: SpanCandidate[]; gold: boolean[] }>; text: string; amounts: readonly number[] }[], classes: number): number[] {
  const rounded = new Array<number>(classes).fill(0);
  const twins = new Array<number>(classes).fill(0);
  for (const { byClass, text, amounts } of perDoc) {
    const cps = Array.from(text);
    for (const [cls, { candidates, gold }] of byClass) {
      const values = new Set(candidates.filter((_, i) => gold[i]).map((c) => amountOf(flatText(cps, c))).filter(Number.isFinite));
      for (const v of values) {
        if (!roundingTwins(amounts, v).length) continue;
        twins[cls - 1] += 1;
        if (roundedTo5(v)) rounded[cls - 1] += 1;
      }
    }
  }
  return twins.map((n, k) => (n >= MIN_TWIN_VALUES ? rounded[k] / n : -1));
}

type CandidateGroup = { doc: number; from: number; to: number; ctx: SpanDocContext; candidates: SpanCandidate[]; dataType: string };

/**
 * The ranking stage learns from span scores that a span forest gives on documents it has NOT seen (the
 * documents' candidates cross-fitted in folds, as the token probabilities before them): each candidate's
 * row, then how its score compares with its document's other candidates of its class (rankRows); a forest
 * per class (perClassForests). Its own scores cross-fitted alike set each class's acceptance score.
 */
function trainRanker(
  groups: readonly CandidateGroup[],
  SX: Float32Array[],
  sy: number[],
  folds: number,
  classes: number,
  options: ForestOptions,
  check: () => void,
): { rankers: (ForestModel | null)[]; minScores: number[] } | null {
  if (folds < 2) return null;
  const scores = crossFitted(groups, SX, sy, folds, classes, options, check);
  if (!scores) return null;
  const RX: Float32Array[] = [];
  for (const g of groups) {
    if (g.from === g.to) continue;
    RX.push(...rankRows(g.ctx, g.candidates, SX.slice(g.from, g.to), Array.from(scores.subarray(g.from, g.to)), g.dataType));
  }
  const rankers = perClassForests(RX, sy, classes, { ...options, seed: options.seed + 201 }, check);
  const rankScores = crossFitted(groups, RX, sy, folds, classes, { ...options, seed: options.seed + 201 }, check);
  return { rankers, minScores: rankScores ? acceptanceScores(groups, rankScores, sy, classes) : new Array<number>(classes).fill(0) };
}

/** Per candidate row the score of a per-class forest trained on the other folds' documents; null when a
 * fold leaves no value to learn from. Rows of a group are consecutive (groups' from, to). */
function crossFitted(groups: readonly CandidateGroup[], X: readonly Float32Array[], y: readonly number[], folds: number, classes: number, options: ForestOptions, check: () => void): Float64Array | null {
  const scores = new Float64Array(X.length);
  for (let f = 0; f < folds; f++) {
    check();
    const rows: number[] = [];
    for (const g of groups) if (g.doc % folds !== f) for (let i = g.from; i < g.to; i++) rows.push(i);
    if (!rows.some((i) => y[i] === 1)) return null;
    const forests = perClassForests(rows.map((i) => X[i]), rows.map((i) => y[i]), classes, { ...options, seed: options.seed + 1 + f }, check);
    for (const g of groups) {
      const forest = g.from < g.to ? forests[g.candidates[0].cls - 1] : null;
      if (g.doc % folds !== f || !forest) continue;
      predictForest(forest, X.slice(g.from, g.to)).forEach((p, k) => (scores[g.from + k] = p[1] ?? 0));
    }
  }
  return scores;
}

/**
 * Per class the score its best candidate must reach to be taken, from the training documents' cross-fitted
 * scores: above every best candidate that was not the value and scored below all those that were. 0 when
 * no wrong best candidate scored below the right ones. A label the token stage finds on a document that has
 * none of it (a currency on a receipt that prints none) is dropped so, and no right value of training
 * would have been. (Chosen to maximize each label's F1 on those scores instead, it cut far more: found on
 * bench:receipts-dev fell from 0.881 to 0.813.) Applies to labels not expected on nearly every document
 * (select.ts EXPECTED_SHARE): payslips (HTTP texts, library level) 0.9567 -> 0.9603, the receipts' F1
 * unchanged, found 0.880 -> 0.876 (6 seeds x 3 splits: an address of low score is no longer taken).
 */
export function acceptanceScores(groups: readonly { from: number; to: number; candidates: readonly { cls: number }[] }[], scores: ArrayLike<number>, sy: readonly number[], classes: number): number[] {
  const byClass = Array.from({ length: classes }, () => [] as { top: number; right: boolean }[]);
  for (const g of groups) {
    if (g.from === g.to) continue;
    let best = g.from;
    for (let i = g.from; i < g.to; i++) if (scores[i] > scores[best]) best = i;
    byClass[g.candidates[0].cls - 1].push({ top: scores[best], right: sy[best] === 1 });
  }
  return byClass.map((docs) => {
    const rightTops = docs.filter((d) => d.right).map((d) => d.top);
    if (!rightTops.length) return 0;
    const lowestRight = Math.min(...rightTops);
    const below = docs.filter((d) => !d.right && d.top < lowestRight).map((d) => d.top);
    return below.length ? Math.max(...below) + ACCEPT_MARGIN : 0;
  });
}

/** How far above the highest wrong best candidate the acceptance score stands. */
const ACCEPT_MARGIN = 1e-6;

/**
 * A forest per class over candidate rows (their first column is the class), null for a class without a
 * value among its rows. A company name, an address and a total are told from their look-alikes by
 * different features; a forest of their own learns each from its own rows. bench:receipts-dev, 6 seeds x 3
 * splits, against one span and one ranking forest for all classes: found 0.863 -> 0.880, address F1
 * 0.300 -> 0.344 (a ranking forest per class alone: 0.868); the payslips unchanged.
 */
function perClassForests(X: readonly Float32Array[], y: readonly number[], classes: number, options: ForestOptions, check: () => void): (ForestModel | null)[] {
  return Array.from({ length: classes }, (_, k) => {
    check();
    const rows: number[] = [];
    X.forEach((r, i) => {
      if (r[0] === k + 1) rows.push(i);
    });
    if (!rows.some((i) => y[i] === 1)) return null;
    return trainForest(rows.map((i) => X[i]), rows.map((i) => y[i]), options);
  });
}

/** Whether the annotation sets of each repeating label set stay on one line (payslip rows) or run over
 * several (a receipt item with its quantity below): decides how predictions are grouped into sets. */
function learnLabelSetLayouts(docs: readonly TrainingDocument[], schema: ExtractionSchema, tokenized: ReturnType<typeof tokenize>[]): LabelSetLayout[] {
  return schema.labelSets.filter((set) => set.hasMultipleSections).map((set) => {
    let sets = 0;
    let multiLine = 0;
    docs.forEach((d, n) => {
      const lineOf = new Map(tokenized[n].tokens.map((t) => [t.start, t.lineNo]));
      const bySet = new Map<string, Set<number>>();
      for (const a of d.annotations) {
        if (!a.correct || a.labelSetId !== set.id) continue;
        const line = lineOf.get(a.startOffset);
        if (line === undefined) continue;
        bySet.set(a.annotationSetKey, (bySet.get(a.annotationSetKey) ?? new Set()).add(line));
      }
      for (const lines of bySet.values()) {
        sets += 1;
        if (lines.size > 1) multiLine += 1;
      }
    });
    return { labelSetId: set.id, multiLine: sets > 0 && multiLine >= 0.25 * sets };
  });
}

/** Per token of the document: its tokens and every class's probability. */
export function tokenProbabilities(model: ExtractionModel, doc: ExtractionDocument) {
  const tokenized = tokenize(doc);
  const probabilities = tokenized.tokens.length ? predictForest(model.forest, documentFeatures(tokenized, model.features)) : [];
  return { tokenized, probabilities };
}

export function predictDocument(model: ExtractionModel, doc: ExtractionDocument, options: SelectOptions = {}): PredictedAnnotation[] {
  const { tokenized, probabilities } = tokenProbabilities(model, doc);
  return selectAnnotations(model, doc, tokenized, probabilities, options);
}
