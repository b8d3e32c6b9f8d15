// The Range header of blob downloads (main/http/sendFile.ts): which single byte range a request asks for,
// the whole file for what is not served partly, and 416 for a range past the end.
import { describe, expect, it } from 'vitest';
import { requestedRange } from '../../main/http/sendFile.ts';

describe('requestedRange over 1000 bytes', () => {
  it.each([
    ['bytes=0-99', { start: 0, end: 99 }],
    ['bytes=100-', { start: 100, end: 999 }],
    ['bytes=-10', { start: 990, end: 999 }],
    ['bytes=-5000', { start: 0, end: 999 }],
    ['bytes=900-5000', { start: 900, end: 999 }],
    ['bytes=999-999', { start: 999, end: 999 }],
  ])('%s is %j', (header, range) => {
    expect(requestedRange(header, 1000)).toEqual(range);
  });

  it.each([[undefined], [''], ['bytes=-'], ['bytes=5-1'], ['bytes=0-1,5-9'], ['items=0-1'], ['bytes=a-b']])('%s is the whole file', (header) => {
    expect(requestedRange(header, 1000)).toBeUndefined();
  });

  it.each([['bytes=1000-'], ['bytes=1000-1005'], ['bytes=-0']])('%s cannot be satisfied', (header) => {
    expect(requestedRange(header, 1000)).toBe('unsatisfiable');
  });
});
