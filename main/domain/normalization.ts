// Value normalization by label data type (spec 2.14): annotation text -> the API value (JSON number,
// ISO date string, boolean, the text itself, or null when not normalizable) and its CSV form. Pure, total.
import type { LabelDataType } from '../../shared/schemas/taxonomy.ts';

export type DataType = LabelDataType;
/** The API form of a normalized value; null means "not machine-readable". */
export type Normalized = number | string | boolean | null;

/** Normalizes annotation text by the label's data type. Never throws; null when the text is not normalizable. */
export function normalize(text: string, dataType: DataType): Normalized {
  switch (dataType) {
    case 'Text':
      return text;
    case 'Number':
      return numberValue(parseDecimal(text, 'signed'));
    case 'Positive Number':
      return numberValue(parseDecimal(text, 'absolute'));
    case 'Percentage':
      return percentageValue(parseDecimal(text, 'percent'));
    case 'Date':
      return toIsoDate(text);
    case 'True/False':
      return toBoolean(text);
    default:
      return null; // a data type this module does not know (only reachable from untyped callers)
  }
}

/**
 * The CSV (spreadsheet) form: always a string. null -> "None", numbers as floats with at least one
 * decimal place and never in exponent notation, booleans "True"/"False", dates and text as they are.
 */
export function csvForm(value: Normalized, dataType: DataType): string {
  if (value === null) return 'None';
  if (dataType === 'Text') return String(value);
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'number') return Number.isFinite(value) ? floatCsv(value) : 'None';
  return value;
}

// ---------------------------------------------------------------------------------------------------
// Numbers (rules 1-8) and percentages (rules 1-3)

/** A parsed number as digit strings, so percentages can be shifted and rounded exactly. */
interface Decimal {
  negative: boolean;
  int: string;
  frac: string;
}

/** signed = Number, absolute = Positive Number (rule 4), percent = Percentage (trailing dash ignored). */
type NumberMode = 'signed' | 'absolute' | 'percent';

