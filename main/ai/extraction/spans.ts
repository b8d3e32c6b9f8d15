// The second stage of extraction for labels that occur once per annotation set (a receipt's total, an
// invoice date, an address): candidate values of several forms are generated around the tokens the token
// forest likes (sub-ranges of a line, blocks of whole lines, a date or an amount inside a token) and every
// date of the document for a Date label, each is described (the token probabilities inside and just outside,
// its form read by data type, where it stands, its text size, context words, the words the label's values
// start and end with) and a second forest, the label's own, scores it; a ranking forest of the label's own
// scores the candidates again against each other (rankRows); the best candidate per label wins when it
// reaches the label's acceptance score (select.ts). Pure.
import { contextDistances, contextWord, LINES_ABOVE, NEAR_LINES } from './features.ts';
import { predictForest, type ForestModel } from './forest.ts';
import { normalize, type DataType } from '../../domain/normalization.ts';
import { DATE_PATTERNS, parseNumber } from './shape.ts';
import { tokenHeight, type Token, type TokenizedDocument, type TokenLine } from './tokens.ts';
import type { ClassInfo } from './trainingData.ts';

/** A candidate value of one class: a code-point range and the tokens it touches. */
export interface SpanCandidate {
  cls: number;
  start: number;
  end: number;
  tokens: Token[];
  /** The range cuts into a token (a date or an amount glued to other characters). */
  trimmed: boolean;
  /** Whether the token-level selection (runs of one class) produced exactly this range. */
  isRun: boolean;
  /** Folio's normalization reads the text as a value of the label's data type (always for Text). */
  readable?: boolean;
}

/** Tokens tried as the core of a candidate per class: the most likely ones by the token forest. */
const SEEDS = 6;
/** A seed below this probability is no seed (its candidates would score nothing). */
const MIN_SEED = 0.02;
/** Longest sub-range of one line, in tokens; and how many tokens more than its longest training annotation
 * on a line a class's candidate may have (OCR splits words that a reviewer's annotation held whole). */
const MAX_TOKENS = 12;
const EXTRA_TOKENS = 2;

