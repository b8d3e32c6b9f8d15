// What the splitter sees of a page pair: the page's own content and layout (how full and how numeric it
// is, its header and footer, page numbers, German and English cue words) and its relation to the page
// before it (same size and font, similar header, page numbering that continues). Pure.
import { shapeOf } from '../extraction/shape.ts';
import type { SplitPage } from './types.ts';

/** Non-blank text lines counted as a page's header and footer. */
const HEADER_LINES = 6;
const FOOTER_LINES = 6;
/** Characters this far (share of the page height) below the first ink are in the header band. */
const HEADER_BAND = 0.12;

/** Cue words as regular expressions matching a word start (JS \b knows no umlauts). */
const cues = (stems: string[]) => new RegExp(`(?<![\\p{L}\\d])(?:${stems.join('|')})`, 'giu');
/** A page that refers to another side or carries a sum over: it continues a document. */
const CONTINUATION = cues(['übertrag', 'uebertrag', 'fortsetzung', 'fortgesetzt', 'continued', 'continuation', 'carried forward', 'brought forward', 'umseitig', 'vorderseite', 'rückseite', 'overleaf', 'reverse side', 'bitte wenden', 'b\\.\\s?w\\.']);
/** Words naming a document's type, which a first page carries in its header. */
const DOCUMENT_TYPES = cues(['rechnung', 'invoice', 'gutschrift', 'credit note', 'lieferschein', 'delivery note', 'abrechnung', 'quittung', 'receipt', 'kassenbon', 'angebot', 'quotation', 'bestellung', 'purchase order', 'mahnung', 'kontoauszug', 'statement', 'vertrag', 'contract', 'bescheinigung', 'certificate', 'bescheid']);
/** A letter's opening lines. */
const SALUTATIONS = cues(['sehr geehrte', 'liebe ', 'dear ', 'betreff', 'subject:', 'ihr zeichen', 'your ref']);
/** A document's last lines: greetings and thanks. */
const CLOSINGS = cues(['mit freundlichen grüßen', 'freundliche grüße', 'beste grüße', 'best regards', 'kind regards', 'sincerely', 'yours faithfully', 'vielen dank', 'thank you', 'danke']);
/** Sums, which usually close a document's figures. */
const TOTALS = cues(['summe', 'gesamt', 'total', 'endbetrag', 'zu zahlen', 'amount due', 'balance due']);

/** "Seite 2 von 3", "Page 2 of 3", "Blatt: 1", "2 von 3", "- 2 -": page number n and, if given, of m. */
const PAGE_NUMBERS = [
  /(?<![\p{L}\d])(?:seite|page|blatt|pag\.)\s*[:.]?\s*(\d{1,3})(?:\s*(?:von|of|\/|aus)\s*(\d{1,3}))?(?!\d)/iu,
  /(?<![\p{L}\d.,/])(\d{1,3})\s+(?:von|of)\s+(\d{1,3})(?![\d.,])/iu,
  /^[-–]\s*(\d{1,3})\s*[-–]$/u,
];

/** A page described once, so that each page of a stream is read only once however often it is paired. */
export interface PageProfile {
  /** The page's own features, OWN_FEATURES in order. */
  own: number[];
  headerWords: Set<string>;
  words: Set<string>;
  width: number;
  height: number;
  chars: number;
  fontSize: number;
  inkLeft: number;
  inkTop: number;
  pageNumber: { n: number; of: number | null } | null;
}

const OWN_FEATURES = [
  'characters (log)', 'lines (log)', 'digit share', 'capital share of letters', 'prose word share', 'words per line',
  'hyphenated line ends', 'amounts per line', 'dates (log)', 'ink top', 'ink bottom', 'ink left', 'ink right',
  'font size', 'header font ratio', 'header digit share', 'header amounts', 'header dates', 'header capital share',
  'header words', 'footer amounts', 'page number', 'page number is 1', 'page count', 'page number before last',
  'page number is last', 'continuation cues', 'continuation cues in header', 'document types in header',
  'salutations', 'closings in footer', 'totals in footer',
];
const RELATION_FEATURES = [
  'size difference', 'header similarity', 'word similarity', 'font size ratio (log)', 'left margin shift',
  'ink top shift', 'length ratio (log)', 'numbering continues', 'numbering restarts', 'previous promises more pages',
];

/** The columns of a pair row: the page's own features, the previous page's, and their relation. */
export const FEATURE_NAMES: readonly string[] = [...OWN_FEATURES, ...OWN_FEATURES.map((f) => `previous page: ${f}`), ...RELATION_FEATURES];

