// Text geometry of processed documents (compat.md paths): character boxes, characters in rectangles,
// search, pages with their words, and page images.
import { pageOfList } from '../../../shared/listParams.ts';
import { route, RESPONDED, type RouteSpec } from '../route.ts';
import { BboxResponse, PageDetail, PageOut, RectsRequest, SearchRequest, SpansResponse } from '../../../shared/schemas/geometry.ts';
import { envelope } from '../../../shared/schemas/common.ts';
import type { PageSummary } from '../../store/repositories/pageRepository.ts';
import { bool } from '../dto.ts';

export const pageOut = (p: PageSummary) => {
  const image = p.image_blob ? `/page/show-image/${p.id}/` : null;
  return {
    id: p.id,
    document: p.document_id,
    number: p.number,
    original_size: [p.width_pt, p.height_pt] as [number, number],
    size: p.image_width && p.image_height ? ([p.image_width, p.image_height] as [number, number]) : null,
    rotation: p.rotation,
    ocr: bool(p.ocr),
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

const doc = '/api/v3/documents/:id';

const pageImageRoute = (kind: 'image' | 'thumbnail'): RouteSpec =>
  route({
    method: 'get',
    path: `/page/show-${kind}/:pageId/`,
    tag: 'pages',
    summary: kind === 'image' ? 'The image of a page (PNG)' : 'The thumbnail of a page (PNG)',
    auth: 'public',
    produces: 'image/png',
    async handler(ctx) {
      const file = await ctx.core.services.geometry.pageImage(ctx.maybeUser, ctx.id('pageId'), kind);
      ctx.res.setHeader('Content-Type', 'image/png');
      ctx.res.setHeader('Cache-Control', 'private, max-age=3600');
      await new Promise<void>((resolve, reject) => ctx.res.sendFile(file, { headers: { 'Content-Type': 'image/png' } }, (err) => (err ? reject(err) : resolve())));
      return RESPONDED;
    },
  });

export const geometryRoutes: RouteSpec[] = [
  route({
    method: 'get',
    path: `${doc}/bbox/`,
    tag: 'geometry',
    summary: 'Every character of the document with its box, keyed by its offset in the document text',
    cache: true,
    response: BboxResponse,
    handler: async (ctx) => ({ bbox: await ctx.core.services.geometry.bbox(ctx.user, ctx.id()) }),
  }),
  route({
    method: 'post',
    path: `${doc}/bbox/`,
    tag: 'geometry',
    summary: 'The characters fully inside the given rectangles, as spans (one per line)',
    body: RectsRequest,
    response: SpansResponse,
    status: 200,
    handler: async (ctx) => ({ span: await ctx.core.services.geometry.charsIn(ctx.user, ctx.id(), ctx.body.span) }),
  }),
  route({
    method: 'post',
    path: `${doc}/search/`,
    tag: 'geometry',
    summary: 'Every occurrence of a text in the document, as spans (case-insensitive)',
    body: SearchRequest,
    response: SpansResponse,
    status: 200,
    handler: async (ctx) => ({ span: await ctx.core.services.geometry.search(ctx.user, ctx.id(), ctx.body.q) }),
  }),
  route({
    method: 'get',
    path: `${doc}/pages/`,
    tag: 'pages',
    summary: 'The pages of a document',
    response: envelope(PageOut),
    async handler(ctx) {
      const params = ctx.list();
      const all = await ctx.core.services.geometry.pages(ctx.user, ctx.id());
      return ctx.page(pageOfList(all, params), params, pageOut);
    },
  }),
  route({
    method: 'get',
    path: `${doc}/pages/:number/`,
    tag: 'pages',
    summary: 'A page (1-based number) with its words; public documents need no authentication',
    auth: 'public',
    cache: true,
    response: PageDetail,
    async handler(ctx) {
      const { page, words } = await ctx.core.services.geometry.page(ctx.maybeUser, ctx.id(), ctx.id('number'));
      return { ...pageOut(page), entities: words };
    },
  }),
  pageImageRoute('image'),
  pageImageRoute('thumbnail'),
];
