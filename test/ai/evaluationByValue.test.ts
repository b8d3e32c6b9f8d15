// The extraction evaluation by value beside the position-based one (issue 29 item 4): the right value found at
// another place of the document counts right by value, dates and numbers compare normalized by the label's data
// type, text with white space collapsed; and a test set too small to tell models apart says so. Pure, no store.
import { describe, expect, it } from 'vitest';
import { evaluate, testSetVerdict, valueKey, wilsonInterval, MIN_TEST_DOCUMENTS } from '../../main/ai/extraction/evaluate.ts';
import type { ExtractionSchema, PredictedAnnotation, TrainingAnnotation } from '../../main/ai/extraction/types.ts';

const SCHEMA: ExtractionSchema = {
  labels: [
    { id: 1, name: 'Company', dataType: 'Text', threshold: 0.1, labelSetIds: [10] },
    { id: 2, name: 'Date', dataType: 'Date', threshold: 0.1, labelSetIds: [10] },
    { id: 3, name: 'Total', dataType: 'Number', threshold: 0.1, labelSetIds: [10] },
  ],
  labelSets: [{ id: 10, name: 'Receipt', hasMultipleSections: false }],
};

const gold = (labelId: number, start: number, text: string): TrainingAnnotation =>
  ({ labelId, labelSetId: 10, annotationSetKey: 'a', startOffset: start, endOffset: start + text.length, text, correct: true });
const found = (labelId: number, start: number, text: string): PredictedAnnotation =>
  ({ labelId, labelSetId: 10, setIndex: 0, startOffset: start, endOffset: start + text.length, text, confidence: 0.9, spans: [] });

describe('valueKey', () => {
  it('normalizes dates and numbers by data type and collapses the white space of text', () => {
    expect(valueKey('13.04.2024', 'Date')).toBe(valueKey('13/04/2024', 'Date'));
    expect(valueKey('1.234,50', 'Number')).toBe(valueKey('1234.50', 'Number'));
    expect(valueKey('UNIHAKKA     INTERNATIONAL ', 'Text')).toBe(valueKey('UNIHAKKA INTERNATIONAL', 'Text'));
    expect(valueKey('23.32', 'Number')).not.toBe(valueKey('2', 'Number'));
    // A value that does not normalize compares as its text, so two unreadable ones are not "equal values".
    expect(valueKey(':13.04', 'Date')).not.toBe(valueKey(':14.04', 'Date'));
  });
});

describe('the evaluation by value', () => {
  // Two receipts, 8 expected values. The AI found 5 of them by value: 2 at the very place (right by position too)
  // and 3 at another place where the same value is printed (the total twice, the date in the footer).
  const docs = [
    {
      id: 1,
      name: 'r1.jpg',
      gold: [gold(1, 0, 'UNIHAKKA INTERNATIONAL'), gold(2, 40, '13.04.2024'), gold(3, 80, '23.32'), gold(3, 120, '23.32')],
      predicted: [found(1, 0, 'UNIHAKKA INTERNATIONAL'), found(2, 200, '13/04/2024'), found(3, 150, '23,32')],
    },
    {
      id: 2,
      name: 'r2.jpg',
      gold: [gold(1, 0, 'SANYU STATIONERY'), gold(2, 40, '02.05.2024'), gold(3, 80, '8.70'), gold(3, 300, '9.00')],
      predicted: [found(1, 0, 'SANYU   STATIONERY SHOP'), found(2, 40, '02.05.2024'), found(3, 90, '8.70'), found(3, 100, '4.35')],
    },
  ];

  it('counts right values at another place right by value, beside the unchanged position-based figures', () => {
    const e = evaluate(docs, SCHEMA);
    // Position-based, as before: the company of r1 and the date of r2.
    expect(e.overall).toMatchObject({ truePositives: 2, falsePositives: 5, falseNegatives: 6 });
    // By value: also r1's date (13/04/2024 = 13.04.2024) and total (23,32 = 23.32) and r2's total 8.70.
    expect(e.byValue.overall).toMatchObject({ truePositives: 5, falsePositives: 2, falseNegatives: 3 });
    expect(e.byValue.overall.recall).toBeCloseTo(5 / 8, 10);
    expect(e.byValue.overall.f1).toBeGreaterThan(e.overall.f1);
    expect(e.byValue.labels[2]).toMatchObject({ name: 'Date', truePositives: 2, falsePositives: 0, falseNegatives: 0 });
    expect(e.byValue.labels[3]).toMatchObject({ name: 'Total', truePositives: 2, falsePositives: 1, falseNegatives: 2 });
    expect(e.documentResults.map((d) => [d.right, d.rightByValue])).toEqual([[1, 3], [1, 2]]);

    // The error row of r1's date says it is the right value at another place; a real near miss does not.
    const r1 = e.documentResults[0].errors;
    expect(r1.find((x) => x.labelId === 2)).toMatchObject({ kind: 'near_miss', rightByValue: true });
    const r2 = e.documentResults[1].errors;
    expect(r2.find((x) => x.labelId === 1)).toMatchObject({ found: 'SANYU   STATIONERY SHOP', rightByValue: false });
  });

  it('warns that 2 test documents decide nothing, with the interval of the by-value recall', () => {
    const { testSet } = evaluate(docs, SCHEMA);
    expect(testSet).toMatchObject({ documents: 2, values: 8, rightByValue: 5, enough: false });
    const [low, high] = testSet.interval!;
    expect(low).toBeCloseTo(0.306, 2);
    expect(high).toBeCloseTo(0.863, 2);
    expect(testSet.warning).toMatch(/^Too few test documents to decide: 2 test documents, 8 expected values; 5 of 8 right by value, 63 %, could as well be anything from 31 % to 86 %/);
  });
});

describe('the test set verdict', () => {
  it('is enough from 10 documents whose by-value recall is known within ±10 points', () => {
    expect(testSetVerdict(MIN_TEST_DOCUMENTS, 40, 36)).toMatchObject({ enough: true, warning: null });
    // Enough values but too few documents: the values of one document are not independent draws.
    expect(testSetVerdict(MIN_TEST_DOCUMENTS - 1, 200, 180).enough).toBe(false);
    // Enough documents but too few values for a ±10-point interval at 50 % right.
    expect(testSetVerdict(30, 60, 30).enough).toBe(false);
    expect(testSetVerdict(30, 100, 50).enough).toBe(true);
    expect(testSetVerdict(0, 0, 0)).toMatchObject({ enough: false, interval: null });
    expect(testSetVerdict(0, 0, 0).warning).toMatch(/nothing to score/);
  });

  it('computes the Wilson score interval', () => {
    const [low, high] = wilsonInterval(50, 100);
    expect(low).toBeCloseTo(0.4038, 3);
    expect(high).toBeCloseTo(0.5962, 3);
  });
});
