// The splitting model: one two-class forest (the extraction engine's, forest.ts) over page pairs, telling
// whether a page starts a new document or continues the one before it. Learns from training documents:
// their later pages continue; their first pages, put after the last page of other documents, start.
import { DEFAULT_FOREST, predictForest, random, trainForest, type ForestOptions } from '../extraction/forest.ts';
import { FEATURE_NAMES, pairFeatures, profilePage, type PageProfile } from './features.ts';
import type { SplitPage, SplitProposal, SplitterOptions, SplittingDocument, SplittingModel } from './types.ts';

export const SPLITTER_VERSION = 1;

/** Few rows (one per page pair) and few features: shallow-ish trees, coarse bins, many trees are cheap. */
const FOREST: ForestOptions = { ...DEFAULT_FOREST, trees: 150, maxDepth: 12, minSplit: 2, bins: 32 };
/** Each document's first page is paired with the last page of this many other documents. */
const PREDECESSORS_PER_DOCUMENT = 8;
const THRESHOLD = 0.5;
/** Share of training documents that get a synthetic blank back side. */
const BLANK_BACK_SIDES = 0.2;

/** The training documents cannot show both a page that starts a document and one that continues it. */
export class NothingToSplit extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NothingToSplit';
  }
}

export function trainSplitter(docs: SplittingDocument[], options: SplitterOptions = {}): SplittingModel {
  const started = performance.now();
  const seed = options.seed ?? 1;
  const documents = docs.filter((d) => d.pages.length > 0).map((d) => d.pages.map(profilePage));
  if (documents.length < 2) {
    throw new NothingToSplit('splitting needs at least two training documents: where one ends, the next one starts');
  }
  if (!documents.some((pages) => pages.length > 1)) {
    throw new NothingToSplit('no training document has more than one page, so nothing shows what a continuing page looks like');
  }
  const X: number[][] = [];
  const y: number[] = [];
  for (const pages of documents) {
    for (let i = 1; i < pages.length; i++) {
      X.push(pairFeatures(pages[i - 1], pages[i]));
      y.push(0);
    }
  }
  // Duplex scans put a blank back side after a one-sided page: a few synthetic ones teach that an empty
  // page continues the document before it (the dataset has one; a fold without it never saw one).
  const rnd = random(seed ^ 0x2f6b);
  documents.forEach((pages) => {
    if (rnd() >= BLANK_BACK_SIDES) return;
    const last = pages[pages.length - 1];
    X.push(pairFeatures(last, profilePage({ text: '', chars: [], width: last.width, height: last.height })));
    y.push(0);
  });
  const continuations = X.length;
  // Synthetic streams: every first page after the last pages of other documents, drawn without repeats.
  documents.forEach((pages, d) => {
    const others = documents.map((_, o) => o).filter((o) => o !== d);
    for (let k = 0; k < Math.min(PREDECESSORS_PER_DOCUMENT, others.length); k++) {
      const j = k + Math.floor(rnd() * (others.length - k));
      [others[k], others[j]] = [others[j], others[k]];
      const before = documents[others[k]];
      X.push(pairFeatures(before[before.length - 1], pages[0]));
      y.push(1);
    }
  });
  // Starts outnumber continuations many times over: weigh the classes equally, or every page is a start.
  const starts = X.length - continuations;
  const weights = y.map((c) => (c === 0 ? starts / continuations : 1));
  const forest = trainForest(X, y, { ...FOREST, seed }, weights);
  return {
    version: SPLITTER_VERSION,
    features: [...FEATURE_NAMES],
    threshold: THRESHOLD,
    forest,
    training: { documents: documents.length, pages: documents.reduce((n, pages) => n + pages.length, 0), seconds: (performance.now() - started) / 1000 },
  };
}

/** Probability per page that it starts a document, given the page before it (page 0: 1). */
export function startProbabilities(model: SplittingModel, pages: SplitPage[]): number[] {
  const profiles: PageProfile[] = pages.map(profilePage);
  const rows = profiles.slice(1).map((page, i) => pairFeatures(profiles[i], page));
  const predicted = rows.length ? predictForest(model.forest, rows) : [];
  return [...(pages.length ? [1] : []), ...predicted.map((p) => p[1] ?? 0)];
}

/** Page indexes (0-based) where a new document starts; always begins with 0. confidence per start (0..1). */
export function proposeSplit(model: SplittingModel, pages: SplitPage[]): SplitProposal {
  const starts: number[] = [];
  const confidence: number[] = [];
  startProbabilities(model, pages).forEach((p, i) => {
    if (i === 0 || p >= model.threshold) {
      starts.push(i);
      confidence.push(Math.round(p * 1e4) / 1e4);
    }
  });
  return { starts, confidence };
}
