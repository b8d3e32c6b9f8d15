// The review window's rules (issue 29 item 4), each a pure function of the renderer: where Previous / Next
// and "finish review" go in the document list as the reviewer left it, the zoom a document opens at, where
// the new-annotation dialog stands beside its box, which label it preselects, and where a row menu opens.
import { describe, expect, it } from 'vitest';
import { idsAfter, nextToReview } from '../../renderer/src/views/review/documentNav.ts';
import { defaultZoom, parseZoom } from '../../renderer/src/views/review/reviewZoom.ts';
import { placeBeside } from '../../renderer/src/views/review/placeDialog.ts';
import { onlyUnfilledLabel, type TreeSet } from '../../renderer/src/state/reviewTree.ts';
import { menuPlace } from '../../renderer/src/views/project/DocumentTable.tsx';
import { listQueryOf, viewFromQuery } from '../../renderer/src/state/documents.ts';

describe('Previous / Next in the list as filtered and sorted', () => {
  // The list sorted by file name, descending: ids in that order, not in id order.
  const order = [9, 4, 7, 2];
  it('steps to the neighbours in the list order, null at either end', () => {
    expect(idsAfter(order, 4, 1)[0]).toBe(7);
    expect(idsAfter(order, 4, -1)[0]).toBe(9);
    expect(idsAfter(order, 2, 1)).toEqual([]);
    expect(idsAfter(order, 9, -1)).toEqual([]);
  });
  it('a document that has left the list keeps its place from the order read before', () => {
    // 7 was finished while the list shows unreviewed documents: the list no longer has it.
    const before = [9, 4, 7, 2];
    expect(idsAfter([9, 4, 2], 7, 1, before)[0]).toBe(2);
    expect(idsAfter([9, 4, 2], 7, -1, before)[0]).toBe(4);
    expect(idsAfter([9, 4], 7, 1, before)).toEqual([]);
  });
  it('a document in neither order starts from the list end', () => {
    expect(idsAfter(order, 100, 1)[0]).toBe(9);
    expect(idsAfter(order, 100, -1)[0]).toBe(2);
  });
  it('finish goes to the next processed, unreviewed document after it in the list, else from the top', () => {
    const rows = [
      { id: 9, is_reviewed: false, status_data: 2 },
      { id: 4, is_reviewed: false, status_data: 2 },
      { id: 7, is_reviewed: true, status_data: 2 },
      { id: 3, is_reviewed: false, status_data: 10 },
      { id: 2, is_reviewed: false, status_data: 2 },
    ];
    expect(nextToReview(rows, 4)).toBe(2); // 7 is reviewed, 3 still being read
    expect(nextToReview(rows, 2)).toBe(9); // from the top
    expect(nextToReview([{ id: 5, is_reviewed: false, status_data: 2 }], 5)).toBeNull();
  });
  it('the list query is the one the documents tab sends: its filters and its order with ties by id', () => {
    expect(listQueryOf(viewFromQuery('dataset_status=0&ordering=-data_file_name&offset=50'))).toEqual({ dataset_status: '0', ordering: '-data_file_name,-id' });
    expect(listQueryOf(viewFromQuery(''))).toEqual({ ordering: '-created_at,-id' });
  });
});

describe('the zoom a document opens at', () => {
  const page = (w: number, h: number) => ({ original_size: [w, h] as [number, number] });
  it('a receipt (much taller than wide) whole, a sheet at its width', () => {
    expect(defaultZoom([page(300, 900)])).toEqual({ kind: 'fit-page' });
    expect(defaultZoom([page(595, 842)])).toEqual({ kind: 'fit-width' }); // A4
    expect(defaultZoom([page(612, 792)])).toEqual({ kind: 'fit-width' }); // Letter
    expect(defaultZoom([])).toEqual({ kind: 'fit-width' });
  });
  it('reads back only a zoom it could have stored', () => {
    expect(parseZoom('{"kind":"fit-page"}')).toEqual({ kind: 'fit-page' });
    expect(parseZoom('{"kind":"percent","value":150}')).toEqual({ kind: 'percent', value: 150 });
    expect(parseZoom('{"kind":"percent","value":9000}')).toBeNull();
    expect(parseZoom('not json')).toBeNull();
    expect(parseZoom(null)).toBeNull();
  });
});

describe('the new-annotation dialog beside its box', () => {
  const viewport = { width: 1280, height: 720 };
  const size = { width: 420, height: 360 };
  const clear = (box: { left: number; top: number; right: number; bottom: number }, at: { left: number; top: number }) =>
    at.left >= box.right || at.left + size.width <= box.left || at.top >= box.bottom || at.top + size.height <= box.top;
  it('goes to the side with the most room, never over the box, and inside the window', () => {
    for (const box of [
      { left: 300, top: 200, right: 500, bottom: 230 }, // left half: to its right
      { left: 900, top: 500, right: 1100, bottom: 530 }, // right half: to its left
      { left: 100, top: 300, right: 1180, bottom: 320 }, // as wide as the window: above or below
    ]) {
      const at = placeBeside(box, size, viewport);
      expect(clear(box, at), JSON.stringify({ box, at })).toBe(true);
      expect(at.left).toBeGreaterThanOrEqual(0);
      expect(at.top).toBeGreaterThanOrEqual(0);
      expect(at.left + size.width).toBeLessThanOrEqual(viewport.width);
      expect(at.top + size.height).toBeLessThanOrEqual(viewport.height);
    }
    expect(placeBeside({ left: 300, top: 200, right: 500, bottom: 230 }, size, viewport).left).toBe(512);
  });
  it('centred when no side has room', () => {
    expect(placeBeside({ left: 10, top: 10, right: 1270, bottom: 710 }, size, viewport)).toEqual({ left: 430, top: 180 });
  });
});

describe('the label the dialog preselects', () => {
  const label = (id: number, status: string) => ({ id, name: `l${id}`, status, annotations: [], missing_annotation: null });
  const set = (id: number | null, labels: unknown[], repeats = false) => ({ id, label_set: { id: 1, name: 'Receipt', has_multiple_sections: repeats }, labels }) as unknown as TreeSet;
  it('the one label still unfilled, none when several or none are', () => {
    expect(onlyUnfilledLabel([set(5, [label(1, 'Not found'), label(2, 'Unfilled'), label(3, 'Accepted')])])?.label.id).toBe(2);
    expect(onlyUnfilledLabel([set(5, [label(1, 'Unfilled'), label(2, 'Unfilled')])])).toBeNull();
    expect(onlyUnfilledLabel([set(5, [label(1, 'Accepted')])])).toBeNull();
  });
  it('a repeating label set\'s potential set does not count (it may stay empty)', () => {
    expect(onlyUnfilledLabel([set(5, [label(1, 'Unfilled')]), set(null, [label(8, 'Unfilled')], true)])?.label.id).toBe(1);
  });
});

describe('a document row menu', () => {
  const viewport = { width: 1440, height: 900 };
  const menu = { width: 140, height: 110 };
  it('opens under its button, or above it near the window bottom, right-aligned and inside the window', () => {
    expect(menuPlace({ top: 400, bottom: 430, right: 1300 }, menu, viewport)).toEqual({ top: 434, left: 1160, up: false });
    expect(menuPlace({ top: 840, bottom: 870, right: 1300 }, menu, viewport)).toEqual({ top: 726, left: 1160, up: true });
    expect(menuPlace({ top: 400, bottom: 430, right: 1460 }, menu, viewport).left).toBe(1296);
  });
});
