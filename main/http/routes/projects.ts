// Projects (spec 2.1) and their members.
import { pageOfList } from '../../../shared/listParams.ts';
import { route, type RouteSpec } from '../route.ts';
import { OcrEngineInfo } from '../../../shared/schemas/ocrEngine.ts';
import { OcrLanguage, OcrModelInstalled, OcrModelUpload, Project, ProjectCreate, ProjectPatch } from '../../../shared/schemas/projects.ts';
import { Member, MemberAdd, MemberCandidate, MemberPatch } from '../../../shared/schemas/accounts.ts';
import { envelope } from '../../../shared/schemas/common.ts';
import { memberOut, projectOut } from '../../mappers/projects.ts';
import { DEFAULT_OCR_LANGUAGES } from '../../pipeline/languages.ts';

const base = '/api/v3/projects/';

// Roles (README "Projects and roles"): the taxonomy stays open to members, who review and train with it.
const SETTINGS = "The name, OCR languages and splitting are the project's settings.";
const OWNERS_ONLY = 'Owners and administrators only: a member gets 403 saying who may, anyone else 404.';

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
    method: 'post',
    path: '/api/v3/ocr-languages/',
    tag: 'projects',
    summary: 'Add an OCR language: a tesseract model file (multipart, part "file", <code>.traineddata); administrators only',
    description:
      'A Folio addition. The file is checked (a tesseract 4+ model with its LSTM network, 64 KB to FOLIO_MAX_MODEL_MB, default 100 MB, named after its language code) and stored in <data>/tessdata; the language is listed and usable by every project at once. A model of the same code in the data folder is replaced.',
    bodyMode: 'multipart',
    fileField: 'file',
    body: OcrModelUpload,
    response: OcrModelInstalled,
    handler: (ctx) => ctx.core.services.projects.addOcrModel(ctx.user, ctx.file, ctx.body.code),
  }),
  route({
    method: 'get',
    path: '/api/v3/ocr-engine/',
    tag: 'projects',
    summary: 'The OCR engine that reads scanned pages (FOLIO_OCR_ENGINE) and its version, and every engine with whether this machine has it',
    response: OcrEngineInfo,
    handler: (ctx) => ctx.core.processor.ocrEngineInfo(),
  }),
  route({
    method: 'get',
    path: base,
    tag: 'projects',
    summary: 'List the projects the caller is a member of (every project for an administrator)',
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
    summary: 'Create a project (the caller becomes its owner)',
    body: ProjectCreate,
    response: Project,
    handler: async ({ core, user, body }) => projectOut(await core.services.projects.create(user, body)),
  }),
  route({
    method: 'get',
    path: `${base}:id/`,
    tag: 'projects',
    summary: 'Project detail',
    description: 'Members and administrators see a project; anyone else gets 404.',
    response: Project,
    handler: async (ctx) => projectOut((await ctx.core.services.projects.access(ctx.user, ctx.id())).project),
  }),
  route({
    method: 'put',
    path: `${base}:id/`,
    tag: 'projects',
    summary: 'Replace a project (owners and administrators)',
    description: `${SETTINGS} ${OWNERS_ONLY}`,
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
    summary: 'Change a project (owners and administrators)',
    description: `${SETTINGS} ${OWNERS_ONLY}`,
    body: ProjectPatch,
    response: Project,
    handler: async (ctx) => projectOut(await ctx.core.services.projects.update(ctx.user, ctx.id(), ctx.body)),
  }),
  route({
    method: 'delete',
    path: `${base}:id/`,
    tag: 'projects',
    summary: 'Delete a project with everything in it (owners and administrators)',
    description: OWNERS_ONLY,
    handler: async (ctx) => ctx.core.services.projects.remove(ctx.user, ctx.id()),
  }),
  route({
    method: 'get',
    path: `${base}:id/members/`,
    tag: 'projects',
    summary: 'Members of a project, with their roles',
    description: 'owner: changes the settings and members and deletes the project; member: uploads, reviews, trains and sets up the taxonomy.',
    response: envelope(Member),
    async handler(ctx) {
      const params = ctx.list();
      const all = await ctx.core.services.projects.members(ctx.user, ctx.id());
      return ctx.page(pageOfList(all, params), params, memberOut);
    },
  }),
  route({
    method: 'get',
    path: `${base}:id/member-candidates/`,
    tag: 'projects',
    summary: 'The accounts that may be added to the project: every user who is not a member yet (owners and administrators)',
    description: `What the members tab picks new members from (by email, POST members/). ${OWNERS_ONLY}`,
    response: envelope(MemberCandidate),
    async handler(ctx) {
      const params = ctx.list();
      const all = await ctx.core.services.projects.memberCandidates(ctx.user, ctx.id());
      return ctx.page(pageOfList(all, params), params, (u) => ({ id: u.id, email: u.email, name: u.name }));
    },
  }),
  route({
    method: 'post',
    path: `${base}:id/members/`,
    tag: 'projects',
    summary: 'Add an existing user (by email) to a project, as a member or an owner (owners and administrators)',
    description: `role defaults to member. Adding a member again changes nothing; naming another role is a 400 (PATCH changes roles). ${OWNERS_ONLY}`,
    body: MemberAdd,
    response: Member,
    handler: async (ctx) => memberOut(await ctx.core.services.projects.addMember(ctx.user, ctx.id(), ctx.body.email, ctx.body.role)),
  }),
  route({
    method: 'patch',
    path: `${base}:id/members/:userId/`,
    tag: 'projects',
    summary: "Change a member's role (owners and administrators)",
    description: `Making the last owner a member is a 400: a project keeps at least one owner. ${OWNERS_ONLY}`,
    body: MemberPatch,
    response: Member,
    handler: async (ctx) => memberOut(await ctx.core.services.projects.setRole(ctx.user, ctx.id(), ctx.id('userId'), ctx.body.role)),
  }),
  route({
    method: 'delete',
    path: `${base}:id/members/:userId/`,
    tag: 'projects',
    summary: 'Remove a member from a project (owners and administrators; a member may remove themselves)',
    description: `Removing the last owner is a 400: a project keeps at least one owner. ${OWNERS_ONLY}`,
    handler: async (ctx) => ctx.core.services.projects.removeMember(ctx.user, ctx.id(), ctx.id('userId')),
  }),
];
