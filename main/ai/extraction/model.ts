// The extraction model: trains one multi-class forest over the tokens of a category's training documents
// (classes: each label within each label set, plus none) and predicts a document's annotations with it:
// token probabilities, tokens joined into annotations, annotations selected and grouped into sets.
import { DEFAULT_FOREST, predictForest, trainForest, type ForestModel, type ForestOptions } from './forest.ts';
import { documentFeatures, learnFeatureConfig, type FeatureConfig } from './features.ts';
import { selectAnnotations, type LabelSetLayout, type SelectOptions } from './select.ts';
import { labelDocuments, type ClassInfo } from './trainingData.ts';
import { tokenize } from './tokens.ts';
import type { ExtractionDocument, ExtractionSchema, PredictedAnnotation, ProgressListener, TrainingDocument } from './types.ts';

export const MODEL_VERSION = 1;

export interface ExtractionModel {
  version: number;
  schema: ExtractionSchema;
  features: FeatureConfig;
  /** classes[k - 1] is forest class k; class 0 is none. */
  classes: ClassInfo[];
  labelSetLayouts: LabelSetLayout[];
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

export function trainExtractionModel(docs: readonly TrainingDocument[], schema: ExtractionSchema, options: TrainOptions = {}): ExtractionModel {
  const started = performance.now();
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
  labelled.forEach((l, n) => {
    check();
    documentFeatures(l.doc, features).forEach((row, i) => {
      X.push(row);
      y.push(l.classes[i]);
      weights.push(l.hardNegative[i] ? (options.hardNegativeWeight ?? 3) : 1);
    });
    progress(5 + Math.round((15 * (n + 1)) / labelled.length), 'features');
  });
  const forestOptions = { ...DEFAULT_FOREST, ...options.forest };
  const forest = trainForest(X, y, forestOptions, weights, (done) => {
    check();
    progress(20 + Math.floor((79 * done) / forestOptions.trees), 'trees');
  });
  const labelSetLayouts = learnLabelSetLayouts(docs, schema, tokenized);
  progress(100, 'done');
  return {
    version: MODEL_VERSION,
    schema,
    features,
    classes,
    labelSetLayouts,
    forest,
    training: { documents: docs.length, tokens: X.length, annotatedTokens: y.filter((c) => c > 0).length, seconds: (performance.now() - started) / 1000 },
  };
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
