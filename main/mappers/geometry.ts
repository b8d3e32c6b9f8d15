// Pages of a processed document as the API shows them (compat.md paths). Why mappers live in
// main/mappers: dto.ts.
import type { PageSummary } from '../store/repositories/pageRepository.ts';
import type { Span } from '../domain/geometry.ts';

export const pageOut = (p: PageSummary) => {
  const image = p.image_blob ? `/page/show-image/${p.id}/` : null;
  return {
    id: p.id,
    document: p.document_id,
    number: p.number,
    original_size: [p.width_pt, p.height_pt] as [number, number],
    size: p.image_width && p.image_height ? ([p.image_width, p.image_height] as [number, number]) : null,
    rotation: p.rotation,
    ocr: p.ocr,
    image_url: image,
    page_image: image,
    thumbnail_url: p.thumbnail_blob ? `/page/show-thumbnail/${p.id}/` : null,
    ocr_engine: p.ocr_engine,
    ocr_engine_version: p.ocr_engine_version,
    orientation: p.ocr_turn === null ? null : { turned: p.ocr_turn, confidence: p.ocr_osd_confidence },
  };
};

/** Which engine read a document, from its pages: "native tesseract 5.3.0"; several joined by commas
 * (a document read partly by one, partly by another); null when no page was OCR'd. */
export const documentOcrEngine = (pages: readonly PageSummary[]): string | null => {
  const names = [...new Set(pages.filter((p) => p.ocr_engine !== null).map((p) => `${p.ocr_engine} ${p.ocr_engine_version ?? ''}`.trim()))];
  return names.length ? names.join(', ') : null;
};

/** A page with its words (`GET documents/<id>/pages/<number>/`). */
export const pageDetailOut = (p: PageSummary, words: Span[]) => ({ ...pageOut(p), entities: words });

/** Where anyone with a public link reads a page's image and thumbnail: by the link's token and the page's number. */
export const publicPagePath = (token: string, number: number, kind: 'image' | 'thumbnail') => `/api/v3/public/${token}/pages/${number}/${kind}/`;

/** A page of a public document as its link's reader gets it: the same fields, images by the link (never by page id). */
export const publicPageOut = (p: PageSummary, token: string) => {
  const image = p.image_blob ? publicPagePath(token, p.number, 'image') : null;
  return { ...pageOut(p), image_url: image, page_image: image, thumbnail_url: p.thumbnail_blob ? publicPagePath(token, p.number, 'thumbnail') : null };
};

export const publicPageDetailOut = (p: PageSummary, words: Span[], token: string) => ({ ...publicPageOut(p, token), entities: words });
