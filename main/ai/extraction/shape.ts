// What a token's text looks like, independent of what it says: character classes, number, date and
// percentage forms (German and English writing), and a compact shape such as "d.d,d" for "1.234,56". Pure.

/** "Ab-12,5" -> "Xx-d,d": letters as X/x, digits as d, runs of one class collapsed; punctuation kept. */
export function shapeOf(text: string): string {
  let out = '';
  for (const ch of text) {
    const c = /\d/.test(ch) ? 'd' : /\p{Lu}/u.test(ch) ? 'X' : /\p{L}/u.test(ch) ? 'x' : ch;
    if (out[out.length - 1] !== c || !'dXx'.includes(c)) out += c;
  }
  return out;
}

export const DATE_PATTERNS = [
  /^\d{1,2}[./-]\d{1,2}[./-](\d{4}|\d{2})$/, // 22.05.2018, 10/02/2020, 11.07.20
  /^\d{4}-\d{2}-\d{2}$/,
  /^\d{1,2}\.?(jan|feb|mär|mar|apr|mai|may|jun|jul|aug|sep|okt|oct|nov|dez|dec)/i,
];
const AMOUNT = /^[-+]?(\d{1,3}([.,'’ ]\d{3})+|\d+)[.,]\d{1,2}[-+]?$/;
const TIME = /^\d{1,2}:\d{2}(:\d{2})?$/;

/** A number written with dot or comma as decimal separator and either as thousands separator, or NaN. */
export function parseNumber(text: string): number {
  const t = text.replace(/[€$£%\s]/g, '');
  const negative = /^-|-$|^\(.*\)$/.test(t);
  const core = t.replace(/^[-+(]+|[-+)]+$/g, '');
  if (!/^\d[\d.,']*$/.test(core)) return NaN;
  const seps = core.match(/[.,']/g) ?? [];
  const last = core.search(/[.,'][^.,']*$/);
  let value: number;
  if (seps.length === 0) value = Number(core);
  else if (new Set(seps).size > 1 || (seps.length === 1 && core.length - last - 1 !== 3)) {
    // Mixed separators: the last one is the decimal point. One separator not followed by three digits too.
    value = Number(`${core.slice(0, last).replace(/[.,']/g, '')}.${core.slice(last + 1)}`);
  } else value = Number(core.replace(/[.,']/g, '')); // "1.234", "1.234.567": thousands groups
  return negative ? -value : value;
}

/** Numeric description of a text: the same text always gives the same numbers. */
export function textFeatures(text: string): number[] {
  const chars = Array.from(text);
  let digits = 0, letters = 0, upper = 0, punct = 0;
  for (const ch of chars) {
    if (/\d/.test(ch)) digits++;
    else if (/\p{L}/u.test(ch)) {
      letters++;
      if (/\p{Lu}/u.test(ch)) upper++;
    } else punct++;
  }
  const n = chars.length || 1;
  const value = parseNumber(text);
  const lastSep = Math.max(text.lastIndexOf('.'), text.lastIndexOf(','));
  const count = (re: RegExp) => (text.match(re) ?? []).length;
  return [
    chars.length,
    digits,
    letters,
    upper,
    punct,
    digits / n,
    letters / n,
    /^\p{Lu}/u.test(text) ? 1 : 0,
    letters > 0 && upper === letters ? 1 : 0,
    /^\d/.test(text) ? 1 : 0,
    count(/\./g),
    count(/,/g),
    count(/-/g),
    count(/\//g),
    text.includes('%') ? 1 : 0,
    /^\d+$/.test(text) ? 1 : 0,
    AMOUNT.test(text.replace(/[€%]/g, '')) ? 1 : 0,
    DATE_PATTERNS.some((p) => p.test(text)) ? 1 : 0,
    TIME.test(text) ? 1 : 0,
    Number.isFinite(value) ? Math.sign(value) * Math.log10(1 + Math.abs(value)) : -10,
    lastSep >= 0 && digits > 0 ? text.length - lastSep - 1 : -1,
    /^\p{L}{2}\d{2}/u.test(text) ? 1 : 0, // IBAN or VAT id start
  ];
}
export const TEXT_FEATURES = textFeatures('').length;
/** The subset of textFeatures used to describe neighbours (length, digit and letter ratio, upper, amount, date). */
export const NEIGHBOUR_TEXT_FEATURES = [0, 5, 6, 7, 8, 15, 16, 17];
