// Document sets (compat.md "post-process") as the API shows them. Why mappers live in main/mappers: dto.ts.
import type { z } from 'zod';
import type { DocumentListItem } from '../../shared/schemas/documents.ts';
import type { DocumentSetRow } from '../store/schema.ts';
import { isoOut } from './dto.ts';

/** `documents`: their ids, or (with ?expand=documents) the documents as in the document list. */
export const documentSetOut = (set: DocumentSetRow, documents: number[] | z.infer<typeof DocumentListItem>[]) => ({
  id: set.id,
  project: set.project_id,
  original_file_name: set.original_file_name,
  original_file_url: `/api/v3/document-sets/${set.id}/original/`,
  original_number_of_pages: set.original_number_of_pages,
  created_at: isoOut(set.created_at),
  documents,
});
