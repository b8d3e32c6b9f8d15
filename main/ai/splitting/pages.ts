// A document as the splitting AI reads it: one SplitPage per page, cut from the document's text at its
// form feeds, with each page's character boxes re-based to the page (offsets into the page's text,
// page_index 0, lines numbered from 1). Used for stored documents and for the dataset alike.
import type { ExtractionDocument } from '../extraction/types.ts';
import type { SplitPage } from './types.ts';

export function documentPages(doc: Pick<ExtractionDocument, 'text' | 'chars' | 'pageSizes'>, maxPages = Infinity): SplitPage[] {
  const codePoints = Array.from(doc.text);
  const pageStarts = [0];
  codePoints.forEach((ch, i) => {
    if (ch === '\f') pageStarts.push(i + 1);
  });
  return doc.pageSizes.slice(0, maxPages).map((size, p) => {
    const start = pageStarts[p] ?? codePoints.length;
    const end = p + 1 < pageStarts.length ? pageStarts[p + 1] - 1 : codePoints.length;
    const own = doc.chars.filter((c) => c.page_index === p);
    const firstLine = own.length ? Math.min(...own.map((c) => c.line_index)) : 1;
    return {
      text: codePoints.slice(start, end).join(''),
      chars: own.map((c) => ({ ...c, offset: c.offset - start, page_index: 0, line_index: c.line_index - firstLine + 1 })),
      width: size.width,
      height: size.height,
    };
  });
}
