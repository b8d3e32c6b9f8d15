// Candidate values (spans.ts), their selection (one value per non-repeating label) and the near-miss
// evaluation, on small generated receipts: every test receipt comes from a shop, street and town that no
// training receipt has, its address runs over two or three lines, and its total stands on the line below
// its label, as scans often read a row.
import { describe, expect, it } from 'vitest';
import { editDistance, evaluate, nearMissDistance } from '../../main/ai/extraction/evaluate.ts';
import { acceptanceScores, predictDocument, trainExtractionModel } from '../../main/ai/extraction/model.ts';
import { parseModel, serializeModel } from '../../main/ai/extraction/serialize.ts';
import { roundingTwin, wholeLinesAround } from '../../main/ai/extraction/select.ts';
import { edgeKey, edgeWord, NO_SPAN_WORDS, numberTail, plainCandidates, spanCandidates, spanContext } from '../../main/ai/extraction/spans.ts';
import { tokenize } from '../../main/ai/extraction/tokens.ts';
import type { ClassInfo } from '../../main/ai/extraction/trainingData.ts';
import type { ExtractionDocument, ExtractionSchema, PredictedAnnotation, TrainingAnnotation, TrainingDocument } from '../../main/ai/extraction/types.ts';
import { random } from '../../main/ai/extraction/forest.ts';
import type { CharBox } from '../../main/domain/geometry.ts';

/** Lines of [x in points, text] pieces; characters 6 pt apart, lines 14 pt apart from the top. */
function layoutDocument(id: string, lines: [number, string][][]): ExtractionDocument {
  let text = '';
  const chars: CharBox[] = [];
  lines.forEach((pieces, lineIndex) => {
    if (lineIndex > 0) text += '\n';
    const y1 = 820 - 14 * lineIndex;
    pieces.forEach(([x, piece], k) => {
      if (k > 0) text += '  ';
      Array.from(piece).forEach((ch, i) => {
        const offset = Array.from(text).length;
        text += ch;
        if (ch.trim() === '') return;
        chars.push({ offset, text: ch, x0: x + 6 * i, x1: x + 6 * i + 5, y0: y1 - 10, y1, top: 842 - y1, bottom: 852 - y1, page_index: 0, line_index: lineIndex });
      });
    });
  });
  return { id, text, chars, pageSizes: [{ width: 400, height: 842 }] };
}

const SCHEMA: ExtractionSchema = {
  labelSets: [{ id: 10, name: 'Receipt', hasMultipleSections: false }],
  labels: [
    { id: 1, name: 'company', dataType: 'Text', threshold: 0.1, labelSetIds: [10] },
    { id: 2, name: 'date', dataType: 'Date', threshold: 0.1, labelSetIds: [10] },
    { id: 3, name: 'address', dataType: 'Text', threshold: 0.1, labelSetIds: [10] },
    { id: 4, name: 'total', dataType: 'Number', threshold: 0.1, labelSetIds: [10] },
  ],
};

const TRAIN_WORDS = ['ALPHA', 'BRAVO', 'CEDAR', 'DELTA', 'EMBER', 'FJORD', 'GROVE', 'HAVEN', 'IVORY', 'JUNIPER', 'KESTREL', 'LUMEN'];
const TEST_WORDS = ['MAPLE', 'NORTH', 'OPAL', 'PRISM', 'QUARTZ', 'RIVER', 'SUMMIT', 'TULIP', 'UMBRA', 'VIOLET', 'WILLOW', 'ZENITH'];

interface Receipt {
  doc: TrainingDocument;
  values: Record<string, string>;
}

/** A receipt: shop name, two or three address lines, a phone line, date, items, TOTAL with its amount on
 * the next line, CASH (more than the total) and CHANGE. Values annotated where they stand. */
