// CTC decoding of the PP-OCR recognizer's output on made-up distributions: the greedy path, the prefix
// beam search that sums every path of a label sequence, and the alignment that places the chosen labels.
import { describe, expect, it } from 'vitest';
import { ctcAlign, ctcBeam, ctcDecode, ctcGreedy, doubtfulChar, peakStep } from '../../main/pipeline/ocr/paddle/ctc.ts';

/** Distributions over [blank, a, b, space] (classes 0..3), one row a time step. */
const steps = (rows: number[][]) => new Float32Array(rows.flat());
const labels = (cs: { index: number }[]) => cs.map((c) => c.index);

describe('CTC decoding', () => {
  it('beam search keeps a character spread thin over two steps, which the greedy path drops', () => {
    // "a", then "b" at 0.4 on two steps (blank 0.6 each), then "a": the greedy path is blank-blank
    // (0.36), but the paths that emit "b" weigh 0.64 together.
    const p = steps([[0.1, 0.9, 0, 0], [0.6, 0, 0.4, 0], [0.6, 0, 0.4, 0], [0.1, 0.9, 0, 0]]);
    expect(labels(ctcGreedy(p, 4, 4))).toEqual([1, 1]);
    const beam = ctcBeam(p, 4, 4);
    expect(labels(beam)).toEqual([1, 2, 1]);
    // The thin character is placed on the step of its best path, with its probability there.
    expect(beam[1]).toMatchObject({ first: 1, last: 1 });
    expect(beam[1].prob).toBeCloseTo(0.4);
  });

  it('beam search gives the greedy result, steps and probabilities included, where the greedy path is also the likeliest labelling', () => {
    const p = steps([[0.1, 0.9, 0, 0], [0.05, 0.85, 0.1, 0], [0.9, 0.1, 0, 0], [0.1, 0.9, 0, 0], [0.2, 0, 0.8, 0], [0.1, 0, 0.9, 0], [0.1, 0, 0, 0.9], [0.05, 0.95, 0, 0]]);
    expect(ctcBeam(p, 8, 4)).toEqual(ctcGreedy(p, 8, 4));
    expect(labels(ctcGreedy(p, 8, 4))).toEqual([1, 1, 2, 3, 1]);
  });

  it('beam search recovers a space class the greedy path misses (the recognizer spreads its spaces thin)', () => {
    const p = steps([[0.1, 0.9, 0, 0], [0.55, 0, 0, 0.45], [0.55, 0, 0, 0.45], [0.1, 0, 0.9, 0]]);
    expect(labels(ctcGreedy(p, 4, 4))).toEqual([1, 2]);
    expect(labels(ctcBeam(p, 4, 4))).toEqual([1, 3, 2]);
  });

  it('a repeated character needs a blank between its two runs, in the search and in the alignment', () => {
    // "a" "a" with no blank between is one "a"; with a blank between, two.
    const one = steps([[0.1, 0.9, 0, 0], [0.1, 0.9, 0, 0], [0.9, 0.1, 0, 0]]);
    expect(labels(ctcBeam(one, 3, 4))).toEqual([1]);
    const two = steps([[0.1, 0.9, 0, 0], [0.9, 0.1, 0, 0], [0.1, 0.9, 0, 0]]);
    expect(labels(ctcBeam(two, 3, 4))).toEqual([1, 1]);
    expect(ctcAlign(two, 3, 4, [1, 1]).map((c) => [c.first, c.last])).toEqual([[0, 0], [2, 2]]);
  });

  it('the alignment places each label on the steps of its best path and averages its probability there', () => {
    const p = steps([[0.2, 0.8, 0, 0], [0.3, 0.7, 0, 0], [0.8, 0.1, 0.1, 0], [0.3, 0, 0.7, 0]]);
    expect(ctcAlign(p, 4, 4, [1, 2])).toEqual([
      { index: 1, first: 0, last: 1, prob: expect.closeTo(0.75, 5) },
      { index: 2, first: 3, last: 3, prob: expect.closeTo(0.7, 5) },
    ]);
    expect(ctcAlign(p, 4, 4, [])).toEqual([]);
  });

  it('a line of blanks decodes to nothing, and long lines do not underflow', () => {
    expect(ctcBeam(steps([[1, 0, 0, 0], [0.99, 0.01, 0, 0]]), 2, 4)).toEqual([]);
    // 2,000 steps of 0.5 probabilities: a product of 2^-2000 without the per-step scaling.
    const rows: number[][] = [];
    for (let t = 0; t < 2000; t++) rows.push(t % 4 === 0 ? [0.5, 0.5, 0, 0] : [0.5, 0, 0, 0.5]);
    const out = ctcBeam(steps(rows), 2000, 4);
    expect(out.length).toBeGreaterThan(0);
    expect(out.every((c) => Number.isFinite(c.prob) && c.prob > 0)).toBe(true);
  });

  it('Folio\'s decoding takes the beam search\'s spaces but keeps the greedy path\'s characters', () => {
    // Class 3 is the space. A thin space between "a" and "b": taken, placed on its best step.
    const space = steps([[0.1, 0.9, 0, 0], [0.55, 0, 0, 0.45], [0.55, 0, 0, 0.45], [0.1, 0, 0.9, 0]]);
    const decoded = ctcDecode(space, 4, 4, 0, 3);
    expect(labels(decoded)).toEqual([1, 3, 2]);
    expect(decoded[1]).toMatchObject({ first: 1, last: 1 });
    // A thin "b" between two "a"s changes the characters: the greedy reading stays.
    const letter = steps([[0.1, 0.9, 0, 0], [0.6, 0, 0.4, 0], [0.6, 0, 0.4, 0], [0.1, 0.9, 0, 0]]);
    expect(ctcDecode(letter, 4, 4, 0, 3)).toEqual(ctcGreedy(letter, 4, 4));
    // Where both agree, the greedy result itself; at an offset into a batch as well.
    const plain = steps([[0, 0, 0, 0], [0.1, 0.9, 0, 0], [0.9, 0.1, 0, 0], [0.2, 0, 0.8, 0]]);
    expect(ctcDecode(plain, 3, 4, 4, 3)).toEqual(ctcGreedy(plain, 3, 4, 4));
    expect(labels(ctcDecode(plain, 3, 4, 4, 3))).toEqual([1, 2]);
  });

  it('a point less likely than the blank and the space together at its strongest step is doubtful, a sure one is not', () => {
    // "a", then a point (class 2) at 0.34 beside a space (3) at 0.33 and a blank at 0.24 ("SDN.BHD"), then "a".
    const speck = steps([[0.1, 0.9, 0, 0], [0.24, 0.09, 0.34, 0.33], [0.1, 0.9, 0, 0]]);
    const [, point] = ctcGreedy(speck, 3, 4);
    expect(point).toMatchObject({ index: 2, first: 1, last: 1 });
    expect(doubtfulChar(speck, 4, 0, point, 3)).toBe(true);
    // Printed: 0.9 on one of its two steps; the weaker step does not decide.
    const printed = steps([[0.1, 0.9, 0, 0], [0.3, 0, 0.4, 0.3], [0.05, 0, 0.9, 0.05], [0.1, 0.9, 0, 0]]);
    const c = ctcGreedy(printed, 4, 4).find((x) => x.index === 2);
    expect(c).toBeDefined();
    expect(c).toMatchObject({ first: 1, last: 2 });
    expect(peakStep(printed, 4, 0, c!)).toBe(2);
    expect(doubtfulChar(printed, 4, 0, c!, 3)).toBe(false);
  });
});
