// The extraction AI's model core without a database: tokens, features, training on generated invoices
// whose test values never occur in training, grouping of line items into sets, the model file, the
// training worker, and the payslip dataset (train on dataset_status 2, test on 3).
import { beforeAll, describe, expect, it } from 'vitest';
import { evaluate } from '../../main/ai/extraction/evaluate.ts';
import { documentFeatures, featureNames, learnFeatureConfig } from '../../main/ai/extraction/features.ts';
import { predictForest, trainForest } from '../../main/ai/extraction/forest.ts';
import { NothingToLearn, predictDocument, trainExtractionModel, TrainingCancelled, type ExtractionModel } from '../../main/ai/extraction/model.ts';
import { parseModel, serializeModel, InvalidModelFile } from '../../main/ai/extraction/serialize.ts';
import { parseNumber, shapeOf } from '../../main/ai/extraction/shape.ts';
import { tokenize } from '../../main/ai/extraction/tokens.ts';
import { labelDocuments } from '../../main/ai/extraction/trainingData.ts';
import { trainInWorker } from '../../main/ai/extraction/trainInWorker.ts';
import type { ExtractionDocument, PredictedAnnotation } from '../../main/ai/extraction/types.ts';
import type { CharBox } from '../../main/domain/geometry.ts';
import { loadDatasetDocuments, loadPayslipCategories } from '../fixtures/payslipDataset.ts';
import { INVOICE_SCHEMA, LABELS, SETS, syntheticInvoices, TEST_POOL, TRAINING_POOL } from '../fixtures/syntheticInvoices.ts';

/** A one-line document whose characters sit 6 pt apart, spaces without boxes. */
function lineDocument(text: string): ExtractionDocument {
  const chars: CharBox[] = [];
  Array.from(text).forEach((ch, i) => {
    if (ch.trim() === '') return;
    chars.push({ offset: i, text: ch, x0: 10 + 6 * i, x1: 15 + 6 * i, y0: 700, y1: 710, top: 132, bottom: 142, page_index: 0, line_index: 1 });
  });
  return { id: 'line', text, chars, pageSizes: [{ width: 595, height: 842 }] };
}

const tokenTexts = (text: string) => tokenize(lineDocument(text)).tokens.map((t) => t.text);

describe('tokens', () => {
  it('keeps amounts, dates, times, names and ids whole', () => {
    expect(tokenTexts('1.234,56 22.05.2018 14:51 21:01:46 Erna-Muster DE122274982 200,00- 0341-224670 10/02/2020')).toEqual([
      '1.234,56', '22.05.2018', '14:51', '21:01:46', 'Erna-Muster', 'DE122274982', '200,00-', '0341-224670', '10/02/2020',
    ]);
    // An IBAN is printed in groups: one token per group, joined again into one annotation by the model.
    expect(tokenTexts('DE33 7607 0024 0012')).toEqual(['DE33', '7607', '0024', '0012']);
  });

  it('cuts values from the signs and names glued to them', () => {
    expect(tokenTexts('13,90€ 2x A=19,00 |Bezeichnung 2:16,00% Curry4260100870422 17,')).toEqual([
      '13,90', '€', '2', 'x', 'A', '=', '19,00', '|', 'Bezeichnung', '2', ':', '16,00', '%', 'Curry', '4260100870422', '17', ',',
    ]);
  });

  it('gives each token its offsets, the union of its character boxes, and its line', () => {
    const { tokens, lines } = tokenize(lineDocument('Netto  2.189,07'));
    expect(tokens.map((t) => [t.start, t.end, t.x0, t.x1, t.column])).toEqual([
      [0, 5, 10, 15 + 6 * 4, 0],
      [7, 15, 10 + 6 * 7, 15 + 6 * 14, 1],
    ]);
    expect(lines).toHaveLength(1);
  });

  it('reads numbers with either decimal separator and describes shapes', () => {
    expect([parseNumber('1.234,56'), parseNumber('1,234.56'), parseNumber('200,00-'), parseNumber('3.120'), parseNumber('19.00%'), parseNumber('Gehalt')]).toEqual([
      1234.56, 1234.56, -200, 3120, 19, NaN,
    ]);
    expect([shapeOf('1.234,56'), shapeOf('22.05.2018'), shapeOf('Erna-Muster'), shapeOf('DE33')]).toEqual(['d.d,d', 'd.d.d', 'Xx-Xx', 'Xd']);
  });
});

