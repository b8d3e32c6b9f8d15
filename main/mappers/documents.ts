// Documents (spec 2.5, compat.md) as the API shows them: the list item, and the detail with its pages and
// annotation tree, and the public shape of the detail that a reader of a public document who is not a
// member of its project gets (publicDocumentOut). List items carry `status_data` only and the assignee as a
// user id: the SDK passes them as keywords beside its own `status` (compat.md); the detail adds `status` as
// `[code, "Name"]`. The detail is also the body of the completion callback (events/eventJobs.ts), which is
// why these mappers live outside main/http (dto.ts says more).
import type { z } from 'zod';
import type { DocumentDetail, DocumentListItem, PublicDocumentDetail } from '../../shared/schemas/documents.ts';
import type { DocumentListRow } from '../store/repositories/documentRepository.ts';
import type { DocumentDetailView } from '../services/documentService.ts';
import { labelingAvailable, statusPair } from '../domain/documentStatus.ts';
import { isoOut } from './dto.ts';
import { annotationSetsOut, publicAnnotationSetsOut } from './annotations.ts';
import { documentOcrEngine, pageOut } from './geometry.ts';

export function documentListOut(d: DocumentListRow): z.infer<typeof DocumentListItem> {
  return {
    id: d.id,
    project: d.project_id,
    number_of_pages: d.number_of_pages,
    data_file_name: d.data_file_name,
    content_hash: d.blob_key,
    file_url: `/doc/show/${d.id}/`,
    original_file_url: `/doc/show-original/${d.id}/`,
    thumbnail_url: d.thumbnail_page_id === null ? null : `/page/show-thumbnail/${d.thumbnail_page_id}/`,
    callback_url: d.callback_url,
    category: d.category_id,
    category_confidence: d.category_confidence,
    category_is_revised: d.category_is_revised,
    dataset_status: d.dataset_status,
    status_data: d.status,
    status_reason: d.status_reason,
    labeling_available: labelingAvailable(d.status),
    is_reviewed: d.is_reviewed,
    is_public: d.is_public,
    proposed_split: d.proposed_split,
    extraction_ai: d.extraction_ai_id,
    document_set: d.document_set_id,
    assignee: d.assignee_id,
    assignee_email: d.assignee_email,
    created_by: d.created_by,
    created_at: isoOut(d.created_at),
    updated_at: isoOut(d.updated_at),
    ocr_time: d.ocr_time,
    extraction_time: d.extraction_time,
    processing_time: d.processing_time,
  };
}

export const documentOut = (v: DocumentDetailView): z.infer<typeof DocumentDetail> => ({
  ...documentListOut(v.doc),
  status: statusPair(v.doc.status),
  text: v.doc.text,
  pages: v.pages.map(pageOut),
  ocr_engine: documentOcrEngine(v.pages),
  duplicate_of: v.duplicates,
  annotation_sets: annotationSetsOut(v.tree),
});

/** A public document for a reader outside its project: PublicDocumentDetail's fields only (an allow-list). */
export const publicDocumentOut = (v: DocumentDetailView): PublicDocumentDetail => {
  const d = v.doc;
  return {
    id: d.id,
    number_of_pages: d.number_of_pages,
    data_file_name: d.data_file_name,
    thumbnail_url: d.thumbnail_page_id === null ? null : `/page/show-thumbnail/${d.thumbnail_page_id}/`,
    status: statusPair(d.status),
    status_data: d.status,
    labeling_available: labelingAvailable(d.status),
    is_public: d.is_public,
    text: d.text,
    pages: v.pages.map(pageOut),
    ocr_engine: documentOcrEngine(v.pages),
    annotation_sets: publicAnnotationSetsOut(v.tree),
  };
};

/** The detail as `v` may be shown: in full to a member of its project, else (a public document) its public shape. */
export const documentDetailFor = (v: DocumentDetailView & { member: boolean }) => (v.member ? documentOut(v) : publicDocumentOut(v));

/** Version 2 names the category `category_template` as well. */
export const documentV2Out = <T extends { category: number | null }>(d: T) => ({ ...d, category_template: d.category });
