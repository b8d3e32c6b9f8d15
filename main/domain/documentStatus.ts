// Document status codes and dataset statuses as clients of this API family know them (compat.md).
// `status` is sent as `[code, "Name"]`, `status_data` as the bare code.
import { DOCUMENT_STATUS_NAMES, documentStatusName } from '../../shared/documentStatus.ts';

export const DocumentStatus = {
  QUEUING_FOR_OCR: 0,
  QUEUING_FOR_EXTRACTION: 1,
  DONE: 2,
  QUEUING_FOR_CATEGORIZATION: 3,
  QUEUING_FOR_SPLITTING: 4,
  OCR_IN_PROGRESS: 10,
  EXTRACTION_IN_PROGRESS: 20,
  CATEGORIZATION_IN_PROGRESS: 30,
  SPLITTING_IN_PROGRESS: 40,
  WAITING_FOR_SPLITTING_CONFIRMATION: 41,
  COULD_NOT_BE_PROCESSED: 111,
} as const;
export type DocumentStatusCode = (typeof DocumentStatus)[keyof typeof DocumentStatus];

const STATUS_NAMES: Record<DocumentStatusCode, string> = DOCUMENT_STATUS_NAMES;

/**
 * Statuses in which a document's processing has ended one way or the other: done, failed, or stopped
 * at a proposed split that waits for a reviewer (processing does not go on by itself from there).
 */
export const PROCESSING_ENDED: readonly number[] = [DocumentStatus.DONE, DocumentStatus.COULD_NOT_BE_PROCESSED, DocumentStatus.WAITING_FOR_SPLITTING_CONFIRMATION];

export function processingEnded(status: number): boolean {
  return PROCESSING_ENDED.includes(status);
}

export const STATUS_CODES = Object.keys(STATUS_NAMES).map(Number) as DocumentStatusCode[];

export function isStatusCode(code: number): code is DocumentStatusCode {
  return Object.hasOwn(STATUS_NAMES, code);
}

export const statusName = documentStatusName;

/** The `status` field: code and display name. */
export function statusPair(code: number): [number, string] {
  return [code, statusName(code)];
}

/** Review only makes sense once processing has produced the text and the annotations. */
export function labelingAvailable(code: number): 0 | 1 {
  return code === DocumentStatus.DONE ? 1 : 0;
}

/** Where a document stands for AI training (compat.md `dataset_status`). */
export const DatasetStatus = { NONE: 0, PREPARATION: 1, TRAINING: 2, TEST: 3, EXCLUDED: 4 } as const;
export const DATASET_STATUS_NAMES: Record<number, string> = { 0: 'None', 1: 'Preparation', 2: 'Training', 3: 'Test', 4: 'Excluded' };
