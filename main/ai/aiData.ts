// Reads what the AI engines learn from and work on out of the store: a category's extraction schema,
// a processed document as text + character boxes + page sizes, and its reviewed annotations. The
// engines (main/ai/extraction, categorization, splitting) never see the database; this is the bridge.
import type { Repos } from '../store/repositories/index.ts';
import type { DocumentRow } from '../store/schema.ts';
import type { CharBox } from '../domain/geometry.ts';
import type { ExtractionDocument, ExtractionSchema, TrainingAnnotation, TrainingDocument } from './extraction/types.ts';
import { DocumentStatus } from '../domain/documentStatus.ts';
import { fillsLabel, reviewState } from '../domain/reviewRules.ts';
import { DEFAULT_THRESHOLD } from './extraction/select.ts';

/** The label sets of a category and their labels, with the data types the model is trained with. */
export async function extractionSchema(repos: Repos, categoryId: number): Promise<ExtractionSchema> {
  const sets = await repos.labelSets.forCategory(categoryId);
  const labelIds = [...new Set(sets.flatMap((s) => s.label_ids))];
  const labels = await repos.labels.findByIds(labelIds);
  const setIds = new Set(sets.map((s) => s.id));
  return {
    labelSets: sets.map((s) => ({ id: s.id, name: s.name, hasMultipleSections: s.has_multiple_sections })),
    labels: labels.map((l) => ({
      id: l.id,
      name: l.name,
      dataType: l.data_type,
      threshold: l.threshold > 0 ? l.threshold : DEFAULT_THRESHOLD,
      labelSetIds: l.label_set_ids.filter((id) => setIds.has(id)),
    })),
  };
}

/** A processed document's text, character boxes (text order) and page sizes in points. */
export async function extractionDocument(repos: Repos, doc: Pick<DocumentRow, 'id' | 'text'>): Promise<ExtractionDocument & { pageChars: CharBox[][] }> {
  const pages = await repos.pages.listForDocument(doc.id);
  const { chars } = await repos.pages.charsForDocument(doc.id);
  const pageChars: CharBox[][] = pages.map(() => []);
  for (const c of chars) pageChars[c.page_index]?.push(c);
  return { id: doc.id, text: doc.text ?? '', chars, pageSizes: pages.map((p) => ({ width: p.width_pt, height: p.height_pt })), pageChars };
}

/** The document with its reviewed annotations: accepted and human-made ones teach, declined ones warn. */
export async function trainingDocument(repos: Repos, doc: DocumentRow): Promise<TrainingDocument> {
  const base = await extractionDocument(repos, doc);
  const rows = await repos.annotations.annotationsOfDocument(doc.id);
  const annotations: TrainingAnnotation[] = [];
  for (const a of rows) {
    // The review state from the stored flags (as services/annotationService.ts's stateOf; ai/ imports no service).
    const state = reviewState({ origin: a.origin, revised: a.revised, isCorrect: a.is_correct });
    if (state === 'Feedback required' || a.start_offset === null || a.end_offset === null) continue;
    const spans = a.spans
      .filter((s) => s.start_offset !== null && s.end_offset !== null)
      .map((s) => ({ startOffset: s.start_offset!, endOffset: s.end_offset! }));
    annotations.push({
      labelId: a.label_id,
      labelSetId: a.label_set_id,
      annotationSetKey: String(a.annotation_set_id),
      text: a.offset_string,
      startOffset: a.start_offset,
      endOffset: a.end_offset,
      correct: fillsLabel(state),
      spans,
    });
  }
  const missing = (await repos.annotations.missingOfDocument(doc.id)).map((m) => ({ labelId: m.label_id, labelSetId: m.label_set_id }));
  return { id: base.id, text: base.text, chars: base.chars, pageSizes: base.pageSizes, annotations, missing };
}

/** Processed documents of a project in a dataset status, optionally of one category. */
export async function datasetDocuments(repos: Repos, projectId: number, datasetStatus: number, categoryId?: number): Promise<DocumentRow[]> {
  const docs = await repos.documents.inDataset(projectId, datasetStatus, categoryId);
  return docs.filter((d) => d.status === DocumentStatus.DONE);
}
