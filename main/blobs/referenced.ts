// Which blobs the database refers to: the one list both the start-up sweep (everything else is removed)
// and the backup (everything in it is copied) go by, so a new kind of file cannot be lost by one of them.
import type { Repos } from '../store/repositories/index.ts';

export async function referencedBlobKeys(repos: Repos): Promise<Set<string>> {
  return new Set([...(await repos.documents.blobKeys()), ...(await repos.pages.blobKeys()), ...(await repos.aiModels.blobKeys())]);
}
