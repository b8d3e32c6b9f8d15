// Post-process (spec 3.1, 4; compat.md): a document's pages split into several documents, turned by
// multiples of 90 degrees and re-ordered, alone or combined. A split makes new documents from the
// original's pages (a document set remembers the original file), each processed and extracted like any
// upload, and each taking along the annotations on its pages. Turning or re-ordering a processed document
// without splitting it edits it in place (issue 12): the same document, its annotations (human ones and
// their review included) with their boxes turned with their pages, its pages read again by a durable job.
// One document with every page as it was rejects a proposed split: the document goes on to
// categorization and extraction as it is.
import type { Repos, UnitOfWork } from '../store/repositories/index.ts';
import type { DocumentRow, DocumentSetRow, UserRow } from '../store/schema.ts';
import type { BlobStore, NamedBlob } from '../blobs/blobStore.ts';
import type { DocumentView } from '../store/repositories/documentRepository.ts';
import type { PostprocessRequest } from '../../shared/schemas/postprocess.ts';
import { cleanFileName, type DocumentService } from './documentService.ts';
import { documentForMember, recordForMember } from './access.ts';
import { NotFoundError, ValidationError } from '../domain/errors.ts';
import { DocumentStatus, statusName } from '../domain/documentStatus.ts';
import { composePdf, type OutputPage } from '../pipeline/postprocess.ts';
import { withoutOcrLayers } from '../pipeline/ocrLayer.ts';
import { enqueueAnalysis } from '../ai/analysis.ts';
import type { JobQueue } from '../jobs/queue.ts';
import type { ReadAgainService } from './readAgainService.ts';
import type { AnnotationService } from './annotationService.ts';
import type { PageSummary } from '../store/repositories/pageRepository.ts';
import { spanColumns } from '../domain/spans.ts';
import { turnSpan, type PageMove } from '../domain/pageTurn.ts';

const unknownPk = (id: number) => `Invalid pk "${id}" - object does not exist.`;

export class PostprocessService {
  constructor(
    private readonly repos: Repos,
    private readonly uow: UnitOfWork,
    private readonly blobs: BlobStore,
    private readonly documents: DocumentService,
    private readonly readAgain: ReadAgainService,
    private readonly annotations: AnnotationService,
    private readonly queue: JobQueue,
  ) {}

