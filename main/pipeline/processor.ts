// Processes uploaded documents from durable jobs: each upload enqueues a `process-document` job in its
// own transaction; the job runs the pipeline (documentPipeline.ts) and then writes the pages, the text,
// the searchable PDF and the status in ONE transaction together with the job's done mark, so a crash at
// any point either redoes the whole document or never repeats it (no duplicated pages). A file that can
// never be processed ends in 111 at once with its reason; other failures are retried with backoff and
// end in 111 after the last attempt. What follows (the analysis, or the completion callback) is sent in
// the transaction that stores the result. The jobs, their worker and their failure rules are registered
// in main/jobs/registry.ts; this file is their handlers.
import { buffer } from 'node:stream/consumers';
import type { Repos } from '../store/repositories/index.ts';
import type { DocumentRow, JobRow } from '../store/schema.ts';
import type { BlobStore } from '../blobs/blobStore.ts';
import type { NewPage } from '../store/repositories/pageRepository.ts';
import { DocumentStatus, processingEnded } from '../domain/documentStatus.ts';
import { JobSetAsideError, type JobContext } from '../jobs/queue.ts';
import { runPipeline, type PipelineResult } from './documentPipeline.ts';
import { withoutOcrLayers } from './ocrLayer.ts';
import { imageKind, sniff } from './sniff.ts';
import { FileRejectedError } from './errors.ts';
import { logProblem } from '../log.ts';
import { readerErrorContext } from './pdfWorkerPool.ts';
import { OcrPool } from './ocr/ocrPool.ts';
import { engineSetting, knownEngines } from './ocr/engine.ts';
import type { OcrEngineInfo } from '../../shared/schemas/ocrEngine.ts';
import type { PipelineLimits } from './limits.ts';
import type { CharBox } from '../domain/geometry.ts';

/** A document that cannot be processed however often it is tried: no retries. */
export class ProcessingError extends Error {}

export interface ProcessorDeps {
  repos: Repos;
  blobs: BlobStore;
  dataDir: string;
  limits: PipelineLimits;
  /** OCR worker threads (default from FOLIO_OCR_WORKERS / the core count). */
  ocrWorkers?: number;
}

/** What follows a document's processing, in the transaction that stores it (main/jobs/registry.ts). */
export interface AfterProcessing {
  /**
   * What follows OCR (splitting, categorization, extraction: main/ai/analysis.ts): sends its job and
   * returns the status to set; the end of that job is the end of processing. Without it, OCR ends processing.
   */
  analysis?: (repos: Repos, doc: DocumentRow) => Promise<number>;
  /** After a processing that ends here (no analysis): sends follow-ups (the completion callback). */
  onProcessed?: (repos: Repos, doc: DocumentRow) => Promise<void>;
}

/**
 * After a document was read again, in the transaction that stores it: moves its annotations to the new
 * text and returns the status to set (services/readAgainService.ts). Without it the document is Done.
 */
export type AfterReadAgain = (repos: Repos, doc: DocumentRow) => Promise<number>;

export class DocumentProcessor {
  private ocrPool: OcrPool | undefined;

  constructor(private readonly deps: ProcessorDeps) {}

  /** Ends the OCR workers (after the worker that runs the jobs stopped). */
  async close(): Promise<void> {
    await this.ocrPool?.close();
  }

  /** The OCR pool, shared with whoever reads a page region again (one pool of workers per process). */
  ocr(): OcrPool {
    this.ocrPool ??= new OcrPool({ dataDir: this.deps.dataDir, size: this.deps.ocrWorkers });
    return this.ocrPool;
  }

  /** The engine pages are read with (FOLIO_OCR_ENGINE) and every engine this machine has. */
  async ocrEngineInfo(): Promise<OcrEngineInfo> {
    const { engine, version } = await this.ocr().engineInfo();
    const engines = await Promise.all(
      knownEngines().map(async (e) => ({ name: e.name, available: !!e.engine, version: e.engine ? await e.engine.version() : null, reason: e.missing ?? null })),
    );
    return { setting: engineSetting(), engine, version, engines };
  }

