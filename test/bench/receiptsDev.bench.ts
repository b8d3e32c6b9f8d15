// npm run bench:receipts-dev: a fast, repeatable development loop for receipt extraction. The SROIE
// receipts (../shared/datasets/sroie-dev) are OCR'd once through the pipeline as Folio runs it (runPipeline,
// the OCR engine Folio picks with FOLIO_OCR_ENGINE unset: auto, PP-OCRv4 for photographed JPEGs) into a
// cache folder; then the extraction model is trained in-process on one split's receipts, labelled with
// their key values where the OCR text holds them (as bench:receipts labels them over HTTP), and scored on
// that split's held-out receipts, in seconds. Each split is scored on receipts its model never saw: split A
// trains on the first 80 receipts and tests on the next 60 (bench:receipts' own split), B trains on receipts
// 61-140 and tests on 1-60, C trains on 1-40 and 101-140 and tests on 41-100 and 141 on.
// Scoring as bench:receipts (test/helpers/receipts.ts scoreReceipt): per-field F1 over every key value and
// the share of the values in the OCR text that the model found.
//
// BENCH_CACHE=<folder> (default <tmp>/folio-receipts-ocr): the OCR cache; delete it after the OCR changes.
// BENCH_OCR_ONLY=1 fills the cache and stops; BENCH_OCR=0 uses the receipts in the cache alone, the splits
// scaled down to them. BENCH_SPLITS=A,B (default A,B,C). BENCH_SEED=n (forest seed).
// BENCH_OUT=file.json writes the figures; BENCH_BASELINE=file.json prints them beside an earlier run's (the
// model before a change, on the same cache). BENCH_MISSES=1 lists the misses.
// Receipts whose number is divisible by 5 are held back: never read (test/helpers/receipts.ts refuses them).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { predictDocument, trainExtractionModel } from '../../main/ai/extraction/model.ts';
import type { ExtractionDocument, ExtractionSchema, TrainingDocument } from '../../main/ai/extraction/types.ts';
import { runPipeline } from '../../main/pipeline/documentPipeline.ts';
import { DEFAULT_LIMITS } from '../../main/pipeline/limits.ts';
import { OcrPool } from '../../main/pipeline/ocr/ocrPool.ts';
import {
  findValueRanges,
  printReceiptFigures,
  readReceiptImage,
  readReceiptKey,
  RECEIPT_DATA_TYPES,
  RECEIPT_FIELDS,
  receiptNumbers,
  ReceiptTally,
  type ReceiptFigures,
} from '../helpers/receipts.ts';

const CACHE = process.env.BENCH_CACHE ?? path.join(os.tmpdir(), 'folio-receipts-ocr');
const SEED = Number(process.env.BENCH_SEED ?? 1);
const MISSES = process.env.BENCH_MISSES === '1';

const cacheFile = (n: number) => path.join(CACHE, `${n}.json`);