function receipt(n: number, words: string[], seed: number): Receipt {
  const rnd = random(seed + n * 7919);
  const pick = () => words[Math.floor(rnd() * words.length)];
  const money = (v: number) => v.toFixed(2);
  const items = Array.from({ length: 2 + Math.floor(rnd() * 3) }, () => Math.round(100 + rnd() * 4000) / 100);
  const total = items.reduce((a, b) => a + b, 0);
  const cash = Math.ceil(total / 10) * 10 + 10;
  const company = `${pick()} ${pick()} SDN BHD`;
  const addressLines = [`NO ${1 + Math.floor(rnd() * 90)}, JALAN ${pick()} ${1 + Math.floor(rnd() * 9)},`, `TAMAN ${pick()},`];
  if (rnd() < 0.5) addressLines.push(`${40000 + Math.floor(rnd() * 9000)} ${pick()}`);
  const date = `${String(1 + Math.floor(rnd() * 28)).padStart(2, '0')}/${String(1 + Math.floor(rnd() * 12)).padStart(2, '0')}/20${10 + Math.floor(rnd() * 15)}`;
  const lines: [number, string][][] = [
    [[120, company]],
    ...addressLines.map((l): [number, string][] => [[90, l]]),
    [[100, `TEL: 03-${1000000 + Math.floor(rnd() * 8000000)}`]],
    [[20, 'DATE:'], [80, date], [250, `${10 + Math.floor(rnd() * 12)}:${10 + Math.floor(rnd() * 49)}`]],
    ...items.map((v, i): [number, string][] => [[20, `ITEM ${pick()} ${i + 1}`], [300, money(v)]]),
    [[20, 'TOTAL']],
    [[300, money(total)]],
    [[20, 'CASH'], [300, money(cash)]],
    [[20, 'CHANGE'], [300, money(cash - total)]],
    [[80, 'THANK YOU']],
  ];
  const doc = layoutDocument(`${seed}-${n}`, lines);
  const values = { company, date, address: addressLines.join('\n'), total: money(total) };
  const annotations: TrainingAnnotation[] = [];
  SCHEMA.labels.forEach((label) => {
    const value = values[label.name as keyof typeof values];
    // The address's lines stand apart in the text exactly as in `values` (one newline between lines).
    const at = doc.text.indexOf(value);
    const start = Array.from(doc.text.slice(0, at)).length;
    annotations.push({ labelId: label.id, labelSetId: 10, annotationSetKey: 'a', text: value, startOffset: start, endOffset: start + Array.from(value).length, correct: true });
  });
  return { doc: { ...doc, annotations, missing: [] }, values };
}

describe('candidate values', () => {
  const info = (maxLines: number): ClassInfo => ({ labelId: 4, labelSetId: 10, maxGapEm: 1, multiLine: maxLines > 1, maxLines, maxTokens: 2, repeatsInSet: false, examples: 1 });

  it('include the amount or date inside a token, sub-ranges of a line and blocks of whole lines', () => {
    const doc = layoutDocument('c', [[[20, 'MAIN STREET 5,']], [[20, 'SOMETOWN']], [[20, 'RM60.30'], [200, 'ON19/10/2018']]]);
    const tokenized = tokenize(doc);
    // The last line's tokens are the likeliest, the others follow in reading order (only the best are seeds).
    const probabilities = tokenized.tokens.map((t) => (t.lineNo === 2 ? Float64Array.from([0.1, 0.9]) : Float64Array.from([0.5, 0.5])));
    const ctx = spanContext(tokenized, doc.text, probabilities, NO_SPAN_WORDS);
    const texts = (dataType: string, lines: number) =>
      spanCandidates(ctx, 1, info(lines), dataType, []).map((c) => Array.from(doc.text).slice(c.start, c.end).join(''));
    expect(texts('Number', 1)).toEqual(expect.arrayContaining(['60.30', 'RM60.30', 'MAIN STREET', 'STREET 5,']));
    expect(texts('Date', 1)).toEqual(expect.arrayContaining(['19/10/2018']));
    expect(texts('Text', 1).some((t) => t.includes('\n'))).toBe(false);
    expect(texts('Text', 2)).toEqual(expect.arrayContaining(['MAIN STREET 5,\nSOMETOWN']));
  });
});

