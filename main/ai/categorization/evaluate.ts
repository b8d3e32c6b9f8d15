// Scores a categorization model on documents whose category is known: accuracy overall and per category,
// and the confusion table (which category documents of each category were given).
import { predictCategory } from './model.ts';
import type { CategorizationEvaluation, CategorizationModel, LabelledDocument } from './types.ts';

export function evaluateCategorizer(model: CategorizationModel, docs: readonly LabelledDocument[]): CategorizationEvaluation {
  const names = new Map(model.categories.map((c) => [c.id, c.name]));
  const perCategory: CategorizationEvaluation['perCategory'] = {};
  const confusion: CategorizationEvaluation['confusion'] = {};
  let correct = 0;
  for (const doc of docs) {
    const predicted = predictCategory(model, doc).categoryId;
    const hit = predicted === doc.categoryId;
    if (hit) correct++;
    const row = (perCategory[doc.categoryId] ??= { name: names.get(doc.categoryId) ?? '', correct: 0, total: 0 });
    row.total++;
    if (hit) row.correct++;
    const cells = (confusion[doc.categoryId] ??= {});
    const key = String(predicted);
    cells[key] = (cells[key] ?? 0) + 1;
  }
  return { accuracy: docs.length ? correct / docs.length : 0, documents: docs.length, perCategory, confusion };
}
