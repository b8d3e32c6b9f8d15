// Continuous learning's split of reviewed documents into training and test data (docs/continuous-learning.md):
// 1 in TEST_SHARE documents becomes a test document, chosen by a hash of the project's and the document's
// ids, so that the split is the same on every run, on every machine, whatever order reviews come in.
import { createHash } from 'node:crypto';
import { DatasetStatus } from './documentStatus.ts';

/** One document in this many becomes a test document. */
export const TEST_SHARE = 5;

/**
 * The dataset status continuous learning gives a document whose review is finished: Test when the first four
 * bytes of SHA-256("folio-learning:<project id>:<document id>"), read as an unsigned big-endian integer, are
 * divisible by TEST_SHARE; Training otherwise.
 */
export function learningDatasetStatus(projectId: number, documentId: number): typeof DatasetStatus.TRAINING | typeof DatasetStatus.TEST {
  const digest = createHash('sha256').update(`folio-learning:${projectId}:${documentId}`).digest();
  return digest.readUInt32BE(0) % TEST_SHARE === 0 ? DatasetStatus.TEST : DatasetStatus.TRAINING;
}