describe('a value printed over several lines', () => {
  // "POPULAR BOOK" over "CO. (M) SDN BHD", a registration number below; the span forest ranked the line with
  // the legal form first.
  /** A document of three lines, the label's token probabilities `likely` per line, and candidates of its
   * lines by number (`lines(0, 1)`: the first two lines whole). */
  const threeLines = (id: string, texts: [number, string][], likely: number[], headingSize = 10) => {
    const doc = layoutDocument(id, texts.map((t) => [t]));
    // The first line printed headingSize points tall (the others 10).
    for (const ch of doc.chars) if (ch.line_index === 0) ch.y0 = ch.y1 - headingSize;
    const tokenized = tokenize(doc);
    const probabilities = tokenized.tokens.map((t) => Float64Array.from([1 - likely[t.lineNo], likely[t.lineNo]]));
    const lines = (...ns: number[]) => {
      const tokens = tokenized.tokens.filter((t) => ns.includes(t.lineNo));
      return { cls: 1, start: tokens[0].start, end: tokens[tokens.length - 1].end, tokens, trimmed: false, isRun: false };
    };
    return { doc, probabilities, lines };
  };
  const layout = (headingSize: number) => {
    const { doc, probabilities, lines } = threeLines('w', [[20, 'POPULAR BOOK'], [20, 'CO. (M) SDN BHD'], [20, '(CO. NO. 113825-W)']], [0.5, 0.45, 0.1], headingSize);
    return { doc, probabilities, candidates: [lines(1), lines(0, 1), lines(1, 2), lines(0)] };
  };
  const text = (doc: ExtractionDocument, c: { start: number; end: number }) => Array.from(doc.text).slice(c.start, c.end).join('').replace(/\s+/g, ' ');

  it('is taken whole when the line above is as likely of the label and in the same print', () => {
    const { doc, probabilities, candidates } = layout(10);
    const picked = wholeLinesAround(candidates, [0.6, 0.35, 0.5, 0.1], 0, probabilities, 1);
    expect(text(doc, candidates[picked])).toBe('POPULAR BOOK CO. (M) SDN BHD');
  });

  it("is taken whole when the line below ends on a word that closes the label's values, however doubted", () => {
    const { doc, probabilities, lines } = threeLines('s', [[20, 'PASARAYA BORONG PINTAR'], [40, 'SDN BHD'], [20, 'BR No.: (124525-H)']], [0.8, 0.2, 0.1]);
    const candidates = [lines(0), lines(0, 1)];
    // "bhd" closes nine in ten training names, "pintar" none.
    const shares = new Map<string, [number, number]>([['bhd', [0, 0.9]], ['sdn', [0, 0.05]], ['pintar', [0, 0]]]);
    expect(text(doc, candidates[wholeLinesAround(candidates, [0.43, 0.32], 0, probabilities, 1, shares)])).toBe('PASARAYA BORONG PINTAR SDN BHD');
    expect(wholeLinesAround(candidates, [0.43, 0.32], 0, probabilities, 1)).toBe(0);
  });

  it('is not grown by a line the token forest doubts, by one scored far lower, nor by one in another size', () => {
    const { probabilities, candidates } = layout(10);
    // The line below (0.1 against 0.45) is no part of the name; the block with the line above scores too low.
    expect(wholeLinesAround(candidates, [0.6, 0.2, 0.5, 0.1], 0, probabilities, 1)).toBe(0);
    const tall = layout(16);
    expect(wholeLinesAround(tall.candidates, [0.6, 0.35, 0.5, 0.1], 0, tall.probabilities, 1)).toBe(0);
  });
});

describe('a total printed twice, rounded and not', () => {
  // "TOTAL 30.91" summed, "ROUNDED TOTAL 30.90" paid: which of the two the reviewers label is learnt.
  const shop = (n: number, cents: number) => {
    const amount = 20 + n;
    const exact = `${amount}.${String(cents).padStart(2, '0')}`;
    const paid = (Math.round((amount + cents / 100) * 20) / 20).toFixed(2);
    const doc = layoutDocument(`r${n}`, [[[20, `SHOP ${n}`]], [[20, 'TOTAL'], [200, exact]], [[20, 'ROUNDING'], [200, '-0.01']], [[20, 'ROUNDED TOTAL'], [200, paid]], [[20, 'CASH'], [200, '100.00']]]);
    return { doc, exact, paid };
  };
  const labelled = (n: number, cents: number, which: 'exact' | 'paid'): TrainingDocument => {
    const r = shop(n, cents);
    const value = r[which];
    const start = Array.from(r.doc.text).join('').lastIndexOf(value);
    return { ...r.doc, annotations: [{ labelId: 4, labelSetId: 10, annotationSetKey: 's', text: value, startOffset: start, endOffset: start + value.length, correct: true }], missing: [] };
  };
  const cents = [91, 22, 93, 44, 36, 17, 68, 89];

  it('learns from the training values that they are the rounded one, and keeps that in the model file', () => {
    const model = trainExtractionModel(cents.map((c, n) => labelled(n, c, 'paid')), SCHEMA, { forest: { seed: 3 } });
    const k = model.classes.findIndex((c) => c.labelId === 4);
    expect(model.spans!.roundedTwins![k]).toBe(1);
    expect(parseModel(serializeModel(model)).spans!.roundedTwins).toEqual(model.spans!.roundedTwins);
    const unrounded = trainExtractionModel(cents.map((c, n) => labelled(n, c, 'exact')), SCHEMA, { forest: { seed: 3 } });
    expect(unrounded.spans!.roundedTwins![k]).toBe(0);
  });

  it('takes the twin of the kind the label prefers in place of the best candidate', () => {
    const { doc, exact, paid } = shop(10, 91);
    const tokenized = tokenize(doc);
    const probabilities = tokenized.tokens.map(() => Float64Array.from([0.5, 0.5]));
    const ctx = spanContext(tokenized, doc.text, probabilities, NO_SPAN_WORDS);
    const token = (text: string) => tokenized.tokens.find((t) => t.text === text)!;
    const candidates = [exact, paid, '100.00'].map((v) => ({ cls: 1, start: token(v).start, end: token(v).end, tokens: [token(v)], trimmed: false, isRun: false }));
    expect(roundingTwin(ctx, candidates, [0.7, 0.4, 0.3], 0, 0.9)).toBe(1);
    // No preference learnt (half and half), or the best already the kind preferred: the best stays.
    expect(roundingTwin(ctx, candidates, [0.7, 0.4, 0.3], 0, 0.5)).toBe(0);
    expect(roundingTwin(ctx, candidates, [0.4, 0.7, 0.3], 1, 0.9)).toBe(1);
    expect(roundingTwin(ctx, candidates, [0.4, 0.7, 0.3], 1, 0.1)).toBe(0);
  });
});