  /** The `process-document` job. */
  async process(ctx: JobContext<{ documentId: number }>, after: AfterProcessing = {}): Promise<void> {
    const { repos, blobs } = this.deps;
    const id = ctx.payload.documentId;
    const doc = await repos.documents.findById(id);
    if (!doc || processingEnded(doc.status)) return;
    const started = performance.now();
    await repos.documents.update(id, { status: DocumentStatus.OCR_IN_PROGRESS, status_reason: null });
    const project = await repos.projects.findById(doc.project_id);
    const langs = project?.ocr_languages ?? ['deu', 'eng'];

    let result;
    try {
      const bytes = await blobs.read(doc.blob_key);
      result = await runPipeline({
        bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength),
        langs,
        // Every stored upload passed the upload check (a post-processed document's file is made of checked ones).
        checkedAtUpload: true,
        ocr: this.ocr(),
        limits: this.deps.limits,
        heartbeat: () => ctx.heartbeat(),
        storeImage: async (png) => (await blobs.put(Buffer.from(png.buffer, png.byteOffset, png.byteLength))).key,
      });
    } catch (err) {
      const permanent = permanentReason(err);
      if (permanent === undefined) throw err;
      // The reason is the reviewer's; the reading library's own words are the operator's.
      const detail = (err as { detail?: string }).detail ?? (err instanceof FileRejectedError ? undefined : (err as Error)?.message);
      if (detail) logProblem(`[folio] document ${id} could not be processed: ${permanent}`, `(${detail})`);
      await ctx.completeWith((r) => r.documents.update(id, { status: DocumentStatus.COULD_NOT_BE_PROCESSED, status_reason: permanent }));
      return;
    }

    const searchableKey = result.searchableIsUpload ? doc.blob_key : (await blobs.put(Buffer.from(result.searchable))).key;
    const pages = pagesOf(result);
    await ctx.completeWith(async (r) => {
      await r.pages.replaceForDocument(id, pages);
      await r.documents.update(id, {
        text: result.layout.text,
        number_of_pages: pages.length,
        searchable_blob_key: searchableKey,
        status: DocumentStatus.DONE,
        status_reason: null,
        ocr_time: result.ocrSeconds,
        processing_time: (performance.now() - started) / 1000,
      });
      const stored = (await r.documents.findById(id))!;
      if (after.analysis) {
        await r.documents.update(id, { status: await after.analysis(r, stored) });
      } else if (after.onProcessed) {
        await after.onProcessed(r, stored);
      }
    });
  }

  /**
   * A processed document read again: its scanned pages without Folio's old OCR text layer (so OCR reads
   * them anew, with the languages asked for), its born-digital pages as they are. Pages, text and the
   * searchable PDF are replaced, and the annotations moved to the new text, in one transaction with the
   * job's done mark. The upload itself stays as it was. The `read-again-document` job.
   */
  async readAgain(ctx: JobContext<{ documentId: number; langs: string[] }>, afterReadAgain?: AfterReadAgain): Promise<void> {
    const { repos, blobs } = this.deps;
    const id = ctx.payload.documentId;
    const doc = await repos.documents.findById(id);
    if (!doc || (doc.status !== DocumentStatus.QUEUING_FOR_OCR && doc.status !== DocumentStatus.OCR_IN_PROGRESS)) return;
    const started = performance.now();
    await repos.documents.update(id, { status: DocumentStatus.OCR_IN_PROGRESS, status_reason: null });
    let result;
    try {
      const source = await blobs.read(doc.searchable_blob_key ?? doc.blob_key);
      const bytes = sniff(source).kind === 'pdf' ? await withoutOcrLayers(new Uint8Array(source.buffer, source.byteOffset, source.byteLength)) : source;
      // A photo is read again by the engine that reads photos, as at its upload: the searchable PDF made
      // from it does not say it was one.
      // Its first bytes say so; the upload itself is not read.
      const upload = doc.searchable_blob_key ? imageKind(await buffer(await blobs.stream(doc.blob_key, { start: 0, end: 15 }))) : null;
      const uploadedImage = upload === 'jpeg' ? 'jpeg' : upload === 'png' || upload === 'tiff' ? 'png' : undefined;
      result = await runPipeline({
        bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength),
        langs: ctx.payload.langs,
        ocr: this.ocr(),
        limits: this.deps.limits,
        heartbeat: () => ctx.heartbeat(),
        storeImage: async (png) => (await blobs.put(Buffer.from(png.buffer, png.byteOffset, png.byteLength))).key,
        uploadedImage,
      });
    } catch (err) {
      const permanent = permanentReason(err);
      if (permanent === undefined) throw err;
      // The document stays as it was read before; the reason says why this reading failed.
      await ctx.completeWith((r) => r.documents.update(id, { status: DocumentStatus.DONE, status_reason: `Reading again failed: ${permanent}` }));
      return;
    }
    const searchableKey = (await blobs.put(Buffer.from(result.searchable))).key;
    const pages = pagesOf(result);
    await ctx.completeWith(async (r) => {
      await r.pages.replaceForDocument(id, pages);
      await r.documents.update(id, {
        text: result.layout.text,
        number_of_pages: pages.length,
        searchable_blob_key: searchableKey,
        status_reason: null,
        ocr_time: result.ocrSeconds,
        processing_time: (performance.now() - started) / 1000,
      });
      const stored = (await r.documents.findById(id))!;
      const status = afterReadAgain ? await afterReadAgain(r, stored) : DocumentStatus.DONE;
      await r.documents.update(id, { status });
    });
  }

}

