// npm run bench:extraction: the payslip dataset through the HTTP API of a real `folio serve` process.
// Builds the project (taxonomy, training and test documents as PDFs, their annotations), trains one
// extraction AI per category on the dataset_status 2 documents, uploads the dataset_status 3 documents again
// without annotations (dataset status none) so that Folio extracts them on upload, and scores what it
// extracted against the dataset. Prints per-label and overall precision, recall and F1 (exact offsets,
// and overlap), training seconds and extraction milliseconds per page, beside the aims of issue 4.
// BENCH_LIBRARY=0 skips the library-level line (the same engine on the dataset's own text, no server).
// BENCH_PROJECT=folder builds the project by importing the dataset's folder as it is instead (POST
// projects/import/, docs/project-folders.md): the folder's own text, boxes and annotations, no uploads.
import fs from 'node:fs';
import { evaluate, score } from '../../main/ai/extraction/evaluate.ts';
import { predictDocument } from '../../main/ai/extraction/model.ts';
import { trainInWorker } from '../../main/ai/extraction/trainInWorker.ts';
import type { Evaluation, LabelScore } from '../../main/ai/extraction/types.ts';
import { loadDatasetDocuments, type DatasetCategory } from '../fixtures/payslipDataset.ts';
import { createPayslipProject, importPayslipProject, payslipCategories, uploadPayslipDocuments } from '../helpers/payslipProject.ts';
import { PAYSLIPS_DIR } from '../fixtures/payslipPdf.ts';
import { writeZip } from '../../main/domain/zip.ts';
import path from 'node:path';
import { readExtractions, scoreExtractions, trainExtractionAi } from '../helpers/payslipExtraction.ts';
import { startFolio } from '../helpers/processes.ts';
import { Client, tempDir } from '../helpers/testServer.ts';

const ADMIN = { email: 'bench@folio.local', password: 'bench-password' };
const AIM = { f1: 0.9, trainingSeconds: 60, msPerPage: 200 };
const pct = (v: number) => `${(100 * v).toFixed(1)}`.padStart(6);
const counts = (s: LabelScore) => `${String(s.truePositives).padStart(4)}${String(s.falsePositives).padStart(4)}${String(s.falseNegatives).padStart(4)}`;
const row = (name: string, s: LabelScore) => `    ${name.slice(0, 40).padEnd(40)} ${pct(s.precision)} ${pct(s.recall)} ${pct(s.f1)} ${counts(s)}`;
const seconds = (ms: number) => (ms / 1000).toFixed(1);

function printScores(title: string, result: Evaluation, perLabel: boolean): void {
  console.log(`  ${title}`);
  if (perLabel) {
    console.log(`    ${'label'.padEnd(40)}      P      R     F1   tp  fp  fn`);
    for (const l of Object.values(result.labels).sort((a, b) => a.name.localeCompare(b.name))) console.log(row(l.name, l));
  }
  console.log(row('overall (micro)', result.overall));
}

/** The same engine without the server, on the dataset's own text and boxes: where the HTTP path loses. */
async function libraryF1(category: DatasetCategory): Promise<string> {
  const { model } = await trainInWorker(loadDatasetDocuments(category.id, 2), category);
  const test = loadDatasetDocuments(category.id, 3);
  return pct(evaluate(test.map((d) => ({ gold: d.annotations, predicted: predictDocument(model, d) })), category).overall.f1).trim();
}