  async postprocess(user: UserRow, documentId: number, outputs: PostprocessRequest): Promise<DocumentView[]> {
    const doc = await documentForMember(this.repos, user, documentId);
    if (doc.status !== DocumentStatus.DONE && doc.status !== DocumentStatus.WAITING_FOR_SPLITTING_CONFIRMATION) {
      throw ValidationError.of('non_field_errors', `The document cannot be post-processed while it is "${statusName(doc.status)}": wait until it is done.`);
    }
    const pages = await this.repos.pages.listForDocument(doc.id);
    const indexOf = new Map(pages.map((p, i) => [p.id, i]));
    const seen = new Set<number>();
    outputs.forEach((out, o) =>
      out.pages.forEach((p, k) => {
        if (!indexOf.has(p.id)) throw ValidationError.of(`${o}.pages.${k}`, `${unknownPk(p.id)} Page ${p.id} is not a page of document ${doc.id}.`);
        if (seen.has(p.id)) throw ValidationError.of(`${o}.pages.${k}`, `Page ${p.id} is used twice: every page goes to exactly one document.`);
        seen.add(p.id);
      }),
    );
    const left = pages.filter((p) => !seen.has(p.id)).map((p) => p.id);
    if (left.length) throw ValidationError.of('pages', `Pages ${left.join(', ')} are in no document: a split keeps every page (to drop pages, upload anew).`);
    const categories = await this.categories(doc, outputs);

    const unchanged = outputs.length === 1 && outputs[0].pages.every((p, i) => indexOf.get(p.id) === i && p.angle % 360 === 0);
    if (unchanged) return [await this.keep(doc, outputs[0].name, categories[0])];
    // A processed document turned or re-ordered stays the same document with its review. One waiting for
    // its split to be confirmed has not been categorized yet: it goes the way of a split, through processing.
    if (outputs.length === 1 && doc.status === DocumentStatus.DONE) return [await this.editInPlace(doc, pages, outputs[0], categories[0])];

    // Pages come from the searchable PDF. A page that OCR read comes without Folio's invisible text layer,
    // turned or not, so OCR reads it again the way it now stands (a receipt turned upright is read
    // upright; an image upload has no other copy of its page without the layer) and it stays marked as
    // OCR'd. Born-digital pages keep their own text layer and are read again without OCR.
    const searchable = doc.searchable_blob_key ? await this.blobs.read(doc.searchable_blob_key) : null;
    if (!searchable) throw new NotFoundError('The searchable PDF of this document is missing: process it again.');
    const ocrIndexes = pages.flatMap((p, i) => (p.ocr ? [i] : []));
    const sources: Uint8Array[] = [searchable];
    if (ocrIndexes.length) sources.push(await withoutOcrLayers(searchable, ocrIndexes));
    const files: Buffer[] = [];
    for (const out of outputs) {
      const selection: OutputPage[] = out.pages.map((p) => {
        const index = indexOf.get(p.id)!;
        return { sourceIndex: index, angle: p.angle, source: pages[index].ocr ? 1 : 0 };
      });
      files.push(Buffer.from(await composePdf(sources, selection)));
    }
    const stored: { key: string; size: number }[] = [];
    for (const file of files) stored.push(await this.blobs.put(file));

    const stem = doc.data_file_name.replace(/\.[^.]*$/, '');
    const ids = await this.uow(async (r) => {
      // Checked again where it counts: a second confirmation of the same split, sent at the same moment,
      // finds the original gone (or changed) and is refused instead of copying its pages twice.
      const current = await r.documents.findById(doc.id);
      if (!current) throw new NotFoundError('Document not found: it was split or deleted meanwhile.');
      if (current.updated_at !== doc.updated_at) throw ValidationError.of('non_field_errors', 'The document changed while its pages were being prepared: load it again and repeat.');
      const set = await r.aiModels.insertDocumentSet({
        project_id: doc.project_id,
        original_blob_key: doc.blob_key,
        original_file_name: doc.data_file_name,
        original_number_of_pages: doc.number_of_pages,
        created_by: user.id,
      });
      const t = new Date().toISOString();
      const made: number[] = [];
      for (const [i, out] of outputs.entries()) {
        const row = await this.documents.insertDerived(r, {
          project_id: doc.project_id,
          category_id: categories[i],
          data_file_name: cleanFileName(out.name ?? (outputs.length > 1 ? `${stem} (${i + 1} of ${outputs.length}).pdf` : `${stem}.pdf`)),
          blob_key: stored[i].key,
          file_size: stored[i].size,
          status: DocumentStatus.QUEUING_FOR_OCR,
          dataset_status: doc.dataset_status,
          is_reviewed: false,
          number_of_pages: 0,
          assignee_id: doc.assignee_id,
          callback_url: doc.callback_url,
          created_by: user.id,
          category_is_revised: false,
          document_set_id: set.id,
          created_at: t,
          updated_at: t,
        });
        made.push(row.id);
        await this.copyAnnotations(r, doc.id, row.id, pages, out.pages);
      }
      // The original makes way for its parts; its file stays with the document set.
      await r.documents.remove(doc.id);
      return made;
    });
    return Promise.all(ids.map(async (id) => (await this.repos.documents.findById(id))!));
  }

  /**
   * Turn and re-order in place: the new page sequence becomes the searchable PDF (Folio's OCR layers go
   * when the pages are read again, so OCR reads a turned scan upright), every annotation box turns with its
   * page and takes its page's new place, and the read-again job reads the pages and gives each span the
   * characters now inside its box. Review states, human annotations and the review itself stay.
   */
  private async editInPlace(doc: DocumentRow, pages: PageSummary[], out: PostprocessRequest[number], categoryId: number | null | undefined): Promise<DocumentView> {
    const searchable = doc.searchable_blob_key ? await this.blobs.read(doc.searchable_blob_key) : null;
    if (!searchable) throw new NotFoundError('The searchable PDF of this document is missing: process it again.');
    const indexOf = new Map(pages.map((p, i) => [p.id, i]));
    const file = Buffer.from(await composePdf(searchable, out.pages.map((p) => ({ sourceIndex: indexOf.get(p.id)!, angle: p.angle }))));
    const stored = await this.blobs.put(file);
    await this.uow(async (r) => {
      const current = await r.documents.findById(doc.id);
      if (!current) throw new NotFoundError('Document not found: it was split or deleted meanwhile.');
      if (current.updated_at !== doc.updated_at) throw ValidationError.of('non_field_errors', 'The document changed while its pages were being prepared: load it again and repeat.');
      // The boxes turn with the pages now; the reading turns them on by whatever turn OCR then gives a page.
      await this.annotations.turnBoxes(r, doc.id, pageMoves(pages, out.pages));
      const changes: Partial<DocumentRow> = { searchable_blob_key: stored.key, status: DocumentStatus.QUEUING_FOR_OCR, status_reason: null, proposed_split: null };
      if (out.name !== undefined) changes.data_file_name = cleanFileName(out.name);
      if (categoryId !== undefined && categoryId !== doc.category_id) Object.assign(changes, { category_id: categoryId, category_is_revised: true });
      await r.documents.update(doc.id, changes);
      await this.readAgain.enqueueReading(r, (await r.documents.findById(doc.id))!);
    });
    return (await this.repos.documents.findById(doc.id))!;
  }

