// The display names of the document status codes (compat.md), for the main process's `status` pair and for
// the renderer, which reads list items that carry the bare code (`status_data`) only.

export const DOCUMENT_STATUS_NAMES = {
  0: 'Queuing for OCR',
  10: 'OCR in progress',
  1: 'Queuing for extraction',
  20: 'Extraction in progress',
  3: 'Queuing for categorization',
  30: 'Categorization in progress',
  4: 'Queuing for splitting',
  40: 'Splitting in progress',
  41: 'Waiting for splitting confirmation',
  2: 'Done',
  111: 'Could not be processed',
} as const;

export function documentStatusName(code: number): string {
  return Object.hasOwn(DOCUMENT_STATUS_NAMES, code) ? DOCUMENT_STATUS_NAMES[code as keyof typeof DOCUMENT_STATUS_NAMES] : `Unknown status ${code}`;
}
