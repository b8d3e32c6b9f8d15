// The review's zoom: the reviewer's own choice (fit width, fit page or a percentage) is kept for every
// document and across reloads, in this browser. Until they choose, each document opens at the fit that
// suits its first page: a page much taller than wide (a till receipt) whole (fit page), so that every
// value and box of it is in view at once; a sheet (A4 is 1.41 times as tall as wide, Letter 1.29) at
// fit width, where its text stays readable.
import type { PageSummary } from '../../api/client.ts';
import type { ZoomMode } from '../../viewer/types.ts';

const KEY = 'folio.review.zoom';
/** Taller than this many times the width: a strip (receipt), shown whole. */
export const TALL_PAGE_RATIO = 1.6;

export function parseZoom(raw: string | null): ZoomMode | null {
  if (!raw) return null;
  try {
    const z = JSON.parse(raw) as ZoomMode;
    if (z.kind === 'fit-width' || z.kind === 'fit-page') return { kind: z.kind };
    if (z.kind === 'percent' && typeof z.value === 'number' && Number.isFinite(z.value) && z.value >= 25 && z.value <= 400) return { kind: 'percent', value: z.value };
  } catch {
    /* not ours: as if nothing was chosen */
  }
  return null;
}

/** The fit a document opens at while the reviewer has not chosen a zoom. */
export function defaultZoom(pages: readonly Pick<PageSummary, 'original_size'>[]): ZoomMode {
  const first = pages[0]?.original_size;
  return first && first[0] > 0 && first[1] / first[0] > TALL_PAGE_RATIO ? { kind: 'fit-page' } : { kind: 'fit-width' };
}

export function chosenZoom(): ZoomMode | null {
  try {
    return parseZoom(localStorage.getItem(KEY));
  } catch {
    return null;
  }
}

export function chooseZoom(zoom: ZoomMode): void {
  try {
    localStorage.setItem(KEY, JSON.stringify(zoom));
  } catch {
    /* storage disabled: kept while this window is open (the caller's state) */
  }
}
