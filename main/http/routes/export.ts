// CSV export of a project's annotations (spec 4). Scripts and spreadsheet tools that cannot set headers
// use the `token` query parameter (spec 5).
import { route, RESPONDED, type RouteSpec } from '../route.ts';

export const exportRoutes: RouteSpec[] = [
  route({
    method: 'get',
    path: '/api/v3/projects/:id/export/all.csv',
    tag: 'export',
    summary: 'Every annotation of the project as CSV (RFC 4180, UTF-8): document, label, text, normalized value, review state, page and box',
    produces: 'text/csv',
    async handler(ctx) {
      const id = ctx.id();
      const csv = await ctx.core.services.exports.projectCsv(ctx.user, id);
      ctx.res
        .status(200)
        .set({ 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': `attachment; filename="project-${id}.csv"` })
        .send(csv);
      return RESPONDED;
    },
  }),
];