describe('features', () => {
  const train = syntheticInvoices(6, 1, TRAINING_POOL);

  it('are deterministic and as wide as their names', () => {
    const tokenized = train.map(tokenize);
    const { labelled } = labelDocuments(train, tokenized, INVOICE_SCHEMA);
    const config = learnFeatureConfig(labelled);
    const again = learnFeatureConfig(labelDocuments(train, train.map(tokenize), INVOICE_SCHEMA).labelled);
    expect(again).toEqual(config);
    const rows = documentFeatures(tokenized[0], config);
    expect(documentFeatures(tokenize(train[0]), config)).toEqual(rows);
    expect(rows.every((r) => r.length === featureNames(config).length && r.every(Number.isFinite))).toBe(true);
  });

  it('take context words from the keys next to annotated values, never the values themselves', () => {
    const config = learnFeatureConfig(labelDocuments(train, train.map(tokenize), INVOICE_SCHEMA).labelled);
    expect(config.vocabulary).toEqual(expect.arrayContaining(['preis', 'artikel']));
    expect(config.vocabulary.some((w) => /gesamtbetrag|total/.test(w))).toBe(true);
    for (const article of TRAINING_POOL.articles) expect(config.vocabulary).not.toContain(article.toLowerCase());
  });
});

describe('training labels', () => {
  it('makes accepted annotations positives, declined ones and labels recorded missing hard negatives', () => {
    const [first, second] = syntheticInvoices(2, 1, TRAINING_POOL);
    const total = first.annotations.find((a) => a.labelId === LABELS.total)!;
    const price = first.annotations.find((a) => a.labelId === LABELS.price)!;
    const docs = [
      { ...first, annotations: [...first.annotations.filter((a) => a !== price), { ...price, labelId: LABELS.total, labelSetId: SETS.invoice, correct: false }] },
      { ...second, annotations: second.annotations.filter((a) => a.labelId !== LABELS.total), missing: [{ labelId: LABELS.total, labelSetId: SETS.invoice }] },
    ];
    const tokenized = docs.map(tokenize);
    const { labelled, classes } = labelDocuments(docs, tokenized, INVOICE_SCHEMA);
    const classOf = (labelId: number) => 1 + classes.findIndex((c) => c.labelId === labelId);
    const tokenAt = (n: number, offset: number) => tokenized[n].tokens.find((t) => t.start === offset)!.index;
    expect(labelled[0].classes[tokenAt(0, total.startOffset)]).toBe(classOf(LABELS.total));
    expect(labelled[0].classes[tokenAt(0, price.startOffset)]).toBe(0);
    expect(labelled[0].hardNegative[tokenAt(0, price.startOffset)]).toBe(true);
    expect(labelled[0].hardNegative.filter(Boolean)).toHaveLength(1);
    // On the second invoice the total is recorded missing: every amount there is a hard negative, words are not.
    const amounts = tokenized[1].tokens.filter((t) => /^\d+,\d\d$/.test(t.text) && labelled[1].classes[t.index] === 0);
    expect(amounts.length).toBeGreaterThan(2);
    for (const t of amounts) expect(labelled[1].hardNegative[t.index]).toBe(true);
    expect(tokenized[1].tokens.filter((t) => /^\p{L}+$/u.test(t.text)).some((t) => labelled[1].hardNegative[t.index])).toBe(false);
  });
});

