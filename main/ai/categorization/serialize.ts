// A trained categorization model as a file: JSON with a format name and version, the categories, the
// vector space and the classifier, so a model can be downloaded and uploaded again. Reading checks the
// structure and that the parts fit together, so a foreign or damaged file is refused before it is used.
import { z } from 'zod';
import { Int, InvalidModelFile, Num, readModelFile, writeModelFile } from '../modelFile.ts';
import { CATEGORIZATION_MODEL_VERSION } from './model.ts';
import type { CategorizationModel } from './types.ts';

export const CATEGORIZATION_MODEL_FORMAT = 'folio-categorization-model';


const ModelFile = z.object({
  format: z.literal(CATEGORIZATION_MODEL_FORMAT),
  version: z.literal(CATEGORIZATION_MODEL_VERSION),
  categories: z.array(z.object({ id: Int, name: z.string() })),
  classes: z.array(Int).min(1),
  features: z.object({ vocabulary: z.array(z.string()), idf: z.array(Num) }),
  classifier: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('softmax'), weights: z.array(z.array(Num)), bias: z.array(Num) }),
    z.object({ kind: z.literal('similarity'), centroid: z.array(Num), reference: Num.positive().nullable() }),
  ]),
  training: z.object({ documents: Int.min(0), seconds: Num, perCategory: z.record(z.string(), Int.min(0)) }),
});

const FORMAT = { format: CATEGORIZATION_MODEL_FORMAT, version: CATEGORIZATION_MODEL_VERSION, what: 'categorization model' };

export function serializeCategorizer(model: CategorizationModel): string {
  return writeModelFile(FORMAT, model);
}

export function parseCategorizer(file: string): CategorizationModel {
  const model = readModelFile(FORMAT, ModelFile, file) as CategorizationModel;
  checkConsistency(model);
  return model;
}

/** Prediction indexes columns and classes by position: every array must have the length the others imply. */
function checkConsistency(model: CategorizationModel): void {
  const columns = model.features.vocabulary.length;
  if (model.features.idf.length !== columns) throw new InvalidModelFile('the vocabulary and the idf weights disagree');
  const categoryIds = new Set(model.categories.map((c) => c.id));
  if (categoryIds.size !== model.categories.length) throw new InvalidModelFile('a category is listed twice');
  if (new Set(model.classes).size !== model.classes.length || model.classes.some((id) => !categoryIds.has(id))) {
    throw new InvalidModelFile('the classes are not distinct categories of the model');
  }
  const c = model.classifier;
  if (c.kind === 'softmax') {
    if (model.classes.length < 2) throw new InvalidModelFile('a softmax classifier needs two classes or more');
    if (c.weights.length !== model.classes.length || c.bias.length !== model.classes.length) throw new InvalidModelFile('the classifier and the class list disagree');
    if (c.weights.some((row) => row.length !== columns)) throw new InvalidModelFile('a weight row does not match the vocabulary');
  } else {
    if (model.classes.length !== 1) throw new InvalidModelFile('a similarity classifier has exactly one class');
    if (c.centroid.length !== columns) throw new InvalidModelFile('the centroid does not match the vocabulary');
  }
}
