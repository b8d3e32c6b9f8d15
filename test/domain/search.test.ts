// Document search (POST documents/<id>/search/): white space in the query matches any white space of the
// text, line breaks too, so a value printed over several lines (an address) is one hit with a span per line.
import { describe, expect, it } from 'vitest';
import { searchSpans, type CharBox } from '../../main/domain/geometry.ts';

/** Lines of text, 10 points a character, 20 points apart; pages separated by \f (spaces have no box). */
function layout(pages: string[][]): { text: string; chars: CharBox[]; heights: number[] } {
  const chars: CharBox[] = [];
  let text = '';
  let line = 0;
  pages.forEach((lines, pageIndex) => {
    if (pageIndex) text += '\f';
    lines.forEach((l, row) => {
      if (row) text += '\n';
      for (const [col, ch] of Array.from(l).entries()) {
        if (ch !== ' ') chars.push({ offset: text.length, text: ch, x0: 10 * col, x1: 10 * col + 8, y0: 700 - 20 * row, y1: 712 - 20 * row, top: 0, bottom: 0, page_index: pageIndex, line_index: line });
        text += ch;
      }
      line += 1;
    });
  });
  return { text, chars, heights: pages.map(() => 842) };
}

describe('searchSpans', () => {
  const receipt = layout([['SANYU STATIONERY', 'NO. 31G&33G, JALAN SETIA INDAH', 'X U13/X, SETIA ALAM', 'TOTAL 10.60'], ['SETIA ALAM', 'THANK YOU']]);

  it('finds a value over several lines as one hit, with one span per line', () => {
    const hits = searchSpans(receipt.text, receipt.chars, 'no. 31g&33g, jalan setia indah x u13/x, setia alam', receipt.heights);
    expect(hits).toHaveLength(1);
    expect(hits[0].map((s) => s.offset_string)).toEqual(['NO. 31G&33G, JALAN SETIA INDAH', 'X U13/X, SETIA ALAM']);
    expect(hits[0].map((s) => s.line_index)).toEqual([1, 2]);
  });

  it('still finds each occurrence on a line as a hit of its own', () => {
    const hits = searchSpans(receipt.text, receipt.chars, 'setia alam', receipt.heights);
    expect(hits.map((h) => h.map((s) => [s.page_index, s.offset_string]))).toEqual([[[0, 'SETIA ALAM']], [[1, 'SETIA ALAM']]]);
  });

  it('any run of spaces in the query or the text matches', () => {
    const doc = layout([['TOTAL    10.60', 'CASH']]);
    expect(searchSpans(doc.text, doc.chars, ' total 10.60   cash ', doc.heights).map((h) => h.length)).toEqual([2]);
  });

  it('does not run on across a page break', () => {
    expect(searchSpans(receipt.text, receipt.chars, 'total 10.60 setia alam', receipt.heights)).toEqual([]);
  });
});