type WordClass = 'amount' | 'date' | 'other';
/** Amounts ("1.234,56", "9.53") and dates ("22.05.2018", "10/02/20") by their shape. */
function classify(word: string): WordClass {
  const shape = shapeOf(word.replace(/^[€$£(]+|[€$£)%*]+$/g, ''));
  if (/^[-+]?d[.,]d[-+]?$|^[-+]?d([.,']d)+[.,]d[-+]?$/.test(shape) && /[.,]\d{2}-?\)?$/.test(word)) return 'amount';
  if (/^d([./-])d\1d$/.test(shape)) return 'date';
  return 'other';
}

/** Letters kept, digits as 0, case and edge punctuation dropped: "Seite" and "Seite:" are one word. */
function normalizeWord(word: string): string | null {
  const w = word.toLowerCase().replace(/\d/g, '0').replace(/^[^\p{L}\d]+|[^\p{L}\d]+$/gu, '');
  return /\p{L}/u.test(w) ? w : null;
}

const count = (re: RegExp, text: string) => (text.match(re) ?? []).length;
const median = (values: number[]) => {
  if (!values.length) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

function lineStats(lines: string[]) {
  let digits = 0, letters = 0, capitals = 0, amounts = 0, dates = 0, words = 0;
  for (const line of lines) {
    for (const ch of line) {
      if (ch >= '0' && ch <= '9') digits++;
      else if (/\p{L}/u.test(ch)) {
        letters++;
        if (/\p{Lu}/u.test(ch)) capitals++;
      }
    }
    for (const word of line.split(/\s+/)) {
      if (!word) continue;
      words++;
      const c = classify(word);
      if (c === 'amount') amounts++;
      else if (c === 'date') dates++;
    }
  }
  const ink = digits + letters || 1;
  return { digitShare: digits / ink, capitalShare: letters ? capitals / letters : 0, amounts, dates, words };
}

function findPageNumber(lines: string[]): PageProfile['pageNumber'] {
  for (const line of lines) {
    for (const re of PAGE_NUMBERS) {
      const m = line.trim().match(re);
      if (!m) continue;
      const n = Number(m[1]);
      const of = m[2] ? Number(m[2]) : null;
      if (n >= 1 && (of === null || of >= n)) return { n, of };
    }
  }
  return null;
}

export function profilePage(page: SplitPage): PageProfile {
  const lines = page.text.split('\n').map((l) => l.trim()).filter((l) => l !== '' && l !== '\f');
  const header = lines.slice(0, HEADER_LINES);
  const footer = lines.slice(-FOOTER_LINES);
  const all = lineStats(lines);
  const head = lineStats(header);
  const foot = lineStats(footer);
  const tokens = lines.flatMap((l) => l.split(/\s+/));
  const prose = tokens.filter((t) => /^\p{Ll}{2,}[,.;:]?$/u.test(t)).length;
  const hyphenated = lines.filter((l) => /\p{L}-$/u.test(l)).length;

  const { width, height } = page;
  const heights = page.chars.map((c) => c.y1 - c.y0);
  const fontSize = median(heights);
  const chars = page.chars.length;
  // Share of the page from its top and its left edge; a blank page has its ink "nowhere" (top 1, bottom 0).
  let [inkTop, inkBottom, inkLeft, inkRight] = [1, 0, 1, 0];
  for (const c of page.chars) {
    inkTop = Math.min(inkTop, (height - c.y1) / height);
    inkBottom = Math.max(inkBottom, (height - c.y0) / height);
    inkLeft = Math.min(inkLeft, c.x0 / width);
    inkRight = Math.max(inkRight, c.x1 / width);
  }
  const band = page.chars.filter((c) => (height - c.y1) / height <= inkTop + HEADER_BAND);
  const headerFontRatio = fontSize > 0 && band.length ? band.reduce((m, c) => Math.max(m, c.y1 - c.y0), 0) / fontSize : 1;

  const pageNumber = findPageNumber([...header, ...footer]);
  const headerText = header.join('\n');
  const footerText = footer.join('\n');
  const text = lines.join('\n');
  const own = [
    Math.log1p(chars),
    Math.log1p(lines.length),
    all.digitShare,
    all.capitalShare,
    tokens.length ? prose / tokens.length : 0,
    lines.length ? tokens.length / lines.length : 0,
    lines.length ? hyphenated / lines.length : 0,
    lines.length ? all.amounts / lines.length : 0,
    Math.log1p(all.dates),
    inkTop,
    inkBottom,
    inkLeft,
    inkRight,
    fontSize,
    headerFontRatio,
    head.digitShare,
    head.amounts,
    head.dates,
    head.capitalShare,
    head.words,
    foot.amounts,
    pageNumber?.n ?? 0,
    pageNumber?.n === 1 ? 1 : 0,
    pageNumber?.of ?? 0,
    pageNumber?.of && pageNumber.n < pageNumber.of ? 1 : 0,
    pageNumber?.of && pageNumber.of > 1 && pageNumber.n === pageNumber.of ? 1 : 0,
    count(CONTINUATION, text),
    count(CONTINUATION, headerText),
    count(DOCUMENT_TYPES, headerText),
    count(SALUTATIONS, text),
    count(CLOSINGS, footerText),
    count(TOTALS, footerText),
  ];
  const wordSet = (ls: string[]) => new Set(ls.flatMap((l) => l.split(/\s+/)).map(normalizeWord).filter((w): w is string => w !== null));
  return { own, headerWords: wordSet(header), words: wordSet(lines), width, height, chars, fontSize, inkLeft, inkTop, pageNumber };
}

function jaccard(a: Set<string>, b: Set<string>): number {
  if (!a.size && !b.size) return 0;
  let shared = 0;
  for (const w of a) if (b.has(w)) shared++;
  return shared / (a.size + b.size - shared);
}

/** The feature row for `page` following `previous` in a stream (FEATURE_NAMES in order). */
export function pairFeatures(previous: PageProfile, page: PageProfile): number[] {
  const numbered = previous.pageNumber && page.pageNumber;
  const relation = [
    (Math.abs(page.width - previous.width) + Math.abs(page.height - previous.height)) / (page.width + page.height),
    jaccard(page.headerWords, previous.headerWords),
    jaccard(page.words, previous.words),
    page.fontSize > 0 && previous.fontSize > 0 ? Math.log(page.fontSize / previous.fontSize) : 0,
    Math.abs(page.inkLeft - previous.inkLeft),
    Math.abs(page.inkTop - previous.inkTop),
    Math.log((1 + page.chars) / (1 + previous.chars)),
    numbered && page.pageNumber!.n === previous.pageNumber!.n + 1 ? 1 : 0,
    numbered && page.pageNumber!.n === 1 ? 1 : 0,
    previous.pageNumber?.of && previous.pageNumber.n < previous.pageNumber.of ? 1 : 0,
  ];
  return [...page.own, ...previous.own, ...relation];
}
