// compat.md's status codes: every code has its name, `status` is [code, name], labeling opens at Done.
import { describe, expect, it } from 'vitest';
import { DATASET_STATUS_NAMES, STATUS_CODES, labelingAvailable, statusName, statusPair } from '../../main/domain/documentStatus.ts';

describe('document status', () => {
  const table: [number, string][] = [
    [0, 'Queuing for OCR'], [10, 'OCR in progress'], [1, 'Queuing for extraction'], [20, 'Extraction in progress'],
    [3, 'Queuing for categorization'], [30, 'Categorization in progress'], [4, 'Queuing for splitting'],
    [40, 'Splitting in progress'], [41, 'Waiting for splitting confirmation'], [2, 'Done'], [111, 'Could not be processed'],
  ];
  it.each(table)('code %i is "%s"', (code, name) => {
    expect(statusName(code)).toBe(name);
    expect(statusPair(code)).toEqual([code, name]);
    expect(labelingAvailable(code)).toBe(code === 2 ? 1 : 0);
  });
  it('knows exactly the codes of compat.md', () => {
    expect([...STATUS_CODES].sort((a, b) => a - b)).toEqual(table.map(([c]) => c).sort((a, b) => a - b));
  });
  it('names an unknown code instead of failing', () => {
    expect(statusName(99)).toBe('Unknown status 99');
  });
  it('names the dataset statuses of compat.md', () => {
    expect(DATASET_STATUS_NAMES).toEqual({ 0: 'None', 1: 'Preparation', 2: 'Training', 3: 'Test', 4: 'Excluded' });
  });
});
