// The categorization AI without a database: the terms documents are reduced to, training on the payslip
// dataset's two categories (dataset_status 2) and prediction on its held-out documents (status 3), the
// single-category and empty-category cases, generated documents told apart by one word or by layout alone,
// the fallback before any model exists, evaluation, and the model file.
import { beforeAll, describe, expect, it } from 'vitest';
import { termCounts } from '../../main/ai/categorization/features.ts';
import {
  evaluateCategorizer,
  fallbackCategory,
  InvalidModelFile,
  NothingToCategorize,
  parseCategorizer,
  predictCategory,
  serializeCategorizer,
  trainCategorizer,
  type CategorizationDocument,
  type CategorizationModel,
  type CategoryInfo,
  type LabelledDocument,
} from '../../main/ai/categorization/index.ts';
import { random } from '../../main/ai/extraction/forest.ts';
import type { CharBox } from '../../main/domain/geometry.ts';
import { loadDatasetDocuments, loadPayslipCategories } from '../fixtures/payslipDataset.ts';

const PAYSLIP = 63;
const RECEIPT = 735;

/** The dataset's documents of both categories with one dataset status, as labelled documents. */
const datasetDocs = (status: number): LabelledDocument[] =>
  [PAYSLIP, RECEIPT].flatMap((id) => loadDatasetDocuments(id, status).map((d) => ({ id: d.id, text: d.text, chars: d.chars, pageSizes: d.pageSizes, categoryId: id })));

interface Line {
  text: string;
  /** Baseline height above the page bottom, PDF points. */
  y: number;
  size: number;
}

const PAGE = { width: 595, height: 842 };

/** A one-page document with a box for every non-space character: lines at the given heights and sizes. */
function layoutDocument(id: string, lines: Line[]): CategorizationDocument {
  const chars: CharBox[] = [];
  let offset = 0;
  lines.forEach((line, lineIndex) => {
    Array.from(line.text).forEach((ch, i) => {
      if (ch.trim()) {
        const [x0, y0, y1] = [40 + i * 0.6 * line.size, line.y, line.y + line.size];
        chars.push({ offset: offset + i, text: ch, x0, x1: x0 + 0.5 * line.size, y0, y1, top: PAGE.height - y1, bottom: PAGE.height - y0, page_index: 0, line_index: lineIndex + 1 });
      }
    });
    offset += Array.from(line.text).length + 1;
  });
  return { id, text: lines.map((l) => l.text).join('\n'), chars, pageSizes: [PAGE] };
}

const ITEMS = ['Schrauben', 'Kabel', 'Papier', 'Toner', 'Lampen', 'Farbe', 'Stuhl', 'Tisch', 'Monitor', 'Tastatur', 'Maus', 'Ordner', 'Kaffee', 'Wasser', 'Seife', 'Batterien'];

/** Body lines both generated categories share: item lines with amounts, a total, a date. */
function bodyLines(rnd: () => number, from: number): Line[] {
  const lines: Line[] = [];
  for (let i = 0; i < 4; i++) {
    const item = ITEMS[from + Math.floor(rnd() * 8)];
    lines.push({ text: `${1 + Math.floor(rnd() * 9)} x ${item} ${(rnd() * 100).toFixed(2).replace('.', ',')} EUR`, y: 600 - 20 * i, size: 10 });
  }
  lines.push({ text: `Summe ${(rnd() * 500).toFixed(2).replace('.', ',')} EUR Datum ${1 + Math.floor(rnd() * 28)}.0${1 + Math.floor(rnd() * 9)}.2024`, y: 480, size: 10 });
  return lines;
}

