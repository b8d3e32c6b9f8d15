// Turns a document into the terms the categorizer counts and into an L2-normalised tf-idf vector. Words are
// folded (lower case, umlauts and other accents folded, so "Bezüge", "BEZUEGE" and "Bezuege" are one term),
// numbers become their shape ("08.08.2019" -> "#00.00.0000"), and where character boxes exist, layout adds
// terms of its own: the words at the top of the first page (letterheads, titles), large print, and the page
// count. Pure.
import type { CharBox } from '../../domain/geometry.ts';
import type { CategorizationDocument } from './types.ts';

const FOLDS: Record<string, string> = { ä: 'ae', ö: 'oe', ü: 'ue', ß: 'ss' };

/** Lower case, German umlauts spelled out, other accents dropped: the form words are compared in. */
export function foldText(text: string): string {
  return text
    .normalize('NFC')
    .toLowerCase()
    .replace(/[äöüß]/g, (ch) => FOLDS[ch])
    .normalize('NFD')
    .replace(/\p{M}/gu, '');
}

/** The letter and digit runs of a folded text: the words names and texts are matched by. */
export const wordsOf = (folded: string): string[] => folded.split(/[^\p{L}\p{N}]+/u).filter(Boolean);

/** Digit runs become zeros, at most 6, so amounts, dates and codes of one shape share a term. */
const numberShape = (folded: string) => '#' + folded.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '').replace(/\d+/g, (run) => '0'.repeat(Math.min(run.length, 6)));

/** The terms of one white-space separated word: its letter parts of two or more letters, or its number shape. */
function wordTerms(word: string): string[] {
  // Most words are plain ASCII: lower case is all their folding needs (Unicode normalisation is the cost).
  const folded = /^[\x21-\x7e]*$/.test(word) ? word.toLowerCase() : foldText(word);
  if (/\d/.test(folded)) return [numberShape(folded)];
  return wordsOf(folded).filter((w) => w.length >= 2);
}

/** Where a word is printed, from the box of its first character. */
interface Placement {
  top: boolean;
  big: boolean;
}

/** Top of the first page: the share of the page height where letterheads and document titles sit. */
const TOP_SHARE = 0.2;
/** Print this many times the document's median glyph height counts as large (titles). */
const BIG_FACTOR = 1.5;

function pageCountTerm(pages: number): string {
  const bucket = pages <= 2 ? String(pages) : pages <= 5 ? '3-5' : pages <= 10 ? '6-10' : '11+';
  return `@pages:${bucket}`;
}

function median(values: number[]): number {
  if (!values.length) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** Term counts of a document: text terms, and layout terms where the document has character boxes. */
export function termCounts(doc: CategorizationDocument): Map<string, number> {
  const counts = new Map<string, number>();
  const add = (term: string) => counts.set(term, (counts.get(term) ?? 0) + 1);
  const chars = doc.chars ?? [];
  const boxes: (CharBox | undefined)[] = [];
  for (const c of chars) if (c.offset >= 0) boxes[c.offset] = c;
  // Glyph heights vary by font and scan: "large" is relative to the document's own body text.
  const bigHeight = BIG_FACTOR * median(chars.slice(0, 4000).map((c) => Math.abs(c.y1 - c.y0)));
  const firstPageHeight = doc.pageSizes?.[0]?.height ?? chars.reduce((h, c) => (c.page_index === 0 ? Math.max(h, c.bottom) : h), 0);
  const place = (offset: number): Placement | null => {
    const box = boxes[offset];
    if (!box) return null;
    return { top: box.page_index === 0 && box.top < TOP_SHARE * firstPageHeight, big: bigHeight > 0 && Math.abs(box.y1 - box.y0) >= bigHeight };
  };

  // Offsets count code points (CharBox.offset); the regex walks UTF-16, so count the surrogate pairs between.
  let codePoint = 0;
  let unit = 0;
  // Words repeat within a document: fold each spelling once.
  const termsOf = new Map<string, string[]>();
  for (const match of doc.text.matchAll(/\S+/gu)) {
    for (; unit < match.index!; unit++) if (!isLowSurrogate(doc.text.charCodeAt(unit))) codePoint++;
    let terms = termsOf.get(match[0]);
    if (!terms) termsOf.set(match[0], (terms = wordTerms(match[0])));
    const placement = chars.length ? place(codePoint) : null;
    for (const term of terms) {
      add(term);
      if (placement?.top) add(`@top:${term}`);
      if (placement?.big) add(`@big:${term}`);
    }
  }
  const pages = doc.pageSizes?.length || chars.reduce((n, c) => Math.max(n, c.page_index + 1), 0);
  if (pages > 0) add(pageCountTerm(pages));
  return counts;
}

const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/** A term made of a word (also where printed), not a number shape or the page count. */
const isWordTerm = (term: string) => !term.startsWith('@pages:') && !term.replace(/^@\w+:/, '').startsWith('#');

export interface VectorSpace {
  vocabulary: string[];
  idf: number[];
}

/** Columns of the vector space: terms in enough training documents, the most widespread first, capped. */
export function buildVectorSpace(documents: Map<string, number>[], options: { wordsOnly?: boolean; maxTerms?: number } = {}): VectorSpace {
  const { wordsOnly = false, maxTerms = 20_000 } = options;
  const df = new Map<string, number>();
  for (const counts of documents) for (const term of counts.keys()) if (!wordsOnly || isWordTerm(term)) df.set(term, (df.get(term) ?? 0) + 1);
  // A term seen once in a large training set is mostly noise (a name, an amount); small sets keep every term.
  const minDf = documents.length >= 20 ? 2 : 1;
  const kept = [...df].filter(([, n]) => n >= minDf).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, maxTerms);
  const n = documents.length;
  return { vocabulary: kept.map(([term]) => term), idf: kept.map(([, d]) => Math.log((1 + n) / (1 + d)) + 1) };
}

/** A sparse vector: column indexes ascending, with their values. */
export interface SparseVector {
  indices: Int32Array;
  values: Float64Array;
}

/** Sublinear tf (1 + ln count) times idf, scaled to length 1 (all zero when no term is in the vocabulary). */
export function vectorize(counts: Map<string, number>, columns: Map<string, number>, idf: readonly number[]): SparseVector {
  const entries: [number, number][] = [];
  for (const [term, count] of counts) {
    const column = columns.get(term);
    if (column !== undefined) entries.push([column, (1 + Math.log(count)) * idf[column]]);
  }
  entries.sort((a, b) => a[0] - b[0]);
  const norm = Math.sqrt(entries.reduce((sum, [, v]) => sum + v * v, 0)) || 1;
  return { indices: Int32Array.from(entries, ([c]) => c), values: Float64Array.from(entries, ([, v]) => v / norm) };
}

export const columnIndex = (vocabulary: readonly string[]) => new Map(vocabulary.map((term, i) => [term, i]));

/** Dot product of a sparse vector with a dense row. */
export function dot(x: SparseVector, row: ArrayLike<number>): number {
  let sum = 0;
  for (let k = 0; k < x.indices.length; k++) sum += x.values[k] * row[x.indices[k]];
  return sum;
}
