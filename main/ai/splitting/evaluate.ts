// Scores proposed splits against streams whose real document starts are known: a proposed start is right
// when a document really starts at that page. Page 0 always starts one and is not counted. Pure.
import { score } from '../extraction/evaluate.ts';
import { proposeSplit } from './model.ts';
import type { SplitEvaluation, SplitStream, SplittingModel } from './types.ts';

export function evaluateSplitter(model: SplittingModel, streams: readonly SplitStream[]): SplitEvaluation {
  let [tp, fp, fn] = [0, 0, 0];
  for (const stream of streams) {
    const gold = new Set(stream.starts.filter((s) => s > 0));
    const proposed = proposeSplit(model, stream.pages).starts.filter((s) => s > 0);
    const hits = proposed.filter((s) => gold.has(s)).length;
    tp += hits;
    fp += proposed.length - hits;
    fn += gold.size - hits;
  }
  return { ...score(tp, fp, fn), streams: streams.length };
}