describe('terms', () => {
  it('fold case, umlauts and accents, and reduce numbers to their shape', () => {
    const counts = termCounts({ id: 1, text: 'Bezüge BEZUEGE bezuege Café 08.08.2019 12.01.2020 9,95 Straße' });
    expect(counts.get('bezuege')).toBe(3);
    expect(counts.get('cafe')).toBe(1);
    expect(counts.get('strasse')).toBe(1);
    expect(counts.get('#00.00.0000')).toBe(2);
    expect(counts.get('#0,00')).toBe(1);
    // Without character boxes there is no layout to read.
    expect([...counts.keys()].some((t) => t.startsWith('@'))).toBe(false);
  });

  it('mark words at the top of the first page and in large print, and count pages', () => {
    const doc = layoutDocument('d', [
      { text: 'GUTSCHRIFT', y: 780, size: 24 },
      { text: 'Kabel 12,00', y: 600, size: 10 },
      { text: 'Kabel 3,00', y: 580, size: 10 },
      { text: 'Kabel 1,00', y: 560, size: 10 },
    ]);
    const counts = termCounts(doc);
    expect(counts.get('gutschrift')).toBe(1);
    expect(counts.get('@top:gutschrift')).toBe(1);
    expect(counts.get('@big:gutschrift')).toBe(1);
    expect(counts.get('kabel')).toBe(3);
    expect(counts.has('@top:kabel') || counts.has('@big:kabel')).toBe(false);
    expect(counts.get('@pages:1')).toBe(1);
  });
});

describe('the payslip dataset (train on dataset_status 2, test on 3)', () => {
  const categories: CategoryInfo[] = loadPayslipCategories().map(({ id, name }) => ({ id, name }));
  const train = datasetDocs(2);
  const test = datasetDocs(3);
  let model: CategorizationModel;
  beforeAll(() => {
    model = trainCategorizer(train, categories);
  });

  it('categorizes every held-out document correctly, with probabilities as confidence', () => {
    expect(categories.map((c) => c.id).sort()).toEqual([PAYSLIP, RECEIPT]);
    expect(test).toHaveLength(6);
    expect(model.classes).toEqual([PAYSLIP, RECEIPT]);
    expect(model.training).toMatchObject({ documents: train.length, perCategory: { [PAYSLIP]: 25, [RECEIPT]: 23 } });
    for (const doc of test) {
      const prediction = predictCategory(model, doc);
      expect(prediction).toMatchObject({ categoryId: doc.categoryId, method: 'model' });
      expect(prediction.confidence).toBeGreaterThan(0.8);
      expect(prediction.confidence).toBeLessThanOrEqual(1);
      expect(prediction.confidence).toBe(prediction.scores[doc.categoryId]);
      expect(prediction.scores[PAYSLIP] + prediction.scores[RECEIPT]).toBeCloseTo(1, 9);
    }
    const evaluation = evaluateCategorizer(model, test);
    expect(evaluation).toEqual({
      accuracy: 1,
      documents: 6,
      perCategory: { [PAYSLIP]: { name: 'Lohnabrechnung', correct: 3, total: 3 }, [RECEIPT]: { name: 'Quittung (GERMAN)', correct: 3, total: 3 } },
      confusion: { [PAYSLIP]: { [PAYSLIP]: 3 }, [RECEIPT]: { [RECEIPT]: 3 } },
    });
  });

  it('reads text alone when documents have no character boxes', () => {
    const textOnly = (docs: LabelledDocument[]) => docs.map(({ id, text, categoryId }) => ({ id, text, categoryId }));
    const textModel = trainCategorizer(textOnly(train), categories);
    expect(textModel.features.vocabulary.some((t) => t.startsWith('@'))).toBe(false);
    expect(evaluateCategorizer(textModel, textOnly(test)).accuracy).toBe(1);
  });

  it('never predicts a category without training documents, even one named in the text', () => {
    const empty = { id: 999, name: 'Abrechnung Quittung Rechnung' };
    const withEmpty = trainCategorizer(train, [...categories, empty]);
    expect(withEmpty.classes).toEqual([PAYSLIP, RECEIPT]);
    expect(withEmpty.categories.map((c) => c.id)).toContain(999);
    for (const doc of [...test, { id: 'named', text: 'Abrechnung Quittung Rechnung' }]) {
      const prediction = predictCategory(withEmpty, doc);
      expect(prediction.categoryId).not.toBe(999);
      expect(prediction.scores[999]).toBe(0);
    }
  });

  it('with one category that has documents, predicts it with a confidence from similarity', () => {
    const payslipsOnly = trainCategorizer(
      train.filter((d) => d.categoryId === PAYSLIP),
      categories,
    );
    expect(payslipsOnly.classes).toEqual([PAYSLIP]);
    expect(payslipsOnly.classifier.kind).toBe('similarity');
    const confidence = (doc: CategorizationDocument) => {
      const prediction = predictCategory(payslipsOnly, doc);
      expect(prediction).toMatchObject({ categoryId: PAYSLIP, method: 'model', scores: { [RECEIPT]: 0 } });
      return prediction.confidence!;
    };
    const payslips = test.filter((d) => d.categoryId === PAYSLIP).map(confidence);
    const receipts = test.filter((d) => d.categoryId === RECEIPT).map(confidence);
    expect(Math.min(...payslips)).toBeGreaterThan(0.9);
    expect(Math.max(...receipts)).toBeLessThan(0.5);
    expect(confidence({ id: 'blank', text: '' })).toBe(0);
  });

  it('refuses to train without a category that has documents', () => {
    expect(() => trainCategorizer([], categories)).toThrow(NothingToCategorize);
    expect(() => trainCategorizer(train, [{ id: 1, name: 'Other' }])).toThrow(NothingToCategorize);
  });

  it('writes a model file that reads back to the same model and predictions', () => {
    const file = serializeCategorizer(model);
    expect(JSON.parse(file)).toMatchObject({ format: 'folio-categorization-model', version: 1 });
    const read = parseCategorizer(file);
    expect(read).toEqual(model);
    for (const doc of test) expect(predictCategory(read, doc)).toEqual(predictCategory(model, doc));
  });

  it('refuses files that are not a categorization model or do not fit together', () => {
    const valid = JSON.parse(serializeCategorizer(model)) as Record<string, any>;
    const variants: [string, unknown][] = [
      ['not JSON', '{"format": '],
      ['another format', { ...valid, format: 'folio-extraction-model' }],
      ['another version', { ...valid, version: 2 }],
      ['missing classifier', { ...valid, classifier: undefined }],
      ['short weight row', { ...valid, classifier: { ...valid.classifier, weights: [valid.classifier.weights[0].slice(1), valid.classifier.weights[1]] } }],
      ['class not a category', { ...valid, classes: [PAYSLIP, 5] }],
      ['idf and vocabulary differ', { ...valid, features: { ...valid.features, idf: valid.features.idf.slice(1) } }],
      ['a non-number weight', { ...valid, classifier: { ...valid.classifier, bias: ['x', 1] } }],
    ];
    for (const [what, content] of variants) {
      expect(() => parseCategorizer(typeof content === 'string' ? content : JSON.stringify(content)), what).toThrow(InvalidModelFile);
    }
    expect(() => parseCategorizer(JSON.stringify({ ...valid, version: 2 }))).toThrow(/version 2 is not supported/);
  });
});

