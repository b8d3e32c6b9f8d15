// npm run bench:extraction: per category of the payslip dataset, trains the extraction model on the
// dataset_status 2 documents (in a worker thread, as the app does) and evaluates it on the dataset_status 3
// documents. Prints per-label and overall precision, recall and F1 (exact offsets, and overlap), training
// seconds and model file size. The hosted service reported F1 0.92-0.98 with its random forest.
// BENCH_TREES sets the forest size (default: the model's default), BENCH_SEED its seed.
// Runs the library directly; it is to go through the HTTP API once the extraction AI endpoints exist.
import { evaluate } from '../../main/ai/extraction/evaluate.ts';
import { predictDocument } from '../../main/ai/extraction/model.ts';
import { trainInWorker } from '../../main/ai/extraction/trainInWorker.ts';
import type { Evaluation } from '../../main/ai/extraction/types.ts';
import { loadDatasetDocuments, loadPayslipCategories } from '../fixtures/payslipDataset.ts';

const forest = {
  ...(process.env.BENCH_TREES ? { trees: Number(process.env.BENCH_TREES) } : {}),
  ...(process.env.BENCH_SEED ? { seed: Number(process.env.BENCH_SEED) } : {}),
};
const pct = (v: number) => `${(100 * v).toFixed(1)}`.padStart(6);

function printScores(title: string, result: Evaluation, perLabel: boolean): void {
  console.log(`  ${title}`);
  if (perLabel) {
    console.log(`    ${'label'.padEnd(40)}     P      R     F1   tp  fp  fn`);
    for (const l of Object.values(result.labels).sort((a, b) => a.name.localeCompare(b.name))) {
      console.log(`    ${l.name.slice(0, 40).padEnd(40)} ${pct(l.precision)} ${pct(l.recall)} ${pct(l.f1)} ${String(l.truePositives).padStart(4)}${String(l.falsePositives).padStart(4)}${String(l.falseNegatives).padStart(4)}`);
    }
  }
  const o = result.overall;
  console.log(`    ${'overall (micro)'.padEnd(40)} ${pct(o.precision)} ${pct(o.recall)} ${pct(o.f1)} ${String(o.truePositives).padStart(4)}${String(o.falsePositives).padStart(4)}${String(o.falseNegatives).padStart(4)}`);
}

for (const category of loadPayslipCategories()) {
  const train = loadDatasetDocuments(category.id, 2);
  const test = loadDatasetDocuments(category.id, 3);
  if (!train.length || !test.length) continue;
  const started = performance.now();
  const { model, file } = await trainInWorker(train, category, { forest });
  const trainSeconds = (performance.now() - started) / 1000;
  const predictStarted = performance.now();
  const documents = test.map((d) => ({ gold: d.annotations, predicted: predictDocument(model, d) }));
  const predictMs = (performance.now() - predictStarted) / test.length;
  console.log(
    `\ncategory ${category.id} ${category.name}: trained on ${train.length} documents (${model.training.tokens} tokens, ` +
      `${model.training.annotatedTokens} annotated, ${model.forest.trees.length} trees, ${model.features.vocabulary.length} context words), ` +
      `tested on ${test.length}`,
  );
  console.log(`  training ${trainSeconds.toFixed(1)} s in a worker, model file ${(Buffer.byteLength(file) / 1024).toFixed(0)} KiB, prediction ${predictMs.toFixed(0)} ms per document`);
  printScores('exact offsets (label, label set, first and last character equal)', evaluate(documents, category, 'exact'), true);
  printScores('overlapping offsets', evaluate(documents, category, 'overlap'), false);
}
