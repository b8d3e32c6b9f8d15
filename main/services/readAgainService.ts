// Reading again (issue 10): a whole document on request (a durable job like processing, with other
// OCR languages if asked), and one region a reviewer drew where OCR found nothing (read at once, at a
// higher resolution, and merged into the document's text). Either way the annotations keep pointing
// at their characters: offsets move with the text (pipeline/textMerge.ts).
import type { Repos, UnitOfWork } from '../store/repositories/index.ts';
import type { DocumentRow, UserRow } from '../store/schema.ts';
import type { BlobStore } from '../blobs/blobStore.ts';
import type { OcrPool } from '../pipeline/ocr/ocrPool.ts';
import type { ReadAgainRequest, ReadRegionRequest } from '../../shared/schemas/readAgain.ts';
import { documentForMember } from './access.ts';
import type { AnnotationService, AnnotationView, MovedSpan } from './annotationService.ts';
import type { StoredSpan } from '../domain/spans.ts';
import { ocrTurns } from '../domain/pageTurn.ts';
import { NotFoundError, ValidationError } from '../domain/errors.ts';
import { DocumentStatus, statusName } from '../domain/documentStatus.ts';
import { resolveLanguages } from '../pipeline/languages.ts';
import { readRegion } from '../pipeline/regionOcr.ts';
import { mergeRegionText, spansInBox } from '../pipeline/textMerge.ts';
import { spansFromChars, type Span } from '../domain/geometry.ts';
import { enqueueAnalysis } from '../ai/analysis.ts';
import type { CharBox } from '../domain/geometry.ts';
import type { JobQueue } from '../jobs/queue.ts';
import { jobs } from '../jobs/kinds.ts';

/** What the processor lends: its OCR pool. */
export interface ReadAgainHook {
  ocr(): OcrPool;
}

export interface RegionResult {
  /** Whether any text was read in the region. */
  found: boolean;
  /** The text read, lines joined by spaces ('' when none). */
  text: string;
  /** Where that text now is in the document (one span per line), with offsets. */
  spans: Span[];
  /** The annotation made of it, when a label was given and text was found. */
  annotation: AnnotationView | null;
  /** The resolution the region was read at. */
  dpi: number;
}

const MIN_REGION_PT = 2;

export class ReadAgainService {
  private hook: ReadAgainHook | undefined;

  constructor(
    private readonly repos: Repos,
    private readonly uow: UnitOfWork,
    private readonly blobs: BlobStore,
    private readonly annotations: AnnotationService,
    private readonly dataDir: string,
    /** The read-again job is sent in the transaction of the status change: both commit, or neither. */
    private readonly queue: JobQueue,
  ) {}

  attach(hook: ReadAgainHook): void {
    this.hook = hook;
  }

  private attached(): ReadAgainHook {
    if (!this.hook) throw new Error('reading again needs the document processor (openCore attaches it)');
    return this.hook;
  }

  /** The languages of this reading: the ones asked for (400 naming any that cannot be read), else the project's. */
  private async languages(doc: DocumentRow, asked: string[] | undefined): Promise<string[]> {
    if (asked !== undefined) return resolveLanguages(asked, this.dataDir, 'ocr_languages');
    const project = await this.repos.projects.findById(doc.project_id);
    return project?.ocr_languages ?? ['deu', 'eng'];
  }

  private assertDone(doc: DocumentRow): void {
    if (doc.status !== DocumentStatus.DONE) {
      throw ValidationError.of('non_field_errors', `The document cannot be read again while it is "${statusName(doc.status)}": wait until it is done.`);
    }
  }

  /** POST documents/<id>/read-again/: queues the job; the document goes back through processing. */
  async readDocument(user: UserRow, id: number, body: ReadAgainRequest): Promise<DocumentRow> {
    const doc = await documentForMember(this.repos, user, id);
    this.assertDone(doc);
    const langs = await this.languages(doc, body.ocr_languages);
    await this.uow(async (r) => {
      // Checked again where it counts: two requests at once queue one reading.
      const current = await r.documents.findById(doc.id);
      if (!current) throw new NotFoundError('Document not found.');
      this.assertDone(current);
      await r.documents.update(doc.id, { status: DocumentStatus.QUEUING_FOR_OCR, status_reason: null });
      await this.queue.send(r, jobs.readAgain(current, langs));
    });
    return (await this.repos.documents.findById(doc.id))!;
  }

  /**
   * In the caller's transaction: the document's pages are read again by the durable read-again job with
   * the project's languages (post-process turned or re-ordered its pages in place). The caller sets the
   * status the job starts from.
   */
  async enqueueReading(r: Repos, doc: DocumentRow): Promise<void> {
    // Read through the transaction's own repositories: the store's other connection waits for this one.
    const project = await r.projects.findById(doc.project_id);
    await this.queue.send(r, jobs.readAgain(doc, project?.ocr_languages ?? ['deu', 'eng']));
  }

  /**
   * After processing, in its transaction: annotations that came along with the pages (a split part's
   * copies, boxes already on the part's pages) take the characters now inside their boxes. A fresh
   * upload has none, and costs one query.
   */
  async followNewText(r: Repos, doc: DocumentRow): Promise<void> {
    if (!(await r.annotations.annotationsOfDocument(doc.id)).length) return;
    await this.annotations.rewriteSpans(r, doc.id, await this.boxReader(r, doc));
  }