describe('evaluation', () => {
  const gold = (labelId: number, labelSetId: number, startOffset: number, endOffset: number) =>
    ({ labelId, labelSetId, annotationSetKey: 'a', startOffset, endOffset, text: '', correct: true });
  const predicted = (labelId: number, labelSetId: number, startOffset: number, endOffset: number): PredictedAnnotation =>
    ({ labelId, labelSetId, setIndex: 0, startOffset, endOffset, text: '', confidence: 1, spans: [] });
  const docs = [{
    gold: [gold(1, 10, 10, 20), gold(2, 10, 30, 35), gold(2, 10, 40, 45), { ...gold(1, 10, 50, 55), correct: false }],
    predicted: [predicted(1, 10, 10, 18), predicted(2, 11, 30, 35), predicted(2, 10, 40, 45), predicted(2, 10, 40, 45)],
  }];

  it('counts exact matches of label, label set and offsets, each accepted annotation once', () => {
    const result = evaluate(docs, INVOICE_SCHEMA);
    expect(result.labels[1]).toMatchObject({ truePositives: 0, falsePositives: 1, falseNegatives: 1, f1: 0 });
    expect(result.labels[2]).toMatchObject({ truePositives: 1, falsePositives: 2, falseNegatives: 1 });
    expect(result.overall).toMatchObject({ truePositives: 1, falsePositives: 3, falseNegatives: 2, precision: 0.25, recall: 1 / 3 });
    expect(result.overall.f1).toBeCloseTo((2 * 0.25 * (1 / 3)) / (0.25 + 1 / 3), 10);
  });

  it('counts overlapping ranges with the overlap rule', () => {
    expect(evaluate(docs, INVOICE_SCHEMA, 'overlap').labels[1]).toMatchObject({ truePositives: 1, falsePositives: 0, falseNegatives: 0, f1: 1 });
  });
});

describe('forest', () => {
  it('learns a rule from numbers and is reproducible', () => {
    const X = Array.from({ length: 400 }, (_, i) => [i % 20, (i * 7) % 13, i % 3]);
    const y = X.map(([a, b]) => (a > 10 ? (b > 6 ? 2 : 1) : 0));
    const options = { trees: 10, maxDepth: 10, minSplit: 2, bins: 32, seed: 5 };
    const forest = trainForest(X, y, options);
    expect(trainForest(X, y, options)).toEqual(forest);
    const p = predictForest(forest, [[15, 9, 0], [15, 2, 1], [3, 9, 2]]);
    expect(p.map((row) => row.indexOf(Math.max(...row)))).toEqual([2, 1, 0]);
    expect(p.every((row) => Math.abs(row.reduce((s, v) => s + v, 0) - 1) < 1e-3)).toBe(true);
  });
});

