// npm run bench:categorization: the categorization AI on the payslip dataset's two categories. Trains on the
// dataset_status 2 documents and tests on the status 3 ones (only 6: hence also leave-one-out over every
// categorized document), prints accuracy, confidence, training seconds and prediction ms per document, how
// training scales to 1,000 documents, and what the fallback (no model yet) does on the same documents.
// Runs the library directly, in this thread, as the app trains it.
import { evaluateCategorizer, fallbackCategory, predictCategory, serializeCategorizer, trainCategorizer } from '../../main/ai/categorization/index.ts';
import type { CategorizationEvaluation, CategoryInfo, LabelledDocument } from '../../main/ai/categorization/index.ts';
import { loadDatasetDocuments, loadPayslipCategories } from '../fixtures/payslipDataset.ts';

const categories: CategoryInfo[] = loadPayslipCategories().map(({ id, name }) => ({ id, name }));
/** Every document of the dataset with a category and character boxes for the given dataset statuses. */
const documents = (statuses: number[]): LabelledDocument[] =>
  categories.flatMap((c) => statuses.flatMap((s) => loadDatasetDocuments(c.id, s)).map((d) => ({ id: d.id, text: d.text, chars: d.chars, pageSizes: d.pageSizes, categoryId: c.id })));

const pct = (v: number) => `${(100 * v).toFixed(1)} %`;
const mean = (values: number[]) => values.reduce((s, v) => s + v, 0) / Math.max(1, values.length);

function printEvaluation(result: CategorizationEvaluation): void {
  for (const [id, row] of Object.entries(result.perCategory)) {
    const confused = Object.entries(result.confusion[id]).map(([predicted, n]) => `${n} as ${predicted}`).join(', ');
    console.log(`    ${id.padStart(5)} ${row.name.padEnd(20)} ${row.correct}/${row.total} right (${confused})`);
  }
  console.log(`    accuracy ${pct(result.accuracy)} on ${result.documents} documents`);
}

function timeTraining(docs: LabelledDocument[], cats: CategoryInfo[]) {
  const started = performance.now();
  const model = trainCategorizer(docs, cats);
  return { model, seconds: (performance.now() - started) / 1000 };
}

// Held out: the dataset's own split.
const train = documents([2]);
const test = documents([3]);
const { model, seconds } = timeTraining(train, categories);
const predictStarted = performance.now();
const predictions = test.map((d) => predictCategory(model, d));
const predictMs = (performance.now() - predictStarted) / test.length;
console.log(`held out: trained on ${train.length} documents (dataset_status 2), tested on ${test.length} (status 3)`);
console.log(`  training ${seconds.toFixed(2)} s, ${model.features.vocabulary.length} terms, model file ${(serializeCategorizer(model).length / 1024).toFixed(0)} KiB, prediction ${predictMs.toFixed(2)} ms per document`);
printEvaluation(evaluateCategorizer(model, test));
console.log(`    confidence: mean ${mean(predictions.map((p) => p.confidence!)).toFixed(3)}, lowest ${Math.min(...predictions.map((p) => p.confidence!)).toFixed(3)}`);

// Leave-one-out over every categorized document (the one document without a category is skipped).
const all = documents([0, 2, 3, 4]);
const looStarted = performance.now();
const loo = all.map((doc, i) => ({ doc, prediction: predictCategory(trainCategorizer(all.filter((_, j) => j !== i), categories), doc) }));
const right = loo.filter((r) => r.prediction.categoryId === r.doc.categoryId);
const wrong = loo.filter((r) => r.prediction.categoryId !== r.doc.categoryId);
console.log(`\nleave-one-out over ${all.length} categorized documents (${((performance.now() - looStarted) / all.length).toFixed(0)} ms per round):`);
console.log(`  accuracy ${pct(right.length / all.length)} (${right.length}/${all.length}); wrong: ${wrong.map((r) => `${r.doc.id} (${r.doc.categoryId} as ${r.prediction.categoryId})`).join(', ') || 'none'}`);
console.log(`  confidence when right: mean ${mean(right.map((r) => r.prediction.confidence!)).toFixed(3)}, lowest ${Math.min(...right.map((r) => r.prediction.confidence!)).toFixed(3)}` +
  (wrong.length ? `; when wrong: mean ${mean(wrong.map((r) => r.prediction.confidence!)).toFixed(3)}` : ''));

// Scale: 1,000 training documents (the dataset's documents cycled), in 2 categories and in 10 (each real
// category split five ways, the worst case for the classifier's cost, which grows with the categories).
console.log('\nscale (1,000 training documents, the dataset cycled):');
const thousand = Array.from({ length: 1000 }, (_, i) => ({ ...all[i % all.length], id: i }));
const tenCategories = Array.from({ length: 10 }, (_, k) => ({ id: k + 1, name: `Kategorie ${k + 1}` }));
for (const [label, docs, cats] of [
  ['2 categories', thousand, categories],
  ['10 categories', thousand.map((d, i) => ({ ...d, categoryId: (d.categoryId === categories[0].id ? 1 : 6) + (i % 5) })), tenCategories],
] as const) {
  const trained = timeTraining([...docs], [...cats]);
  const started = performance.now();
  for (const d of all) predictCategory(trained.model, d);
  const ms = (performance.now() - started) / all.length;
  console.log(`  ${label.padEnd(14)} training ${trained.seconds.toFixed(2)} s, prediction ${ms.toFixed(2)} ms per document, model file ${(serializeCategorizer(trained.model).length / 1024).toFixed(0)} KiB`);
}

// The fallback (before any model): category names are "Lohnabrechnung" and "Quittung (GERMAN)".
const fallback = all.map((d) => ({ doc: d, categoryId: fallbackCategory(d, categories).categoryId }));
const count = (f: (r: (typeof fallback)[number]) => boolean) => fallback.filter(f).length;
console.log(
  `\nfallback (category names in the text) on the same ${all.length} documents: ${count((r) => r.categoryId === r.doc.categoryId)} right, ` +
    `${count((r) => r.categoryId !== null && r.categoryId !== r.doc.categoryId)} wrong, ${count((r) => r.categoryId === null)} undecided`,
);
