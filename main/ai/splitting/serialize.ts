// A trained splitting model as a file: JSON with a format name and version, the feature columns and the
// forest, so a model can be downloaded and uploaded again. Reading checks the structure, so a foreign or
// damaged file is refused (InvalidModelFile, as for extraction models) before it is used.
import { z } from 'zod';
import { checkForest, ForestSchema, Int, InvalidModelFile, Num, readModelFile, writeModelFile } from '../modelFile.ts';
import { FEATURE_NAMES } from './features.ts';
import { SPLITTER_VERSION } from './model.ts';
import type { SplittingModel } from './types.ts';

export const SPLITTER_FORMAT = 'folio-splitting-model';


const ModelFile = z.object({
  format: z.literal(SPLITTER_FORMAT),
  version: z.literal(SPLITTER_VERSION),
  features: z.array(z.string()),
  threshold: Num.min(0).max(1),
  forest: ForestSchema.extend({ classes: z.literal(2) }),
  training: z.object({ documents: Int.min(0), pages: Int.min(0), seconds: Num.min(0) }),
});

const FORMAT = { format: SPLITTER_FORMAT, version: SPLITTER_VERSION, what: 'splitting model' };

export function serializeSplitter(model: SplittingModel): string {
  return writeModelFile(FORMAT, model);
}

export function parseSplitter(file: string): SplittingModel {
  const model = readModelFile(FORMAT, ModelFile, file) as SplittingModel;
  checkConsistency(model);
  return model;
}

/** Prediction reads columns by position and walks trees by index: both must fit, or it reads garbage or loops. */
function checkConsistency(model: SplittingModel): void {
  if (model.features.length !== FEATURE_NAMES.length || model.features.some((f, i) => f !== FEATURE_NAMES[i])) {
    throw new InvalidModelFile('the model was made with other page features than this version computes');
  }
  checkForest(model.forest, FEATURE_NAMES.length);
}