const dataDir = tempDir('folio-bench-extraction-');
const folio = await startFolio({ dataDir, env: { FOLIO_ADMIN_EMAIL: ADMIN.email, FOLIO_ADMIN_PASSWORD: ADMIN.password } });
try {
  const c = new Client(folio.url);
  await c.login(ADMIN.email, ADMIN.password);
  let started = performance.now();
  // Test documents are uploaded annotated too, so that the AI record's own evaluation has them.
  const fromFolder = process.env.BENCH_PROJECT === 'folder';
  const files = (dir: string, rel = ''): string[] =>
    fs.readdirSync(path.join(dir, rel), { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(dir, `${rel}${e.name}/`) : [`${rel}${e.name}`]));
  const p = fromFolder
    ? await importPayslipProject(c, writeZip(files(PAYSLIPS_DIR).map((f) => ({ name: f, data: fs.readFileSync(path.join(PAYSLIPS_DIR, f)) }))))
    : await createPayslipProject(c, { datasetStatuses: [2, 3] });
  const annotations = (await c.get(`/api/v3/annotations/?project=${p.projectId}&limit=1`)).body.count;
  console.log(`Folio extraction benchmark over HTTP (${folio.url}): project ${fromFolder ? 'imported from the dataset folder' : 'built by uploads'} in ${seconds(performance.now() - started)} s, ${p.documents.length} documents, ${annotations} annotations`);

  const total = { tp: 0, fp: 0, fn: 0, extractionSeconds: 0, pages: 0, maxTrainingSeconds: 0 };
  for (const category of payslipCategories()) {
    const test = loadDatasetDocuments(category.id, 3);
    const training = p.documents.filter((d) => d.categoryId === category.id && d.datasetStatus === 2).length;
    started = performance.now();
    const ai = await trainExtractionAi(c, p.categories.get(category.id)!);
    const trainWall = performance.now() - started;
    if (ai.status !== 'done') throw new Error(`training failed for category ${category.id}: ${JSON.stringify(ai)}`);
    started = performance.now();
    const refs = await uploadPayslipDocuments(c, p, test, { withAnnotations: false, datasetStatus: 0 });
    const uploadWall = performance.now() - started;
    const extracted = await readExtractions(c, p, refs, test);
    const pages = extracted.reduce((n, d) => n + d.pages, 0);
    const extractionSeconds = extracted.reduce((n, d) => n + (d.extractionTime ?? NaN), 0);

    console.log(`\ncategory ${category.id} ${category.name}: extraction AI ${ai.id} trained on ${training} documents, tested on ${test.length} (${pages} pages)`);
    console.log(`  training ${Number(ai.training_seconds).toFixed(1)} s (record), ${seconds(trainWall)} s from POST to "done"; active ${ai.active}`);
    const own = ai.evaluation?.overall;
    if (own) console.log(`  the record's own evaluation (${ai.evaluation.documents} test documents): P ${pct(own.precision)}  R ${pct(own.recall)}  F1 ${pct(own.f1)}`);
    console.log(`  extraction ${((1000 * extractionSeconds) / pages).toFixed(0)} ms per page (documents' extraction_time), upload with sync=true ${(uploadWall / test.length).toFixed(0)} ms per document`);
    const exact = scoreExtractions(extracted, category, 'exact');
    printScores('exact offsets (label, label set, first and last character equal)', exact, true);
    printScores('overlapping offsets', scoreExtractions(extracted, category, 'overlap'), false);
    if (process.env.BENCH_LIBRARY !== '0') console.log(`  library, no server (same engine on the dataset's text): F1 ${await libraryF1(category)}`);

    total.tp += exact.overall.truePositives;
    total.fp += exact.overall.falsePositives;
    total.fn += exact.overall.falseNegatives;
    total.extractionSeconds += extractionSeconds;
    total.pages += pages;
    total.maxTrainingSeconds = Math.max(total.maxTrainingSeconds, Number(ai.training_seconds));
  }

  const overall = score(total.tp, total.fp, total.fn);
  const msPerPage = (1000 * total.extractionSeconds) / total.pages;
  const met = (ok: boolean) => (ok ? 'met' : 'NOT met');
  console.log(`\nBoth categories (micro, exact offsets): P ${pct(overall.precision)}  R ${pct(overall.recall)}  F1 ${pct(overall.f1)}`);
  console.log(
    `Aim: F1 >= ${AIM.f1} (${overall.f1.toFixed(3)}: ${met(overall.f1 >= AIM.f1)}), training < ${AIM.trainingSeconds} s (slowest ${total.maxTrainingSeconds.toFixed(1)} s: ` +
      `${met(total.maxTrainingSeconds < AIM.trainingSeconds)}), extraction < ${AIM.msPerPage} ms per page (${msPerPage.toFixed(0)} ms: ${met(msPerPage < AIM.msPerPage)}).`,
  );
} finally {
  await folio.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
