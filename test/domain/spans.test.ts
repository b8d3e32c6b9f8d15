// Spans (spec 2.10): same-place comparison, stored form with the original text, derived columns.
import { describe, expect, it } from 'vitest';
import { samePlace, samePosition, spanColumns, toStoredSpans, type SpanInput } from '../../main/domain/spans.ts';

const box = (x0: number, extra: Partial<SpanInput> = {}): SpanInput => ({ page_index: 0, x0, x1: x0 + 10, y0: 100, y1: 112, ...extra });

describe('samePlace', () => {
  const rows: [string, SpanInput, SpanInput, boolean][] = [
    ['the same rectangle', box(10), box(10), true],
    ['a rectangle within rounding', box(10), box(10.004), true],
    ['another rectangle', box(10), box(30), false],
    ['another page', box(10), box(10, { page_index: 1 }), false],
    ['the same character range, whatever the rectangle', box(10, { start_offset: 3, end_offset: 8 }), box(50, { start_offset: 3, end_offset: 8 }), true],
    ['another character range at the same rectangle', box(10, { start_offset: 3, end_offset: 8 }), box(10, { start_offset: 4, end_offset: 8 }), false],
    ['a range on one side only: rectangles decide', box(10, { start_offset: 3, end_offset: 8 }), box(10), true],
  ];
  it.each(rows)('%s', (_name, a, b, expected) => expect(samePlace(a, b)).toBe(expected));

  it('compares multi-span annotations in any order', () => {
    expect(samePosition([box(10), box(30)], [box(30), box(10)])).toBe(true);
    expect(samePosition([box(10), box(30)], [box(10)])).toBe(false);
  });
});

describe('toStoredSpans and spanColumns', () => {
  it('defaults the text to "" and remembers the first text as the original', () => {
    const [a, b] = toStoredSpans([box(10), box(30, { offset_string: '12,50', top: 5, bottom: 17, start_offset: 4, end_offset: 9 })]);
    expect(a).toMatchObject({ offset_string: '', offset_string_original: '', top: null, bottom: null, start_offset: null });
    expect(b).toMatchObject({ offset_string: '12,50', offset_string_original: '12,50', top: 5, bottom: 17, start_offset: 4, end_offset: 9 });
  });

  it('keeps the original text, top and bottom of a place the annotation already had', () => {
    const first = toStoredSpans([box(10, { offset_string: '1O0', top: 5, bottom: 17 })]);
    const [corrected] = toStoredSpans([box(10, { offset_string: '100' })], first);
    expect(corrected).toMatchObject({ offset_string: '100', offset_string_original: '1O0', top: 5, bottom: 17 });
    const [untouched] = toStoredSpans([box(10)], first);
    expect(untouched).toMatchObject({ offset_string: '1O0', offset_string_original: '1O0' });
    const [moved] = toStoredSpans([box(40, { offset_string: 'x' })], first);
    expect(moved).toMatchObject({ offset_string: 'x', offset_string_original: 'x' });
  });

  it('derives the annotation columns from its spans', () => {
    const spans = toStoredSpans([box(10, { offset_string: 'Max', start_offset: 20, end_offset: 23 }), box(30, { offset_string: 'Muster', start_offset: 24, end_offset: 30 })]);
    expect(spanColumns(spans)).toMatchObject({ offset_string: 'Max Muster', start_offset: 20, end_offset: 30, custom_offset_string: 0 });
    const corrected = toStoredSpans([box(10, { offset_string: 'Max.' })], spans);
    expect(spanColumns(corrected)).toMatchObject({ custom_offset_string: 1, start_offset: null });
    expect(JSON.parse(spanColumns(spans).spans)).toEqual(spans);
  });
});
