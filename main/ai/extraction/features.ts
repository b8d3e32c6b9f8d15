// Numeric feature vectors of tokens: shape, place on the page, neighbours on the line and above/below, and
// distances to the context words learnt from training ("Auszahlungsbetrag", "Netto", "Datum"). Pure.
import { NEIGHBOUR_TEXT_FEATURES, shapeOf, TEXT_FEATURES, textFeatures } from './shape.ts';
import { tokenHeight, type Token, type TokenizedDocument } from './tokens.ts';

/* The token's own words are never features: a value is recognized by its form and its surroundings, so
 * a model is never a lookup of training strings; words that are mostly annotated values are no context. */

/** Learnt from the training documents and stored with the model: prediction computes the same columns. */
export interface FeatureConfig {
  /** Context words (lower case), in column order. */
  vocabulary: string[];
  /** Token shapes frequent among annotated tokens, one column each. */
  shapes: string[];
  /** How many lines up a context word may stand. */
  linesAbove: number;
}

/** Distances in em are capped at FAR_EM; a neighbour or context word that is not there counts as ABSENT,
 * beyond any distance, so that one split separates "near" from "far or absent". */
const FAR_EM = 60;
const ABSENT = 99;
const NEIGHBOURS_LEFT = 2;
const NEIGHBOURS_RIGHT = 2;
/** A word above a token belongs to it when their x ranges, widened by this many em, overlap. */
const COLUMN_SLACK_EM = 2;

/** A context word: the token's text in lower case without surrounding punctuation; null when not a word. */
export function contextWord(text: string): string | null {
  const w = text.toLowerCase().replace(/^[^\p{L}\d]+|[^\p{L}\d]+$/gu, '');
  return (w.match(/\p{L}/gu) ?? []).length >= 3 ? w : null;
}

export function featureNames(config: FeatureConfig): string[] {
  const text = (p: string, idx: readonly number[] | null) => (idx ?? [...Array(TEXT_FEATURES).keys()]).map((i) => `${p}.text${i}`);
  const names = [
    ...text('token', null),
    ...config.shapes.map((s) => `token.shape=${s}`),
    'x0', 'x1', 'xCenter', 'top', 'page', 'rowInPage', 'rowsOnPage', 'column', 'tokensOnLine', 'height', 'lineLeft', 'lineRight',
  ];
  for (let k = 1; k <= NEIGHBOURS_LEFT; k++) names.push(`left${k}.gap`, ...text(`left${k}`, NEIGHBOUR_TEXT_FEATURES));
  for (let k = 1; k <= NEIGHBOURS_RIGHT; k++) names.push(`right${k}.gap`, ...text(`right${k}`, NEIGHBOUR_TEXT_FEATURES));
  for (const side of ['above', 'below']) names.push(`${side}.distance`, `${side}.dx`, ...text(side, NEIGHBOUR_TEXT_FEATURES));
  for (const w of config.vocabulary) names.push(`left:${w}`, `above:${w}`, `line:${w}`);
  return names;
}

/** The token nearest above (or below) in the same column: the closest line whose token overlaps it. */
function verticalNeighbour(doc: TokenizedDocument, t: Token, step: -1 | 1): Token | null {
  for (let n = t.lineNo + step; n >= 0 && n < doc.lines.length; n += step) {
    const line = doc.lines[n];
    if (line.page !== t.page) return null;
    let best: Token | null = null;
    let bestOverlap = 0;
    for (const u of line.tokens) {
      const overlap = Math.min(t.x1, u.x1) - Math.max(t.x0, u.x0);
      if (overlap > bestOverlap) [best, bestOverlap] = [u, overlap];
    }
    if (best) return best;
  }
  return null;
}

/** Context columns per vocabulary word: left, above, line, and near (the span stage's rows); the token
 * forest reads the first three (TOKEN_CONTEXT_COLUMNS): with "near" too, payslip F1 (their texts as the HTTP
 * path stores them, library level) was 0.950 against 0.959 without, mean of three seeds, and the receipts of
 * bench:receipts-dev gained nothing beyond noise from it; the span stage keeps it for receipt totals. */
export const CONTEXT_COLUMNS = 4;
export const TOKEN_CONTEXT_COLUMNS = 3;
/** Lines up in which a context word counts as "near" wherever it stands on the line: a scan often puts a
 * row's label ("TOTAL") and its value on lines of their own, the label first, far apart across the page. */
