// mergeRegionText: the characters read again in a region join the document text at their reading
// position, the rest of the text stays as it was, and every span still points at its characters.
import { describe, expect, it } from 'vitest';
import { layoutText, type LayoutInputChar } from '../../main/pipeline/textLayout.ts';
import { mergeRegionText, type OffsetSpan } from '../../main/pipeline/textMerge.ts';
import { sliceCodePoints } from '../../main/domain/geometry.ts';

const HEIGHT = 400;
const CHAR_W = 6;

/** A line of text as positioned characters (6 pt wide, 10 pt high, baseline at `y`), spaces as gaps. */
function line(text: string, x: number, y: number): LayoutInputChar[] {
  return Array.from(text).map((ch, i) => ({ text: ch, x0: x + i * CHAR_W, x1: x + (i + 1) * CHAR_W, y0: y, y1: y + 10, baseline: y }));
}

function document(pages: LayoutInputChar[][]) {
  return layoutText(pages.map((chars) => ({ height: HEIGHT, chars })));
}

/** The span of `needle` (its first occurrence) in a laid-out document, with its characters' box. */
function spanOf(doc: ReturnType<typeof document>, needle: string): OffsetSpan & { text: string } {
  const start = Array.from(doc.text).join('').indexOf(needle);
  expect(start, needle).toBeGreaterThanOrEqual(0);
  const end = start + needle.length;
  const cs = doc.chars.filter((c) => c.offset >= start && c.offset < end);
  return {
    text: needle, page_index: cs[0].page_index, start_offset: start, end_offset: end,
    x0: Math.min(...cs.map((c) => c.x0)), x1: Math.max(...cs.map((c) => c.x1)), y0: Math.min(...cs.map((c) => c.y0)), y1: Math.max(...cs.map((c) => c.y1)),
  };
}

const PAGE_1 = [...line('Invoice 2024-17', 40, 360), ...line('Net 100.00', 40, 300), ...line('Total 119.00', 40, 200)];
const PAGE_2 = [...line('Thank you', 40, 360), ...line('Bank DE12 3456', 40, 340)];

describe('mergeRegionText', () => {
  it('with nothing read in an empty region, the text and boxes stay exactly as they were', () => {
    const doc = document([PAGE_1, PAGE_2]);
    for (const pageIndex of [0, 1]) {
      const r = mergeRegionText({ text: doc.text, chars: doc.chars, pageIndex, pageHeight: HEIGHT, region: { x0: 300, x1: 350, y0: 10, y1: 20 }, newChars: [] });
      expect(r.text).toBe(doc.text);
      expect(r.chars.map((c) => [c.offset, c.text, c.line_index])).toEqual(doc.chars.map((c) => [c.offset, c.text, c.line_index]));
      expect(r.added).toEqual([]);
    }
  });

  it('puts a new line where it reads, between the lines above and below, and moves every span', () => {
    const doc = document([PAGE_1, PAGE_2]);
    const spans = ['2024-17', 'Net 100.00', '119.00', 'Thank', 'DE12 3456'].map((t) => spanOf(doc, t));
    const r = mergeRegionText({
      text: doc.text, chars: doc.chars, pageIndex: 0, pageHeight: HEIGHT,
      region: { x0: 30, x1: 200, y0: 240, y1: 260 },
      newChars: line('Tax 19.00', 40, 250),
    });
    const lines = r.text.split('\f')[0].split('\n').map((l) => l.trim());
    expect(lines).toEqual(['Invoice 2024-17', 'Net 100.00', 'Tax 19.00', 'Total 119.00']);
    expect(r.text.split('\f')[1]).toBe(doc.text.split('\f')[1]);
    expect(r.added.map((c) => c.text).join('')).toBe('Tax19.00');
    for (const s of spans) {
      const [moved] = r.moveSpan(s);
      expect(moved.line).toBeUndefined();
      expect(sliceCodePoints(r.text, moved.start_offset, moved.end_offset)).toBe(s.text);
      expect(moved.offset_string).toBe(s.text);
    }
    // Offsets and line indexes stay in step: every character box is where the text says.
    for (const c of r.chars) expect(sliceCodePoints(r.text, c.offset, c.offset + 1)).toBe(c.text);
    const lineIndexes = r.chars.map((c) => c.line_index);
    expect(lineIndexes).toEqual([...lineIndexes].sort((a, b) => a - b));
    expect(new Set(r.chars.filter((c) => c.page_index === 1).map((c) => c.line_index)).size).toBe(2);
    expect(Math.min(...r.chars.filter((c) => c.page_index === 1).map((c) => c.line_index))).toBeGreaterThan(Math.max(...r.chars.filter((c) => c.page_index === 0).map((c) => c.line_index)));
  });

  it('continues a line when the region lies at its end', () => {
    const doc = document([PAGE_1]);
    const r = mergeRegionText({ text: doc.text, chars: doc.chars, pageIndex: 0, pageHeight: HEIGHT, region: { x0: 130, x1: 200, y0: 295, y1: 315 }, newChars: line('EUR', 106, 300) });
    expect(r.text.split('\n')[1].trim()).toBe('Net 100.00 EUR');
    const [moved] = r.moveSpan(spanOf(doc, 'Total 119.00'));
    expect(moved.offset_string).toBe('Total 119.00');
  });

  it('replaces the old reading inside the region; a span there is read again from its box', () => {
    const doc = document([PAGE_1, PAGE_2]);
    const total = spanOf(doc, '119.00');
    const thanks = spanOf(doc, 'Thank you');
    // The old reading "119.00" was wrong: the region is read as 179.00 (same box).
    const r = mergeRegionText({ text: doc.text, chars: doc.chars, pageIndex: 0, pageHeight: HEIGHT, region: { x0: total.x0 - 1, x1: total.x1 + 1, y0: 195, y1: 215 }, newChars: line('179.00', total.x0, 200) });
    expect(r.text.split('\f')[0].split('\n')[2].trim()).toBe('Total 179.00');
    const moved = r.moveSpan(total);
    expect(moved).toHaveLength(1);
    expect(moved[0].offset_string).toBe('179.00');
    expect(moved[0].line).toBeUndefined(); // one line: the span keeps its own box
    const [later] = r.moveSpan(thanks);
    expect(sliceCodePoints(r.text, later.start_offset, later.end_offset)).toBe('Thank you');
  });

  it('a span whose characters are gone and not replaced has no place left', () => {
    const doc = document([PAGE_1]);
    const net = spanOf(doc, 'Net');
    const r = mergeRegionText({ text: doc.text, chars: doc.chars, pageIndex: 0, pageHeight: HEIGHT, region: { x0: 30, x1: 62, y0: 295, y1: 315 }, newChars: [] });
    expect(r.moveSpan(net)).toEqual([]);
    expect(r.text.split('\n')[1].trim()).toBe('100.00');
  });

  it('reads into an empty page and leaves spans without offsets alone', () => {
    const doc = document([PAGE_1, []]);
    const r = mergeRegionText({ text: doc.text, chars: doc.chars, pageIndex: 1, pageHeight: HEIGHT, region: { x0: 0, x1: 200, y0: 0, y1: 400 }, newChars: line('Signed', 50, 50) });
    expect(r.text.split('\f')[1].trim()).toBe('Signed');
    expect(r.added.every((c) => c.page_index === 1)).toBe(true);
    expect(r.moveSpan({ page_index: 1, x0: 0, x1: 1, y0: 0, y1: 1, start_offset: null, end_offset: null })).toEqual([]);
  });
});
