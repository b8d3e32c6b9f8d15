// Tesseract's hOCR (as the tesseract program writes it with hocr_char_boxes=1) into the result tree
// tesseract.js returns, so toPageText() turns either engine's output into page text the same way.
// Only tesseract's own, regular output is read: one tag per element, titles in its fixed syntax.
import type { TessBlock, TessBox, TessLine, TessSymbol, TessWord } from './ocrText.ts';

const LINE_CLASSES = new Set(['ocr_line', 'ocr_textfloat', 'ocr_header', 'ocr_caption']);

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
function unescape(s: string): string {
  if (!s.includes('&')) return s;
  return s.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (all, e: string) => {
    if (e[0] === '#') return String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : Number(e.slice(1)));
    return ENTITIES[e] ?? all;
  });
}

// Made once: a page of hOCR has thousands of tags, and a pattern built per tag was a new RegExp each time.
const CLASS_ATTR = /\sclass=(?:'([^']*)'|"([^"]*)")/;
const TITLE_ATTR = /\stitle=(?:'([^']*)'|"([^"]*)")/;

function attr(tag: string, pattern: RegExp): string | undefined {
  const m = pattern.exec(tag);
  return m ? unescape(m[1] ?? m[2]) : undefined;
}

const SPACE = /\s/;

/** The numbers after `key` in an hOCR title ("bbox 1 2 3 4; x_wconf 90"): the first part (between
 * semicolons) whose first word is `key`. Only that part is cut out and split. */
function prop(title: string, key: string): number[] | undefined {
  for (let from = 0; from <= title.length; ) {
    let end = title.indexOf(';', from);
    if (end < 0) end = title.length;
    let i = from;
    while (i < end && SPACE.test(title[i])) i++;
    const after = i + key.length;
    if (after <= end && title.startsWith(key, i) && (after === end || SPACE.test(title[after]))) {
      const rest = title.slice(after, end).trim();
      return rest ? rest.split(/\s+/).map(Number) : [];
    }
    from = end + 1;
  }
  return undefined;
}

function box(title: string, key = 'bbox'): TessBox | undefined {
  const b = prop(title, key);
  return b && b.length >= 4 ? { x0: b[0], y0: b[1], x1: b[2], y1: b[3] } : undefined;
}

/** A word character of a tag name, as the pattern \w reads it. */
function isWordChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}

/**
 * The pieces of hOCR in order: tags (`<name rest>` or `</name rest>`, up to the first '>') and the text
 * between them. What the pattern /<(\/?)(\w+)([^>]*)>|([^<]+)/g finds, by indexOf instead: a '<' that
 * starts no tag is skipped, as the pattern skips it. `visit` gets either a tag or a text.
 */
function eachPiece(hocr: string, visit: (closing: boolean, name: string | undefined, rest: string, text: string | undefined) => void): void {
  const n = hocr.length;
  let i = 0;
  while (i < n) {
    if (hocr.charCodeAt(i) !== 60 /* < */) {
      let next = hocr.indexOf('<', i);
      if (next < 0) next = n;
      visit(false, undefined, '', hocr.slice(i, next));
      i = next;
      continue;
    }
    const closing = hocr.charCodeAt(i + 1) === 47 /* / */ && isWordChar(hocr.charCodeAt(i + 2));
    const nameStart = i + (closing ? 2 : 1);
    let nameEnd = nameStart;
    while (nameEnd < n && isWordChar(hocr.charCodeAt(nameEnd))) nameEnd++;
    const close = nameEnd > nameStart ? hocr.indexOf('>', nameEnd) : -1;
    if (close < 0) {
      // Not a tag: the '<' is passed over and what follows it is read again.
      i += 1;
      continue;
    }
    visit(closing, hocr.slice(nameStart, nameEnd), hocr.slice(nameEnd, close), undefined);
    i = close + 1;
  }
}

export function parseHocr(hocr: string): TessBlock[] {
  const blocks: TessBlock[] = [];
  let block: TessBlock | undefined;
  let para: { lines: TessLine[] } | undefined;
  let line: TessLine | undefined;
  let word: TessWord | undefined;
  let symbol: TessSymbol | undefined;
  // What each open span is, so that a closing tag ends the right element.
  const spans: ('line' | 'word' | 'char' | 'other')[] = [];
  eachPiece(hocr, (closing, name, rest, text) => {
    if (text !== undefined) {
      const t = unescape(text.trim()).trim();
      if (!t) return;
      if (symbol) symbol.text += t;
      else if (word) word.text += t;
      return;
    }
    if (!closing) {
      if (name !== 'div' && name !== 'p' && name !== 'span') return;
      const cls = attr(rest, CLASS_ATTR);
      if (name === 'div' && cls === 'ocr_carea') {
        block = { paragraphs: [] };
        blocks.push(block);
      } else if (name === 'p' && cls === 'ocr_par') {
        if (!block) blocks.push((block = { paragraphs: [] }));
        para = { lines: [] };
        block.paragraphs.push(para);
      } else if (name === 'span') {
        const title = attr(rest, TITLE_ATTR) ?? '';
        if (cls && LINE_CLASSES.has(cls)) {
          const bb = box(title) ?? { x0: 0, y0: 0, x1: 0, y1: 0 };
          const bl = prop(title, 'baseline');
          const size = prop(title, 'x_size')?.[0];
          const desc = prop(title, 'x_descenders')?.[0];
          const asc = prop(title, 'x_ascenders')?.[0];
          // hOCR's baseline is "slope offset" from the line box's bottom left corner.
          const baseline = bl && bl.length >= 2 ? { x0: bb.x0, y0: bb.y1 + bl[1], x1: bb.x1, y1: bb.y1 + bl[1] + bl[0] * (bb.x1 - bb.x0) } : null;
          line = { bbox: bb, baseline, rowAttributes: size !== undefined && desc !== undefined ? { rowHeight: size, descenders: -desc, ascenders: asc ?? 0 } : null, words: [] };
          if (!para) {
            if (!block) blocks.push((block = { paragraphs: [] }));
            para = { lines: [] };
            block.paragraphs.push(para);
          }
          para.lines.push(line);
          spans.push('line');
        } else if (cls === 'ocrx_word' && line) {
          word = { text: '', confidence: prop(title, 'x_wconf')?.[0] ?? 0, bbox: box(title) ?? line.bbox, symbols: [] };
          line.words.push(word);
          spans.push('word');
        } else if (cls === 'ocrx_cinfo' && word) {
          const b = box(title, 'x_bboxes');
          symbol = b ? { text: '', bbox: b } : undefined;
          if (symbol) word.symbols!.push(symbol);
          spans.push('char');
        } else {
          spans.push('other');
        }
      }
    } else if (name === 'span') {
      const kind = spans.pop();
      if (kind === 'char') symbol = undefined;
      else if (kind === 'word') {
        // A word whose characters came without boxes keeps its text (toPageText divides its box).
        if (word && word.symbols!.length > 0 && !word.text) word.text = word.symbols!.map((s) => s.text).join('');
        if (word && !word.symbols!.some((s) => s.text)) word.symbols = null;
        word = undefined;
      } else if (kind === 'line') line = undefined;
    } else if (name === 'p') {
      para = undefined;
    } else if (name === 'div' && block && !para) {
      // Only an area's own closing tag arrives here with no paragraph open.
      block = undefined;
    }
  });
  return blocks;
}