describe('one value per label, chosen among candidates', () => {
  const train = Array.from({ length: 30 }, (_, n) => receipt(n, TRAIN_WORDS, 1));
  const test = Array.from({ length: 10 }, (_, n) => receipt(n, TEST_WORDS, 2));
  const model = trainExtractionModel(
    train.map((r) => r.doc),
    SCHEMA,
  );
  const predictions = test.map((r) => predictDocument(model, r.doc));
  const found = (p: PredictedAnnotation[], labelId: number) => p.filter((a) => a.labelId === labelId);

  it('learns a span forest and keeps it through the model file', () => {
    expect(model.spans).not.toBeNull();
    expect(model.classes.find((c) => c.labelId === 3)!.maxLines).toBeGreaterThanOrEqual(3);
    const again = parseModel(serializeModel(model));
    expect(test.map((r) => predictDocument(again, r.doc))).toEqual(predictions);
  });

  it('scores and ranks the candidates of each label with forests of its own', () => {
    for (const forests of [model.spans!.forests, model.spans!.rankers!]) {
      expect(forests).toHaveLength(model.classes.length);
      expect(forests.every((f) => f !== null && f.classes === 2)).toBe(true);
    }
    for (const [part, message] of [['forests', /span forests/], ['rankers', /ranking forests/]] as const) {
      const file = JSON.parse(serializeModel(model));
      file.spans[part].pop();
      expect(() => parseModel(JSON.stringify(file))).toThrow(message);
    }
  });

  it("learns the span stage's words from the training values and their look-alikes, never whole values", () => {
    const { values, context } = model.spans!.words;
    const classOf = (labelId: number) => model.classes.findIndex((c) => c.labelId === labelId);
    // Single words inside the company names of many shops, never a whole name.
    expect(values[classOf(1)]).toEqual(expect.arrayContaining(['sdn', 'bhd']));
    expect(values.flat().every((w) => !/\s/.test(w))).toBe(true);
    // The word that tells the total from the other amounts: its label, on the line above it.
    expect(context).toContain('total');
    const file = JSON.parse(serializeModel(model));
    file.spans.words.values.pop();
    expect(() => parseModel(JSON.stringify(file))).toThrow(/span words/);
  });

  it('learns the words that values start and end with from the training values themselves', () => {
    const { starts, ends } = model.spans!.words;
    const classOf = (labelId: number) => model.classes.findIndex((c) => c.labelId === labelId);
    // Every company name ends "SDN BHD", every address opens "NO <n>,": learnt, not listed anywhere.
    expect(ends[classOf(1)]).toContain('bhd');
    expect(starts[classOf(3)]).toContain('no');
    // A number or a one-letter word is no edge word; the words are single words.
    expect([...starts, ...ends].flat().every((w) => /^\p{L}{2,}$/u.test(w))).toBe(true);
    expect([edgeWord('BHD.'), edgeWord('(M)'), edgeWord('NO.53'), edgeWord('Jalan,')]).toEqual(['bhd', null, null, 'jalan']);
    const file = JSON.parse(serializeModel(model));
    file.spans.words.ends.pop();
    expect(() => parseModel(JSON.stringify(file))).toThrow(/span words/);
  });

  it('learns where words stand inside the values: "sdn" never opens a company name, "bhd" closes every one', () => {
    const shares = new Map(model.spans!.words.edgeShares[model.classes.findIndex((c) => c.labelId === 1)].map(([w, opens, closes]) => [w, { opens, closes }]));
    expect(shares.get('sdn')).toEqual({ opens: 0, closes: 0 });
    expect(shares.get('bhd')).toEqual({ opens: 0, closes: 1 });
    // A sign alone is a key of its own; numbers and one letter are none.
    expect([edgeKey('&'), edgeKey('BHD.'), edgeKey('(M)'), edgeKey('123')]).toEqual(['&', 'bhd', null, null]);
    const file = JSON.parse(serializeModel(model));
    file.spans.words.edgeShares.pop();
    expect(() => parseModel(JSON.stringify(file))).toThrow(/span words/);
  });

  it('learns which text labels never carry a number after their first word: a company name, not an address', () => {
    const plain = (labelId: number) => model.spans!.plainTails[model.classes.findIndex((c) => c.labelId === labelId)];
    // Company names here never hold a number; addresses open on "NO 12," and end on a postcode line; a total is typed.
    expect([plain(1), plain(3), plain(4)]).toEqual([true, false, false]);
    const doc = tokenize(layoutDocument('r', [[[20, 'CEDAR GROVE SDN BHD (587969-U)']], [[20, '7-ELEVEN STORE']]]));
    const line = (n: number) => doc.lines[n].tokens;
    const candidate = (tokens: typeof doc.tokens) => ({ cls: 1, start: tokens[0].start, end: tokens[tokens.length - 1].end, tokens, trimmed: false, isRun: false });
    const withNumber = candidate(line(0));
    const name = candidate(line(0).slice(0, 4));
    // A number opening the value is no tail ("7-ELEVEN" is mostly letters anyway).
    expect([numberTail(withNumber), numberTail(name), numberTail(candidate(line(1)))]).toEqual([true, false, false]);
    expect(plainCandidates([withNumber, name], true)).toEqual([name]);
    expect(plainCandidates([withNumber, name], false)).toEqual([withNumber, name]);
    // With no candidate free of a number tail they all stay.
    expect(plainCandidates([withNumber], true)).toEqual([withNumber]);
    const file = JSON.parse(serializeModel(model));
    file.spans.plainTails.pop();
    expect(() => parseModel(JSON.stringify(file))).toThrow(/span words/);
  });

  it('gives each label at most one value on receipts of unseen shops', () => {
    for (const p of predictions) for (const label of SCHEMA.labels) expect(found(p, label.id).length).toBeLessThanOrEqual(1);
  });

  it('finds multi-line addresses whole, and the total below its label rather than the cash given', () => {
    const right = (labelId: number, name: string) => test.filter((r, i) => found(predictions[i], labelId)[0]?.startOffset === r.doc.annotations.find((a) => a.labelId === labelId)!.startOffset && found(predictions[i], labelId)[0]?.endOffset === r.doc.annotations.find((a) => a.labelId === labelId)!.endOffset).length;
    expect(right(3, 'address')).toBeGreaterThanOrEqual(8);
    expect(right(4, 'total')).toBeGreaterThanOrEqual(8);
    expect(right(2, 'date')).toBeGreaterThanOrEqual(9);
    expect(right(1, 'company')).toBeGreaterThanOrEqual(8);
  });
});

