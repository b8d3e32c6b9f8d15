// Public links (issue 29 item 4, migration 0015): anyone with a public document's link reads it, its pages and
// their images, without credentials, by the link's random token; never by the document's id. An unknown
// token (never made, or the document made private or shared anew since) is a 404, an expired link a 410.
// Members make a new link (the old one stops working) with POST documents/<id>/public-link/. Nothing here is
// kept in the response cache: a link expires by the clock, not by a write.
import { route, type RouteSpec } from '../route.ts';
import { sendBlob } from '../sendFile.ts';
import { PageDetail } from '../../../shared/schemas/geometry.ts';
import { PublicDocumentDetail, PublicLink, PublicLinkCreate } from '../../../shared/schemas/documents.ts';
import { publicDocumentOut, publicLinkOut } from '../../mappers/documents.ts';
import { publicPageDetailOut } from '../../mappers/geometry.ts';

const base = '/api/v3/public/:token';
const LINK_ERRORS = 'An unknown token answers 404 (also the link of a document made private, or shared again with a new link since); an expired link 410.';

const imageRoute = (kind: 'image' | 'thumbnail'): RouteSpec =>
  route({
    method: 'get',
    path: `${base}/pages/:number/${kind}/`,
    tag: 'public',
    summary: `The ${kind} of a page of a public document (PNG), by its link`,
    description: LINK_ERRORS,
    auth: 'public',
    produces: 'image/png',
    async handler(ctx) {
      const key = await ctx.core.services.geometry.publicPageImage(ctx.param('token'), ctx.id('number'), kind);
      // Not for shared caches, and not for long: the link may end (made private, expired).
      ctx.res.setHeader('Cache-Control', 'private, max-age=300');
      return sendBlob(ctx, { key, type: 'image/png' });
    },
  });

export const publicLinkRoutes: RouteSpec[] = [
  route({
    method: 'get',
    path: `${base}/`,
    tag: 'public',
    summary: 'A public document by its link: the document, its pages and its values (no authentication)',
    description: `Its public shape only: nothing of the project's workings (callback URL, assignee, ids of users, declined values). ${LINK_ERRORS}`,
    auth: 'public',
    response: PublicDocumentDetail,
    handler: async (ctx) => publicDocumentOut(await ctx.core.services.documents.publicDetail(ctx.param('token')), ctx.param('token')),
  }),
  route({
    method: 'get',
    path: `${base}/pages/:number/`,
    tag: 'public',
    summary: 'A page (1-based number) of a public document with its words, by its link (no authentication)',
    description: LINK_ERRORS,
    auth: 'public',
    response: PageDetail,
    async handler(ctx) {
      const { page, words } = await ctx.core.services.geometry.publicPage(ctx.param('token'), ctx.id('number'));
      return publicPageDetailOut(page, words, ctx.param('token'));
    },
  }),
  imageRoute('image'),
  imageRoute('thumbnail'),
  route({
    method: 'post',
    path: '/api/v3/documents/:id/public-link/',
    tag: 'documents',
    summary: 'Make the document public with a new link (a new random token, optionally expiring); its previous link stops working',
    body: PublicLinkCreate,
    response: PublicLink,
    status: 200,
    handler: async (ctx) => publicLinkOut(await ctx.core.services.documents.newPublicLink(ctx.user, ctx.id(), ctx.body.expires_at ?? null)),
  }),
];
