// Project folders in the SDK's layout (docs/project-folders.md): import a ZIP of one as a new project,
// export a project as one.
import { route, RESPONDED, type RouteSpec } from '../route.ts';
import { ProjectFolderImport, ProjectFolderReport } from '../../../shared/schemas/projectFolders.ts';

export const projectFolderRoutes: RouteSpec[] = [
  route({
    method: 'post',
    path: '/api/v3/projects/import/',
    tag: 'projects',
    summary: "Import a project folder as the hosted service's SDK writes it, zipped (multipart, part \"file\"): a new project, the caller its owner",
    description:
      'The ZIP holds the folder (documents_meta.json5, categories_and_label_data.json5 or labels.json5 and label_sets.json5, documents/<id>/...) at its top ' +
      'or inside one folder. Everything is imported in one transaction: categories, label sets, labels, documents with their text, character boxes and ' +
      'dataset status, annotation sets, annotations, missing annotations, page images and files; a document without its file gets a PDF drawn from its text ' +
      'and boxes. The answer reports the counts and maps every id of the folder to the new one. A folder that is not one, or whose files contradict each ' +
      'other, is a 400 naming the file and what is wrong, and nothing is stored; the same folder imported again is a 409 naming the project it became.',
    bodyMode: 'multipart',
    fileField: 'file',
    body: ProjectFolderImport,
    response: ProjectFolderReport,
    status: 201,
    handler: async (ctx) => ctx.core.services.projectFolders.importZip(ctx.user, ctx.file, ctx.body.name),
  }),
  route({
    method: 'get',
    path: '/api/v3/projects/:id/export/project-folder.zip',
    tag: 'projects',
    summary: "The project as a project folder in the SDK's layout, zipped (members)",
    description:
      'The folder the SDK reads offline (Project(id_=None, project_folder=...)) and POST projects/import/ imports again: categories_and_label_data.json5, ' +
      'documents_meta.json5, folio_project.json5 and documents/<id>/ with document.txt, pages.json5, bbox.zip, annotations.json5, annotation_sets.json5, ' +
      'missing_annotations.json5, the page images, the file and its searchable PDF (<name>_ocr.pdf). Inside the ZIP the folder is project-<id>/.',
    produces: 'application/zip',
    async handler(ctx) {
      const id = ctx.id();
      const { zip } = await ctx.core.services.projectFolders.exportZip(ctx.user, id);
      ctx.res.status(200).set({ 'Content-Type': 'application/zip', 'Content-Disposition': `attachment; filename="project-${id}.zip"` }).send(zip);
      return RESPONDED;
    },
  }),
];