describe('training on generated invoices', () => {
  const train = syntheticInvoices(30, 1, TRAINING_POOL);
  const test = syntheticInvoices(10, 1000, TEST_POOL);
  let model: ExtractionModel;
  let predictions: PredictedAnnotation[][];

  beforeAll(() => {
    model = trainExtractionModel(train, INVOICE_SCHEMA);
    predictions = test.map((d) => predictDocument(model, d));
  });

  it('finds values by their context word and place, values it has never seen', () => {
    // Not one test value occurs in any training document: nothing can be looked up.
    const trainingText = train.map((d) => d.text).join('\n');
    for (const a of test.flatMap((d) => d.annotations)) expect(trainingText).not.toContain(a.text);
    // Both languages are among the test documents.
    expect(test.some((d) => d.text.includes('Gesamtbetrag')) && test.some((d) => d.text.includes('Total amount'))).toBe(true);

    const result = evaluate(test.map((d, i) => ({ gold: d.annotations, predicted: predictions[i] })), INVOICE_SCHEMA);
    expect(result.labels[LABELS.total].f1).toBe(1);
    expect(result.labels[LABELS.date].f1).toBe(1);
    expect(result.overall.f1).toBeGreaterThanOrEqual(0.95);
    // The distractors carry values of the same form: the total is the amount after its key, not any amount.
    for (const [i, doc] of test.entries()) {
      const total = predictions[i].find((p) => p.labelId === LABELS.total)!;
      expect(doc.text.slice(0, total.startOffset)).toMatch(/(Gesamtbetrag|Total amount)\s*$/);
    }
  });

  it('gives annotations confidences and spans from the character boxes', () => {
    const p = predictions[0].find((a) => a.labelId === LABELS.total)!;
    expect(p.confidence).toBeGreaterThan(0.1);
    expect(p.confidence).toBeLessThanOrEqual(1);
    expect(p.spans).toHaveLength(1);
    const chars = test[0].chars.filter((c) => c.offset >= p.startOffset && c.offset < p.endOffset);
    expect(p.spans[0]).toMatchObject({ page_index: 0, start_offset: p.startOffset, end_offset: p.endOffset, offset_string: p.text, x0: chars[0].x0, x1: chars[chars.length - 1].x1 });
  });

  it('drops annotations below their label threshold, the stored one or one given at prediction', () => {
    expect(predictDocument(model, test[0], { thresholds: { [LABELS.total]: 1.01 } }).some((p) => p.labelId === LABELS.total)).toBe(false);
    const strict = { ...model, schema: { ...model.schema, labels: model.schema.labels.map((l) => ({ ...l, threshold: 1.01 })) } };
    expect(predictDocument(strict, test[0])).toEqual([]);
  });

  it('joins the words of a multi-word value into one annotation', () => {
    const multiWord = test.flatMap((d, i) => d.annotations.filter((a) => a.text.includes(' ')).map((a) => ({ a, i })));
    expect(multiWord.length).toBeGreaterThan(0);
    for (const { a, i } of multiWord) expect(predictions[i]).toContainEqual(expect.objectContaining({ labelId: a.labelId, startOffset: a.startOffset, endOffset: a.endOffset, text: a.text }));
  });

  it('groups line items into one annotation set per row, in reading order', () => {
    for (const [i, doc] of test.entries()) {
      const items = predictions[i].filter((p) => p.labelSetId === SETS.item);
      const rows = new Set(doc.annotations.filter((a) => a.labelSetId === SETS.item).map((a) => a.annotationSetKey));
      const sets = [...new Set(items.map((p) => p.setIndex))].sort((a, b) => a - b);
      expect(sets).toEqual([...Array(rows.size).keys()]);
      for (const set of sets) {
        const members = items.filter((p) => p.setIndex === set);
        expect(members.map((p) => p.labelId).sort()).toEqual([LABELS.article, LABELS.price]);
        expect(new Set(members.map((p) => p.spans[0].line_index)).size).toBe(1);
      }
      const firstLines = sets.map((set) => items.find((p) => p.setIndex === set)!.spans[0].line_index);
      expect(firstLines).toEqual([...firstLines].sort((a, b) => a - b));
      // The invoice's own labels form its single set.
      expect(predictions[i].filter((p) => p.labelSetId === SETS.invoice).every((p) => p.setIndex === 0)).toBe(true);
    }
  });

  it('round-trips through the model file with identical predictions', () => {
    const file = serializeModel(model);
    const loaded = parseModel(file);
    expect(test.map((d) => predictDocument(loaded, d))).toEqual(predictions);
    expect(loaded).toEqual(model);
    expect(parseModel(serializeModel(loaded))).toEqual(loaded);
  });

  it('refuses files that are not models of this version', () => {
    const file = JSON.parse(serializeModel(model)) as Record<string, unknown>;
    expect(() => parseModel('{')).toThrow(InvalidModelFile);
    expect(() => parseModel(JSON.stringify({ ...file, version: 99 }))).toThrow(/version 99/);
    expect(() => parseModel(JSON.stringify({ ...file, format: 'other' }))).toThrow(InvalidModelFile);
    expect(() => parseModel(JSON.stringify({ ...file, features: { ...(file.features as object), vocabulary: [] } }))).toThrow(/features/);
  });

  it('follows the review: a declined annotation is never learnt as its label', () => {
    // Every training total is declined and another amount accepted instead.
    const reviewed = train.map((d) => {
      const total = d.annotations.find((a) => a.labelId === LABELS.total)!;
      const price = d.annotations.find((a) => a.labelId === LABELS.price)!;
      return { ...d, annotations: [...d.annotations.filter((a) => a !== total), { ...total, correct: false }, { ...price, labelId: LABELS.total, labelSetId: SETS.invoice, annotationSetKey: 'invoice' }] };
    });
    const retrained = trainExtractionModel(reviewed, INVOICE_SCHEMA, { forest: { trees: 30 } });
    for (const doc of test.slice(0, 3)) {
      const total = predictDocument(retrained, doc).find((p) => p.labelId === LABELS.total);
      const declinedPlace = doc.annotations.find((a) => a.labelId === LABELS.total)!;
      expect(total?.startOffset).not.toBe(declinedPlace.startOffset);
    }
  });

  it('trains the same model from the same documents listed in another order under other ids', () => {
    const options = { forest: { trees: 10 } };
    const shuffled = [...train].reverse().map((d, i) => ({ ...d, id: `copy-${i}` }));
    const a = trainExtractionModel(train, INVOICE_SCHEMA, options);
    const b = trainExtractionModel(shuffled, INVOICE_SCHEMA, options);
    expect(b.forest).toEqual(a.forest);
    expect(b.spans).toEqual(a.spans);
  });
});