export const NEAR_LINES = 2;

/** Per token: the nearest occurrence of each context word to the left, above in its column, anywhere on its
 * line, and (columns = CONTEXT_COLUMNS) anywhere on the NEAR_LINES lines above (in lines). */
export function contextDistances(doc: TokenizedDocument, config: FeatureConfig, columns: number = CONTEXT_COLUMNS): Float64Array[] {
  const column = new Map(config.vocabulary.map((w, i) => [w, i]));
  const wordOf = doc.tokens.map((t) => {
    const w = contextWord(t.text);
    return w === null ? -1 : (column.get(w) ?? -1);
  });
  const width = config.vocabulary.length;
  return doc.tokens.map((t) => {
    const row = new Float64Array(columns * width).fill(ABSENT);
    const em = tokenHeight(t);
    const line = doc.lines[t.lineNo];
    for (const u of line.tokens) {
      const w = wordOf[u.index];
      if (w < 0 || u === t) continue;
      row[columns * w + 2] = Math.min(row[columns * w + 2], Math.min(FAR_EM, Math.abs(t.x0 - u.x0) / em));
      if (u.index < t.index) row[columns * w] = Math.min(row[columns * w], Math.min(FAR_EM, Math.max(0, t.x0 - u.x1) / em));
    }
    for (let n = t.lineNo - 1, up = 1; columns === CONTEXT_COLUMNS && n >= 0 && up <= NEAR_LINES && doc.lines[n].page === t.page; n--, up++) {
      for (const u of doc.lines[n].tokens) {
        const w = wordOf[u.index];
        if (w >= 0 && row[columns * w + 3] === ABSENT) row[columns * w + 3] = up;
      }
    }
    for (let n = t.lineNo - 1, up = 1; n >= 0 && up <= config.linesAbove; n--, up++) {
      const above = doc.lines[n];
      if (above.page !== t.page) break;
      for (const u of above.tokens) {
        const w = wordOf[u.index];
        if (w < 0 || row[columns * w + 1] !== ABSENT) continue;
        const slack = COLUMN_SLACK_EM * em;
        if (Math.min(t.x1 + slack, u.x1) > Math.max(t.x0 - slack, u.x0)) row[columns * w + 1] = up;
      }
    }
    return row;
  });
}

/** One row per token, columns as featureNames(config) says; single precision halves a category's
 * training matrix, and training and prediction round alike. */
export function documentFeatures(doc: TokenizedDocument, config: FeatureConfig): Float32Array[] {
  const context = contextDistances(doc, config, TOKEN_CONTEXT_COLUMNS);
  const shapeColumn = new Map(config.shapes.map((s, i) => [s, i]));
  const neighbourText = (u: Token | null) => (u ? pick(textFeatures(u.text), NEIGHBOUR_TEXT_FEATURES) : NEIGHBOUR_TEXT_FEATURES.map(() => -1));
  return doc.tokens.map((t) => {
    const page = doc.pageSizes[t.page] ?? { width: 1, height: 1 };
    const line = doc.lines[t.lineNo];
    const em = tokenHeight(t);
    const shapes = new Array<number>(config.shapes.length).fill(0);
    const s = shapeColumn.get(shapeOf(t.text));
    if (s !== undefined) shapes[s] = 1;
    const row = [
      ...textFeatures(t.text),
      ...shapes,
      t.x0 / page.width,
      t.x1 / page.width,
      (t.x0 + t.x1) / 2 / page.width,
      1 - t.y1 / page.height,
      t.page,
      line.rowInPage,
      doc.linesPerPage[t.page] ?? 0,
      t.column,
      line.tokens.length,
      em,
      t.column === 0 ? 1 : 0,
      t.column === line.tokens.length - 1 ? 1 : 0,
    ];
    for (let k = 1; k <= NEIGHBOURS_LEFT; k++) {
      const u = line.tokens[t.column - k] ?? null;
      row.push(u ? Math.min(FAR_EM, (t.x0 - u.x1) / em) : ABSENT, ...neighbourText(u));
    }
    for (let k = 1; k <= NEIGHBOURS_RIGHT; k++) {
      const u = line.tokens[t.column + k] ?? null;
      row.push(u ? Math.min(FAR_EM, (u.x0 - t.x1) / em) : ABSENT, ...neighbourText(u));
    }
    for (const step of [-1, 1] as const) {
      const u = verticalNeighbour(doc, t, step);
      row.push(u ? Math.min(FAR_EM, Math.abs(u.y0 - t.y0) / em) : ABSENT, u ? Math.min(FAR_EM, (u.x1 - t.x1) / em) : ABSENT, ...neighbourText(u));
    }
    for (const v of context[t.index]) row.push(v);
    return Float32Array.from(row);
  });
}