const ZERO: Decimal = { negative: false, int: '0', frac: '' };
const DASHES = /[\u2010-\u2015\u2212\uFE58\uFE63\uFF0D]/g; // hyphens, en/em dash, minus sign: OCR gives all of them
// Rule 2's "irrelevant signs": quotes (also the apostrophe of Swiss thousands), whitespace, currency
// symbols, degree sign and OCR noise. Letters are not among them: "12,50 EUR" is not normalizable.
const IRRELEVANT = /[\s"'`´„“”‘’‚‹›«»\p{Sc}°:;|*#~_=<>]/gu;
const ZERO_WORDS = new Set(['nil', 'kein', 'keinen', 'keiner', 'none']);
const NUMBER_WORDS = new Map<string, number>(
  [
    'eins ein eine one',
    'zwei two',
    'drei three',
    'vier four',
    'fünf fuenf five',
    'sechs six',
    'sieben seven',
    'acht eight',
    'neun nine',
    'zehn ten',
    'elf eleven',
    'zwölf zwoelf twelve',
  ].flatMap((words, i) => words.split(' ').map((w): [string, number] => [w, i + 1])),
);
/** First group of a thousands-grouped number: 1-3 digits without a leading zero. */
const THOUSANDS_HEAD = /^[1-9]\d{0,2}$/;

function parseDecimal(text: string, mode: NumberMode): Decimal | null {
  let t = text;
  if (mode === 'percent') {
    t = dropPunctuationAfterPercent(t);
    // Percentage rule 2: one optional percent sign, before or after the number but not inside it.
    if ((t.match(/%/g) ?? []).length > 1 || /[\d.,]\s*%\s*[\d.,]/.test(t)) return null;
    t = t.replace('%', '');
  }
  const whole = t.trim().toLowerCase();
  if (ZERO_WORDS.has(whole)) return ZERO; // rule 7 (inside longer text the letters make it null below)
  const word = NUMBER_WORDS.get(whole);
  if (word !== undefined) return { negative: false, int: String(word), frac: '' }; // rule 6
  const roman = mode === 'percent' ? null : romanNumeral(t);
  if (roman !== null) return { negative: false, int: String(roman), frac: '' };

  const repaired = repairOcrNoise(t.replace(DASHES, '-'), mode);
  if (!repaired) return null;
  const s = repaired.text.replace(IRRELEVANT, '');
  if (/^[-.,]+$/.test(s) && s.includes('-')) return ZERO; // rule 1: "-", "-,-", "--.--"
  // One run of digits and separators; only signs, brackets and S/H may stand around it.
  const m = /^([^\d.,]*)([\d.,]*\d[\d.,]*)([^\d.,]*)$/.exec(s);
  if (!m) return null;
  const lead = /^([+-]?)(\(?)([+-]?)$/.exec(m[1]);
  const trail = /^([SH]?)([+-]?)(\)?)([+-]?)$/.exec(m[3]); // rule 2: S or H directly after the digits
  if (!lead || !trail) return null;
  if ((lead[1] && lead[3]) || (trail[2] && trail[4])) return null; // "--12": two signs on one side
  if (Boolean(lead[2]) !== Boolean(trail[3])) return null; // an unbalanced bracket
  const leadSign = lead[1] || lead[3];
  const trailSign = trail[2] || trail[4];
  // Rule 3. Several negative markers ("(-12)") agree, so they still mean negative, not a double negation.
  const negative =
    leadSign === '-' || (trailSign === '-' && mode !== 'percent') || trail[1] === 'S' || lead[2] === '(';
  if (mode !== 'absolute' && negative && (leadSign === '+' || trailSign === '+')) return null; // "+12-"
  const digits = splitSeparators(m[2], mode === 'percent' ? 'decimal' : 'thousands');
  if (!digits) return null;
  return scaled({ negative: negative && mode !== 'absolute', ...digits }, repaired.places);
}

// ---------------------------------------------------------------------------------------------------
// OCR noise the reference service reads through (issue 10). Each rule is narrow: it repairs one known
// misreading and leaves everything else to the rules above, which still refuse what stays garbage.

/** "12,34 %." / "434,27%,": the sentence's punctuation after the percent sign belongs to the text, not the value. */
function dropPunctuationAfterPercent(t: string): string {
  return t.replace(/%\s*[.,;:]\s*$/, '%');
}

const ROMAN = /^M{0,3}(?:CM|CD|D?C{0,3})(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3})$/;
const ROMAN_DIGITS: Record<string, number> = { I: 1, V: 5, X: 10, L: 50, C: 100, D: 500, M: 1000 };

/**
 * "XIV" -> 14, " XL IV " -> 44 (OCR split it): a whole annotation in canonical capital roman numerals,
 * for numbers only (not percentages). Capitals only, and only the canonical form ("IIII", "IC" are
 * refused), so words such as "mix" or "Civil" never read as numbers.
 */
function romanNumeral(t: string): number | null {
  const r = t.replace(/\s+/g, '');
  if (r === '' || !ROMAN.test(r)) return null;
  let value = 0;
  for (let i = 0; i < r.length; i++) {
    const v = ROMAN_DIGITS[r[i]];
    value += i + 1 < r.length && v < ROMAN_DIGITS[r[i + 1]] ? -v : v; // "IV": a smaller digit before a larger subtracts
  }
  return value;
}

/** The text with OCR noise repaired, and the decimal places a multiplier word shifts by; null when unreadable. */
function repairOcrNoise(t: string, mode: NumberMode): { text: string; places: number } | null {
  if (maskedDigits(t)) return null;
  const cleaned = dropOnlySuffix(zeroForLetterO(t));
  const { text, places } = mode === 'percent' ? { text: cleaned, places: 0 } : splitMultiplier(cleaned);
  const spaced = spaceAsDecimal(text);
  return spaced === null || !spacesGroupThousands(spaced) ? null : { text: spaced, places };
}

/**
 * Rule 2 removes whitespace, but between two digits it is a thousands separator ("1 234 567",
 * "1 234,56"): 1-3 digits before it and exactly three after it. Any other gap ("12 3456", "1 2 3",
 * "01.03 2019") joins digits that belong to different values or to a date, so it is refused, as rule 8's
 * ambiguous shapes are. (The two cents after a gap are spaceAsDecimal's, already turned into a mark.)
 */
