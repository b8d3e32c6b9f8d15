// Import folders of a project (a Folio addition, not in the hosted spec; README "Import folders"): the
// folders on this machine whose new files the import watcher uploads into the project.
import { pageOfList } from '../../../shared/listParams.ts';
import { route, type RouteSpec } from '../route.ts';
import { envelope } from '../../../shared/schemas/common.ts';
import { ImportFolder, ImportFolderCreate, ImportFolderPatch } from '../../../shared/schemas/importFolders.ts';
import { importFolderOut } from '../../mappers/importFolders.ts';

const base = '/api/v3/projects/:id/import-folders/';
const ABOUT =
  'A Folio addition (not in the hosted spec). Every complete new file in the folder is uploaded as the user who added it, ' +
  'with its category, then moved to done/ (or to failed/ beside a <name>.error.txt saying why). ' +
  'Symbolic links and special files in it are left where they are and reported. Owners and administrators see the folders; ' +
  'only administrators who are members add, change or remove one (anyone else in the project gets 403 saying who may, a stranger 404).';

export const importFolderRoutes: RouteSpec[] = [
  route({
    method: 'get',
    path: base,
    tag: 'import-folders',
    summary: "A project's import folders, with when each was last read and its last import and error",
    description: ABOUT,
    response: envelope(ImportFolder),
    async handler(ctx) {
      const params = ctx.list();
      const all = await ctx.core.services.importFolders.list(ctx.user, ctx.id());
      return ctx.page(pageOfList(all, params), params, importFolderOut);
    },
  }),
  route({
    method: 'post',
    path: base,
    tag: 'import-folders',
    summary: 'Watch a folder: its new files are uploaded into the project',
    description: `${ABOUT} The path must be absolute, an existing folder Folio can read and write in, under the operator's FOLIO_IMPORT_ROOTS and not in a hidden folder there, outside its data folder, and no other import folder (400 saying which).`,
    body: ImportFolderCreate,
    response: ImportFolder,
    handler: async (ctx) => importFolderOut(await ctx.core.services.importFolders.create(ctx.user, ctx.id(), ctx.body)),
  }),
  route({
    method: 'get',
    path: `${base}:folderId/`,
    tag: 'import-folders',
    summary: 'One import folder',
    description: ABOUT,
    response: ImportFolder,
    handler: async (ctx) => importFolderOut(await ctx.core.services.importFolders.get(ctx.user, ctx.id(), ctx.id('folderId'))),
  }),
  route({
    method: 'patch',
    path: `${base}:folderId/`,
    tag: 'import-folders',
    summary: 'Change an import folder: its path, category, or whether it is watched',
    description: ABOUT,
    body: ImportFolderPatch,
    response: ImportFolder,
    handler: async (ctx) => importFolderOut(await ctx.core.services.importFolders.update(ctx.user, ctx.id(), ctx.id('folderId'), ctx.body)),
  }),
  route({
    method: 'delete',
    path: `${base}:folderId/`,
    tag: 'import-folders',
    summary: 'Stop watching a folder (its files and its done/ and failed/ subfolders stay as they are)',
    description: ABOUT,
    handler: async (ctx) => ctx.core.services.importFolders.remove(ctx.user, ctx.id(), ctx.id('folderId')),
  }),
];
