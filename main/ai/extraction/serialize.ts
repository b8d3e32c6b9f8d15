// A trained model as a file: JSON with a format name and version, the labels and label sets it extracts,
// the feature configuration and the forest, so a model can be downloaded and uploaded again. Reading
// checks the structure, so a foreign or damaged file is refused before it is used.
import { z } from 'zod';
import { featureNames } from './features.ts';
import { MODEL_VERSION, type ExtractionModel } from './model.ts';

export const MODEL_FORMAT = 'folio-extraction-model';

const Num = z.number().finite();
const Int = z.number().int();

const ModelFile = z.object({
  format: z.literal(MODEL_FORMAT),
  version: z.literal(MODEL_VERSION),
  schema: z.object({
    labels: z.array(z.object({ id: Int, name: z.string(), dataType: z.string(), threshold: Num, labelSetIds: z.array(Int) })),
    labelSets: z.array(z.object({ id: Int, name: z.string(), hasMultipleSections: z.boolean() })),
  }),
  features: z.object({ vocabulary: z.array(z.string()), shapes: z.array(z.string()), linesAbove: Int.min(0) }),
  classes: z.array(
    z.object({ labelId: Int, labelSetId: Int, maxGapEm: Num.nullable(), multiLine: z.boolean(), repeatsInSet: z.boolean(), examples: Int.min(0) }),
  ),
  labelSetLayouts: z.array(z.object({ labelSetId: Int, multiLine: z.boolean() })),
  forest: z.object({
    classes: Int.min(1),
    features: Int.min(0),
    trees: z.array(z.object({ feature: z.array(Int), threshold: z.array(Num), left: z.array(Int), right: z.array(Int), leaf: z.array(z.array(Num)) })),
  }),
  training: z.object({ documents: Int, tokens: Int, annotatedTokens: Int, seconds: Num }),
});

export class InvalidModelFile extends Error {}

export function serializeModel(model: ExtractionModel): string {
  return JSON.stringify({ format: MODEL_FORMAT, ...model, version: MODEL_VERSION });
}

export function parseModel(json: string): ExtractionModel {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    throw new InvalidModelFile('the model file is not JSON');
  }
  const parsed = ModelFile.safeParse(raw);
  if (!parsed.success) {
    const version = (raw as { version?: unknown } | null)?.version;
    if ((raw as { format?: unknown } | null)?.format === MODEL_FORMAT && version !== MODEL_VERSION) {
      throw new InvalidModelFile(`model version ${String(version)} is not supported (this version reads ${MODEL_VERSION})`);
    }
    throw new InvalidModelFile(`not an extraction model file: ${parsed.error.issues[0]?.path.join('.') || ''} ${parsed.error.issues[0]?.message ?? ''}`.trim());
  }
  const { format: _format, ...model } = parsed.data;
  checkConsistency(model);
  return model;
}

/** The parts must fit together: prediction indexes columns and classes by position. */
function checkConsistency(model: ExtractionModel): void {
  const columns = featureNames(model.features).length;
  if (model.forest.features !== columns) throw new InvalidModelFile(`the forest reads ${model.forest.features} features, the feature configuration makes ${columns}`);
  if (model.forest.classes !== model.classes.length + 1) throw new InvalidModelFile('the forest and the class list disagree');
  for (const tree of model.forest.trees) {
    const n = tree.feature.length;
    if ([tree.threshold, tree.left, tree.right, tree.leaf].some((a) => a.length !== n)) throw new InvalidModelFile('a tree has arrays of different lengths');
    tree.feature.forEach((f, i) => {
      if (f >= columns || (f >= 0 && !(tree.left[i] > i && tree.left[i] < n && tree.right[i] > i && tree.right[i] < n))) throw new InvalidModelFile('a tree points outside itself');
      if (f < 0 && tree.leaf[i].some((v, k) => k % 2 === 0 && !(Number.isInteger(v) && v >= 0 && v < model.forest.classes))) throw new InvalidModelFile('a leaf names an unknown class');
    });
  }
}
