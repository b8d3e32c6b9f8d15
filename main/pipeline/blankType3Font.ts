// Type3 fonts of blank glyphs with a ToUnicode map: text that viewers find, select and copy but that never
// paints anything, for any Unicode character, with no font file (used where WinAnsi cannot encode text).
import { PDFName, type PDFDocument, type PDFRef } from 'pdf-lib';

/** A simple font addresses one byte per glyph; code 0 is left unused. */
export const BLANK_FONT_CODES = 255;

export interface BlankFontMetrics {
  /** FontDescriptor /FontName. */
  fontName?: string;
  /** Advance of every glyph in glyph space, 1000 units per em (default 1000). */
  width?: number;
  /** Top and bottom of the glyph box in glyph space (defaults 1000 and 0). */
  ascent?: number;
  descent?: number;
}

/** A Type3 font whose code k (1-based) stands for chars[k - 1]; at most BLANK_FONT_CODES characters.
 * Each entry of `chars` is one character (a code point, or whatever string a glyph should copy as). */
export function blankType3Font(doc: PDFDocument, chars: string[], metrics: BlankFontMetrics = {}): PDFRef {
  if (chars.length > BLANK_FONT_CODES) throw new RangeError(`a blank Type3 font holds at most ${BLANK_FONT_CODES} characters`);
  const { fontName = 'BlankGlyphs', width = 1000, ascent = 1000, descent = 0 } = metrics;
  const ctx = doc.context;
  const proc = ctx.register(ctx.stream(`${width} 0 d0`));
  const names = chars.map((_, i) => `g${i + 1}`);
  const charProcs = ctx.obj(Object.fromEntries(names.map((n) => [n, proc])));
  const descriptor = ctx.obj({
    Type: 'FontDescriptor',
    FontName: fontName,
    Flags: 4,
    FontBBox: [0, descent, width, ascent],
    ItalicAngle: 0,
    Ascent: ascent,
    Descent: descent,
    CapHeight: ascent,
    StemV: 0,
  });
  return ctx.register(
    ctx.obj({
      Type: 'Font',
      Subtype: 'Type3',
      FontBBox: [0, descent, width, ascent],
      FontMatrix: [0.001, 0, 0, 0.001, 0, 0],
      CharProcs: charProcs,
      Encoding: ctx.obj({ Type: 'Encoding', Differences: [1, ...names.map((n) => PDFName.of(n))] }),
      FirstChar: 1,
      LastChar: chars.length,
      Widths: chars.map(() => width),
      FontDescriptor: ctx.register(descriptor),
      ToUnicode: ctx.register(ctx.stream(toUnicodeCMap(chars))),
      Resources: ctx.obj({}),
    }),
  );
}

/** One-byte codes 1..n to the characters' UTF-16 (surrogate pairs included), in blocks of at most 100. */
function toUnicodeCMap(chars: string[]): string {
  const hex = (code: number) => code.toString(16).padStart(2, '0').toUpperCase();
  const utf16 = (ch: string) => Buffer.from(ch, 'utf16le').swap16().toString('hex').toUpperCase();
  const blocks: string[] = [];
  for (let i = 0; i < chars.length; i += 100) {
    const part = chars.slice(i, i + 100);
    blocks.push(`${part.length} beginbfchar\n${part.map((ch, k) => `<${hex(i + k + 1)}> <${utf16(ch)}>`).join('\n')}\nendbfchar`);
  }
  return [
    '/CIDInit /ProcSet findresource begin 12 dict begin begincmap',
    '/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def',
    '/CMapName /Adobe-Identity-UCS def /CMapType 2 def',
    '1 begincodespacerange <00> <FF> endcodespacerange',
    ...blocks,
    'endcmap CMapName currentdict /CMap defineresource pop end end',
  ].join('\n');
}
