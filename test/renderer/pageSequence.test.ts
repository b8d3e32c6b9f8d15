// The rules of edit mode's page sequence (renderer/src/views/edit/pageSequence.ts): moves across split
// markers, markers that would leave a document empty, names that stay with their part, and the body sent.
import { describe, expect, it } from 'vitest';
import * as s from '../../renderer/src/views/edit/pageSequence.ts';

const pages = [1, 2, 3, 4].map((n) => ({ id: 100 + n, number: n }));
const numbers = (state: s.EditState) => s.partsOf(state).map((p) => p.pages.map((pg) => pg.number));
const ids = (...n: number[]) => new Set(n.map((x) => 100 + x));

describe('page sequence', () => {
  it('starts whole, or in the proposed parts with their categories and confidences', () => {
    expect(numbers(s.initialState(pages, 7))).toEqual([[1, 2, 3, 4]]);
    const proposed = s.initialState(pages, null, [
      { category: 5, category_confidence: 0.9, pages: [101, 102], confidence: 0.99 },
      { category: null, category_confidence: null, pages: [103, 104], confidence: 0.8 },
    ]);
    expect(numbers(proposed)).toEqual([[1, 2], [3, 4]]);
    const [a, b] = s.partsOf(proposed).map((p) => p.meta);
    expect(a).toMatchObject({ category: 5, proposal: { categoryConfidence: 0.9, confidence: 0.99 } });
    expect(b).toMatchObject({ category: 'auto', proposal: { category: null, confidence: 0.8 } });
  });

  it('moves pages step by step, across a split into the neighbouring document, a block together', () => {
    let st = s.toggleSplit(s.initialState(pages, null), 102);
    expect(numbers(st)).toEqual([[1, 2], [3, 4]]);
    st = s.moveStep(st, ids(3), -1);
    expect(numbers(st)).toEqual([[1, 2, 3], [4]]);
    st = s.moveStep(st, ids(2, 3), -1);
    expect(numbers(st)).toEqual([[2, 3, 1], [4]]);
    st = s.moveStep(st, ids(2, 3), -1); // already first: nothing moves
    expect(numbers(st)).toEqual([[2, 3, 1], [4]]);
    st = s.moveStep(st, ids(1), 1);
    expect(numbers(st)).toEqual([[2, 3], [1, 4]]);
  });

  it('drops empty documents and keeps names with the pages that stay in a part', () => {
    let st = s.toggleSplit(s.initialState(pages, null), 101);
    const second = s.partsOf(st)[1].meta.key;
    st = s.updateMeta(st, second, { name: 'Rest.pdf' });
    // Page 1 alone in document 1 moves right: document 1 is gone, the rest keeps its name.
    st = s.moveStep(st, ids(1), 1);
    expect(numbers(st)).toEqual([[1, 2, 3, 4]]);
    expect(s.partsOf(st)[0].meta.name).toBe('Rest.pdf');
    // Dragging every page of a middle document away removes its marker.
    st = s.toggleSplit(s.toggleSplit(st, 102), 103);
    expect(numbers(st)).toEqual([[1, 2], [3], [4]]);
    st = s.moveTo(st, ids(3), 101, false);
    expect(numbers(st)).toEqual([[3, 1, 2], [4]]);
  });

  it('turns pages both ways and builds the post-process body', () => {
    let st = s.rotate(s.initialState(pages, 9), ids(2), 1);
    st = s.rotate(st, ids(3), -1);
    st = s.moveTo(st, ids(3), 101, false);
    st = s.toggleSplit(st, 103);
    const [first] = s.partsOf(st);
    st = s.updateMeta(st, first.meta.key, { name: ' Cover.pdf ', category: 'auto' });
    expect(s.toPostprocess(st)).toEqual([
      { name: 'Cover.pdf', pages: [{ id: 103, number: 3, angle: 270 }] },
      { category: 9, pages: [{ id: 101, number: 1, angle: 0 }, { id: 102, number: 2, angle: 90 }, { id: 104, number: 4, angle: 0 }] },
    ]);
    expect(s.isUnchanged(st)).toBe(false);
    expect(s.isUnchanged(s.rotate(s.rotate(s.initialState(pages, null), ids(1), 1), ids(1), -1))).toBe(true);
  });

  it('rejects a proposal with every page in its original order, unturned', () => {
    expect(s.keepWhole([pages[2], pages[0], pages[1], pages[3]])).toEqual([{ pages: pages.map((p) => ({ id: p.id, number: p.number, angle: 0 })) }]);
  });

  it('selects a range in sequence order', () => {
    const st = s.moveTo(s.initialState(pages, null), ids(4), 101, false);
    expect(s.rangeBetween(st, 104, 102)).toEqual([104, 101, 102]);
  });
});
