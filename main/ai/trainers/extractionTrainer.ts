// The extraction AI of a category: trained in a worker thread from the category's training documents
// (dataset_status 2) and their reviewed annotations, evaluated on its test documents (dataset_status 3)
// with the exact-offset rule: label, label set, first and last character must all be right.
import { DatasetStatus } from '../../domain/documentStatus.ts';
import { datasetDocuments, extractionSchema, trainingDocument } from '../aiData.ts';
import { evaluate, NothingToLearn, parseModel, predictDocument, trainInWorker, type Evaluation, type TrainingDocument } from '../extraction/index.ts';
import type { Repos } from '../../store/repositories/index.ts';
import type { AiModelRow } from '../../store/schema.ts';
import { NothingToTrain, scoreEach, snakeScore, type AiEvaluation, type Trainer } from './types.ts';

async function categoryOf(model: AiModelRow): Promise<number> {
  if (model.category_id === null) throw new NothingToTrain('An extraction AI needs a category.');
  return model.category_id;
}

export const extractionTrainer: Trainer = {
  kind: 'extraction',

  async train({ repos, model, signal, onProgress }) {
    const categoryId = await categoryOf(model);
    const schema = await extractionSchema(repos, categoryId);
    if (!schema.labels.length) throw new NothingToTrain('The category has no labels: add labels to its label sets first.');
    const rows = await datasetDocuments(repos, model.project_id, DatasetStatus.TRAINING, categoryId);
    if (!rows.length) throw new NothingToTrain('The category has no processed training document (dataset_status 2).');
    onProgress(1, 'loading documents');
    const documents = [];
    for (const row of rows) documents.push(await trainingDocument(repos, row));
    try {
      const { model: trained, file } = await trainInWorker(documents, schema, { signal, onProgress: (p, stage) => onProgress(2 + Math.round(p * 0.9), stage) });
      // document_ids: what continuous learning compares the training data with (ai/continuousLearning.ts).
      return { file, training: { documents: trained.training.documents, document_ids: rows.map((r) => r.id), tokens: trained.training.tokens, annotated_tokens: trained.training.annotatedTokens, seconds: trained.training.seconds, trees: trained.forest.trees.length } };
    } catch (err) {
      if (err instanceof NothingToLearn) throw new NothingToTrain(`Nothing to learn: ${err.message}.`);
      throw err;
    }
  },

  async evaluate(repos: Repos, model: AiModelRow, files: string[]): Promise<(AiEvaluation | null)[]> {
    const categoryId = await categoryOf(model);
    const rows = await datasetDocuments(repos, model.project_id, DatasetStatus.TEST, categoryId);
    if (!rows.length) return files.map(() => null);
    const tests: TrainingDocument[] = [];
    for (const row of rows) tests.push(await trainingDocument(repos, row));
    return scoreEach(files, (file) => {
      const parsed = parseModel(file);
      const documents = tests.map((doc, n) => ({ id: rows[n].id, name: rows[n].data_file_name, gold: doc.annotations.filter((a) => a.correct), predicted: predictDocument(parsed, doc) }));
      return scoreOf(evaluate(documents, parsed.schema, 'exact'));
    });
  },

  check(file: string) {
    parseModel(file);
  },
};

function scoreOf(result: Evaluation): AiEvaluation {
  return {
    score: result.overall.f1,
    metric: 'f1',
    documents: result.documents,
    rule: result.rule,
    overall: { ...snakeScore(result.overall), near_misses: result.overall.nearMisses },
    labels: Object.values(result.labels).map((l) => ({ label: l.labelId, name: l.name, ...snakeScore(l), near_misses: l.nearMisses })),
    near_miss_rule: result.nearMissRule,
    // Every test document, so a reviewer sees which were right too; the wrong fields with expected beside found.
    document_results: result.documentResults.map((d) => ({
      document: d.id,
      name: d.name,
      right: d.right,
      near_misses: d.nearMisses,
      right_by_value: d.rightByValue,
      errors: d.errors.map((e) => ({ label: e.labelId, name: e.name, kind: e.kind, expected: e.expected, found: e.found, distance: e.distance, right_by_value: e.rightByValue })),
    })),
    // Beside the position-based figures (which decide the active model, as before): the same predictions by value.
    by_value: {
      rule: result.byValue.rule,
      overall: snakeScore(result.byValue.overall),
      labels: Object.values(result.byValue.labels).map((l) => ({ label: l.labelId, name: l.name, ...snakeScore(l) })),
    },
    test_set: {
      documents: result.testSet.documents,
      values: result.testSet.values,
      right_by_value: result.testSet.rightByValue,
      interval: result.testSet.interval,
      enough: result.testSet.enough,
      warning: result.testSet.warning,
      rule: result.testSet.rule,
    },
  };
}
