// Spans (spec 2.10): same-place comparison, stored form with text and offsets read from the page, derived columns.
import { describe, expect, it } from 'vitest';
import { machineSpans, samePlace, samePosition, spanColumns, toStoredSpans, type SpanInput } from '../../main/domain/spans.ts';
import { textInRects } from '../../main/domain/geometry.ts';
import type { ValidationError } from '../../main/domain/errors.ts';
import type { CharBox } from '../../main/domain/geometry.ts';

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

/** A page of two lines, 10 points a character, as the pipeline stores them (spaces have no box). */
const TEXT = 'Max Muster\nTotal 12,50';
const CHARS: CharBox[] = Array.from(TEXT).flatMap((text, offset) => {
  if (text === ' ' || text === '\n') return [];
  const line = offset < 10 ? 0 : 1;
  const col = line === 0 ? offset : offset - 11;
  return [{ offset, text, x0: 10 * col, x1: 10 * col + 8, y0: 700 - 20 * line, y1: 712 - 20 * line, top: 0, bottom: 0, page_index: 0, line_index: line }];
});
const processed = textInRects(TEXT, CHARS, [842]);
const unprocessed = () => null;
const rect = (x0: number, x1: number, y0: number, y1: number, extra: Partial<SpanInput> = {}): SpanInput => ({ page_index: 0, x0, x1, y0, y1, ...extra });

describe('toStoredSpans on a page with characters', () => {
  it('takes text and offsets from the characters inside the rectangle, ignoring sent offsets', () => {
    const [s] = toStoredSpans([rect(39, 99, 699, 713, { start_offset: 0, end_offset: 3 })], [], processed);
    expect(s).toMatchObject({ x0: 39, x1: 99, offset_string: 'Muster', offset_string_original: 'Muster', start_offset: 4, end_offset: 10, top: 129, bottom: 143 });
  });

  it('keeps a sent text as a correction of the found one, and that correction when the span comes back without text', () => {
    const [corrected] = toStoredSpans([rect(59, 109, 679, 693, { offset_string: '12.50' })], [], processed);
    expect(corrected).toMatchObject({ offset_string: '12.50', offset_string_original: '12,50', start_offset: 17, end_offset: 22 });
    expect(spanColumns([corrected]).custom_offset_string).toBe(true);
    const [again] = toStoredSpans([rect(58, 110, 678, 694)], [corrected], processed);
    expect(again).toMatchObject({ offset_string: '12.50', offset_string_original: '12,50' });
    const [plain] = toStoredSpans([rect(58, 110, 678, 694, { offset_string: '' })], [], processed);
    expect(plain.offset_string).toBe('12,50');
  });

  it('splits a rectangle over two lines into one span per line', () => {
    const spans = toStoredSpans([rect(-1, 40, 670, 720)], [], processed);
    expect(spans.map((s) => [s.offset_string, s.start_offset, s.end_offset, s.x0, s.y0])).toEqual([['Max', 0, 3, 0, 700], ['Tota', 11, 15, 0, 680]]);
    expect(() => toStoredSpans([rect(-1, 40, 670, 720, { offset_string: 'Max Tot' })], [], processed)).toThrow(/2 lines/);
    expect(toStoredSpans([rect(-1, 40, 670, 720, { offset_string: 'Max\nTota' })], [], processed)).toHaveLength(2);
  });

  it('refuses a rectangle without characters, naming the span', () => {
    try {
      toStoredSpans([rect(0, 30, 699, 713), rect(300, 400, 100, 200)], [], processed);
      expect.unreachable();
    } catch (err) {
      expect((err as ValidationError).fields).toHaveProperty(['span.1']);
    }
  });
});

describe('toStoredSpans on a page without characters, and spanColumns', () => {
  it('defaults the text to "" and drops sent offsets', () => {
    const [a, b] = toStoredSpans([box(10), box(30, { offset_string: '12,50', top: 5, bottom: 17, start_offset: 4, end_offset: 9 })], [], unprocessed);
    expect(a).toMatchObject({ offset_string: '', offset_string_original: '', top: null, bottom: null, start_offset: null });
    expect(b).toMatchObject({ offset_string: '12,50', offset_string_original: '12,50', top: 5, bottom: 17, start_offset: null, end_offset: null });
  });

  it('keeps the original text, top and bottom of a place the annotation already had', () => {
    const first = toStoredSpans([box(10, { offset_string: '1O0', top: 5, bottom: 17 })], [], unprocessed);
    const [corrected] = toStoredSpans([box(10, { offset_string: '100' })], first, unprocessed);
    expect(corrected).toMatchObject({ offset_string: '100', offset_string_original: '1O0', top: 5, bottom: 17 });
    const [untouched] = toStoredSpans([box(10)], first, unprocessed);
    expect(untouched).toMatchObject({ offset_string: '1O0', offset_string_original: '1O0' });
    const [moved] = toStoredSpans([box(40, { offset_string: 'x' })], first, unprocessed);
    expect(moved).toMatchObject({ offset_string: 'x', offset_string_original: 'x' });
  });

  it('derives the annotation columns from its spans', () => {
    const spans = machineSpans([box(10, { offset_string: 'Max', start_offset: 20, end_offset: 23 }), box(30, { offset_string: 'Muster', start_offset: 24, end_offset: 30 })]);
    expect(spanColumns(spans)).toMatchObject({ offset_string: 'Max Muster', start_offset: 20, end_offset: 30, custom_offset_string: false });
    const corrected = toStoredSpans([box(10, { offset_string: 'Max.' })], spans, unprocessed);
    expect(spanColumns(corrected)).toMatchObject({ custom_offset_string: true, start_offset: null });
    expect(spanColumns(spans).spans).toEqual(spans);
  });
});
