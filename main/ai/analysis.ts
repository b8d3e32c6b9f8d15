// What happens to a document after OCR: the `analyze-document` job. In order, each step only when it
// applies: splitting (status 4/40: a multi-page upload of a project with splitting enabled and an active
// splitting AI; a detected split stops here in status 41 with proposed_split), categorization (3/30: no
// category given at upload), extraction (1/20: the category has an active extraction AI). It ends in
// Done (2) and then sends the completion callback. Everything is written in one transaction with the
// job's done mark, so a crash repeats the analysis and never half-writes annotations. Registered with
// its worker in main/jobs/registry.ts.
import type { Repos } from '../store/repositories/index.ts';
import type { DocumentRow } from '../store/schema.ts';
import type { JobContext, JobHandler, JobQueue } from '../jobs/queue.ts';
import { ANALYZE_DOCUMENT, jobs } from '../jobs/kinds.ts';
import type { SpanInput } from '../domain/spans.ts';
import { DocumentStatus } from '../domain/documentStatus.ts';
import { ValidationError } from '../domain/errors.ts';
import { extractionDocument } from './aiData.ts';
import { parseModel, predictDocument, type ExtractionDocument, type ExtractionModel, type PredictedAnnotation } from './extraction/index.ts';
import { fallbackCategory, parseCategorizer, predictCategory, type CategorizationDocument } from './categorization/index.ts';
import { documentPages, parseSplitter, proposeSplit } from './splitting/index.ts';
import type { ModelFiles } from './modelFiles.ts';

/**
 * The annotation rules machine annotations are written under (services/annotationService.ts, handed in:
 * ai/ imports no service). Writes in the caller's transaction; returns the annotation's id.
 */
export interface MachineAnnotations {
  createMachineAnnotation(
    r: Repos,
    input: { documentId: number; labelId: number; annotationSetId?: number; labelSetId?: number; spans: SpanInput[]; confidence: number | null; dataType?: string },
  ): Promise<number | null>;
}

export interface AnalysisDeps {
  repos: Repos;
  annotations: MachineAnnotations;
  models: ModelFiles;
  /** In the transaction that marks the document Done (the completion callback). */
  onProcessed?: (repos: Repos, doc: DocumentRow) => Promise<void>;
}

/** After OCR, in its transaction: sends the analysis job and returns the status the document waits in. */
export async function enqueueAnalysis(queue: JobQueue, r: Repos, doc: DocumentRow, opts: { splitting?: boolean; urgent?: boolean } = {}): Promise<number> {
  // Keyed by the document and its state (kinds.ts): a re-processed document is analysed again, a crashed job not twice.
  // Urgent when someone waits for it: a sync upload's, a reviewer's request to extract again.
  await queue.send(r, jobs.analyzeDocument(doc, { urgent: opts.urgent }));
  return firstStep(r, doc, opts.splitting ?? true);
}

/** Where the analysis of a document starts. Documents made by a split are not split again. */
async function firstStep(r: Repos, doc: DocumentRow, splitting: boolean): Promise<number> {
  const project = await r.projects.findById(doc.project_id);
  if (splitting && project?.splitting_enabled && doc.number_of_pages > 1 && doc.document_set_id === null) return DocumentStatus.QUEUING_FOR_SPLITTING;
  return doc.category_id === null ? DocumentStatus.QUEUING_FOR_CATEGORIZATION : DocumentStatus.QUEUING_FOR_EXTRACTION;
}

/** The document's status_reason when new proposals opened its review again (the review view shows it). */
export const reviewReopened = (proposed: number) =>
  `The review was opened again: the AI proposed ${proposed} new value${proposed === 1 ? '' : 's'} after the document was read again.`;

/** One proposed document of a split (the document's `proposed_split`). */
export interface ProposedDocument {
  category: number | null;
  category_confidence: number | null;
  /** Page ids, in order. */
  pages: number[];
  /** The splitting AI's probability that a document starts at the first page (1 for the first part). */
  confidence: number;
}

