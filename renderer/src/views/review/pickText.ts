// Which text a box drawn on a page marks, as spans (one per line) ready for a new annotation: the
// characters fully inside it (POST /bbox/, the API's rule). A box that holds no whole character (drawn
// through a word) or a click takes the words it touches (the page's words), so a quick stroke over a word
// labels that word.
import type { PageOutDetail, RectIn, SpanOut } from '../../api/client.ts';
import { useSession } from '../../state/session.ts';
import type { RectOnPage } from '../../viewer/types.ts';

/** Words of the pages already asked for, per document (a page's words do not change during review). */
let wordsOf: { documentId: number; pages: Map<number, Promise<PageOutDetail['entities']>> } | null = null;

/** Forgets the words read so far: a document read again (or a region of it) has new words. */
export function forgetWords(): void {
  wordsOf = null;
}

function pageWords(documentId: number, pageIndex: number): Promise<PageOutDetail['entities']> {
  if (wordsOf?.documentId !== documentId) wordsOf = { documentId, pages: new Map() };
  let words = wordsOf.pages.get(pageIndex);
  if (!words) {
    words = useSession.getState().call((c) => c.getPage(documentId, pageIndex + 1)).then((p) => p.entities);
    wordsOf.pages.set(pageIndex, words);
    words.catch(() => wordsOf?.pages.delete(pageIndex)); // asked again next time
  }
  return words;
}

const spansIn = (documentId: number, rect: RectIn) => useSession.getState().call((c) => c.spansIn(documentId, [rect]));

/** Characters' boxes touch a word's edges: a hair of margin keeps its first and last letters inside. */
const MARGIN = 0.5;

export async function textInBox(documentId: number, rect: RectOnPage): Promise<SpanOut[]> {
  const box: RectIn = { page_index: rect.pageIndex, x0: rect.x0, x1: rect.x1, y0: rect.y0, y1: rect.y1 };
  const inside = await spansIn(documentId, box);
  if (inside.length) return inside;
  const touched = (await pageWords(documentId, rect.pageIndex)).filter((w) => w.x0 <= rect.x1 && w.x1 >= rect.x0 && w.y0 <= rect.y1 && w.y1 >= rect.y0);
  if (!touched.length) return [];
  return spansIn(documentId, {
    page_index: rect.pageIndex,
    x0: Math.min(...touched.map((w) => w.x0)) - MARGIN,
    x1: Math.max(...touched.map((w) => w.x1)) + MARGIN,
    y0: Math.min(...touched.map((w) => w.y0)) - MARGIN,
    y1: Math.max(...touched.map((w) => w.y1)) + MARGIN,
  });
}
