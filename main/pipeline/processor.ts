// Processes uploaded documents: text and character boxes of every page, the document text, the
// searchable PDF, the processing states and timings. Runs in the server process, one document at a
// time; documents left unfinished by a crash are resumed at start-up. Each run of a document rewrites
// its pages in one transaction, so a repeated run never duplicates anything.
//
// This version reads born-digital PDFs (pdf.js text layers). OCR of scans, images and office files
// join through the pipeline modules as they land (see main/pipeline/).
import { EventEmitter } from 'node:events';
import type { Repos, UnitOfWork } from '../store/repositories/index.ts';
import type { DocumentRow } from '../store/schema.ts';
import type { BlobStore } from '../blobs/blobStore.ts';
import type { DocumentPipelineHook } from '../services/documentService.ts';
import type { NewPage } from '../store/repositories/pageRepository.ts';
import { DocumentStatus } from '../domain/documentStatus.ts';
import { extractPdfText } from './pdfText.ts';
import { layoutText } from './textLayout.ts';

/** States in which a document's processing has ended one way or the other. */
const FINISHED: number[] = [DocumentStatus.DONE, DocumentStatus.COULD_NOT_BE_PROCESSED, 41];

export class ProcessingError extends Error {}

export interface ProcessorDeps {
  repos: Repos;
  uow: UnitOfWork;
  blobs: BlobStore;
  /** How long a sync=true upload waits for the result before answering with the document as it stands. */
  syncTimeoutMs?: number;
}

export class DocumentProcessor implements DocumentPipelineHook {
  private readonly queue: number[] = [];
  private draining: Promise<void> | undefined;
  private readonly events = new EventEmitter();
  private stopped = false;

  constructor(private readonly deps: ProcessorDeps) {
    this.events.setMaxListeners(0);
  }

  async enqueue(_repos: Repos, doc: DocumentRow): Promise<void> {
    // Called inside the upload's transaction: processing reads the row once it has committed
    // (the store serialises access), and finds nothing if the upload was rolled back.
    this.schedule(doc.id);
  }

  /** Picks up documents a previous run left queued or half-processed. */
  async resume(): Promise<void> {
    for (const id of await this.deps.repos.documents.idsWithStatus([DocumentStatus.QUEUING_FOR_OCR, DocumentStatus.OCR_IN_PROGRESS])) this.schedule(id);
  }

  async waitUntilProcessed(documentId: number): Promise<void> {
    const timeoutMs = this.deps.syncTimeoutMs ?? 300_000;
    await new Promise<void>((resolve) => {
      const done = (id: number) => {
        if (id !== documentId) return;
        finish();
      };
      const timer = setTimeout(() => finish(), timeoutMs);
      const finish = () => {
        clearTimeout(timer);
        this.events.off('processed', done);
        resolve();
      };
      this.events.on('processed', done);
      // Registered first, then checked: a document finished in between is not missed.
      void this.deps.repos.documents.findById(documentId).then((d) => {
        if (!d || FINISHED.includes(d.status)) finish();
      });
    });
  }

  /** Lets the current document finish, then stops taking new ones. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.draining;
  }

  private schedule(id: number): void {
    if (!this.queue.includes(id)) this.queue.push(id);
    this.startDraining();
  }

  private startDraining(): void {
    if (this.draining || this.stopped) return;
    this.draining = this.drain().finally(() => {
      this.draining = undefined;
      // Something scheduled while the loop was ending.
      if (this.queue.length) this.startDraining();
    });
  }

  private async drain(): Promise<void> {
    // Off the caller's stack: enqueue runs inside the upload's transaction.
    await new Promise<void>((resolve) => setImmediate(resolve));
    while (this.queue.length && !this.stopped) {
      const id = this.queue.shift()!;
      try {
        await this.process(id);
      } catch (err) {
        await this.fail(id, err);
      } finally {
        this.events.emit('processed', id);
      }
    }
  }

  private async process(id: number): Promise<void> {
    const { repos, uow, blobs } = this.deps;
    const doc = await repos.documents.findById(id);
    if (!doc || FINISHED.includes(doc.status)) return;
    const started = performance.now();
    await repos.documents.update(id, { status: DocumentStatus.OCR_IN_PROGRESS, status_reason: null });

    const bytes = await blobs.read(doc.blob_key);
    if (!bytes.subarray(0, 1024).toString('latin1').includes('%PDF-')) {
      throw new ProcessingError('This version of Folio processes PDF files; images and office files are not processed yet.');
    }
    const pdfPages = await extractPdfText(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength)).catch((err: Error) => {
      throw new ProcessingError(`The PDF could not be read: ${err?.message || err?.name || 'its structure is broken'}.`);
    });
    const layout = layoutText(pdfPages.map((p) => ({ height: p.height, chars: p.chars })));
    const textTime = (performance.now() - started) / 1000;

    const byPage = new Map<number, NewPage['chars'][number][]>();
    for (const c of layout.chars) {
      const list = byPage.get(c.page_index);
      if (list) list.push(c);
      else byPage.set(c.page_index, [c]);
    }
    const pages: NewPage[] = pdfPages.map((p, i) => ({
      number: p.number,
      widthPt: p.width,
      heightPt: p.height,
      rotation: p.rotation,
      imageBlob: null,
      imageWidth: null,
      imageHeight: null,
      thumbnailBlob: null,
      hasTextLayer: p.hasTextLayer,
      ocr: false,
      chars: byPage.get(i) ?? [],
    }));
    await uow(async (r) => {
      await r.pages.replaceForDocument(id, pages);
      await r.documents.update(id, {
        text: layout.text,
        number_of_pages: pages.length,
        // Pages with a text layer stay as they are: the upload itself is the searchable PDF.
        searchable_blob_key: doc.blob_key,
        status: DocumentStatus.DONE,
        status_reason: null,
        ocr_time: textTime,
        processing_time: (performance.now() - started) / 1000,
      });
    });
  }

  private async fail(id: number, err: unknown): Promise<void> {
    const reason = err instanceof ProcessingError ? err.message : `Processing failed: ${(err as Error)?.message ?? String(err)}`;
    if (!(err instanceof ProcessingError)) console.error(`[folio] processing document ${id} failed:`, err);
    await this.deps.repos.documents.update(id, { status: DocumentStatus.COULD_NOT_BE_PROCESSED, status_reason: reason }).catch(() => {});
  }
}