const WAITING: number[] = [
  DocumentStatus.QUEUING_FOR_EXTRACTION, DocumentStatus.EXTRACTION_IN_PROGRESS,
  DocumentStatus.QUEUING_FOR_CATEGORIZATION, DocumentStatus.CATEGORIZATION_IN_PROGRESS,
  DocumentStatus.QUEUING_FOR_SPLITTING, DocumentStatus.SPLITTING_IN_PROGRESS,
];

/** The annotations an extraction produced, ready to write. */
interface Extraction {
  aiId: number;
  model: ExtractionModel;
  predictions: PredictedAnnotation[];
  seconds: number;
}

export function analysisHandlers(deps: AnalysisDeps): Record<string, JobHandler> {
  const { repos } = deps;

  /**
   * The category of a document without one: the active categorization AI's answer, else the fallback.
   * `input` gives what the model reads (text and layout); the fallback reads only `text`.
   */
  async function categorize(doc: DocumentRow, text: string, input: () => Promise<CategorizationDocument>): Promise<{ categoryId: number | null; confidence: number | null }> {
    const ai = await repos.aiModels.findActive('categorization', doc.project_id);
    if (ai) {
      const p = predictCategory(await deps.models.load(ai, parseCategorizer), await input());
      return { categoryId: p.categoryId, confidence: p.confidence };
    }
    const categories = (await repos.categories.inProject(doc.project_id)).map((c) => ({ id: c.id, name: c.name }));
    const p = fallbackCategory({ id: doc.id, text }, categories);
    return { categoryId: p.categoryId, confidence: p.confidence };
  }

  /** The documents the active splitting AI sees in a multi-page upload; null when it sees one (or there is no AI). */
  async function split(doc: DocumentRow, read: () => Promise<ExtractionDocument>): Promise<ProposedDocument[] | null> {
    const ai = await repos.aiModels.findActive('splitting', doc.project_id);
    if (!ai) return null;
    const pages = documentPages(await read());
    const proposal = proposeSplit(await deps.models.load(ai, parseSplitter), pages);
    if (proposal.starts.length < 2) return null;
    const pageIds = (await repos.pages.listForDocument(doc.id)).map((p) => p.id);
    const parts: ProposedDocument[] = [];
    for (let k = 0; k < proposal.starts.length; k++) {
      const from = proposal.starts[k];
      const to = proposal.starts[k + 1] ?? pages.length;
      const text = pages.slice(from, to).map((p) => p.text).join('\f');
      const part = { id: `${doc.id}:${from}`, text };
      const category = await categorize(doc, text, async () => part);
      parts.push({ category: category.categoryId, category_confidence: category.confidence, pages: pageIds.slice(from, to), confidence: proposal.confidence[k] });
    }
    return parts;
  }

  async function extract(doc: DocumentRow, read: () => Promise<ExtractionDocument>, categoryId: number | null): Promise<Extraction | null> {
    if (categoryId === null) return null;
    const ai = await repos.aiModels.findActive('extraction', doc.project_id, categoryId);
    if (!ai) return null;
    await repos.documents.update(doc.id, { status: DocumentStatus.EXTRACTION_IN_PROGRESS });
    const started = performance.now();
    const model = await deps.models.load(ai, parseModel);
    const predictions = predictDocument(model, await read());
    return { aiId: ai.id, model, predictions, seconds: (performance.now() - started) / 1000 };
  }

  /**
   * Machine annotations, one annotation set per found set of a repeating label set (line items). Returns
   * how many were proposed (values declined before, or already there, are not).
   */
  async function writeAnnotations(r: Repos, doc: DocumentRow, x: Extraction): Promise<number> {
    const dataTypes = new Map(x.model.schema.labels.map((l) => [l.id, l.dataType]));
    const multiple = new Set(x.model.schema.labelSets.filter((s) => s.hasMultipleSections).map((s) => s.id));
    const sets = new Map<string, number>();
    const opened: number[] = [];
    let written = 0;
    for (const p of x.predictions) {
      let annotationSetId: number | undefined;
      if (multiple.has(p.labelSetId)) {
        const key = `${p.labelSetId}:${p.setIndex}`;
        annotationSetId = sets.get(key);
        if (annotationSetId === undefined) {
          annotationSetId = (await r.annotations.createSet(doc.id, p.labelSetId)).id;
          opened.push(annotationSetId);
        }
        sets.set(key, annotationSetId);
      }
      try {
        const id = await deps.annotations.createMachineAnnotation(r, {
          documentId: doc.id,
          labelId: p.labelId,
          labelSetId: p.labelSetId,
          annotationSetId,
          spans: p.spans,
          confidence: p.confidence,
          dataType: dataTypes.get(p.labelId),
        });
        if (id !== null) written++;
      } catch (err) {
        // The taxonomy changed since training (a label left the category, a set no longer repeats), or
        // the same text twice: that one annotation is skipped, the rest of the document is extracted.
        if (!(err instanceof ValidationError)) throw err;
      }
    }
    // A line item whose every value was skipped leaves no empty set behind.
    await r.annotations.removeEmptySets(doc.id, opened);
    return written;
  }

  return {
    async [ANALYZE_DOCUMENT](ctx: JobContext<{ documentId: number }>) {
      const doc = await repos.documents.findById(ctx.payload.documentId);
      if (!doc || !WAITING.includes(doc.status)) return;
      const started = performance.now();
      const elapsed = () => (doc.processing_time ?? 0) + (performance.now() - started) / 1000;
      // The pages' characters are read once, and only when a step has an AI to show them to.
      let loaded: Promise<ExtractionDocument> | undefined;
      const read = () => (loaded ??= extractionDocument(repos, doc));

      if (doc.status === DocumentStatus.QUEUING_FOR_SPLITTING || doc.status === DocumentStatus.SPLITTING_IN_PROGRESS) {
        await repos.documents.update(doc.id, { status: DocumentStatus.SPLITTING_IN_PROGRESS });
        const parts = await split(doc, read);
        if (parts) {
          // Waits for the reviewer: the post-process request accepts, edits or rejects the proposal.
          await ctx.completeWith((r) =>
            r.documents.update(doc.id, { status: DocumentStatus.WAITING_FOR_SPLITTING_CONFIRMATION, proposed_split: parts, processing_time: elapsed() }),
          );
          return;
        }
      }

      let categoryId = doc.category_id;
      let categorized: { categoryId: number | null; confidence: number | null } | null = null;
      if (categoryId === null) {
        await repos.documents.update(doc.id, { status: DocumentStatus.CATEGORIZATION_IN_PROGRESS });
        categorized = await categorize(doc, doc.text ?? '', read);
        categoryId = categorized.categoryId;
      }
      const extraction = await extract(doc, read, categoryId);
      await ctx.completeWith(async (r) => {
        // The category first: the annotation-set rules check label sets against the document's category.
        if (categorized) await r.documents.update(doc.id, { category_id: categorized.categoryId, category_confidence: categorized.confidence });
        const writing = performance.now();
        const proposed = extraction ? await writeAnnotations(r, doc, extraction) : 0;
        // New proposals on a reviewed document (read again after an edit of its pages) open its review again.
        const reopened = proposed > 0 && (await r.documents.findById(doc.id))!.is_reviewed;
        await r.documents.update(doc.id, {
          status: DocumentStatus.DONE,
          status_reason: reopened ? reviewReopened(proposed) : null,
          ...(reopened ? { is_reviewed: false } : {}),
          extraction_ai_id: extraction?.aiId ?? null,
          // Reading the model's answer and writing the annotations: what an upload waits for extraction.
          extraction_time: extraction ? extraction.seconds + (performance.now() - writing) / 1000 : null,
          processing_time: elapsed(),
        });
        const stored = (await r.documents.findById(doc.id))!;
        if (deps.onProcessed) await deps.onProcessed(r, stored);
      });
    },
  };
}