/** After the last attempt of a document's processing or analysis failed (onFailed, in its transaction): 111 with the reason. */
export async function processingFailed(job: JobRow, error: unknown, repos: Repos): Promise<void> {
  if (job.document_id === null) return;
  const reason = error instanceof JobSetAsideError ? error.message : `Processing failed after ${job.attempts} attempts: ${(error as Error)?.message ?? String(error)}`;
  await repos.documents.update(job.document_id, { status: DocumentStatus.COULD_NOT_BE_PROCESSED, status_reason: reason });
}

/** After the last attempt of reading again failed: the document stays as it was read before; the reason says why. */
export async function readingAgainFailed(job: JobRow, error: unknown, repos: Repos): Promise<void> {
  if (job.document_id === null) return;
  const reason = `Reading again failed after ${job.attempts} attempts: ${(error as Error)?.message ?? String(error)}`;
  await repos.documents.update(job.document_id, { status: DocumentStatus.DONE, status_reason: reason });
}

/** The pipeline's pages as stored, each with its characters. */
function pagesOf(result: PipelineResult): NewPage[] {
  const byPage = new Map<number, CharBox[]>();
  for (const c of result.layout.chars) {
    const list = byPage.get(c.page_index);
    if (list) list.push(c);
    else byPage.set(c.page_index, [c]);
  }
  return result.pages.map((p, i) => ({
    number: p.number,
    widthPt: p.widthPt,
    heightPt: p.heightPt,
    rotation: p.rotation,
    imageBlob: p.image?.key ?? null,
    imageWidth: p.image?.widthPx ?? null,
    imageHeight: p.image?.heightPx ?? null,
    thumbnailBlob: p.thumbnailKey ?? null,
    hasTextLayer: p.hasTextLayer,
    ocr: p.ocr,
    chars: byPage.get(i) ?? [],
    ocrRecord: p.ocrInfo,
  }));
}

/** The reason to show for a failure that retrying cannot cure; undefined for one worth retrying. */
function permanentReason(err: unknown): string | undefined {
  if (err instanceof FileRejectedError || err instanceof ProcessingError) return err.message;
  // pdf.js's own words ("_this.catalog.Pages is not a function") mean nothing to a reviewer; the job's
  // last_error keeps them for the log.
  const reading = readerErrorContext(err);
  if (reading !== undefined) return `The PDF is damaged and could not be read (${reading}). Upload a repaired copy, for example the file printed again to PDF.`;
  const e = err as Error & { name?: string };
  // pdf.js: the file is not a PDF it can read, or needs a password. Its own words stay in the job's error.
  if (e?.name === 'PasswordException') return 'The PDF is protected with a password; upload an unprotected copy.';
  if (e?.name === 'InvalidPDFException' || e?.name === 'FormatError') {
    return 'The PDF is damaged and could not be read. Upload a repaired copy, for example the file printed again to PDF.';
  }
  return undefined;
}