/** An amount inside a token ("RM60.30", "60.30J"): digits with a decimal separator and one or two decimals. */
const AMOUNT_IN = /\d{1,3}(?:[.,' ]\d{3})*[.,]\d{1,2}|\d+[.,]\d{1,2}/gu;
/** A date inside a token ("DATE19/10/2018", "2018-10-19(THU)", "2018/02/22"), one separator throughout
 * ("19-21/03/2018" holds 21/03/2018), not cut out of a longer number. */
const DATE_IN = /(?<!\d)(?:\d{1,2}([./-])\d{1,2}\1(?:\d{4}|\d{2})|\d{4}([./-])\d{1,2}\2\d{1,2})(?!\d)/gu;
/** A date written as digits alone, day month year ("25032018"). */
const DATE_DIGITS = /^\d{8}$/u;
/** Whole-candidate forms, for the features: an amount, a date written with letters or digits. */
const AMOUNT = /^[-+]?(?:[A-Z]{1,3}\s?)?(?:\d{1,3}(?:[.,'’ ]\d{3})+|\d+)[.,]\d{1,2}[-+]?$/u;
const WORDY_DATE = /^\d{1,2}[\s.-]*\p{L}{3,9}[\s.,-]*\d{2,4}$|^\p{L}{3,9}[\s.-]*\d{1,2}[\s.,-]+\d{2,4}$/u;

export interface SpanDocContext {
  doc: TokenizedDocument;
  /** The document's text as code points. */
  cps: string[];
  /** Token-forest probabilities per token. */
  probabilities: Float64Array[];
  /** Per token its most likely class. */
  argmax: number[];
  /** Amounts of the document (each token read as one), largest first: for an amount's rank and repeats. */
  amounts: number[];
  /** The amounts with the line they stand on, for what stands below a candidate. */
  amountLines: { value: number; lineNo: number }[];
  medianHeight: number;
  /** Per line its tallest token's height, sorted: how a candidate's text size ranks on the document. */
  lineHeights: number[];
  words: SpanWords;
  /** Per token the distances to the span forest's context words (features.ts contextDistances). */
  context: Float64Array[];
  /** The words' per-class lists as sets, made once per document rather than per candidate. */
  wordSets: { values: Set<string>[]; starts: Set<string>[]; ends: Set<string>[]; edgeShares: Map<string, [number, number]>[] };
}

/** The span stage of a model: the forest that scores candidates and the words it reads. */
export interface SpanModel {
  /** Per class (index cls - 1): the forest that scores its candidates, null for a class it could not learn. */
  forests: (ForestModel | null)[];
  words: SpanWords;
  /** The ranking stage (rankRows), a forest per class (index cls - 1; null for a class it could not learn):
   * scores the candidates again knowing the other candidates' span scores. */
  rankers: (ForestModel | null)[] | null;
  /** Per class: the score its best candidate must reach to be taken (model.ts acceptanceScores), 0 for any. */
  minScores: number[];
  /** Per class (index cls - 1): its training values read as its data type (READABLE_SHARE of them), so
   * only candidates that read so compete (typedCandidates). */
  typed: boolean[];
  /** Per class: its training values hold no digit-heavy token past their first (NUMBER_TAIL_SHARE of them
   * at most; a text class with 3 training values or more, model.ts MIN_PLAIN_VALUES): only candidates without one compete
   * (plainCandidates). Learnt: a company name on a receipt never carries the registration number after it. */
  plainTails: boolean[];
  /** Per class: the share of the training documents that have a value of it. */
  documentShare: number[];
  /** Per class: of the training values with a twin amount a few cents away on their document, one of the
   * two rounded to 5 cents and the other not, the share that are the rounded one; -1 when too few to tell
   * (model.ts roundedTwinShares). Absent in models trained before it. */
  roundedTwins?: number[];
}

/** A candidate's text read as an amount ("RM41.45", "1,250.00"), NaN when it is none. */
export function amountOf(flat: string): number {
  return AMOUNT.test(flat) ? parseNumber(flat.replace(/^[-+]?[A-Z]{1,3}\s?/u, '')) : NaN;
}

/** A range of the document's code points with its white space made single spaces and trimmed. */
export const flatText = (cps: readonly string[], r: { start: number; end: number }) => cps.slice(r.start, r.end).join('').replace(/\s+/g, ' ').trim();

/** Whether an amount is a whole number of 5 cents (what a cash total is rounded to where 1 and 2 cent coins
 * are gone). */
export const roundedTo5 = (value: number) => Math.round(Math.abs(value) * 100) % 5 === 0;

/** Amounts this close (and not equal) are twins: a total and its rounded form. */
const TWIN_DISTANCE = 0.05;

/** The amounts of a document that are a twin of `value` with the other rounding (one of the two rounded to
 * 5 cents, the other not). */
export function roundingTwins(amounts: readonly number[], value: number): number[] {
  return amounts.filter((a) => a !== value && Math.abs(a - value) < TWIN_DISTANCE && roundedTo5(a) !== roundedTo5(value));
}

/** A token at least half of whose characters are digits ("(587969-U)", "273500-U", "12.50"). */
export function digitHeavy(t: Token): boolean {
  const chars = Array.from(t.text);
  return chars.filter((ch) => ch >= '0' && ch <= '9').length * 2 >= chars.length;
}

/** Whether a candidate holds a digit-heavy token past its first: a registration number after a company name
 * ("Farmasi Maluri S/B (587969-U)"). */
export function numberTail(c: { tokens: readonly Token[] }): boolean {
  return c.tokens.some((t, i) => i > 0 && digitHeavy(t));
}

/** Share of a text class's training values that may hold a digit-heavy token past their first for the class
 * to be plain-tailed (SpanModel plainTails): at most one value in twenty. */
export const NUMBER_TAIL_SHARE = 0.05;

/** The candidates without a number tail (numberTail) when the class is plain-tailed and any have none; else all. */
export function plainCandidates(candidates: SpanCandidate[], plain: boolean): SpanCandidate[] {
  if (!plain) return candidates;
  const kept = candidates.filter((c) => !numberTail(c));
  return kept.length ? kept : candidates;
}

/** Share of a class's training values that must read as its data type for the class to be typed. */
export const READABLE_SHARE = 0.9;

/** The candidates that read as the class's data type when the class is typed and any does; else all. */
export function typedCandidates(candidates: SpanCandidate[], typed: boolean): SpanCandidate[] {
  if (!typed) return candidates;
  const kept = candidates.filter((c) => c.readable);
  return kept.length ? kept : candidates;
}

/** The words the span forest reads, learnt from the training candidates (learnSpanWords). */
export interface SpanWords {
  /** Context words that tell a class's values from its other candidates ("total" near a total, "cash" and
   * "change" near the amounts that are not), in column order. */
  context: string[];
  /** Per class (index cls - 1): words frequent inside its values on many training documents ("sdn", "bhd",
   * "enterprise" in company names): a value's own words, learnt, never a list of whole values. */
  values: string[][];
  /** Per class: the words its values start with and end with on several training documents ("jalan",
   * "lot" opening an address, "bhd" or "enterprise" closing a company name): where a value's edges are,
   * learnt from the labelled values' own first and last words, never a fixed list. */
  starts: string[][];
  ends: string[][];
  /** Per class: words (edgeKey) inside its values on several training documents, each with the share of
   * those documents whose value starts with it and the share whose value ends with it: "sdn" and "co" sit
   * inside a company name and never open one, "&" never closes one, so a candidate that opens on "CO." or
   * closes on "&" is a name cut short, and a line that opens on "SDN" continues the line above. */
  edgeShares: [string, number, number][][];
}

/** Span words of a model that has learnt none (the span stage's first pass, before learnSpanWords). */
export const NO_SPAN_WORDS: SpanWords = { context: [], values: [], starts: [], ends: [], edgeShares: [] };

/** A token as a key of SpanWords edgeShares: its edge word, or the token itself when it is a sign alone
 * ("&", "-", "@"); null otherwise. */
export function edgeKey(text: string): string | null {
  return edgeWord(text) ?? (/^[^\p{L}\d\s]{1,2}$/u.test(text) ? text : null);
}

/** A value's edge word: its token in lower case without surrounding punctuation, when it has two letters
 * or more ("(M)" and "NO.53" are none; "BHD." is "bhd"). */
export function edgeWord(text: string): string | null {
  const w = text.toLowerCase().replace(/^[^\p{L}\d]+|[^\p{L}\d]+$/gu, '');
  return (w.match(/\p{L}/gu) ?? []).length >= 2 && !/\d/.test(w) ? w : null;
}

export function spanContext(doc: TokenizedDocument, text: string, probabilities: Float64Array[], words: SpanWords): SpanDocContext {
  const argmax = probabilities.map((p) => {
    let best = 0;
    for (let k = 1; k < p.length; k++) if (p[k] > p[best]) best = k;
    return best;
  });
  const amountLines: { value: number; lineNo: number }[] = [];
  for (const t of doc.tokens) for (const m of t.text.matchAll(AMOUNT_IN)) amountLines.push({ value: parseNumber(m[0]), lineNo: t.lineNo });
  const found = amountLines.filter((a) => Number.isFinite(a.value));
  const amounts = found.map((a) => a.value).sort((a, b) => b - a);
  const heights = doc.tokens.map(tokenHeight).sort((a, b) => a - b);
  const medianHeight = heights.length ? heights[heights.length >> 1] : 1;
  const lineHeights = doc.lines.map((l) => Math.max(...l.tokens.map(tokenHeight))).sort((a, b) => a - b);
  const context = contextDistances(doc, { vocabulary: words.context, shapes: [], linesAbove: LINES_ABOVE });
  const sets = (lists: string[][]) => lists.map((l) => new Set(l));
  const wordSets = { values: sets(words.values), starts: sets(words.starts), ends: sets(words.ends), edgeShares: words.edgeShares.map((l) => new Map(l.map(([w, a, b]) => [w, [a, b] as [number, number]]))) };
  return { doc, cps: Array.from(text), probabilities, argmax, amounts, amountLines: found, medianHeight, lineHeights, words, context, wordSets };
}

/** Context words of a candidate while learning: left of it on its first line and anywhere on the
 * NEAR_LINES lines above (where a scan puts a row's label). */
function candidateContextWords(doc: TokenizedDocument, c: SpanCandidate): Set<string> {
  const first = c.tokens[0];
  const tokens = doc.lines[first.lineNo].tokens.slice(0, first.column);
  for (let n = first.lineNo - 1; n >= 0 && n >= first.lineNo - NEAR_LINES && doc.lines[n].page === first.page; n--) tokens.push(...doc.lines[n].tokens);
  const out = new Set<string>();
  for (const t of tokens) {
    const w = contextWord(t.text);
    if (w !== null) out.add(w);
  }
  return out;
}

const CONTEXT_WORDS_PER_CLASS = 12;
const MAX_CONTEXT_WORDS = 64;
const VALUE_WORDS_PER_CLASS = 24;
const EDGE_KEYS_PER_CLASS = 48;
/** A learnt word is seen on at least this share of the documents (and at least MIN_DOCS of them). */
const MIN_DOC_SHARE = 0.05;
const MIN_DOCS = 3;

/**
 * The span forest's words from the training candidates of each class (per document: its candidates and
 * which of them are values). Context words: those whose presence before a candidate differs most between
 * the values and the other candidates, whichever way (a key word, or the word of a look-alike such as the
 * cash given beside a total). Value words: words inside the values of the class on several documents.
 */
export function learnSpanWords(perDoc: readonly { doc: TokenizedDocument; byClass: Map<number, { candidates: SpanCandidate[]; gold: boolean[] }> }[], classes: number): SpanWords {
  const minDocs = Math.max(MIN_DOCS, Math.ceil(MIN_DOC_SHARE * perDoc.length));
  const context: Map<string, number>[] = [];
  const values: string[][] = [];
  const starts: string[][] = [];
  const ends: string[][] = [];
  const edgeShares: [string, number, number][][] = [];
  /** Words on at least minDocs documents, the most frequent first. */
  const frequent = (docs: Map<string, number>) => [...docs].filter(([, n]) => n >= minDocs).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, VALUE_WORDS_PER_CLASS).map(([w]) => w);
  for (let cls = 1; cls <= classes; cls++) {
    const pos = new Map<string, number>();
    const neg = new Map<string, number>();
    const docsWith = new Map<string, number>();
    const valueDocs = new Map<string, number>();
    const startDocs = new Map<string, number>();
    const endDocs = new Map<string, number>();
    /** Per edge key: documents with it inside a value, opening one, closing one. */
    const keyDocs = new Map<string, [number, number, number]>();
    let positives = 0;
    let negatives = 0;
    for (const { doc, byClass } of perDoc) {
      const here = byClass.get(cls);
      if (!here) continue;
      const seen = new Set<string>();
      const inValues = new Set<string>();
      const startsHere = new Set<string>();
      const endsHere = new Set<string>();
      const keysHere = new Map<string, [number, number]>();
      here.candidates.forEach((c, i) => {
        const words = candidateContextWords(doc, c);
        const counts = here.gold[i] ? pos : neg;
        if (here.gold[i]) positives += 1;
        else negatives += 1;
        for (const w of words) {
          counts.set(w, (counts.get(w) ?? 0) + 1);
          seen.add(w);
        }
        if (!here.gold[i]) return;
        for (const t of c.tokens) {
          const w = contextWord(t.text);
          if (w !== null) inValues.add(w);
        }
        const first = edgeWord(c.tokens[0].text);
        const last = edgeWord(c.tokens[c.tokens.length - 1].text);
        if (first !== null) startsHere.add(first);
        if (last !== null) endsHere.add(last);
        c.tokens.forEach((t, k) => {
          const key = edgeKey(t.text);
          if (key === null) return;
          const flags = keysHere.get(key) ?? [0, 0];
          if (k === 0) flags[0] = 1;
          if (k === c.tokens.length - 1) flags[1] = 1;
          keysHere.set(key, flags);
        });
      });
      for (const [key, [opens, closes]] of keysHere) {
        const n = keyDocs.get(key) ?? [0, 0, 0];
        keyDocs.set(key, [n[0] + 1, n[1] + opens, n[2] + closes]);
      }
      for (const w of seen) docsWith.set(w, (docsWith.get(w) ?? 0) + 1);
      for (const w of inValues) valueDocs.set(w, (valueDocs.get(w) ?? 0) + 1);
      for (const w of startsHere) startDocs.set(w, (startDocs.get(w) ?? 0) + 1);
      for (const w of endsHere) endDocs.set(w, (endDocs.get(w) ?? 0) + 1);
    }
    const scored = [...docsWith]
      .filter(([, n]) => n >= minDocs)
      .map(([w]) => ({ w, score: Math.abs((pos.get(w) ?? 0) / Math.max(1, positives) - (neg.get(w) ?? 0) / Math.max(1, negatives)) }))
      .sort((a, b) => b.score - a.score || (a.w < b.w ? -1 : 1))
      .slice(0, CONTEXT_WORDS_PER_CLASS);
    context.push(new Map(scored.map(({ w, score }) => [w, score])));
    values.push(frequent(valueDocs));
    starts.push(frequent(startDocs));
    ends.push(frequent(endDocs));
    edgeShares.push(
      [...keyDocs]
        .filter(([, [n]]) => n >= minDocs)
        .sort((a, b) => b[1][0] - a[1][0] || (a[0] < b[0] ? -1 : 1))
        .slice(0, EDGE_KEYS_PER_CLASS)
        .map(([w, [n, opens, closes]]): [string, number, number] => [w, opens / n, closes / n]),
    );
  }
  const total = new Map<string, number>();
  for (const m of context) for (const [w, s] of m) total.set(w, (total.get(w) ?? 0) + s);
  return { context: [...total].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, MAX_CONTEXT_WORDS).map(([w]) => w), values, starts, ends, edgeShares };
}

/** Candidates of one class on a document (deduplicated by range). `runs` are the token-level runs of the class. */
export function spanCandidates(ctx: SpanDocContext, cls: number, info: ClassInfo, dataType: string, runs: readonly { start: number; end: number }[]): SpanCandidate[] {
  const { doc, probabilities } = ctx;
  const seeds = doc.tokens
    .filter((t) => probabilities[t.index][cls] >= MIN_SEED)
    .sort((a, b) => probabilities[b.index][cls] - probabilities[a.index][cls] || a.index - b.index)
    .slice(0, SEEDS);
  const out = new Map<string, SpanCandidate>();
  const runKeys = new Set(runs.map((r) => `${r.start}:${r.end}`));
  const add = (tokens: Token[], start = tokens[0].start, end = tokens[tokens.length - 1].end) => {
    const key = `${start}:${end}`;
    if (!out.has(key)) out.set(key, { cls, start, end, tokens, trimmed: start !== tokens[0].start || end !== tokens[tokens.length - 1].end, isRun: runKeys.has(key) });
  };
  const longest = Math.min(MAX_TOKENS, info.maxTokens + EXTRA_TOKENS);
  for (const seed of seeds) {
    const line = doc.lines[seed.lineNo].tokens;
    const c = seed.column;
    for (let i = Math.max(0, c - longest + 1); i <= c; i++) {
      for (let j = c; j < line.length && j - i < longest; j++) add(line.slice(i, j + 1));
    }
    // Blocks of whole lines around the seed's line, as tall as training annotations of the class were.
    for (let a = seed.lineNo - info.maxLines + 1; a <= seed.lineNo; a++) {
      for (let b = Math.max(a + 1, seed.lineNo); b < a + info.maxLines; b++) {
        if (a < 0 || b >= doc.lines.length || doc.lines[a].page !== seed.page || doc.lines[b].page !== seed.page) continue;
        add(doc.lines.slice(a, b + 1).flatMap((l) => l.tokens));
      }
    }
    // The value inside a token, read by the label's data type.
    const inner = dataType === 'Date' ? DATE_IN : /Number|Percentage/.test(dataType) ? AMOUNT_IN : null;
    if (inner) {
      for (const m of seed.text.matchAll(inner)) {
        const from = seed.start + Array.from(seed.text.slice(0, m.index)).length;
        add([seed], from, from + Array.from(m[0]).length);
      }
    }
  }
  for (const r of runs) {
    const tokens = doc.tokens.filter((t) => t.start >= r.start && t.end <= r.end);
    if (tokens.length) add(tokens, r.start, r.end);
  }
  if (dataType === 'Date') for (const f of dateCandidates(ctx)) add(f.tokens, f.start, f.end);
  const list = [...out.values()];
  for (const c of list) c.readable = readable(ctx, c, dataType);
  return list;
}

/** Whether Folio's normalization reads a range as a value of the data type (spec 2.14). */
export function readable(ctx: SpanDocContext, c: { start: number; end: number }, dataType: string): boolean {
  return dataType === 'Text' || normalize(ctx.cps.slice(c.start, c.end).join(''), dataType as DataType) !== null;
}

/** Longest written date in tokens ("03 MAR 2018", "MAR 03, 2018"). */
const DATE_TOKENS = 4;

/**
 * Every date on the document that Folio's date normalization reads, whatever the token forest thinks of its
 * tokens: digits inside a token, a digit run of a whole token ("25032018"), or a month name with day and
 * year over up to DATE_TOKENS tokens of a line. A receipt's date written with a month name ("03 MAR 2018")
 * when the training dates were digits is still a candidate; the span forest ranks it with the others.
 * (Amounts anywhere as candidates of a Number label were measured too and did not help: left out.)
 */
function dateCandidates(ctx: SpanDocContext): { tokens: Token[]; start: number; end: number }[] {
  const out: { tokens: Token[]; start: number; end: number }[] = [];
  const isDate = (text: string) => normalize(text, 'Date') !== null;
  for (const line of ctx.doc.lines) {
    line.tokens.forEach((t, i) => {
      for (const m of t.text.matchAll(DATE_IN)) {
        if (!isDate(m[0])) continue;
        const from = t.start + Array.from(t.text.slice(0, m.index)).length;
        out.push({ tokens: [t], start: from, end: from + Array.from(m[0]).length });
      }
      if (DATE_DIGITS.test(t.text) && isDate(t.text)) out.push({ tokens: [t], start: t.start, end: t.end });
      for (let j = i; j < line.tokens.length && j - i < DATE_TOKENS; j++) {
        const tokens = line.tokens.slice(i, j + 1);
        const flat = ctx.cps.slice(t.start, tokens[tokens.length - 1].end).join('').replace(/\s+/g, ' ');
        if (WORDY_DATE.test(flat) && isDate(flat)) out.push({ tokens, start: t.start, end: tokens[tokens.length - 1].end });
      }
    });
  }
  return out;
}

export const SPAN_BASE_FEATURES = 87;

/** Where a candidate stands among the candidates of its class on the document: ranks compare documents
 * whose token probabilities are all high or all low. */
export interface CandidateStanding {
  /** Rank of its mean token probability, 0 = highest. */
  rank: number;
  /** Its mean token probability over the highest one. */
  ratio: number;
  candidates: number;
}

export function standings(ctx: SpanDocContext, candidates: readonly SpanCandidate[]): CandidateStanding[] {
  const means = candidates.map((c) => c.tokens.reduce((s, t) => s + ctx.probabilities[t.index][c.cls], 0) / c.tokens.length);
  const sorted = [...means].sort((a, b) => b - a);
  const top = sorted[0] || 1;
  return means.map((m) => ({ rank: sorted.indexOf(m), ratio: m / top, candidates: candidates.length }));
}

/** The candidate's feature row: SPAN_BASE_FEATURES columns, then the context words of its first token. */
export function spanFeatures(ctx: SpanDocContext, c: SpanCandidate, standing: CandidateStanding): Float32Array {
  const { doc, probabilities, argmax } = ctx;
  const p = (t: Token | undefined) => (t ? probabilities[t.index][c.cls] : -1);
  const ps = c.tokens.map((t) => p(t));
  const first = c.tokens[0];
  const last = c.tokens[c.tokens.length - 1];
  const firstLine = doc.lines[first.lineNo];
  const lastLine = doc.lines[last.lineNo];
  const lineMax = (n: number) => {
    const line = doc.lines[n];
    if (!line || line.page !== first.page) return -1;
    return Math.max(...line.tokens.map((t) => p(t)));
  };
  const flat = flatText(ctx.cps, c);
  const isAmount = AMOUNT.test(flat);
  const value = amountOf(flat);
  const rank = Number.isFinite(value) ? ctx.amounts.findIndex((a) => a <= value) : -1;
  const repeats = Number.isFinite(value) ? ctx.amounts.filter((a) => a === value).length : 0;
  const page = doc.pageSizes[first.page] ?? { width: 1, height: 1 };
  const lines = new Set(c.tokens.map((t) => t.lineNo)).size;
  const meanHeight = c.tokens.reduce((s, t) => s + tokenHeight(t), 0) / c.tokens.length;
  const rows = doc.linesPerPage[first.page] ?? 1;
  const valueWords = ctx.wordSets.values[c.cls - 1] ?? new Set<string>();
  const isValueWord = (t: Token) => valueWords.has(contextWord(t.text) ?? '');
  const valueWordOrAbsent = (t: Token | undefined) => (t ? (isValueWord(t) ? 1 : 0) : -1);
  const next = doc.lines[last.lineNo + 1];
  const cents = Number.isFinite(value) ? Math.round(Math.abs(value) * 100) % 100 : -1;
  const below = ctx.amountLines.filter((a) => a.lineNo > last.lineNo);
  const row = [
    c.cls,
    ps.reduce((a, b) => a + b, 0) / ps.length,
    Math.min(...ps),
    Math.max(...ps),
    ps[0],
    ps[ps.length - 1],
    p(firstLine.tokens[first.column - 1]),
    p(lastLine.tokens[last.column + 1]),
    lineMax(first.lineNo - 1),
    lineMax(last.lineNo + 1),
    c.tokens.filter((t) => argmax[t.index] === c.cls).length / c.tokens.length,
    c.tokens.reduce((s, t) => s + probabilities[t.index][0], 0) / c.tokens.length,
    c.tokens.length,
    lines,
    Array.from(flat).length,
    first.column === 0 && last.column === lastLine.tokens.length - 1 ? 1 : 0,
    first.column === 0 ? 1 : 0,
    last.column === lastLine.tokens.length - 1 ? 1 : 0,
    c.trimmed ? 1 : 0,
    c.isRun ? 1 : 0,
    DATE_PATTERNS.some((re) => re.test(flat)) || WORDY_DATE.test(flat) ? 1 : 0,
    isAmount ? 1 : 0,
    Number.isFinite(value) ? Math.sign(value) * Math.log10(1 + Math.abs(value)) : -10,
    rank,
    ctx.amounts.length ? (rank < 0 ? -1 : rank / ctx.amounts.length) : -1,
    repeats,
    (/\d/.test(flat) ? 1 : 0) + (/\p{L}/u.test(flat) ? 2 : 0),
    1 - first.y1 / page.height,
    1 - last.y0 / page.height,
    firstLine.rowInPage,
    rows - 1 - lastLine.rowInPage,
    firstLine.rowInPage / rows,
    meanHeight / ctx.medianHeight,
    first.x0 / page.width,
    Math.max(...c.tokens.map((t) => t.x1)) / page.width,
    first.page,
    standing.rank,
    standing.ratio,
    standing.candidates,
    (flat.match(/\p{Lu}/gu) ?? []).length / Math.max(1, (flat.match(/\p{L}/gu) ?? []).length),
    // The class's value words inside, at the edges and just outside (a name cut short before "SDN BHD").
    c.tokens.filter((t) => isValueWord(t)).length / c.tokens.length,
    isValueWord(first) ? 1 : 0,
    isValueWord(last) ? 1 : 0,
    valueWordOrAbsent(firstLine.tokens[first.column - 1]),
    valueWordOrAbsent(lastLine.tokens[last.column + 1]),
    valueWordOrAbsent(next?.page === last.page ? next.tokens[0] : undefined),
    // An amount's cents and whether it is rounded to 5 cents; amounts printed below it, larger ones among them.
    Number.isFinite(value) ? cents : -1,
    Number.isFinite(value) ? (cents % 5 === 0 ? 1 : 0) : -1,
    below.length,
    Number.isFinite(value) ? below.filter((a) => a.value > value).length : -1,
    // How the amount relates to the others: a total is cash given less change and a subtotal plus tax,
    // cash given is a total plus change; a rounded total has its unrounded twin a few cents away.
    ...(Number.isFinite(value) ? amountRelations(ctx.amounts, value) : [-1, -1, -1]),
    // Share of the document's lines printed taller than the candidate: a heading ranks first.
    ctx.lineHeights.filter((h) => h > 1.05 * meanHeight).length / Math.max(1, ctx.lineHeights.length),
    // The form of the tokens just outside it on its lines and of its own last token: a name ends before a
    // registration number in brackets ("AEON CO. (M) BHD (126926-H)"), a value rarely ends on one.
    ...tokenForm(firstLine.tokens[first.column - 1]),
    ...tokenForm(lastLine.tokens[last.column + 1]),
    ...tokenForm(last),
    c.readable === undefined ? -1 : c.readable ? 1 : 0,
    // The lines just above and below it: whether they read as its continuation (a name printed over two
    // lines, "POPULAR BOOK" above "CO. (M) SDN BHD"): their digits, text size against its own, value words.
    ...neighbourLine(doc.lines[first.lineNo - 1], first.page, meanHeight, isValueWord),
    ...neighbourLine(doc.lines[last.lineNo + 1], first.page, meanHeight, isValueWord),
    // Its edges against the words the class's values start and end with (learnt): a start word first and an
    // end word last; an end word just after it on its line or ending the next line (a name cut short), a
    // start word just before it or opening the line above (an address cut short at the top).
    ...edgeWords(ctx, c),
    // Its own first and last line: digits, a key-value sign, value words ("GST ID : 0004..." below an
    // address is a line of another field).
    ...ownLine(c.tokens.filter((t) => t.lineNo === first.lineNo), isValueWord),
    ...ownLine(c.tokens.filter((t) => t.lineNo === last.lineNo), isValueWord),
    // Where its edges stand in the class's values (edgeShares): its first token's share of opening a value
    // and its last token's of closing one ("CO. (M) SDN BHD" opens on a word that never opens a name); the
    // first token of the next line's share of opening one when it ends its line ("SDN BHD" below continues
    // it) and the last token of the line above's of closing one when it starts its line; inside a candidate
    // of several lines the same at its first line break. -1 for a word the class's values do not hold.
    ...edgeShares(ctx, c),
    // The first token of the next line when it ends its line: a registration number below a company name.
    ...tokenForm(last.column === lastLine.tokens.length - 1 && next?.page === last.page ? next.tokens[0] : undefined),
  ];
  for (const v of ctx.context[first.index]) row.push(v);
  return Float32Array.from(row);
}

/** A line next to a candidate: its share of digits, its tallest token over the candidate's mean height,
 * and its share of the class's value words; -1s when there is no such line on the page. */
function neighbourLine(line: TokenLine | undefined, page: number, height: number, isValueWord: (t: Token) => boolean): [number, number, number] {
  if (!line || line.page !== page) return [-1, -1, -1];
  const chars = line.tokens.flatMap((t) => Array.from(t.text));
  return [
    chars.filter((ch) => ch >= '0' && ch <= '9').length / Math.max(1, chars.length),
    Math.max(...line.tokens.map(tokenHeight)) / height,
    line.tokens.filter(isValueWord).length / line.tokens.length,
  ];
}

/** Whether the candidate's edge tokens and the tokens just outside them are start or end words of its
 * class (SpanWords starts and ends): its first and last token, the tokens just before and after it on its
 * lines, the first token of the line above and the last of the line below; -1 where there is no such token. */
function edgeWords(ctx: SpanDocContext, c: SpanCandidate): number[] {
  const doc = ctx.doc;
  const starts = ctx.wordSets.starts[c.cls - 1] ?? new Set<string>();
  const ends = ctx.wordSets.ends[c.cls - 1] ?? new Set<string>();
  const is = (set: Set<string>, t: Token | undefined) => (t ? (set.has(edgeWord(t.text) ?? '') ? 1 : 0) : -1);
  const first = c.tokens[0];
  const last = c.tokens[c.tokens.length - 1];
  const above = doc.lines[first.lineNo - 1];
  const below = doc.lines[last.lineNo + 1];
  return [
    is(starts, first),
    is(ends, last),
    is(starts, doc.lines[first.lineNo].tokens[first.column - 1]),
    is(ends, doc.lines[last.lineNo].tokens[last.column + 1]),
    is(starts, above?.page === first.page ? above.tokens[0] : undefined),
    is(ends, below?.page === last.page ? below.tokens[below.tokens.length - 1] : undefined),
  ];
}

/** Opening and closing shares (SpanWords edgeShares) at a candidate's edges and just outside them (see
 * spanFeatures); -1 where the token's word is not one of the class's or there is no such token. */
function edgeShares(ctx: SpanDocContext, c: SpanCandidate): number[] {
  const doc = ctx.doc;
  const shares = ctx.wordSets.edgeShares[c.cls - 1] ?? new Map<string, [number, number]>();
  const share = (t: Token | undefined, k: 0 | 1) => (t ? (shares.get(edgeKey(t.text) ?? '')?.[k] ?? -1) : -1);
  const first = c.tokens[0];
  const last = c.tokens[c.tokens.length - 1];
  const lastLine = doc.lines[last.lineNo];
  const above = doc.lines[first.lineNo - 1];
  const below = doc.lines[last.lineNo + 1];
  const breakAt = c.tokens.findIndex((t) => t.lineNo !== first.lineNo);
  return [
    share(first, 0),
    share(last, 1),
    last.column === lastLine.tokens.length - 1 && below?.page === last.page ? share(below.tokens[0], 0) : -1,
    first.column === 0 && above?.page === first.page ? share(above.tokens[above.tokens.length - 1], 1) : -1,
    breakAt > 0 ? share(c.tokens[breakAt - 1], 1) : -1,
    breakAt > 0 ? share(c.tokens[breakAt], 0) : -1,
  ];
}

/** A line's tokens inside a candidate: their share of digits, whether one is a key-value sign (":"), and
 * their share of the class's value words. */
function ownLine(tokens: readonly Token[], isValueWord: (t: Token) => boolean): [number, number, number] {
  const chars = tokens.flatMap((t) => Array.from(t.text));
  return [
    chars.filter((ch) => ch >= '0' && ch <= '9').length / Math.max(1, chars.length),
    tokens.some((t) => /:$|^:/.test(t.text)) ? 1 : 0,
    tokens.filter(isValueWord).length / Math.max(1, tokens.length),
  ];
}

/** A token's share of digits and whether it holds a bracket; -1, -1 when there is no token. */
function tokenForm(t: Token | undefined): [number, number] {
  if (!t) return [-1, -1];
  const chars = Array.from(t.text);
  return [chars.filter((ch) => ch >= '0' && ch <= '9').length / chars.length, /[()[\]{}]/.test(t.text) ? 1 : 0];
}

/** Whether an amount is the difference of two other amounts, their sum, and whether another amount lies
 * within 5 cents of it (its rounded or unrounded twin). */
function amountRelations(amounts: readonly number[], value: number): [number, number, number] {
  const others = [...new Set(amounts.filter((a) => a > 0 && Math.abs(a - value) > CENT))];
  let difference = 0;
  let sum = 0;
  for (let i = 0; i < others.length && !(difference && sum); i++) {
    for (let j = 0; j < others.length; j++) {
      if (Math.abs(others[i] - others[j] - value) < CENT) difference = 1;
      if (i < j && Math.abs(others[i] + others[j] - value) < CENT) sum = 1;
    }
  }
  const twin = others.some((a) => Math.abs(a - value) < TWIN_DISTANCE) ? 1 : 0;
  return [difference, sum, twin];
}

const CENT = 0.005;

/** The candidates' feature rows (spanFeatures with their standings). */
export function candidateRows(ctx: SpanDocContext, candidates: readonly SpanCandidate[]): Float32Array[] {
  const standing = standings(ctx, candidates);
  return candidates.map((c, i) => spanFeatures(ctx, c, standing[i]));
}

/** Per candidate its probability of being the value: the span forest's, then the ranking forest's when the
 * model has one (it compares the candidates of the document with each other). */
export function scoreCandidates(model: SpanModel, ctx: SpanDocContext, candidates: readonly SpanCandidate[], dataType: string): number[] {
  if (!candidates.length) return [];
  const rows = candidateRows(ctx, candidates);
  const forest = model.forests[candidates[0].cls - 1];
  // A class the span stage has no forest for (no value to learn from): the mean token probability.
  if (!forest) return standings(ctx, candidates).map((s) => s.ratio);
  const scores = predictForest(forest, rows).map((p) => p[1] ?? 0);
  const ranker = model.rankers?.[candidates[0].cls - 1];
  if (!ranker) return scores;
  return predictForest(ranker, rankRows(ctx, candidates, rows, scores, dataType)).map((p) => p[1] ?? 0);
}

/** Columns the ranking stage appends to a candidate's row. */
export const RANK_FEATURES = 12;

/** What a candidate's value is, to tell candidates of one value apart from others: an amount by its
 * number, a date by its normalized date, other text in lower case with white space collapsed. */
function valueKey(ctx: SpanDocContext, c: SpanCandidate, dataType: string): string {
  const text = ctx.cps.slice(c.start, c.end).join('').replace(/\s+/g, ' ').trim();
  if (/Number|Percentage/.test(dataType)) {
    const m = /\d[\d.,' ]*\d|\d/u.exec(text);
    const v = m ? parseNumber(m[0].replace(/\s/g, '')) : NaN;
    if (Number.isFinite(v)) return `n:${v}`;
  }
  if (dataType === 'Date') {
    const d = normalize(text, 'Date');
    if (d !== null) return `d:${String(d)}`;
  }
  return `t:${text.toLowerCase()}`;
}

/**
 * The ranking stage's rows: a candidate's own row, then how its span score stands among the document's
 * candidates of its class: the score, over the best, its rank, the margin to the best other; how many other
 * candidates read as the same value and their share of the scores (a total printed beside TOTAL and again
 * beside a rounding line votes twice); the best score among candidates that hold it, that it holds, and on
 * its line (a name cut before its registration number against the whole line); the best score of an amount
 * a few cents away and whether this one is the rounded of the two.
 */
export function rankRows(ctx: SpanDocContext, candidates: readonly SpanCandidate[], rows: readonly Float32Array[], scores: readonly number[], dataType: string): Float32Array[] {
  const keys = candidates.map((c) => valueKey(ctx, c, dataType));
  const top = Math.max(...scores);
  const sum = scores.reduce((a, b) => a + b, 0) || 1;
  const sorted = [...scores].sort((a, b) => b - a);
  return candidates.map((c, i) => {
    let same = 0, sameScore = scores[i], sameMax = -1, holders = -1, held = -1, onLine = -1, others = -1, twin = -1, twinRounded = -1;
    const amount = keys[i].startsWith('n:') ? Number(keys[i].slice(2)) : NaN;
    candidates.forEach((d, j) => {
      if (j === i) return;
      others = Math.max(others, scores[j]);
      if (keys[j] === keys[i]) {
        same += 1;
        sameScore += scores[j];
        sameMax = Math.max(sameMax, scores[j]);
      }
      if (d.start <= c.start && d.end >= c.end) holders = Math.max(holders, scores[j]);
      else if (d.start >= c.start && d.end <= c.end) held = Math.max(held, scores[j]);
      if (d.tokens[0].lineNo === c.tokens[0].lineNo) onLine = Math.max(onLine, scores[j]);
      // A twin a few cents away (the rounded or the unrounded total): its score, and whether this one is the
      // rounded of the two.
      const other = keys[j].startsWith('n:') ? Number(keys[j].slice(2)) : NaN;
      if (Number.isFinite(amount) && Number.isFinite(other) && other !== amount && Math.abs(other - amount) < 0.05) {
        twin = Math.max(twin, scores[j]);
        twinRounded = Math.round(amount * 100) % 5 === 0 ? 1 : 0;
      }
    });
    const extra = [scores[i], top > 0 ? scores[i] / top : 0, sorted.indexOf(scores[i]), scores[i] - others, same, sameScore / sum, sameMax, holders, held, onLine, twin, twinRounded];
    const row = new Float32Array(rows[i].length + RANK_FEATURES);
    row.set(rows[i]);
    row.set(extra, rows[i].length);
    return row;
  });
}
