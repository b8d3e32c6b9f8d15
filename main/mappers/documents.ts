// Documents (spec 2.5, compat.md) as the API shows them: the list item, and the detail with its pages and
// annotation tree, and the public shape of the detail that a reader of a public document who is not a
// member of its project gets (publicDocumentOut). List items carry `status_data` only and the assignee as a
// user id: the SDK passes them as keywords beside its own `status` (compat.md); the detail adds `status` as
// `[code, "Name"]`. The detail is also the body of the completion callback (events/eventJobs.ts), which is
// why these mappers live outside main/http (dto.ts says more).
import type { z } from 'zod';
import type { DocumentDetail, DocumentListItem, PublicDocumentDetail, PublicLink } from '../../shared/schemas/documents.ts';
import type { DocumentListRow } from '../store/repositories/documentRepository.ts';
import type { DocumentDetailView } from '../services/documentService.ts';
import { labelingAvailable, statusPair } from '../domain/documentStatus.ts';
import { isoOut } from './dto.ts';
import { annotationSetsOut, publicAnnotationSetsOut } from './annotations.ts';
import { documentOcrEngine, pageOut, publicPageOut, publicPagePath } from './geometry.ts';
import type { DocumentView } from '../store/repositories/documentRepository.ts';

/** A public document's link (migration 0015), for the members of its project; null while it is private. */
export function publicLinkOut(d: DocumentView, now = Date.now()): z.infer<typeof PublicLink> | null {
  if (!d.is_public || d.public_token === null) return null;
  return {
    token: d.public_token,
    url: `/api/v3/public/${d.public_token}/`,
    expires_at: d.public_expires_at === null ? null : isoOut(d.public_expires_at),
    expired: d.public_expires_at !== null && Date.parse(d.public_expires_at) <= now,
  };
}

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
  public_link: publicLinkOut(v.doc),
});

/**
 * A public document as anyone with its link reads it (GET /api/v3/public/<token>/): PublicDocumentDetail's
 * fields only (an allow-list), its page images by the link's token, never by id.
 */
export const publicDocumentOut = (v: DocumentDetailView, token: string): PublicDocumentDetail => {
  const d = v.doc;
  const first = v.pages.find((p) => p.id === d.thumbnail_page_id);
  return {
    id: d.id,
    number_of_pages: d.number_of_pages,
    data_file_name: d.data_file_name,
    thumbnail_url: first ? publicPagePath(token, first.number, 'thumbnail') : null,
    status: statusPair(d.status),
    status_data: d.status,
    labeling_available: labelingAvailable(d.status),
    is_public: d.is_public,
    text: d.text,
    pages: v.pages.map((p) => publicPageOut(p, token)),
    ocr_engine: documentOcrEngine(v.pages),
    annotation_sets: publicAnnotationSetsOut(v.tree),
  };
};

/** Version 2 names the category `category_template` as well. */
export const documentV2Out = <T extends { category: number | null }>(d: T) => ({ ...d, category_template: d.category });