describe('training in a worker thread', () => {
  const train = syntheticInvoices(12, 1, TRAINING_POOL);

  it('trains, reports progress up to 100 and gives the same model as training in place', async () => {
    const progress: number[] = [];
    const options = { forest: { trees: 20, seed: 3 } };
    const { model, file } = await trainInWorker(train, INVOICE_SCHEMA, { ...options, onProgress: (p) => progress.push(p) });
    expect(progress[progress.length - 1]).toBe(100);
    expect(progress.length).toBeGreaterThan(10);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(parseModel(file)).toEqual(model);
    expect(model.forest).toEqual(trainExtractionModel(train, INVOICE_SCHEMA, options).forest);
  });

  it('refuses documents without accepted annotations', async () => {
    const unreviewed = train.map((d) => ({ ...d, annotations: d.annotations.map((a) => ({ ...a, correct: false })) }));
    await expect(trainInWorker(unreviewed, INVOICE_SCHEMA)).rejects.toBeInstanceOf(NothingToLearn);
  });

  it('stops when cancelled', async () => {
    const controller = new AbortController();
    const training = trainInWorker(train, INVOICE_SCHEMA, {
      forest: { trees: 2000 },
      signal: controller.signal,
      onProgress: (p) => p >= 25 && controller.abort(),
    });
    await expect(training).rejects.toBeInstanceOf(TrainingCancelled);
  });
});

describe('payslip dataset', () => {
  it('trains on the training documents of the payslip category and extracts its test documents (F1 >= 0.9)', () => {
    const category = loadPayslipCategories().find((c) => c.id === 63)!;
    const started = performance.now();
    const model = trainExtractionModel(loadDatasetDocuments(63, 2), category);
    const seconds = (performance.now() - started) / 1000;
    const test = loadDatasetDocuments(63, 3);
    expect(test).toHaveLength(3);
    const result = evaluate(test.map((d) => ({ gold: d.annotations, predicted: predictDocument(model, d) })), category);
    console.log(`payslip extraction: ${model.training.tokens} training tokens, ${seconds.toFixed(1)} s to train, test F1 ${result.overall.f1.toFixed(3)} (exact offsets)`);
    expect(result.overall.f1).toBeGreaterThanOrEqual(0.9);
    expect(seconds).toBeLessThan(30);
  });
});
