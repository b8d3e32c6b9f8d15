// Model files of the AI records, read from the blob store and kept parsed in memory for the documents
// that follow: a model is read once, not once per upload. Small: a handful of active models at a time.
import type { BlobStore } from '../blobs/blobStore.ts';
import type { AiModelRow } from '../store/schema.ts';

const KEEP = 8;

export class ModelFiles {
  private readonly parsed = new Map<string, unknown>();

  constructor(private readonly blobs: BlobStore) {}

  async text(model: Pick<AiModelRow, 'id' | 'model_blob'>): Promise<string> {
    if (!model.model_blob) throw new Error(`AI ${model.id} has no model file.`);
    return (await this.blobs.read(model.model_blob)).toString('utf8');
  }

  /** The parsed model, from memory when it was read before (blob keys are content hashes: never stale). */
  async load<T>(model: Pick<AiModelRow, 'id' | 'model_blob'>, parse: (file: string) => T): Promise<T> {
    const key = model.model_blob ?? '';
    const hit = this.parsed.get(key);
    if (hit !== undefined) {
      this.parsed.delete(key);
      this.parsed.set(key, hit);
      return hit as T;
    }
    const value = parse(await this.text(model));
    this.parsed.set(key, value);
    if (this.parsed.size > KEEP) this.parsed.delete(this.parsed.keys().next().value!);
    return value;
  }
}
