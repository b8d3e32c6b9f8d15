// How a page's text layer travels from a PDF worker to the main thread: the numbers of every character in
// one Float64Array (moved, not copied) and their texts in one string. Cloning the character objects
// instead cost the main thread about 5 ms a page (ELU 0.38 while a 150-page PDF was read); rebuilding
// them from this takes a tenth of that. Float64 keeps every coordinate exactly.
import type { PdfChar, PdfPageText } from './types.ts';

export interface PackedPageText extends Omit<PdfPageText, 'chars'> {
  /** The characters' texts, one after the other. */
  text: string;
  /** Per character: x0, x1, y0, y1, dir, baseline, and the length of its text (UTF-16 units). */
  numbers: Float64Array<ArrayBuffer>;
}

const FIELDS = 7;

export function packPageText({ chars, ...page }: PdfPageText): PackedPageText {
  const numbers = new Float64Array(chars.length * FIELDS);
  chars.forEach((c, i) => numbers.set([c.x0, c.x1, c.y0, c.y1, c.dir, c.baseline, c.text.length], i * FIELDS));
  return { ...page, text: chars.map((c) => c.text).join(''), numbers };
}

export function unpackPageText({ text, numbers, ...page }: PackedPageText): PdfPageText {
  const chars: PdfChar[] = new Array(numbers.length / FIELDS);
  for (let i = 0, at = 0; i < chars.length; i++) {
    const k = i * FIELDS;
    const end = at + numbers[k + 6];
    chars[i] = { text: text.slice(at, end), x0: numbers[k], x1: numbers[k + 1], y0: numbers[k + 2], y1: numbers[k + 3], dir: numbers[k + 4], baseline: numbers[k + 5] };
    at = end;
  }
  return { ...page, chars };
}
