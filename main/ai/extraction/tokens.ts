// Splits a document's text into tokens with boxes: the units the extraction model classifies. Words are
// runs of non-space characters, cut further where a value is glued to its decoration ("13,90€", "2x",
// "A=19,00", "Curry4260100870422"), so that an annotation starts and ends on token edges. Pure.
import type { CharBox } from '../../domain/geometry.ts';
import type { ExtractionDocument, PageSize } from './types.ts';

export interface Token {
  /** Position in the document's token list. */
  index: number;
  /** Code-point offsets, end exclusive. */
  start: number;
  end: number;
  text: string;
  page: number;
  /** The document-wide line index of the token's characters (CharBox.line_index). */
  line: number;
  /** Union of the character boxes, PDF points, origin bottom left. */
  x0: number;
  x1: number;
  y0: number;
  y1: number;
  /** Position of the token on its line, and the line's position in `lines`. */
  column: number;
  lineNo: number;
}

export interface TokenLine {
  page: number;
  tokens: Token[];
  x0: number;
  x1: number;
  y0: number;
  y1: number;
  /** Position of the line among the lines of its page, top to bottom. */
  rowInPage: number;
}

export interface TokenizedDocument {
  tokens: Token[];
  lines: TokenLine[];
  pageSizes: PageSize[];
  /** Number of lines per page. */
  linesPerPage: number[];
}

/** Characters that stand apart from what they touch: table rules, key-value signs, currency signs. */
const SEPARATORS = new Set(['|', ':', ';', '=', '€', '$', '£', '¦', '¥']);
const isDigit = (ch: string) => ch >= '0' && ch <= '9';

/** Where a word (code points) is cut into pieces: offsets inside the word at which a new piece starts. */
export function pieceBreaks(word: readonly string[]): number[] {
  const breaks = new Set<number>();
  const n = word.length;
  // A time ("14:51", "21:01:46") keeps its colons; any other separator is a piece of its own ("2:16,00%").
  const time = /^\d{1,2}(:\d{2}){1,2}$/.test(word.join(''));
  for (let i = 0; i < n; i++) {
    const ch = word[i];
    if (SEPARATORS.has(ch) && !(ch === ':' && time)) {
      breaks.add(i);
      breaks.add(i + 1);
    }
  }
  // A name glued to an article number: at least 3 letters, then at least 5 digits ("Curry4260100870422";
  // "DE33" and "DE122274982" stay whole).
  const s = word.join('');
  for (const m of s.matchAll(/\p{L}{3}(?=\d{5})/gu)) breaks.add(Array.from(s.slice(0, m.index! + m[0].length)).length);
  // A count glued to its sign ("2x"), a unit or sign after a number ("19,00%", "17,").
  for (let i = 1; i < n; i++) {
    if (!isDigit(word[i - 1])) continue;
    const rest = word.slice(i).join('');
    if (/^[xX×]$/.test(rest) || rest === '%' || rest === ',') breaks.add(i);
  }
  return [...breaks].filter((b) => b > 0 && b < n).sort((a, b) => a - b);
}

export function tokenize(doc: ExtractionDocument): TokenizedDocument {
  const cps = Array.from(doc.text);
  const boxes: (CharBox | undefined)[] = new Array(cps.length);
  for (const c of doc.chars) if (c.offset >= 0 && c.offset < cps.length) boxes[c.offset] = c;

  const tokens: Token[] = [];
  const emit = (start: number, end: number) => {
    let box: CharBox | undefined;
    let x0 = Infinity, x1 = -Infinity, y0 = Infinity, y1 = -Infinity;
    for (let o = start; o < end; o++) {
      const c = boxes[o];
      if (!c) continue;
      box ??= c;
      x0 = Math.min(x0, c.x0, c.x1);
      x1 = Math.max(x1, c.x0, c.x1);
      y0 = Math.min(y0, c.y0, c.y1);
      y1 = Math.max(y1, c.y0, c.y1);
    }
    // Text without boxes (nothing on a page to point at) cannot be shown as an annotation.
    if (!box) return;
    tokens.push({ index: tokens.length, start, end, text: cps.slice(start, end).join(''), page: box.page_index, line: box.line_index, x0, x1, y0, y1, column: 0, lineNo: 0 });
  };

  let i = 0;
  while (i < cps.length) {
    if (/\s/u.test(cps[i])) {
      i++;
      continue;
    }
    let j = i;
    // A word ends at white space, or where the characters change line (a layout never glues lines, but
    // character boxes may come from elsewhere).
    while (j < cps.length && !/\s/u.test(cps[j]) && (j === i || boxes[j]?.line_index === boxes[j - 1]?.line_index)) j++;
    let from = i;
    for (const b of pieceBreaks(cps.slice(i, j))) {
      emit(from, i + b);
      from = i + b;
    }
    emit(from, j);
    i = j;
  }
  return { tokens, ...linesOf(tokens, doc.pageSizes) };
}

function linesOf(tokens: Token[], pageSizes: PageSize[]): { lines: TokenLine[]; pageSizes: PageSize[]; linesPerPage: number[] } {
  const lines: TokenLine[] = [];
  const byKey = new Map<string, TokenLine>();
  for (const t of tokens) {
    const key = `${t.page}:${t.line}`;
    let line = byKey.get(key);
    if (!line) {
      line = { page: t.page, tokens: [], x0: Infinity, x1: -Infinity, y0: Infinity, y1: -Infinity, rowInPage: 0 };
      byKey.set(key, line);
      lines.push(line);
    }
    t.column = line.tokens.length;
    line.tokens.push(t);
    line.x0 = Math.min(line.x0, t.x0);
    line.x1 = Math.max(line.x1, t.x1);
    line.y0 = Math.min(line.y0, t.y0);
    line.y1 = Math.max(line.y1, t.y1);
  }
  const linesPerPage = pageSizes.map(() => 0);
  lines.forEach((line, n) => {
    line.rowInPage = linesPerPage[line.page] ?? 0;
    linesPerPage[line.page] = line.rowInPage + 1;
    for (const t of line.tokens) t.lineNo = n;
  });
  return { lines, pageSizes, linesPerPage };
}

/** Glyph height of a token: the unit for gaps and distances ("em"). */
export const tokenHeight = (t: Token) => Math.max(1, t.y1 - t.y0);

/** Horizontal gap from a to b on one line, in a's em (negative when they touch or overlap). */
export const gapEm = (a: Token, b: Token) => (b.x0 - a.x1) / Math.max(tokenHeight(a), tokenHeight(b));
