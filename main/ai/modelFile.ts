// What the three kinds of model files share: JSON with a format name and a version, read through a zod
// schema so that a foreign, damaged or newer file is refused with a reason (InvalidModelFile) before it is
// used; and the forest both the extraction and the splitting models carry, checked so that prediction can
// never read a missing column or walk a tree in circles.
import { z } from 'zod';
import type { ForestModel } from './extraction/forest.ts';

export class InvalidModelFile extends Error {}

export const Num = z.number().finite();
export const Int = z.number().int();

export const ForestSchema = z.object({
  classes: Int.min(1),
  features: Int.min(0),
  trees: z.array(z.object({ feature: z.array(Int), threshold: z.array(Num), left: z.array(Int), right: z.array(Int), leaf: z.array(z.array(Num)) })),
});

export interface ModelFormat {
  /** The `format` written into every file, e.g. "folio-extraction-model". */
  format: string;
  version: number;
  /** What the file holds, for messages: "extraction model". */
  what: string;
}

export function writeModelFile(f: ModelFormat, model: object): string {
  return JSON.stringify({ format: f.format, ...model, version: f.version });
}

/** The model in `file` (without its format tag), or InvalidModelFile saying why not. */
export function readModelFile<S extends z.ZodType>(f: ModelFormat, schema: S, file: string): Omit<z.infer<S>, 'format'> {
  let raw: unknown;
  try {
    raw = JSON.parse(file);
  } catch {
    throw new InvalidModelFile('the model file is not JSON');
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const { format, version } = (raw ?? {}) as { format?: unknown; version?: unknown };
    if (format === f.format && version !== f.version) {
      throw new InvalidModelFile(`${f.what} version ${String(version)} is not supported (this version reads ${f.version})`);
    }
    const issue = parsed.error.issues[0];
    throw new InvalidModelFile(`not a ${f.what} file: ${issue?.path.join('.') ?? ''} ${issue?.message ?? ''}`.trim());
  }
  const { format: _format, ...model } = parsed.data as { format: string };
  return model as Omit<z.infer<S>, 'format'>;
}

/** Every tree's arrays agree, children come after their parent (a walk from the root ends at a leaf),
 * splits read existing columns and leaves name existing classes. */
export function checkForest(forest: ForestModel, columns: number): void {
  if (forest.features !== columns) throw new InvalidModelFile(`the forest reads ${forest.features} features, the model makes ${columns}`);
  if (!forest.trees.length) throw new InvalidModelFile('the forest has no trees');
  for (const tree of forest.trees) {
    const n = tree.feature.length;
    if (!n || [tree.threshold, tree.left, tree.right, tree.leaf].some((a) => a.length !== n)) throw new InvalidModelFile('a tree has arrays of different lengths');
    tree.feature.forEach((f, i) => {
      if (f >= columns || (f >= 0 && !(tree.left[i] > i && tree.left[i] < n && tree.right[i] > i && tree.right[i] < n))) throw new InvalidModelFile('a tree points outside itself');
      if (f < 0 && tree.leaf[i].some((v, k) => k % 2 === 0 && !(Number.isInteger(v) && v >= 0 && v < forest.classes))) throw new InvalidModelFile('a leaf names an unknown class');
    });
  }
}
