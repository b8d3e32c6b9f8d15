// Line grouping, reading order, word spacing, padding and offsets of the text layout, case by case.
import { describe, expect, it } from 'vitest';
import { layoutText, type LayoutInputChar, type LayoutInputPage } from '../../main/pipeline/textLayout.ts';

interface GlyphOptions {
  width?: number;
  size?: number;
  dir?: number;
  baseline?: number;
}

/** Glyphs of `text` drawn left to right from (x, y), each `width` wide; ' ' becomes a space glyph. */
function word(text: string, x: number, y: number, { width = 5, size = 10, ...rest }: GlyphOptions = {}): LayoutInputChar[] {
  return Array.from(text).map((ch, i) => ({ text: ch, x0: x + i * width, x1: x + (i + 1) * width, y0: y, y1: y + size, ...rest }));
}

/** Upside-down glyphs (dir 180) hanging from y, drawn right to left from x; their baseline is their top
 * unless text rise moved them off a line's baseline. */
function upsideDown(text: string, x: number, y: number, baseline = y, width = 5, size = 10): LayoutInputChar[] {
  return Array.from(text).map((ch, i) => ({ text: ch, x0: x - (i + 1) * width, x1: x - i * width, y0: y - size, y1: y, dir: 180, baseline }));
}

/** Glyphs of a line running down the page (dir 270, as on a page turned clockwise), from (x, top). */
function downwards(text: string, x: number, top: number, height = 5, size = 10): LayoutInputChar[] {
  return Array.from(text).map((ch, i) => ({ text: ch, x0: x, x1: x + size, y0: top - (i + 1) * height, y1: top - i * height, dir: 270 }));
}

const page = (...chars: LayoutInputChar[][]): LayoutInputPage => ({ height: 200, chars: chars.flat() });

describe('layoutText', () => {
  const cases: { name: string; pages: LayoutInputPage[]; padding?: boolean; text: string }[] = [
    { name: 'glyphs that touch are one word', pages: [page(word('ABC', 10, 100))], text: 'ABC' },
    { name: 'a gap wider than 0.1 em is a word break', pages: [page(word('AB', 10, 100), word('CD', 21.5, 100))], text: 'AB CD' },
    { name: 'a narrower gap (kerning, letter spacing) is not', pages: [page(word('AB', 10, 100), word('CD', 20.9, 100))], text: 'ABCD' },
    { name: 'a space glyph breaks words without a gap', pages: [page(word('A B', 10, 100))], text: 'A B' },
    { name: 'lines run top to bottom whatever the drawing order', pages: [page(word('low', 10, 50), word('high', 10, 100))], text: 'high\nlow' },
    {
      name: 'a table drawn column by column reads row by row (one baseline, one line)',
      pages: [page(word('Name', 10, 100), word('Total', 10, 80), word('Ann', 100, 100), word('5', 100, 80))],
      text: 'Name Ann\nTotal 5',
    },
    {
      name: 'text rise (a superscript on the same baseline) stays on its line',
      pages: [page(word('m', 10, 100), [{ text: '2', x0: 15, x1: 18, y0: 104, y1: 110, baseline: 100 }], word('x', 200, 100))],
      text: 'm2 x',
    },
    {
      name: 'a superscript on a raised baseline continues the line it is drawn after',
      pages: [page(word('m', 10, 100), [{ text: '2', x0: 15, x1: 18, y0: 104, y1: 110 }])],
      text: 'm2',
    },
    {
      name: 'a glyph on its own baseline far from the previous run is its own line',
      pages: [page(word('AAA', 10, 100), word('F', 100, 95), word('BBB', 10, 90))],
      text: 'AAA\nF\nBBB',
    },
    {
      name: 'text printed over text on one baseline is not interleaved',
      pages: [page(word('ABC', 10, 100), word('XYZ', 12, 100))],
      text: 'ABC\nXYZ',
    },
    {
      name: 'an upside-down run drawn on a line keeps its own order there',
      pages: [page(word('MIX', 10, 100), upsideDown('ED', 80, 110, 100))],
      text: 'MIX ED',
    },
    { name: 'a line of upside-down glyphs reads right to left on the page', pages: [page(upsideDown('AB', 80, 110))], text: 'AB' },
    {
      name: 'a page turned upside down reads its lines from their own top (the page bottom)',
      pages: [page(upsideDown('NEXT', 80, 100), upsideDown('FIRST', 80, 50))],
      text: 'FIRST\nNEXT',
    },
    {
      name: 'lines running downwards (a page turned clockwise) read from the right',
      pages: [page(downwards('NEXT', 130, 190), downwards('FIRST', 150, 190))],
      text: 'FIRST\nNEXT',
    },
    {
      name: 'an upside-down line on an upright page keeps its place from the page top',
      pages: [page(word('top', 10, 150), upsideDown('ED', 80, 110), word('low', 10, 50))],
      text: 'top\nED\nlow',
    },
    {
      name: 'vertical text follows the horizontal lines',
      pages: [page([{ text: 'V', x0: 150, x1: 160, y0: 10, y1: 15, dir: 90, baseline: -160 }, { text: 'W', x0: 150, x1: 160, y0: 15, y1: 20, dir: 90, baseline: -160 }], word('H', 10, 100))],
      text: 'H\nVW',
    },
    { name: 'pages are joined by form feeds', pages: [page(word('one', 10, 100)), page(word('two', 10, 100), word('three', 10, 80))], text: 'one\ftwo\nthree' },
    { name: 'an empty page is an empty string between form feeds', pages: [page(word('a', 10, 100)), page(), page(word('b', 10, 100))], text: 'a\f\fb' },
    {
      name: 'padding keeps words in their columns and indents lines',
      padding: true,
      pages: [page(word('ab', 0, 100), word('cd', 20, 100), word('x', 10, 80))],
      text: 'ab  cd\n  x',
    },
  ];

  for (const c of cases) {
    it(c.name, () => {
      expect(layoutText(c.pages, { padding: c.padding ?? false }).text).toBe(c.text);
    });
  }

  it('gives every non-space character its page, a document-wide line index and top/bottom', () => {
    const layout = layoutText([page(word('ab', 10, 100)), page(word('c', 10, 150), word('d', 10, 100))], { padding: false });
    expect(layout.text).toBe('ab\fc\nd');
    expect(layout.chars.map((c) => [c.text, c.offset, c.page_index, c.line_index])).toEqual([
      ['a', 0, 0, 1],
      ['b', 1, 0, 1],
      ['c', 3, 1, 2],
      ['d', 5, 1, 3],
    ]);
    expect(layout.chars[2]).toMatchObject({ x0: 10, x1: 15, y0: 150, y1: 160, top: 40, bottom: 50 });
  });

  it('counts offsets in code points, like the API', () => {
    const layout = layoutText([page(word('𝔸b', 10, 100))], { padding: false });
    expect(layout.text).toBe('𝔸b');
    expect(layout.chars.map((c) => c.offset)).toEqual([0, 1]);
  });

  it('pads by default, and every offset points at its character', () => {
    const layout = layoutText([page(word('Lohn', 50, 100), word('1.234,00', 300, 100), word('Netto', 50, 80))]);
    const codePoints = Array.from(layout.text);
    expect(layout.text.split('\n')[0]).toMatch(/^ {10}Lohn {20,}1\.234,00$/);
    for (const c of layout.chars) expect(codePoints[c.offset]).toBe(c.text);
  });
});