describe('generated documents', () => {
  it('tells apart categories that share their vocabulary but for one word, on unseen items', () => {
    const rnd = random(7);
    const make = (n: number, from: number, categoryId: number, title: string): LabelledDocument[] =>
      Array.from({ length: n }, (_, i) => ({
        ...layoutDocument(`${title}-${from}-${i}`, [{ text: `Firma Muster GmbH ${title} Nr. ${1000 + i}`, y: 760, size: 10 }, ...bodyLines(rnd, from)]),
        categoryId,
      }));
    const categories = [{ id: 1, name: 'Eingangsrechnung' }, { id: 2, name: 'Gutschrift' }];
    // Training documents list the first eight items, test documents the other eight.
    const model = trainCategorizer([...make(15, 0, 1, 'Rechnung'), ...make(15, 0, 2, 'Gutschrift')], categories);
    const evaluation = evaluateCategorizer(model, [...make(10, 8, 1, 'Rechnung'), ...make(10, 8, 2, 'Gutschrift')]);
    expect(evaluation.accuracy).toBe(1);
  });

  it('learns from layout: the same words as a large title at the top or as small print at the bottom', () => {
    const rnd = random(11);
    const make = (n: number, categoryId: number): LabelledDocument[] =>
      Array.from({ length: n }, (_, i) => {
        const title = categoryId === 1 ? { text: 'Kopie', y: 780, size: 24 } : { text: 'Kopie', y: 60, size: 10 };
        const lines = [...bodyLines(rnd, 0), title];
        return { ...layoutDocument(`${categoryId}-${i}`, lines), categoryId };
      });
    const categories = [{ id: 1, name: 'Kopie oben' }, { id: 2, name: 'Kopie unten' }];
    const train = [...make(12, 1), ...make(12, 2)];
    const test = [...make(8, 1), ...make(8, 2)];
    // The texts have the same words either way: only where and how large "Kopie" is printed differs.
    expect(termCounts({ id: 'a', text: test[0].text }).get('kopie')).toBe(termCounts({ id: 'b', text: test[10].text }).get('kopie'));
    const model = trainCategorizer(train, categories);
    expect(evaluateCategorizer(model, test).accuracy).toBe(1);
  });
});