function spacesGroupThousands(t: string): boolean {
  for (const m of t.matchAll(/(\d+)\s+(?=(\d+))/g)) {
    if (m[1].length > 3 || m[2].length !== 3) return false;
  }
  return true;
}

/**
 * "*118,704", "1*2*3*4": an asterisk before or among the digits may hide a digit (masked account
 * numbers), so the value is refused. After the digits ("129.684,46*") or before a bracket
 * ("*(118,704)") it is a footnote mark, and rule 2 removes it as an irrelevant sign.
 */
function maskedDigits(t: string): boolean {
  return /\*[^\d(]*\d/.test(t);
}

/**
 * "1O0" -> 100, "-O,51" -> -0,51: OCR reads a zero as the letter O. Only an O in a run of digits and
 * separators that holds a real digit, with no other letter touching the run (a trailing S or H of rule 2
 * aside), so "NO", "1OK" or "O" alone stay letters.
 */
function zeroForLetterO(t: string): string {
  return t.replace(/(?<![\p{L}\d.,])(?=[\dOo.,]*\d)[\dOo.,]+(?![\d.,])(?=[SH]?(?!\p{L}))/gu, (run) => run.replace(/[Oo]/g, '0'));
}

/** "100/-", "585,87/-": the "/-" after an amount means "only" (no cents follow), not a minus. */
function dropOnlySuffix(t: string): string {
  return t.replace(/(?<=[\d.,]\s*)\/\s*-\s*$/, '');
}

/**
 * "123 Mio", "1,5 Mrd.", "250 Tsd." (with or without the abbreviation's dot), as German financial
 * documents write them, and the spelled-out German/English words. Left out on purpose: "k" and "m"
 * (units: "5 k" could be kilo-anything, "100 m" metres), "bn" and "Billion(en)", which mean 10^9 in
 * English but 10^12 in German. Right after the digits, with only signs, brackets or currency after it.
 */
const MULTIPLIER = /(?<=[\d.,])\s*(tsd|tausend|thousand|mio|millionen|million|mrd|milliarden|milliarde)\.?(?=[^\p{L}\d]*$)/iu;
const MULTIPLIER_PLACES: Record<string, number> = {
  tsd: 3, tausend: 3, thousand: 3,
  mio: 6, million: 6, millionen: 6,
  mrd: 9, milliarde: 9, milliarden: 9,
};

function splitMultiplier(t: string): { text: string; places: number } {
  const m = MULTIPLIER.exec(t);
  if (!m) return { text: t, places: 0 };
  return { text: t.slice(0, m.index) + t.slice(m.index + m[0].length), places: MULTIPLIER_PLACES[m[1].toLowerCase()] };
}

/** The decimal point moved right by a multiplier's places, on the digit strings (no float error). */
function scaled(d: Decimal, places: number): Decimal {
  if (places === 0) return d;
  const frac = d.frac.padEnd(places, '0');
  return { negative: d.negative, int: d.int + frac.slice(0, places), frac: frac.slice(places) };
}

/**
 * "42 58" -> 42,58, "4 258  23" -> 4258,23: OCR lost the decimal comma and left a gap of one or two
 * spaces before the last two digits (the cents). A gap of three or more spaces between digits
 * ("42   58") separates two values (table columns), so it is refused. Otherwise spaces between digits
 * stay thousands separators, as rule 2 says ("1 234 567").
 */
function spaceAsDecimal(t: string): string | null {
  if (/\d\s{3,}\d/.test(t)) return null;
  const m = /^(\D*?)(\d{1,3}(?:(?:[.,]|\s{1,2})\d{3})+|\d+) {1,2}(\d{2})(\D*)$/.exec(t);
  if (!m) return t;
  const [, lead, int, cents, trail] = m;
  return `${lead}${int}${int.includes(',') ? '.' : ','}${cents}${trail}`; // the mark the integer part does not use
}

/**
 * Rules 5 and 8: which of dot and comma is the decimal separator. With both, the last one (occurring
 * once) is decimal and the other groups thousands. With one kind occurring several times it groups
 * thousands (the last may stand before two cents: groupsWithCents). A single separator followed by exactly three digits after a 1-3 digit head ("1.234") is
 * ambiguous: numbers read it as thousands (German documents), percentages as decimals ("3,125 %").
 */
function splitSeparators(body: string, loneGroupOfThree: 'thousands' | 'decimal'): { int: string; frac: string } | null {
  if (/[.,]{2}/.test(body)) return null;
  const b = /[.,]$/.test(body) ? body.slice(0, -1) : body; // "12," (cents dashed away) or "1.967." (full stop)
  const dots = b.split('.').length - 1;
  const commas = b.split(',').length - 1;
  if (dots === 0 && commas === 0) return { int: b, frac: '' };
  if (dots > 0 && commas > 0) {
    const at = Math.max(b.lastIndexOf('.'), b.lastIndexOf(','));
    const decimalSep = b[at];
    const int = (decimalSep === '.' ? dots : commas) === 1 ? joinThousands(b.slice(0, at).split(decimalSep === '.' ? ',' : '.')) : null;
    return int !== null ? { int, frac: b.slice(at + 1) } : (groupsWithCents(b) ?? strayMarkBeforeCents(b));
  }
  const parts = b.split(dots > 0 ? '.' : ',');
  if (parts.length > 2) {
    const int = joinThousands(parts); // "1.234.567"; "12.34.56" is rule 8's ambiguous shape -> null
    return int === null ? groupsWithCents(b) : { int, frac: '' };
  }
  const [head, tail] = parts;
  if (loneGroupOfThree === 'thousands' && tail.length === 3 && THOUSANDS_HEAD.test(head)) return { int: head + tail, frac: '' };
  // "4.2." (issue 10): a full stop after a dot decimal makes a section number ("4.2. Kosten") or a date
  // without a year, not an amount. After thousands ("1.967.") or a comma decimal ("12,5.") it stays a full stop.
  if (dots > 0 && body.endsWith('.')) return null;
  return { int: head, frac: tail };
}

/**
 * "3,288,50", "1.800.00", "4.187.184.13", "3.456,814,75" -> 3288.50, 1800.00, 4187184.13, 3456814.75
 * (issues 10 and 31): OCR read the decimal mark as a thousands mark, or a thousands mark as the other
 * kind. When the marks do not read as rule 5's clean shape, the last one is the decimal mark if exactly
 * two digits (the cents) follow it and every earlier mark groups thousands: a head of 1-3 digits without
 * a leading zero, then groups of three, whatever the mark. Rule 8's "12.34.56" (groups of two, dates,
 * outline numbers) and "0.234.56" (a leading zero) stay refused.
 */
function groupsWithCents(b: string): { int: string; frac: string } | null {
  const parts = b.split(/[.,]/);
  const cents = parts[parts.length - 1];
  if (parts.length < 3 || !/^\d{2}$/.test(cents)) return null;
  const int = joinThousands(parts.slice(0, -1));
  return int === null ? null : { int, frac: cents };
}

/**
 * "034,466416.31" -> 34466416.31 (issue 31): one stray mark of the other kind inside the integer part,
 * three or more digits before the decimal mark, and exactly two cents after it. A stray mark followed by
 * one or two digits ("12,5.00", "1.23,45") could itself be the decimal mark, so that stays refused.
 */
function strayMarkBeforeCents(b: string): { int: string; frac: string } | null {
  const m = /^(\d+)[.,](\d{3,})[.,](\d{2})$/.exec(b);
  if (!m || b[m[1].length] === b[b.length - 3]) return null; // both marks the same kind: groupsWithCents' case
  return { int: m[1] + m[2], frac: m[3] };
}

function joinThousands(groups: string[]): string | null {
  const [head, ...rest] = groups;
  return THOUSANDS_HEAD.test(head) && rest.every((g) => /^\d{3}$/.test(g)) ? groups.join('') : null;
}

function numberValue(d: Decimal | null): number | null {
  if (!d) return null;
  const v = Number(`${d.int || '0'}.${d.frac || '0'}`);
  if (!Number.isFinite(v)) return null; // hundreds of digits overflow a double
  return d.negative && v !== 0 ? -v : v; // never -0: zero stays 0
}

/** Percentage rule 1: divided by 100 and rounded half-up to 4 decimal places, on the digits (no float error). */
function percentageValue(d: Decimal | null): number | null {
  if (!d) return null;
  const frac = d.frac.padEnd(2, '0');
  // value * 10^4 = the digits with the decimal point moved two places right, rounded on the rest
  const scaled = BigInt(d.int + frac.slice(0, 2)) + (frac.length > 2 && frac[2] >= '5' ? 1n : 0n);
  const s = scaled.toString().padStart(5, '0');
  return numberValue({ negative: d.negative, int: s.slice(0, -4), frac: s.slice(-4) });
}

/** A float with at least one decimal place ("12.0"), in plain notation even where JS would use an exponent. */
function floatCsv(v: number): string {
  const s = plainNotation(String(v));
  return /^-?\d+$/.test(s) ? `${s}.0` : s;
}

function plainNotation(s: string): string {
  const m = /^(-?)(\d+)(?:\.(\d+))?e([+-]\d+)$/.exec(s);
  if (!m) return s;
  const [, sign, int, frac = '', exp] = m;
  const digits = int + frac;
  const point = int.length + Number(exp);
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return sign + digits + '0'.repeat(point - digits.length);
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

// ---------------------------------------------------------------------------------------------------
// Dates (rules 1-6)

const MONTHS = new Map<string, number>(
  [
    'januar jänner jaenner january jan jän',
    'februar feber february feb',
    'märz maerz march mär mrz mar',
    'april apr',
    'mai may',
    'juni june jun',
    'juli july jul',
    'august aug',
    'september sep sept',
    'oktober october okt oct',
    'november nov',
    'dezember december dez dec',
  ].flatMap((names, i) => names.split(' ').map((n): [string, number] => [n, i + 1])),
);
// Rule 5: a trailing time of day ("14:30", "T14:30:00.123+01:00", ", 14:30 Uhr", "14.30 Uhr") is dropped.
const TIME_OF_DAY =
  /(?:(?<=\d)T|[\s,]+)(?:um\s+)?(?:\d{1,2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:\s*(?:uhr|h|[ap]\.?m\.?))?(?:\s*(?:z|[+-]\d{2}(?::?\d{2})?))?|\d{1,2}\.\d{2}\s*uhr)$/i;
// Brackets, quotes and stray slashes around a date ("(29.03.2018)", "/04.12."); a trailing dot stays (it marks "01.03.").
const EDGE_NOISE = /^[\s([{"'„“”‘’‚/]+|[\s)\]}"'„“”‘’‚/,;:]+$/g;
/** Two-digit years: 00-68 -> 20xx, 69-99 -> 19xx (POSIX/Python strptime %y). */
const PIVOT = 69;

function toIsoDate(text: string): string | null {
  const s = text.trim().replace(EDGE_NOISE, '').replace(TIME_OF_DAY, '').replace(EDGE_NOISE, '');
  if (s === '') return null;
  return repeatedDate(s) ?? (/\p{L}/u.test(s) ? dateWithMonthName(s) : numericDate(s));
}

/**
 * "02.06./02.06." (issue 10): the same date twice around one slash (a form's two fields read as one)
 * is that date. Both halves need a dot, so "03/04/2019" and "01.03/2019" are not split; halves that
 * differ ("02.06./03.06.") fall through to the rules, which refuse the mixed separators.
 */
function repeatedDate(s: string): string | null {
  const m = /^([^/]*\.[^/]*)\/([^/]*\.[^/]*)$/.exec(s);
  if (!m) return null;
  const first = toIsoDate(m[1]);
  return first !== null && first === toIsoDate(m[2]) ? first : null;
}

/** Rule 2: a German or English month name (or abbreviation) with a day and/or a year in digits. */
function dateWithMonthName(raw: string): string | null {
  const tokens = raw
    .replace(/(\d)(?:st|nd|rd|th)\b/gi, '$1') // "1st March"
    .replace(/(\d)(\p{L})/gu, '$1 $2') // "1März": OCR lost the space
    .replace(/(\p{L})(\d)/gu, '$1 $2')
    .split(/[\s.,/-]+/)
    .filter((t) => t !== '');
  const at = tokens.findIndex((t) => MONTHS.has(t.toLowerCase()));
  if (at < 0 || tokens.some((t, i) => i !== at && !/^\d+$/.test(t))) return null; // "23.0K.2010": a letter inside the digits
  const month = MONTHS.get(tokens[at].toLowerCase()) as number;
  const before = tokens.slice(0, at);
  const after = tokens.slice(at + 1);
  let day: string | undefined;
  let year: string | undefined;
  if (before.length === 1 && after.length <= 1) [day, year] = [before[0], after[0]]; // "1. März 2019", "1. März"
  else if (before.length === 0 && after.length === 2) [day, year] = after; // "March 1, 2019"
  else if (before.length === 0 && after.length === 1 && after[0].length === 4) year = after[0]; // "März 2019"
  else if (before.length === 0 && after.length === 1) day = after[0]; // "March 1"
  else return null; // a month name alone, or more numbers than a date has
  if (day !== undefined && !/^\d{1,2}$/.test(day)) return null;
  const y = year === undefined ? 0 : yearOf(year);
  return y === null ? null : iso(y, month, day === undefined ? 1 : Number(day));
}

/** Numeric dates: year-first ISO shapes, else day.month.year (German), with or without separators. */
function numericDate(raw: string): string | null {
  // Spaces around separators are OCR noise ("01. 03. 2019"); digits split only by spaces ("3 7") are no date.
  const s = commaAfterDay(lowQuotesAsDots(raw)).replace(/\s*([./-])\s*/g, '$1');
  if (!/^[\d./-]+$/.test(s)) return null;
  const seps = new Set(s.replace(/\d/g, ''));
  if (seps.size === 0) return digitRun(s);
  if (seps.size > 1) return null; // "01.03/2019"
  const sep = [...seps][0];
  let parts = s.split(sep);
  if (sep === '.' && parts.length === 4 && parts[3] === '' && parts[2] !== '') parts = parts.slice(0, 3); // full stop
  const oneOrTwo = (p: string) => /^\d{1,2}$/.test(p);
  if (parts.length === 3) {
    const [a, b, c] = parts;
    if (/^\d{4}$/.test(a)) return oneOrTwo(b) && oneOrTwo(c) ? isoOrNull(yearOf(a), Number(b), Number(c)) : null;
    if (!oneOrTwo(a) || !oneOrTwo(b)) return null;
    const year = c === '' ? 0 : yearOf(c); // "01.03." has no year -> 0000; "01.03.201" is malformed
    const dayFirst = isoOrNull(year, Number(b), Number(a));
    // Day first, also with slashes (German and British usage); month first only when it is the sole valid reading.
    return dayFirst !== null || sep !== '/' ? dayFirst : isoOrNull(year, Number(a), Number(b));
  }
  if (parts.length !== 2) return null; // "30.07.2.90"
  const [a, b] = parts;
  const readings: (string | null)[] = [];
  if (/^\d{4}$/.test(a) && oneOrTwo(b)) readings.push(isoOrNull(yearOf(a), Number(b), 1)); // "2019-03"
  if (oneOrTwo(a) && /^\d{4}$/.test(b)) readings.push(isoOrNull(yearOf(b), Number(a), 1)); // "03/2019"
  // "01.03" is day.month without a year; "09/18" is month/two-digit year; "3-5" is rather a range.
  if (oneOrTwo(a) && oneOrTwo(b) && sep === '.') readings.push(iso(0, Number(b), Number(a)));
  if (oneOrTwo(a) && oneOrTwo(b) && sep === '/') readings.push(isoOrNull(yearOf(b), Number(a), 1));
  // Rule 3: parts that only split DDMMYY(YY) at a part boundary ("23.0919", "0103.2019").
  if ((a.length === 2 || a.length === 4) && (a + b).length >= 6) readings.push(dayMonthYear(a + b));
  return unique(readings);
}

/**
 * "12„03.2019", "12.03‚2019", "15.02.‚2019" (issue 10): OCR reads a dot as a low quote. Between digits
 * it stands for the dot; next to a dot it is a stray mark and dropped. Doubled ("12„„03") it stays noise.
 */
function lowQuotesAsDots(s: string): string {
  return s.replace(/(?<=\d)\s*[„‚]\s*(?=\d)/g, '.').replace(/(?<=\.\s*)[„‚]|[„‚](?=\s*\.)/g, '');
}

/**
 * "03,12." -> 3 December (issue 10): OCR reads the day's dot as a comma. Only after a one- or two-digit
 * day and before a month that a dot ends, so "03,07," and "20,20,3030" stay refused and "3,12" stays
 * no date.
 */
function commaAfterDay(s: string): string {
  return s.replace(/^(\d{1,2})\s*,\s*(?=\d{1,2}\s*\.)/, '$1.');
}

/** Digits only: YYYY (year only), DDMMYY, DDMMYYYY or YYYYMMDD; anything else is a long digit run. */
function digitRun(s: string): string | null {
  if (s.length === 4) return Number(s) >= 1000 ? iso(Number(s), 1, 1) : null;
  if (s.length === 6) return dayMonthYear(s);
  if (s.length === 8) return unique([dayMonthYear(s), isoOrNull(yearOf(s.slice(0, 4)), Number(s.slice(4, 6)), Number(s.slice(6)))]);
  return null;
}

function dayMonthYear(s: string): string | null {
  if (!/^\d{6}(\d{2})?$/.test(s)) return null;
  return isoOrNull(yearOf(s.slice(4)), Number(s.slice(2, 4)), Number(s.slice(0, 2)));
}

/** A year part: two digits (pivot), or four digits that are 0000 (year unknown, our own output) or >= 1000. */
function yearOf(p: string): number | null {
  if (/^\d{2}$/.test(p)) return Number(p) < PIVOT ? 2000 + Number(p) : 1900 + Number(p);
  if (!/^\d{4}$/.test(p)) return null;
  const y = Number(p);
  return y === 0 || y >= 1000 ? y : null;
}

/** The one valid reading, or null when there is none or several (rule 6: not uniquely readable). */
function unique(readings: (string | null)[]): string | null {
  const valid = new Set(readings.filter((r): r is string => r !== null));
  return valid.size === 1 ? [...valid][0] : null;
}

function isoOrNull(year: number | null, month: number, day: number): string | null {
  return year === null ? null : iso(year, month, day);
}

/** YYYY-MM-DD, or null for impossible dates ("31.02."). Year 0 is a leap year, so "29.02." stays valid. */
function iso(year: number, month: number, day: number): string | null {
  if (month < 1 || month > 12 || day < 1) return null;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
  if (day > days) return null;
  const pad = (n: number, w: number) => String(n).padStart(w, '0');
  return `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;
}

// ---------------------------------------------------------------------------------------------------
// Booleans (rules 1-4)

const FALSE_WORDS = new Set(['NEIN', 'NICHT', 'KEIN', 'OHNE', 'NO']);
const TRUE_WORDS = new Set(['VORHANDEN', 'JA', 'MIT', 'YES']);

/**
 * Only the first of at most two words counts, and it must BE a signal word (trailing punctuation
 * aside): matching substrings would read "Januar" as JA or "Nordsee" as NO.
 */
function toBoolean(text: string): boolean | null {
  const words = text.trim().split(/\s+/).filter((w) => w !== '');
  if (words.length === 0 || words.length > 2) return null;
  const first = words[0].toUpperCase().replace(/[.,:;!?]+$/, '');
  if (FALSE_WORDS.has(first)) return false;
  if (TRUE_WORDS.has(first)) return true;
  return null;
}