  /**
   * Once a document's pages were read (anew), in that transaction: the boxes turn by the turn OCR's
   * orientation detection gave each page (a page turned in edit mode that OCR turns back upright takes
   * its annotations back with it, so they stay on their words), then the reader of each span's box.
   */
  private async boxReader(r: Repos, doc: DocumentRow): Promise<(span: StoredSpan) => MovedSpan[]> {
    await this.annotations.turnBoxes(r, doc.id, ocrTurns(await r.pages.listForDocument(doc.id)));
    const { chars, heights } = await r.pages.charsForDocument(doc.id);
    const byPage = new Map<number, CharBox[]>();
    for (const c of chars) {
      const list = byPage.get(c.page_index);
      if (list) list.push(c);
      else byPage.set(c.page_index, [c]);
    }
    const text = doc.text ?? '';
    return (span) => spansInBox(text, byPage.get(span.page_index) ?? [], heights[span.page_index] ?? 0, span);
  }

  /**
   * In the read-again job's transaction, once the new pages and text are stored: every annotation is
   * read again from its box (human ones, and reviewed machine ones, keep their place and take the new
   * text there). Machine proposals still awaiting review are extracted anew when the category has an
   * active extraction AI. Returns the status the document goes on in.
   */
  async afterDocumentRead(r: Repos, doc: DocumentRow): Promise<number> {
    const extractor = doc.category_id === null ? undefined : await r.aiModels.findActive('extraction', doc.project_id, doc.category_id);
    await this.annotations.rewriteSpans(r, doc.id, await this.boxReader(r, doc), (a) => extractor !== undefined && a.origin === 'machine' && !a.revised);
    return extractor ? enqueueAnalysis(this.queue, r, doc, { splitting: false, urgent: true }) : DocumentStatus.DONE;
  }

  /** POST documents/<id>/read-region/: reads the region now; merges what it finds into the document. */
  async readRegion(user: UserRow, id: number, body: ReadRegionRequest): Promise<RegionResult> {
    const doc = await documentForMember(this.repos, user, id);
    this.assertDone(doc);
    if (body.page_index >= doc.number_of_pages) {
      throw ValidationError.of('page_index', `Document ${doc.id} has ${doc.number_of_pages} page${doc.number_of_pages === 1 ? '' : 's'} (page_index 0 to ${doc.number_of_pages - 1}).`);
    }
    const page = await this.repos.pages.findByNumber(doc.id, body.page_index + 1);
    if (!page) throw new NotFoundError('The page is missing: read the document again.');
    const region = {
      x0: Math.max(0, body.x0), x1: Math.min(page.width_pt, body.x1),
      y0: Math.max(0, body.y0), y1: Math.min(page.height_pt, body.y1),
    };
    if (region.x1 - region.x0 < MIN_REGION_PT || region.y1 - region.y0 < MIN_REGION_PT) {
      throw ValidationError.of('non_field_errors', `The region must lie on page ${body.page_index + 1} (${page.width_pt.toFixed(0)} x ${page.height_pt.toFixed(0)} points) and be at least ${MIN_REGION_PT} points wide and high.`);
    }
    const langs = await this.languages(doc, body.ocr_languages);
    const key = doc.searchable_blob_key ?? doc.blob_key;
    const pdf = await this.blobs.read(key);
    const reading = await readRegion({ pdf: new Uint8Array(pdf.buffer, pdf.byteOffset, pdf.byteLength), pageNumber: body.page_index + 1, region, langs, ocr: this.attached().ocr() });
    if (!reading.chars.some((c) => c.text.trim() !== '')) return { found: false, text: '', spans: [], annotation: null, dpi: reading.dpi };

    return this.uow(async (r) => {
      const current = await r.documents.findById(doc.id);
      if (!current || current.status !== DocumentStatus.DONE || current.text !== doc.text) {
        throw ValidationError.of('non_field_errors', 'The document changed while the region was being read: load it again and repeat.');
      }
      const { chars } = await r.pages.charsForDocument(doc.id);
      const merged = mergeRegionText({ text: current.text ?? '', chars, pageIndex: body.page_index, pageHeight: page.height_pt, region, newChars: reading.chars });
      const pageHeights: number[] = [];
      pageHeights[body.page_index] = page.height_pt;
      const spans = spansFromChars(merged.text, merged.added, pageHeights);
      const text = spans.map((s) => s.offset_string).join(' ');
      // Only read: the text as a real read would merge it, and nothing written (the reviewer may still cancel).
      if (body.dry_run) return { found: true, text, spans: [], annotation: null, dpi: reading.dpi };
      await r.documents.update(doc.id, { text: merged.text });
      // Offsets are document-wide: this page and every later one get their characters anew.
      for (let index = body.page_index; index < current.number_of_pages; index++) {
        await r.pages.updateChars(doc.id, index + 1, merged.chars.filter((c) => c.page_index === index));
      }
      await this.annotations.rewriteSpans(r, doc.id, (span) => merged.moveSpan(span));
      let annotation: AnnotationView | null = null;
      if (body.label != null) {
        const updated = (await r.documents.findById(doc.id))!;
        annotation = await this.annotations.createForDocumentIn(r, user, updated, {
          label: body.label,
          label_set: body.label_set ?? null,
          annotation_set: body.annotation_set ?? null,
          span: [{ page_index: body.page_index, ...region }],
        });
      }
      return { found: true, text, spans, annotation, dpi: reading.dpi };
    });
  }
}
