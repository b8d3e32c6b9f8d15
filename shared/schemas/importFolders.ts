// Import folders of a project (a Folio addition, not in the hosted spec): folders on the Folio machine
// whose new files are uploaded into the project, then moved to their done/ or failed/ subfolder.
import { z } from 'zod';
import { Id, Timestamp } from './common.ts';
import { FormBool } from './annotations.ts';

const FolderPath = z
  .string()
  .trim()
  .min(1, 'This field may not be blank.')
  .max(4096, 'Ensure this field has no more than 4096 characters.')
  .describe('absolute path of an existing folder on the machine Folio runs on, outside its data folder, that Folio may read and write');

export const ImportFolderCreate = z.object({
  path: FolderPath,
  category: Id.nullable().optional().describe("category given to every document imported from the folder; default none (the categorization AI's choice)"),
  enabled: FormBool.optional().describe('whether the folder is watched; default true'),
});
export const ImportFolderPatch = ImportFolderCreate.partial();

export const ImportFolder = z.object({
  id: Id,
  project: Id,
  category: Id.nullable(),
  path: z.string(),
  enabled: z.boolean(),
  created_by: Id.nullable().describe('the user whose uploads the imports are; they must stay a member of the project'),
  last_scan_at: Timestamp.nullable().describe('the last time the folder was read (kept to the minute)'),
  last_error: z.string().nullable().describe('the latest problem: the folder could not be read, or a file was refused (and moved to failed/)'),
  last_error_at: Timestamp.nullable(),
  last_import_at: Timestamp.nullable(),
  last_import_file: z.string().nullable(),
  last_import_document: Id.nullable(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type ImportFolder = z.infer<typeof ImportFolder>;