  /**
   * A split part takes the annotations on its pages: each one goes to the part holding its first span's
   * page, in a set of its own label set there, boxes turned and page indexes renumbered; spans on pages of
   * other parts are left behind. Offsets come when the part's pages are read (ReadAgainService.followNewText).
   */
  private async copyAnnotations(r: Repos, fromId: number, toId: number, pages: PageSummary[], partPages: { id: number; angle: number }[]): Promise<void> {
    const moves = pageMoves(pages, partPages);
    const sets = new Map((await r.annotations.setsOfDocument(fromId)).map((s) => [s.id, s]));
    const made = new Map<number, number>();
    for (const a of await r.annotations.annotationsOfDocument(fromId)) {
      const spans = a.spans;
      if (!spans.length || !moves.has(spans[0].page_index)) continue;
      const kept = spans.flatMap((s) => {
        const move = moves.get(s.page_index);
        return move ? [{ ...turnSpan(s, move.angle, move.width, move.height, move.to), start_offset: null, end_offset: null }] : [];
      });
      const set = sets.get(a.annotation_set_id);
      if (!set) continue;
      let setId = made.get(set.id);
      if (setId === undefined) {
        setId = (await r.annotations.createSet(toId, set.label_set_id)).id;
        made.set(set.id, setId);
      }
      const columns = spanColumns(kept);
      await r.annotations.insertAnnotation({
        ...columns,
        document_id: toId,
        annotation_set_id: setId,
        label_id: a.label_id,
        is_correct: a.is_correct,
        revised: a.revised,
        confidence: a.confidence,
        origin: a.origin,
        created_by: a.created_by,
        revised_by: a.revised_by,
        normalized: a.normalized,
        is_typed: a.is_typed,
      });
    }
  }

  /** The proposal is rejected: the document stays whole and goes on to categorization and extraction. */
  private async keep(doc: DocumentRow, name: string | undefined, categoryId: number | null | undefined): Promise<DocumentView> {
    await this.uow(async (r) => {
      const changes: Partial<DocumentRow> = { proposed_split: null };
      if (name !== undefined) changes.data_file_name = cleanFileName(name);
      if (categoryId !== undefined && categoryId !== doc.category_id) Object.assign(changes, { category_id: categoryId, category_is_revised: true });
      if (doc.status === DocumentStatus.WAITING_FOR_SPLITTING_CONFIRMATION) {
        // Queued past the splitting step: its analysis must not propose the same split again.
        await r.documents.update(doc.id, changes);
        const current = (await r.documents.findById(doc.id))!;
        await r.documents.update(doc.id, { status: await enqueueAnalysis(this.queue, r, current, { splitting: false }) });
      } else {
        await r.documents.update(doc.id, changes);
      }
    });
    return (await this.repos.documents.findById(doc.id))!;
  }

  /** Each output's category: given (a category of the document's project), or left to categorization. */
  private async categories(doc: DocumentRow, outputs: PostprocessRequest): Promise<(number | null | undefined)[]> {
    const given = outputs.flatMap((o) => (o.category == null ? [] : [o.category]));
    const projects = await this.repos.categories.projectIdsOf(given);
    return outputs.map((o, i) => {
      if (o.category == null) return o.category === null ? null : undefined;
      if (projects.get(o.category) !== doc.project_id) throw ValidationError.of(`${i}.category`, unknownPk(o.category));
      return o.category;
    });
  }

  async documentSet(user: UserRow, id: number): Promise<{ set: DocumentSetRow; documents: number[] }> {
    const set = await recordForMember(this.repos, user, await this.repos.aiModels.findDocumentSet(id), 'Document set');
    return { set, documents: await this.repos.documents.idsInSet(set.id) };
  }

  async originalFile(user: UserRow, id: number): Promise<NamedBlob> {
    const { set } = await this.documentSet(user, id);
    return { key: set.original_blob_key, name: set.original_file_name };
  }
}

/** Where each page of the document goes in an output: its new index, its turn and its size as shown now. */
function pageMoves(pages: PageSummary[], outPages: { id: number; angle: number }[]): Map<number, PageMove> {
  const indexOf = new Map(pages.map((p, i) => [p.id, i]));
  const moves = new Map<number, PageMove>();
  outPages.forEach((p, to) => {
    const from = indexOf.get(p.id)!;
    moves.set(from, { to, angle: p.angle, width: pages[from].width_pt, height: pages[from].height_pt });
  });
  return moves;
}
