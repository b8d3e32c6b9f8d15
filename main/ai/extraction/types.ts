// The extraction AI's library interface: what training and prediction take and give. No database here:
// the caller (the extraction AI service) loads documents, labels and label sets into these shapes.
import type { CharBox } from '../../domain/geometry.ts';
import type { Span } from '../../domain/geometry.ts';

export interface PageSize {
  width: number;
  height: number;
}

/** A character range of an annotation; an annotation may cover several (one per line, say). */
export interface OffsetRange {
  startOffset: number;
  endOffset: number;
}

export interface TrainingAnnotation extends OffsetRange {
  labelId: number;
  labelSetId: number;
  /** Which annotation set of the document the annotation belongs to (any stable key). */
  annotationSetKey: string;
  text: string;
  /** true: accepted or made by a person (a positive); false: declined (a hard negative). */
  correct: boolean;
  /** The annotation's own ranges when it has several; default [startOffset, endOffset). */
  spans?: OffsetRange[];
}

/** A document as training, prediction and evaluation see it. Offsets count code points. */
export interface ExtractionDocument {
  id: number | string;
  text: string;
  /** Character boxes of the non-space characters (main/pipeline/textLayout.ts). */
  chars: CharBox[];
  /** Page sizes in PDF points, by page index. */
  pageSizes: PageSize[];
}

export interface TrainingDocument extends ExtractionDocument {
  /** Reviewed annotations only: an annotation that awaits review is neither positive nor negative. */
  annotations: TrainingAnnotation[];
  /** Labels recorded as absent from the document ("Not Found"): their label is wrong anywhere here. */
  missing: { labelId: number; labelSetId: number }[];
}

export interface LabelInfo {
  id: number;
  name: string;
  dataType: string;
  /** Predictions below this confidence are dropped (labels.json5 `threshold`, default 0.1). */
  threshold: number;
  labelSetIds: number[];
}

export interface LabelSetInfo {
  id: number;
  name: string;
  /** true: the set may repeat on one document (line items), so predictions form several sets. */
  hasMultipleSections: boolean;
}

/** What one trained model extracts: a category's label sets and their labels. */
export interface ExtractionSchema {
  labels: LabelInfo[];
  labelSets: LabelSetInfo[];
}

export interface PredictedAnnotation {
  labelId: number;
  labelSetId: number;
  /** Annotation sets of the document, numbered from 0 per label set in reading order. */
  setIndex: number;
  startOffset: number;
  endOffset: number;
  text: string;
  /** Mean of the model's probability over the tokens of the annotation, 0..1. */
  confidence: number;
  /** One span per line, boxes from the character boxes. */
  spans: Span[];
}

export interface LabelScore {
  precision: number;
  recall: number;
  f1: number;
  truePositives: number;
  falsePositives: number;
  falseNegatives: number;
}

/** What went wrong with one label on one document. */
export interface FieldError {
  labelId: number;
  name: string;
  /** near_miss: close to the expected text; wrong: something else found; missed: nothing found; extra: nothing was expected. */
  kind: 'near_miss' | 'wrong' | 'missed' | 'extra';
  expected: string | null;
  found: string | null;
  /** Edits between found and expected (normalized as for near misses); null when one side is absent. */
  distance: number | null;
  /** Found and expected are the same value by the by-value rule (evaluate.ts BY_VALUE_RULE): the right value at another place. */
  rightByValue: boolean;
}

export interface DocumentResult {
  id: number | string;
  name: string;
  right: number;
  nearMisses: number;
  /** Expected values found by value, wherever they stand (BY_VALUE_RULE). */
  rightByValue: number;
  errors: FieldError[];
}

/** Whether the test set is big enough to tell models apart (evaluate.ts testSetVerdict). */
export interface TestSetVerdict {
  documents: number;
  /** Expected values (accepted annotations) over all test documents. */
  values: number;
  /** Of those, found by value. */
  rightByValue: number;
  /** 95 % Wilson score interval of the by-value recall, [low, high]; null without expected values. */
  interval: [number, number] | null;
  enough: boolean;
  /** Why the set decides nothing, in a reviewer's words; null when it is enough. */
  warning: string | null;
  rule: string;
}

export interface Evaluation {
  /** The matching rule used (see evaluate.ts). */
  rule: string;
  /** Keyed by label id. nearMisses: wrong predictions close to the expected text (evaluate.ts NEAR_MISS_RULE). */
  labels: Record<string, LabelScore & { labelId: number; name: string; nearMisses: number }>;
  /** Micro average over every label. */
  overall: LabelScore & { nearMisses: number };
  documents: number;
  nearMissRule: string;
  /** Per test document: how many annotations were right and which labels were wrong, expected beside found. */
  documentResults: DocumentResult[];
  /** The same predictions scored by normalized value, wherever they stand in the document (BY_VALUE_RULE). */
  byValue: { rule: string; overall: LabelScore; labels: Record<string, LabelScore & { labelId: number; name: string }> };
  testSet: TestSetVerdict;
}

export type ProgressListener = (percent: number, stage: string) => void;