/** OCRs every receipt not yet in the cache, one at a time (one OCR worker: the machine is shared). */
async function fillCache(numbers: readonly number[]): Promise<void> {
  const todo = numbers.filter((n) => !fs.existsSync(cacheFile(n)));
  if (!todo.length) return;
  fs.mkdirSync(CACHE, { recursive: true });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-receipts-dev-'));
  const pool = new OcrPool({ dataDir, size: 1 });
  const started = performance.now();
  try {
    for (const [i, n] of todo.entries()) {
      const result = await runPipeline({ bytes: readReceiptImage(n), langs: ['eng'], ocr: pool, limits: DEFAULT_LIMITS, storeImage: async () => 'bench' });
      const doc: ExtractionDocument = { id: n, text: result.layout.text, chars: result.layout.chars, pageSizes: result.pages.map((p) => ({ width: p.widthPt, height: p.heightPt })) };
      fs.writeFileSync(cacheFile(n), JSON.stringify({ ...doc, engines: result.pages.map((p) => p.ocrInfo?.engine ?? null) }));
      if ((i + 1) % 10 === 0) console.log(`  OCR'd ${i + 1}/${todo.length} receipts, ${((performance.now() - started) / 1000 / (i + 1)).toFixed(1)} s each`);
    }
  } finally {
    await pool.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const load = (n: number): ExtractionDocument => JSON.parse(fs.readFileSync(cacheFile(n), 'utf8'));

const SCHEMA: ExtractionSchema = {
  labelSets: [{ id: 100, name: 'Receipt', hasMultipleSections: false }],
  labels: RECEIPT_FIELDS.map((f, i) => ({ id: i + 1, name: f, dataType: RECEIPT_DATA_TYPES[f], threshold: 0.1, labelSetIds: [100] })),
};

/** A receipt labelled at every place its key values stand in the OCR text (bench:receipts labels alike). */
function trainingDocument(n: number): TrainingDocument {
  const doc = load(n);
  const key = readReceiptKey(n);
  const cps = Array.from(doc.text);
  const annotations: TrainingDocument['annotations'] = [];
  RECEIPT_FIELDS.forEach((field, i) => {
    const value = key[field];
    if (!value) return;
    for (const r of findValueRanges(doc.text, value)) {
      annotations.push({ labelId: i + 1, labelSetId: 100, annotationSetKey: 'receipt', text: cps.slice(r.start, r.end).join(''), startOffset: r.start, endOffset: r.end, correct: true });
    }
  });
  return { ...doc, annotations, missing: [] };
}

/** The splits by position in the list of usable receipts (see the header). */
function splits(all: readonly number[]): Record<string, { train: number[]; test: number[] }> {
  const scale = Math.min(1, all.length / 140);
  const at = (from: number, to?: number) => all.slice(Math.round(scale * from), to === undefined ? undefined : Math.round(scale * to));
  return {
    A: { train: at(0, 80), test: at(80, 140) },
    B: { train: at(60, 140), test: at(0, 60) },
    C: { train: [...at(0, 40), ...at(100, 140)], test: [...at(40, 100), ...at(140)] },
  };
}

async function main(): Promise<void> {
  // BENCH_OCR=0: only the receipts already in the cache (the splits then shrink with it).
  const all = process.env.BENCH_OCR === '0' ? receiptNumbers().filter((n) => fs.existsSync(cacheFile(n))) : receiptNumbers();
  console.log(`Receipt extraction, development loop: ${all.length} receipts, OCR cache ${CACHE}`);
  await fillCache(all);
  if (process.env.BENCH_OCR_ONLY === '1') return;
  const baselineFile = process.env.BENCH_BASELINE;
  const baseline: Record<string, ReceiptFigures> | null = baselineFile && fs.existsSync(baselineFile) ? JSON.parse(fs.readFileSync(baselineFile, 'utf8')) : null;
  const wanted = (process.env.BENCH_SPLITS ?? 'A,B,C').split(',');
  const out: Record<string, ReceiptFigures> = {};
  for (const [name, split] of Object.entries(splits(all)).filter(([n]) => wanted.includes(n))) {
    const started = performance.now();
    const model = trainExtractionModel(split.train.map(trainingDocument), SCHEMA, { forest: { seed: SEED } });
    const trainingSeconds = (performance.now() - started) / 1000;
    const tally = new ReceiptTally();
    for (const n of split.test) {
      const doc = load(n);
      const predicted = predictDocument(model, doc);
      tally.add(n, doc.text, readReceiptKey(n), (field) => predicted.filter((p) => p.labelId === RECEIPT_FIELDS.indexOf(field) + 1).map((p) => ({ text: p.text })));
    }
    const figures = tally.figures(trainingSeconds);
    out[name] = figures;
    console.log(`\nsplit ${name}: trained on ${split.train.length} receipts in ${trainingSeconds.toFixed(1)} s, tested on ${split.test.length}`);
    printReceiptFigures(figures, baseline?.[name] ?? null);
    if (MISSES) for (const line of tally.misses) console.log(`  ${line}`);
  }
  const names = Object.keys(out);
  const mean = (f: (x: ReceiptFigures) => number) => (names.reduce((s, n) => s + f(out[n]), 0) / names.length).toFixed(3);
  const meanBase = (f: (x: ReceiptFigures) => number) => (baseline && names.every((n) => baseline[n]) ? ` (baseline ${(names.reduce((s, n) => s + f(baseline[n]), 0) / names.length).toFixed(3)})` : '');
  console.log(`\nmean over splits ${names.join(',')}: found ${mean((x) => x.found)}${meanBase((x) => x.found)}; F1 ${RECEIPT_FIELDS.map((f) => `${f} ${mean((x) => x.fields[f].f1)}${meanBase((x) => x.fields[f].f1)}`).join(', ')}`);
  if (process.env.BENCH_OUT) fs.writeFileSync(process.env.BENCH_OUT, JSON.stringify(out, null, 2));
}

await main();
// The OCR pool's and the PDF renderer's workers are kept for reuse; nothing else is pending.
process.exit(0);
