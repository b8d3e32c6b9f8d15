// Turns reviewed annotations into what the classifier learns: a class per token (a label in a label set,
// or none), hard negatives, and what the predictor must know about annotations (gaps, repeats). Pure.
import type { ExtractionSchema, OffsetRange, TrainingDocument } from './types.ts';
import { shapeOf } from './shape.ts';
import { gapEm, type Token, type TokenizedDocument } from './tokens.ts';

/** A class of the classifier: a label as part of one label set. Class 0 is "none". */
export interface ClassInfo {
  labelId: number;
  labelSetId: number;
  /** Largest gap (em) between neighbouring tokens of one annotation on a line; null: never more than one token. */
  maxGapEm: number | null;
  /** Annotations of the class span several lines (an address, a bank with IBAN). */
  multiLine: boolean;
  /** The most lines one annotation of the class covered (at most MAX_SPAN_LINES): how tall a candidate may be. */
  maxLines: number;
  /** The most tokens one annotation of the class had on one line: how long a candidate within a line may be. */
  maxTokens: number;
  /** The label has more than one distinct text in one annotation set in at least a quarter of the sets that have it. */
  repeatsInSet: boolean;
  /** Tokens learnt from. */
  examples: number;
}

export interface LabelledDocument {
  doc: TokenizedDocument;
  /** Class per token (0 none). */
  classes: number[];
  /** Tokens of declined annotations that no accepted one covers: mistakes the model made before. */
  hardNegative: boolean[];
}

/** Candidates taller than this are not considered: an address of six lines is long already. */
export const MAX_SPAN_LINES = 6;

export const classKey = (labelSetId: number, labelId: number) => `${labelSetId}:${labelId}`;

/** Tokens covered by a range: at least half of each token's characters inside it. */
export function tokensIn(tokens: readonly Token[], range: OffsetRange): Token[] {
  return tokens.filter((t) => 2 * (Math.min(t.end, range.endOffset) - Math.max(t.start, range.startOffset)) >= t.end - t.start);
}

/** Classes in a stable order: the schema's label sets and their labels that training annotates. */
export function classesOf(schema: ExtractionSchema, docs: readonly TrainingDocument[]): { key: string; labelId: number; labelSetId: number }[] {
  const seen = new Set(docs.flatMap((d) => d.annotations.filter((a) => a.correct).map((a) => classKey(a.labelSetId, a.labelId))));
  const out: { key: string; labelId: number; labelSetId: number }[] = [];
  for (const set of schema.labelSets) {
    for (const label of schema.labels) {
      const key = classKey(set.id, label.id);
      if (label.labelSetIds.includes(set.id) && seen.has(key)) out.push({ key, labelId: label.id, labelSetId: set.id });
    }
  }
  return out;
}

export function labelDocuments(
  docs: readonly TrainingDocument[],
  tokenized: readonly TokenizedDocument[],
  schema: ExtractionSchema,
): { labelled: LabelledDocument[]; classes: ClassInfo[] } {
  const order = classesOf(schema, docs);
  const index = new Map(order.map((c, i) => [c.key, i + 1]));
  const gaps = order.map(() => [] as number[]);
  const multiLine = order.map(() => 0);
  const maxLines = order.map(() => 1);
  const maxTokens = order.map(() => 1);
  const annotations = order.map(() => 0);
  const examples = order.map(() => 0);
  const setsWith = order.map(() => 0);
  const setsRepeating = order.map(() => 0);

  const labelled = docs.map((d, n): LabelledDocument => {
    const doc = tokenized[n];
    const classes = new Array<number>(doc.tokens.length).fill(0);
    const hardNegative = new Array<boolean>(doc.tokens.length).fill(false);
    // Distinct texts per set and class: the same value labelled at each place it is printed (a total at
    // "Total" and again at "Cash") is one value, not a label that repeats.
    const perSet = new Map<string, Set<string>>();
    for (const a of d.annotations) {
      const cls = index.get(classKey(a.labelSetId, a.labelId));
      const ranges = a.spans?.length ? a.spans : [a];
      const covered = ranges.flatMap((r) => tokensIn(doc.tokens, r));
      if (!a.correct || cls === undefined) {
        if (!a.correct) for (const t of covered) hardNegative[t.index] = true;
        continue;
      }
      annotations[cls - 1] += 1;
      const setKey = `${a.annotationSetKey}|${cls}`;
      perSet.set(setKey, (perSet.get(setKey) ?? new Set()).add(a.text.replace(/\s+/g, ' ').trim().toLowerCase()));
      const lines = new Set(covered.map((t) => t.lineNo)).size;
      if (lines > 1) multiLine[cls - 1] += 1;
      maxLines[cls - 1] = Math.min(MAX_SPAN_LINES, Math.max(maxLines[cls - 1], lines));
      const perLine = new Map<number, number>();
      for (const t of covered) perLine.set(t.lineNo, (perLine.get(t.lineNo) ?? 0) + 1);
      maxTokens[cls - 1] = Math.max(maxTokens[cls - 1], ...perLine.values());
      covered.forEach((t, k) => {
        // A token annotated twice keeps its first label: the classifier gives each token one class.
        if (classes[t.index] === 0) {
          classes[t.index] = cls;
          examples[cls - 1] += 1;
        }
        const prev = covered[k - 1];
        if (prev && prev.lineNo === t.lineNo) gaps[cls - 1].push(gapEm(prev, t));
      });
    }
    for (const [key, texts] of perSet) {
      const count = texts.size;
      const cls = Number(key.slice(key.lastIndexOf('|') + 1));
      setsWith[cls - 1] += 1;
      if (count > 1) setsRepeating[cls - 1] += 1;
    }
    classes.forEach((c, i) => {
      if (c !== 0) hardNegative[i] = false;
    });
    return { doc, classes, hardNegative };
  });

  markMissing(docs, labelled, index);

  const classes = order.map((c, i): ClassInfo => ({
    labelId: c.labelId,
    labelSetId: c.labelSetId,
    maxGapEm: gaps[i].length ? Math.max(...gaps[i]) : null,
    // A stray multi-line annotation is a mistake more likely than a habit.
    multiLine: multiLine[i] >= Math.max(2, 0.25 * annotations[i]),
    maxLines: maxLines[i],
    maxTokens: maxTokens[i],
    repeatsInSet: setsRepeating[i] >= Math.max(1, 0.25 * setsWith[i]),
    examples: examples[i],
  }));
  return { labelled, classes };
}

/** A label recorded as missing from a document makes every token there that looks like the label's
 * values (a shape its annotated tokens have anywhere in training) a hard negative for it. */
function markMissing(docs: readonly TrainingDocument[], labelled: LabelledDocument[], index: Map<string, number>): void {
  const shapes = new Map<number, Set<string>>();
  for (const { doc, classes } of labelled) {
    doc.tokens.forEach((t, i) => {
      if (classes[i]) shapes.set(classes[i], (shapes.get(classes[i]) ?? new Set()).add(shapeOf(t.text)));
    });
  }
  docs.forEach((d, n) => {
    const { doc, classes, hardNegative } = labelled[n];
    for (const m of d.missing) {
      const like = shapes.get(index.get(classKey(m.labelSetId, m.labelId)) ?? -1);
      if (!like) continue;
      doc.tokens.forEach((t, i) => {
        if (classes[i] === 0 && like.has(shapeOf(t.text))) hardNegative[i] = true;
      });
    }
  });
}