const pick = (values: number[], idx: readonly number[]) => idx.map((i) => values[i]);

export const LINES_ABOVE = 12;
const WORDS_PER_CLASS = 4;
const MAX_VOCABULARY = 64;
const MAX_SHAPES = 16;

/** Context words and shapes from the labelled training tokens (classes[i] > 0: token i is annotated). */
export function learnFeatureConfig(docs: readonly { doc: TokenizedDocument; classes: number[] }[]): FeatureConfig {
  const occurrences = new Map<string, { all: number; annotated: number }>();
  const docsWithClass = new Map<number, number>();
  const docsWithContext = new Map<string, number>(); // `${class}|${word}` -> documents
  const shapeCounts = new Map<string, number>();
  for (const { doc, classes } of docs) {
    const words = doc.tokens.map((t) => contextWord(t.text));
    words.forEach((w, i) => {
      if (w === null) return;
      const o = occurrences.get(w) ?? { all: 0, annotated: 0 };
      o.all += 1;
      if (classes[i] > 0) o.annotated += 1;
      occurrences.set(w, o);
    });
    const seen = new Set<string>();
    const classesHere = new Set<number>();
    for (const t of doc.tokens) {
      const cls = classes[t.index];
      if (cls === 0) continue;
      classesHere.add(cls);
      const shape = shapeOf(t.text);
      shapeCounts.set(shape, (shapeCounts.get(shape) ?? 0) + 1);
      const em = tokenHeight(t);
      const context = [...doc.lines[t.lineNo].tokens];
      for (let n = t.lineNo - 1; n >= 0 && n >= t.lineNo - LINES_ABOVE && doc.lines[n].page === t.page; n--) {
        const slack = COLUMN_SLACK_EM * em;
        const near = t.lineNo - n <= NEAR_LINES;
        context.push(...doc.lines[n].tokens.filter((u) => near || Math.min(t.x1 + slack, u.x1) > Math.max(t.x0 - slack, u.x0)));
      }
      for (const u of context) {
        const w = words[u.index];
        if (w !== null && u !== t) seen.add(`${cls}|${w}`);
      }
    }
    for (const key of seen) docsWithContext.set(key, (docsWithContext.get(key) ?? 0) + 1);
    for (const cls of classesHere) docsWithClass.set(cls, (docsWithClass.get(cls) ?? 0) + 1);
  }
  // A word that is mostly annotated itself is a value, not a key: it must not become a feature.
  const isKey = (w: string) => {
    const o = occurrences.get(w)!;
    return o.annotated * 2 < o.all;
  };
  const scores = new Map<string, number>();
  const byClass = new Map<number, { word: string; score: number }[]>();
  for (const [key, count] of docsWithContext) {
    const cls = Number(key.slice(0, key.indexOf('|')));
    const word = key.slice(key.indexOf('|') + 1);
    const score = count / docsWithClass.get(cls)!;
    if (score < 0.3 || !isKey(word)) continue;
    byClass.set(cls, [...(byClass.get(cls) ?? []), { word, score }]);
  }
  for (const list of byClass.values()) {
    list.sort((a, b) => b.score - a.score || (a.word < b.word ? -1 : 1));
    for (const { word, score } of list.slice(0, WORDS_PER_CLASS)) scores.set(word, (scores.get(word) ?? 0) + score);
  }
  const vocabulary = [...scores].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, MAX_VOCABULARY).map(([w]) => w);
  const shapes = [...shapeCounts].filter(([, n]) => n >= 3).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, MAX_SHAPES).map(([s]) => s);
  return { vocabulary, shapes, linesAbove: LINES_ABOVE };
}
