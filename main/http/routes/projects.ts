// Projects (spec 2.1) and their members.
import { pageOfList } from '../../../shared/listParams.ts';
import { route, type RouteSpec } from '../route.ts';
import { OcrLanguage, Project, ProjectCreate, ProjectPatch } from '../../../shared/schemas/projects.ts';
import { Member, MemberAdd } from '../../../shared/schemas/accounts.ts';
import { envelope } from '../../../shared/schemas/common.ts';
import type { ProjectRow } from '../../store/schema.ts';
import type { MemberRow } from '../../store/repositories/projectRepository.ts';
import { isoOut } from '../dto.ts';
import { DEFAULT_OCR_LANGUAGES } from '../../pipeline/languages.ts';

export const projectOut = (p: ProjectRow) => ({
  id: p.id,
  name: p.name,
  created_by: p.created_by,
  ocr_languages: JSON.parse(p.ocr_languages) as string[],
  splitting_enabled: p.splitting_enabled === 1,
  created_at: isoOut(p.created_at),
  updated_at: isoOut(p.updated_at),
});

const memberOut = (m: MemberRow) => ({ id: m.user_id, email: m.email, name: m.name, role: m.role, created_at: isoOut(m.created_at) });

const base = '/api/v3/projects/';

export const projectRoutes: RouteSpec[] = [
  route({
    method: 'get',
    path: '/api/v3/ocr-languages/',
    tag: 'projects',
    summary: 'The OCR languages of spec 2.16 and which are installed (a project names them in ocr_languages)',
    response: envelope(OcrLanguage),
    async handler(ctx) {
      const params = ctx.list();
      const all = ctx.core.services.projects.ocrLanguages();
      return ctx.page(pageOfList(all, params), params, (l) => l);
    },
  }),
  route({
    method: 'get',
    path: base,
    tag: 'projects',
    summary: 'List the projects the caller is a member of',
    list: { filters: { id: 'project id', name: 'name contains (case-insensitive)' }, ordering: ['id', 'name', 'created_at', 'updated_at'] },
    response: envelope(Project),
    async handler(ctx) {
      const params = ctx.list();
      return ctx.page(await ctx.core.services.projects.list(ctx.user, params), params, projectOut);
    },
  }),
  route({
    method: 'post',
    path: base,
    tag: 'projects',
    summary: 'Create a project (the caller becomes its first member)',
    body: ProjectCreate,
    response: Project,
    handler: async ({ core, user, body }) => projectOut(await core.services.projects.create(user, body)),
  }),
  route({
    method: 'get',
    path: `${base}:id/`,
    tag: 'projects',
    summary: 'Project detail',
    response: Project,
    handler: async (ctx) => projectOut(await ctx.core.services.projects.get(ctx.user, ctx.id())),
  }),
  route({
    method: 'put',
    path: `${base}:id/`,
    tag: 'projects',
    summary: 'Replace a project',
    body: ProjectCreate,
    response: Project,
    // PUT: an omitted ocr_languages goes back to the default.
    handler: async (ctx) =>
      projectOut(await ctx.core.services.projects.update(ctx.user, ctx.id(), { ...ctx.body, ocr_languages: ctx.body.ocr_languages ?? [...DEFAULT_OCR_LANGUAGES], splitting_enabled: ctx.body.splitting_enabled ?? false })),
  }),
  route({
    method: 'patch',
    path: `${base}:id/`,
    tag: 'projects',
    summary: 'Change a project',
    body: ProjectPatch,
    response: Project,
    handler: async (ctx) => projectOut(await ctx.core.services.projects.update(ctx.user, ctx.id(), ctx.body)),
  }),
  route({
    method: 'delete',
    path: `${base}:id/`,
    tag: 'projects',
    summary: 'Delete a project with everything in it',
    handler: async (ctx) => ctx.core.services.projects.remove(ctx.user, ctx.id()),
  }),
  route({
    method: 'get',
    path: `${base}:id/members/`,
    tag: 'projects',
    summary: 'Members of a project',
    response: envelope(Member),
    async handler(ctx) {
      const params = ctx.list();
      const all = await ctx.core.services.projects.members(ctx.user, ctx.id());
      return ctx.page(pageOfList(all, params), params, memberOut);
    },
  }),
  route({
    method: 'post',
    path: `${base}:id/members/`,
    tag: 'projects',
    summary: 'Add an existing user (by email) to a project',
    body: MemberAdd,
    response: Member,
    async handler(ctx) {
      const members = await ctx.core.services.projects.addMember(ctx.user, ctx.id(), ctx.body.email);
      return memberOut(members.find((m) => m.email.toLowerCase() === ctx.body.email.toLowerCase())!);
    },
  }),
  route({
    method: 'delete',
    path: `${base}:id/members/:userId/`,
    tag: 'projects',
    summary: 'Remove a member from a project',
    handler: async (ctx) => ctx.core.services.projects.removeMember(ctx.user, ctx.id(), ctx.id('userId')),
  }),
];
