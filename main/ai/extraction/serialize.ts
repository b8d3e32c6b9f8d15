// A trained model as a file: JSON with a format name and version, the labels and label sets it extracts,
// the feature configuration and the forest, so a model can be downloaded and uploaded again. Reading
// checks the structure, so a foreign or damaged file is refused before it is used.
import { z } from 'zod';
import { CONTEXT_COLUMNS, featureNames } from './features.ts';
import { RANK_FEATURES, SPAN_BASE_FEATURES } from './spans.ts';
import { MODEL_VERSION, type ExtractionModel } from './model.ts';
import type { ForestModel } from './forest.ts';
import { checkForest, ForestSchema, Int, InvalidModelFile, Num, readModelFile, writeModelFile } from '../modelFile.ts';

export const MODEL_FORMAT = 'folio-extraction-model';


const ModelFile = z.object({
  format: z.literal(MODEL_FORMAT),
  version: z.literal(MODEL_VERSION),
  schema: z.object({
    labels: z.array(z.object({ id: Int, name: z.string(), dataType: z.string(), threshold: Num, labelSetIds: z.array(Int) })),
    labelSets: z.array(z.object({ id: Int, name: z.string(), hasMultipleSections: z.boolean() })),
  }),
  features: z.object({ vocabulary: z.array(z.string()), shapes: z.array(z.string()), linesAbove: Int.min(0) }),
  classes: z.array(
    z.object({ labelId: Int, labelSetId: Int, maxGapEm: Num.nullable(), multiLine: z.boolean(), maxLines: Int.min(1), maxTokens: Int.min(1), repeatsInSet: z.boolean(), examples: Int.min(0) }),
  ),
  labelSetLayouts: z.array(z.object({ labelSetId: Int, multiLine: z.boolean() })),
  forest: ForestSchema,
  spans: z.object({ forests: z.array(ForestSchema.nullable()), words: z.object({ context: z.array(z.string()), values: z.array(z.array(z.string())), starts: z.array(z.array(z.string())), ends: z.array(z.array(z.string())), edgeShares: z.array(z.array(z.tuple([z.string(), Num, Num]))) }), rankers: z.array(ForestSchema.nullable()).nullable(), typed: z.array(z.boolean()), plainTails: z.array(z.boolean()), documentShare: z.array(Num), minScores: z.array(Num), roundedTwins: z.array(Num).optional() }).nullable(),
  training: z.object({ documents: Int, tokens: Int, annotatedTokens: Int, seconds: Num }),
});

export { InvalidModelFile };

const FORMAT = { format: MODEL_FORMAT, version: MODEL_VERSION, what: 'extraction model' };

export function serializeModel(model: ExtractionModel): string {
  return writeModelFile(FORMAT, model);
}

export function parseModel(json: string): ExtractionModel {
  const model = readModelFile(FORMAT, ModelFile, json);
  checkConsistency(model);
  return model;
}

/** The parts must fit together: prediction indexes columns and classes by position. */
function checkConsistency(model: ExtractionModel): void {
  if (model.forest.classes !== model.classes.length + 1) throw new InvalidModelFile('the forest and the class list disagree');
  checkForest(model.forest, featureNames(model.features).length);
  if (model.spans) {
    if (model.spans.words.values.length !== model.classes.length || model.spans.words.starts.length !== model.classes.length || model.spans.words.ends.length !== model.classes.length || model.spans.words.edgeShares.length !== model.classes.length || model.spans.typed.length !== model.classes.length || model.spans.plainTails.length !== model.classes.length || model.spans.documentShare.length !== model.classes.length || model.spans.minScores.length !== model.classes.length) throw new InvalidModelFile('the span words and the class list disagree');
    const columns = SPAN_BASE_FEATURES + CONTEXT_COLUMNS * model.spans.words.context.length;
    checkPerClass(model.spans.forests, model.classes.length, columns, 'span');
    if (model.spans.rankers) checkPerClass(model.spans.rankers, model.classes.length, columns + RANK_FEATURES, 'ranking');
  }
}

/** A forest per class (or null), each with two classes (value or not) over `columns` columns. */
function checkPerClass(forests: readonly (ForestModel | null)[], classes: number, columns: number, what: string): void {
  if (forests.length !== classes) throw new InvalidModelFile(`the ${what} forests and the class list disagree`);
  for (const forest of forests) {
    if (!forest) continue;
    if (forest.classes !== 2) throw new InvalidModelFile(`a ${what} forest must have two classes`);
    checkForest(forest, columns);
  }
}
