// Import folders (README "Import folders") as the API shows them. Why mappers live in main/mappers: dto.ts.
import type { ImportFolder } from '../../shared/schemas/importFolders.ts';
import type { ImportFolderRow } from '../store/schema.ts';
import { isoOut } from './dto.ts';

export const importFolderOut = (f: ImportFolderRow): ImportFolder => ({
  id: f.id,
  project: f.project_id,
  category: f.category_id,
  path: f.path,
  enabled: f.enabled,
  created_by: f.created_by,
  last_scan_at: isoOut(f.last_scan_at),
  last_error: f.last_error,
  last_error_at: isoOut(f.last_error_at),
  last_import_at: isoOut(f.last_import_at),
  last_import_file: f.last_import_file,
  last_import_document: f.last_import_document_id,
  created_at: isoOut(f.created_at),
  updated_at: isoOut(f.updated_at),
});