describe('acceptance scores', () => {
  // Per group (a document's candidates of one class): its rows' scores and which row is the value.
  const groups = (list: { cls: number; scores: number[]; value: number }[]) => {
    const scores: number[] = [];
    const sy: number[] = [];
    const out = list.map((g) => {
      const from = scores.length;
      g.scores.forEach((v, i) => {
        scores.push(v);
        sy.push(i === g.value ? 1 : 0);
      });
      return { from, to: scores.length, candidates: g.scores.map(() => ({ cls: g.cls })) };
    });
    return { out, scores, sy };
  };

  it('stand just above the wrong best candidates that scored below every right one, per class', () => {
    const { out, scores, sy } = groups([
      { cls: 1, scores: [0.6, 0.1], value: 0 },
      { cls: 1, scores: [0.5], value: 0 },
      // No value on this document (value -1): its best candidate is wrong, below the right ones.
      { cls: 1, scores: [0.2, 0.15], value: -1 },
      // Wrong above the lowest right one: no cut could drop it without a right one.
      { cls: 1, scores: [0.3, 0.7], value: 0 },
      { cls: 2, scores: [0.4, 0.2], value: 0 },
      { cls: 2, scores: [0.1, 0.5], value: 0 },
    ]);
    const [first, second] = acceptanceScores(out, scores, sy, 2);
    expect(first).toBeGreaterThan(0.2);
    expect(first).toBeLessThan(0.21);
    // Class 2's one wrong best candidate (0.5, over the value's 0.1) scored above its right one (0.4): no cut.
    expect(second).toBe(0);
  });

  it('are learnt with the model and kept in its file', () => {
    const train = Array.from({ length: 30 }, (_, n) => receipt(n, TRAIN_WORDS, 3));
    const model = trainExtractionModel(train.map((r) => r.doc), SCHEMA);
    expect(model.spans!.minScores).toHaveLength(model.classes.length);
    expect(model.spans!.minScores.every((m) => m >= 0 && m <= 1)).toBe(true);
    expect(parseModel(serializeModel(model)).spans!.minScores).toEqual(model.spans!.minScores);
  });
});

