// Text geometry of processed documents (compat.md paths): character boxes, characters in rectangles,
// search, pages with their words, and page images.
import { pageOfList } from '../../../shared/listParams.ts';
import { route, type RouteSpec } from '../route.ts';
import { sendBlob } from '../sendFile.ts';
import { BboxResponse, PageDetail, PageOut, RectsRequest, SearchRequest, SearchResponse, SpansResponse } from '../../../shared/schemas/geometry.ts';
import { envelope } from '../../../shared/schemas/common.ts';
import { pageDetailOut, pageOut } from '../../mappers/geometry.ts';

const doc = '/api/v3/documents/:id';

const pageImageRoute = (kind: 'image' | 'thumbnail'): RouteSpec =>
  route({
    method: 'get',
    path: `/page/show-${kind}/:pageId/`,
    tag: 'pages',
    summary: kind === 'image' ? 'The image of a page (PNG)' : 'The thumbnail of a page (PNG)',
    produces: 'image/png',
    async handler(ctx) {
      const key = await ctx.core.services.geometry.pageImage(ctx.user, ctx.id('pageId'), kind);
      ctx.res.setHeader('Cache-Control', 'private, max-age=3600');
      return sendBlob(ctx, { key, type: 'image/png' });
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
    description:
      'White space in `q` matches any white space in the text, line breaks too (not page breaks), so a value printed over several ' +
      'lines is found as one occurrence. `span` lists the spans of every occurrence (one per line), as compat.md has it; `hits` ' +
      'groups the same spans by occurrence, ready to be one annotation each.',
    body: SearchRequest,
    response: SearchResponse,
    status: 200,
    async handler(ctx) {
      const hits = await ctx.core.services.geometry.searchHits(ctx.user, ctx.id(), ctx.body.q);
      return { span: hits.flat(), hits };
    },
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
    summary: 'A page (1-based number) with its words (a public document\'s pages are read by its link: /api/v3/public/<token>/pages/<number>/)',
    cache: true,
    response: PageDetail,
    async handler(ctx) {
      const { page, words } = await ctx.core.services.geometry.page(ctx.user, ctx.id(), ctx.id('number'));
      return pageDetailOut(page, words);
    },
  }),
  pageImageRoute('image'),
  pageImageRoute('thumbnail'),
];
