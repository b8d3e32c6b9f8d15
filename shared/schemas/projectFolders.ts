// Project folders in the SDK's layout (docs/project-folders.md): the import's request and its report.
import { z } from 'zod';
import { Id } from './common.ts';

export const ProjectFolderImport = z.object({
  name: z.string().trim().min(1).max(255).optional().describe("the new project's name (default: folio_project.json5's, else the folder's name)"),
});
export type ProjectFolderImport = z.infer<typeof ProjectFolderImport>;

const IdMap = z.record(z.string(), Id).describe("the folder's id -> the new id");

export const ProjectFolderReport = z.object({
  project: z.object({ id: Id, name: z.string() }),
  fingerprint: z.string().describe("SHA-256 of the folder's project files (documents_meta.json5 and its taxonomy files)"),
  counts: z.object({
    categories: z.number().int(),
    label_sets: z.number().int(),
    labels: z.number().int(),
    documents: z.number().int(),
    pages: z.number().int(),
    characters: z.number().int(),
    annotation_sets: z.number().int(),
    annotations: z.number().int(),
    missing_annotations: z.number().int(),
    original_files: z.number().int().describe('documents whose own file the folder held; the others got a PDF drawn from their text and character boxes'),
    page_images: z.number().int(),
    without_folder: z.number().int().describe('documents documents_meta.json5 lists without their folder (the SDK downloads training and test documents only): imported with blank pages'),
  }),
  ids: z.object({ categories: IdMap, label_sets: IdMap, labels: IdMap, documents: IdMap, annotation_sets: IdMap, annotations: IdMap }),
});
