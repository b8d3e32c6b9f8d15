// Layout segmentation (spec 2.12, version 2 path of spec 4): per page, the elements labelled text,
// title, list, table or figure with their boxes in page-image pixels.
import { route, type RouteSpec } from '../route.ts';
import { SegmentationResponse } from '../../../shared/schemas/segmentation.ts';

export const segmentationRoutes: RouteSpec[] = [
  route({
    method: 'get',
    path: '/api/projects/:projectId/docs/:documentId/segmentation/',
    tag: 'segmentation',
    summary: 'The layout of each page: text, title, list, table and figure elements in page-image pixels',
    description:
      'One list per page, in page order. Boxes are pixels of the page image (origin top left). A document ' +
      'that is not processed yet has no pages, so its answer is an empty list.',
    // Computed from stored pages only (images are decoded, so it is worth keeping).
    cache: true,
    response: SegmentationResponse,
    handler: (ctx) => ctx.core.services.segmentation.document(ctx.user, ctx.id('projectId'), ctx.id('documentId')),
  }),
];
