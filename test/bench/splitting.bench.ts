// npm run bench:splitting: page streams of 2 to 5 payslip-dataset documents each (seeded shuffles), split
// by the splitting AI trained on other documents. Prints how many split points it finds exactly
// (precision, recall, F1; page 0 of a stream is not counted), streams, pages, training seconds and
// milliseconds per page, next to the baseline that starts a document at every page.
// Two settings: train on dataset_status 2 and split streams of the status 3 documents (only 6, one of
// them 2 pages); and a 5-fold cross-validation over every document, folds stratified by page count.
// BENCH_STREAMS sets the streams per test set (default 200), BENCH_SEED the seed.
import { evaluateSplitter, proposeSplit, trainSplitter, type SplitEvaluation, type SplittingModel } from '../../main/ai/splitting/index.ts';
import { random } from '../../main/ai/extraction/forest.ts';
import { score } from '../../main/ai/extraction/evaluate.ts';
import { loadSplittingDataset, makeStreams, shuffled, type DatasetSplitDocument, type DatasetStream } from '../fixtures/payslipStreams.ts';

const STREAMS = Number(process.env.BENCH_STREAMS ?? 200);
const SEED = Number(process.env.BENCH_SEED ?? 1);
const FOLDS = 5;
/** Longer documents are cut to this many pages (the dataset's 40-page annual report, when it ships boxes). */
const MAX_PAGES = 10;

interface Run {
  tp: number;
  fp: number;
  fn: number;
  streams: number;
  pages: number;
  trainSeconds: number[];
  splitMs: number;
  /** Split points of the every-page-starts baseline. */
  baseline: { tp: number; fp: number };
  /** Wrong proposals, as "document:page" (false start) or "document" (missed start). */
  mistakes: Map<string, number>;
}

const newRun = (): Run => ({ tp: 0, fp: 0, fn: 0, streams: 0, pages: 0, trainSeconds: [], splitMs: 0, baseline: { tp: 0, fp: 0 }, mistakes: new Map() });

function test(run: Run, train: DatasetSplitDocument[], streams: DatasetStream[]): SplitEvaluation {
  const model: SplittingModel = trainSplitter(train, { seed: SEED });
  run.trainSeconds.push(model.training.seconds);
  const started = performance.now();
  const result = evaluateSplitter(model, streams);
  run.splitMs += performance.now() - started;
  run.tp += result.truePositives;
  run.fp += result.falsePositives;
  run.fn += result.falseNegatives;
  run.streams += streams.length;
  for (const stream of streams) {
    run.pages += stream.pages.length;
    run.baseline.tp += stream.starts.length - 1;
    run.baseline.fp += stream.pages.length - stream.starts.length;
    recordMistakes(run, model, stream);
  }
  return result;
}

/** Which documents the mistakes fall on (outside the timed run: it proposes again). */
function recordMistakes(run: Run, model: SplittingModel, stream: DatasetStream): void {
  const proposed = new Set(proposeSplit(model, stream.pages).starts);
  const gold = new Set(stream.starts);
  const docAt = (page: number) => stream.documents[stream.starts.filter((s) => s <= page).length - 1];
  const add = (key: string) => run.mistakes.set(key, (run.mistakes.get(key) ?? 0) + 1);
  for (const p of proposed) if (!gold.has(p)) add(`false start on page ${p - Math.max(...stream.starts.filter((s) => s <= p))} of ${docAt(p)}`);
  for (const g of gold) if (!proposed.has(g)) add(`missed start of ${docAt(g)}`);
}

const pct = (v: number) => `${(100 * v).toFixed(1)}%`;

function report(title: string, run: Run): void {
  const s = score(run.tp, run.fp, run.fn);
  const b = score(run.baseline.tp, run.baseline.fp, 0);
  const seconds = run.trainSeconds;
  console.log(`\n${title}`);
  console.log(`  ${run.streams} streams, ${run.pages} pages, ${run.tp + run.fn} split points`);
  console.log(`  splitting AI:   precision ${pct(s.precision)}  recall ${pct(s.recall)}  F1 ${pct(s.f1)}   (tp ${run.tp}, fp ${run.fp}, fn ${run.fn})`);
  console.log(`  every page a start (baseline): precision ${pct(b.precision)}  recall ${pct(b.recall)}  F1 ${pct(b.f1)}`);
  console.log(`  training ${(seconds.reduce((a, v) => a + v, 0) / seconds.length).toFixed(2)} s (mean of ${seconds.length}), splitting ${(run.splitMs / run.pages).toFixed(2)} ms per page`);
  const mistakes = [...run.mistakes].sort((a, b) => b[1] - a[1]);
  if (mistakes.length) console.log(`  mistakes: ${mistakes.slice(0, 8).map(([k, n]) => `${k} (${n}x)`).join('; ')}${mistakes.length > 8 ? '; ...' : ''}`);
}

const all = loadSplittingDataset(MAX_PAGES);
const multiPage = all.filter((d) => d.pages.length > 1).length;
console.log(`payslip dataset: ${all.length} documents with character boxes, ${all.reduce((n, d) => n + d.pages.length, 0)} pages, ${multiPage} with more than one page`);

// 1. The dataset's own split: training documents (status 2) against test documents (status 3).
const heldOut = newRun();
test(heldOut, all.filter((d) => d.datasetStatus === 2), makeStreams(all.filter((d) => d.datasetStatus === 3), STREAMS, SEED));
report('train on dataset_status 2, streams of the dataset_status 3 documents', heldOut);

// 2. k-fold: multi-page documents spread over the folds, so that every fold tests continuations.
const order = shuffled(all, random(SEED)).sort((a, b) => Number(b.pages.length > 1) - Number(a.pages.length > 1));
const folds = Array.from({ length: FOLDS }, (_, k) => order.filter((_, i) => i % FOLDS === k));
const crossed = newRun();
folds.forEach((fold, k) => {
  const train = folds.filter((_, j) => j !== k).flat();
  const result = test(crossed, train, makeStreams(fold, Math.ceil(STREAMS / FOLDS), SEED + k + 1));
  console.log(`  fold ${k + 1}: ${fold.length} documents held out, F1 ${pct(result.f1)} (tp ${result.truePositives}, fp ${result.falsePositives}, fn ${result.falseNegatives})`);
});
report(`${FOLDS}-fold cross-validation over all documents`, crossed);
