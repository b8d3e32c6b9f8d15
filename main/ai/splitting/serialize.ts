// A trained splitting model as a file: JSON with a format name and version, the feature columns and the
// forest, so a model can be downloaded and uploaded again. Reading checks the structure, so a foreign or
// damaged file is refused (InvalidModelFile, as for extraction models) before it is used.
import { z } from 'zod';
import { InvalidModelFile } from '../extraction/serialize.ts';
import { FEATURE_NAMES } from './features.ts';
import { SPLITTER_VERSION } from './model.ts';
import type { SplittingModel } from './types.ts';

export const SPLITTER_FORMAT = 'folio-splitting-model';

const Num = z.number().finite();
const Int = z.number().int();

const ModelFile = z.object({
  format: z.literal(SPLITTER_FORMAT),
  version: z.literal(SPLITTER_VERSION),
  features: z.array(z.string()),
  threshold: Num.min(0).max(1),
  forest: z.object({
    classes: z.literal(2),
    features: Int.min(0),
    trees: z.array(z.object({ feature: z.array(Int), threshold: z.array(Num), left: z.array(Int), right: z.array(Int), leaf: z.array(z.array(Num)) })),
  }),
  training: z.object({ documents: Int.min(0), pages: Int.min(0), seconds: Num.min(0) }),
});

export function serializeSplitter(model: SplittingModel): string {
  return JSON.stringify({ format: SPLITTER_FORMAT, ...model, version: SPLITTER_VERSION });
}

export function parseSplitter(file: string): SplittingModel {
  let raw: unknown;
  try {
    raw = JSON.parse(file);
  } catch {
    throw new InvalidModelFile('the model file is not JSON');
  }
  const parsed = ModelFile.safeParse(raw);
  if (!parsed.success) {
    const { format, version } = (raw ?? {}) as { format?: unknown; version?: unknown };
    if (format === SPLITTER_FORMAT && version !== SPLITTER_VERSION) {
      throw new InvalidModelFile(`splitting model version ${String(version)} is not supported (this version reads ${SPLITTER_VERSION})`);
    }
    const issue = parsed.error.issues[0];
    throw new InvalidModelFile(`not a splitting model file: ${issue?.path.join('.') ?? ''} ${issue?.message ?? ''}`.trim());
  }
  const { format: _format, ...model } = parsed.data;
  checkConsistency(model);
  return model;
}

/** Prediction reads columns by position and walks trees by index: both must fit, or it reads garbage or loops. */
function checkConsistency(model: SplittingModel): void {
  if (model.features.length !== FEATURE_NAMES.length || model.features.some((f, i) => f !== FEATURE_NAMES[i])) {
    throw new InvalidModelFile('the model was made with other page features than this version computes');
  }
  if (model.forest.features !== FEATURE_NAMES.length) throw new InvalidModelFile(`the forest reads ${model.forest.features} features, pages give ${FEATURE_NAMES.length}`);
  if (!model.forest.trees.length) throw new InvalidModelFile('the forest has no trees');
  for (const tree of model.forest.trees) {
    const n = tree.feature.length;
    if (!n || [tree.threshold, tree.left, tree.right, tree.leaf].some((a) => a.length !== n)) throw new InvalidModelFile('a tree has arrays of different lengths');
    tree.feature.forEach((f, i) => {
      // Children come after their parent, so a walk from the root always ends at a leaf.
      if (f >= FEATURE_NAMES.length || (f >= 0 && !(tree.left[i] > i && tree.left[i] < n && tree.right[i] > i && tree.right[i] < n))) {
        throw new InvalidModelFile('a tree points outside itself');
      }
      if (f < 0 && tree.leaf[i].some((v, k) => k % 2 === 0 && v !== 0 && v !== 1)) throw new InvalidModelFile('a leaf names an unknown class');
    });
  }
}