describe('near misses', () => {
  const gold = (labelId: number, start: number, text: string): TrainingAnnotation => ({ labelId, labelSetId: 10, annotationSetKey: 'a', text, startOffset: start, endOffset: start + text.length, correct: true });
  const predicted = (labelId: number, start: number, text: string): PredictedAnnotation => ({ labelId, labelSetId: 10, setIndex: 0, startOffset: start, endOffset: start + text.length, text, confidence: 0.9, spans: [] });

  it('measure edits, white space and case aside, within a fifth of the longer text (one edit at least)', () => {
    expect(editDistance('60.30', '60.31')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(nearMissDistance('60.31', '60.30')).toBe(1);
    expect(nearMissDistance('12 Main  Street', '12 main street')).toBe(0);
    expect(nearMissDistance('NO 5, JALAN KENARI 2, PUCHONG', 'NO 5, JALAN KENARI 2, PUCHONG JAYA')).toBe(5);
    expect(nearMissDistance('31.02', '45.30')).toBeNull();
  });

  it('are counted apart, per label and per document, with the wrong labels listed expected beside found', () => {
    const result = evaluate(
      [
        { id: 7, name: 'a.jpg', gold: [gold(2, 0, '19/10/2018'), gold(4, 40, '60.30'), gold(3, 12, 'MAIN STREET 5')], predicted: [predicted(2, 0, '19/10/2018'), predicted(4, 50, '60.31'), predicted(3, 60, 'CASH')] },
        { id: 8, name: 'b.jpg', gold: [gold(4, 40, '12.00')], predicted: [predicted(1, 0, 'SHOP')] },
      ],
      SCHEMA,
    );
    // Near misses stay false positives and negatives: F1 is the exact figure it always was.
    expect(result.labels['4']).toMatchObject({ truePositives: 0, falsePositives: 1, falseNegatives: 2, nearMisses: 1 });
    expect(result.overall).toMatchObject({ truePositives: 1, falsePositives: 3, falseNegatives: 3, nearMisses: 1 });
    expect(result.documentResults).toEqual([
      {
        id: 7,
        name: 'a.jpg',
        right: 1,
        rightByValue: 1,
        nearMisses: 1,
        errors: [
          { labelId: 3, name: 'address', kind: 'wrong', expected: 'MAIN STREET 5', found: 'CASH', distance: expect.any(Number), rightByValue: false },
          { labelId: 4, name: 'total', kind: 'near_miss', expected: '60.30', found: '60.31', distance: 1, rightByValue: false },
        ],
      },
      {
        id: 8,
        name: 'b.jpg',
        right: 0,
        rightByValue: 0,
        nearMisses: 0,
        errors: [
          { labelId: 1, name: 'company', kind: 'extra', expected: null, found: 'SHOP', distance: null, rightByValue: false },
          { labelId: 4, name: 'total', kind: 'missed', expected: '12.00', found: null, distance: null, rightByValue: false },
        ],
      },
    ]);
    expect(result.nearMissRule).toMatch(/Levenshtein/);
  });
});