describe('fallback before a categorization AI exists', () => {
  const categories = [
    { id: 1, name: 'Gebührenbescheid' },
    { id: 2, name: 'Rechnung' },
    { id: 3, name: 'Lieferschein und Rechnung' },
  ];
  const doc = (text: string): CategorizationDocument => ({ id: 'd', text });

  it('gives the only category of a project, without confidence', () => {
    expect(fallbackCategory(doc('nothing relevant'), [{ id: 5, name: 'Invoice' }])).toEqual({ categoryId: 5, confidence: null, scores: { 5: 0 }, method: 'fallback' });
  });

  it('picks the category whose name words occur most, ignoring case and umlaut spelling', () => {
    const prediction = fallbackCategory(doc('GEBUEHRENBESCHEID vom 1.2.2024 – Ihr Gebührenbescheid, keine Rechnung'), categories);
    expect(prediction).toEqual({ categoryId: 1, confidence: null, scores: { 1: 2, 2: 1, 3: 1 }, method: 'fallback' });
    expect(fallbackCategory(doc('Lieferschein Nr. 4 zur Rechnung 7'), categories)).toMatchObject({ categoryId: 3, scores: { 1: 0, 2: 1, 3: 2 } });
  });

  it('matches whole words only and ignores function words of names', () => {
    // "und" is in a name but says nothing; "Rechnungsnummer" is not the word "Rechnung".
    expect(fallbackCategory(doc('Rechnungsnummer 12 und und und'), categories)).toMatchObject({ categoryId: null, scores: { 1: 0, 2: 0, 3: 0 } });
  });

  it('ignores words every category name shares, and gives no category on a tie or no match', () => {
    const invoices = [
      { id: 1, name: 'Rechnung Eingang' },
      { id: 2, name: 'Rechnung Ausgang' },
    ];
    expect(fallbackCategory(doc('Rechnung Rechnung Rechnung, Ausgang'), invoices)).toMatchObject({ categoryId: 2, scores: { 1: 0, 2: 1 } });
    expect(fallbackCategory(doc('Rechnung Eingang Ausgang'), invoices).categoryId).toBeNull();
    expect(fallbackCategory(doc('Kontoauszug'), invoices).categoryId).toBeNull();
    expect(fallbackCategory(doc('Rechnung'), [])).toEqual({ categoryId: null, confidence: null, scores: {}, method: 'fallback' });
  });

  it('finds receipts of the dataset by the word "Quittung" and leaves the rest undecided', () => {
    const categories = loadPayslipCategories().map(({ id, name }) => ({ id, name }));
    const docs = datasetDocs(2);
    const predictions = docs.map((d) => fallbackCategory(d, categories));
    // A guess is never wrong here: documents not naming a category get none.
    predictions.forEach((p, i) => expect([null, docs[i].categoryId]).toContain(p.categoryId));
    expect(predictions.filter((p, i) => p.categoryId === RECEIPT && docs[i].categoryId === RECEIPT).length).toBeGreaterThan(0);
  });
});
