// Checks an uploaded PDF before anything else reads it: page count, password protection, damage, and the
// declared pixels of its images (pdfImageSizes.ts).
// A damaged file that pdf.js or pdf-lib can still read is rewritten by pdf-lib with a clean xref/trailer.
// pdf.js and pdf-lib parse the whole file: they run in a PDF worker thread (pdfProbe.ts), the verdicts here.
import { BrokenPdfError, EncryptedPdfError, LimitError } from './errors.ts';
import { oversizedStream } from './flateStreams.ts';
import { checkPageCount, pipelineLimits } from './limits.ts';
import type { PdfProbe, PdfRewrite } from './pdfProbe.ts';
import { withPdfWorker, type PdfWorker } from './pdfWorkerPool.ts';
import { pdfHeaderOffset } from './sniff.ts';

export interface PdfInspection {
  /** The PDF to keep: the upload itself when sound, else its repaired copy. */
  bytes: Uint8Array;
  pageCount: number;
  /** The header's version, e.g. "1.4" or "2.0". */
  version: string;
  repaired: boolean;
  /** What was wrong with the upload, when it needed repair. */
  problem?: string;
  /**
   * Encrypted with an owner password only: it opens without a password (pdf.js reads it), but its
   * owner forbade changes, and pdf-lib refuses to modify it.
   */
  restricted: boolean;
}

export interface InspectPdfOptions {
  /** Defaults to FOLIO_MAX_PAGES. */
  maxPages?: number;
  /** Defaults to FOLIO_MAX_STREAM_MB; Infinity skips the check (for bytes that passed it at upload). */
  maxStreamBytes?: number;
  /** Most pixels of one image inside the PDF, as its headers declare them; defaults to FOLIO_MAX_IMAGE_PIXELS. */
  maxImagePixels?: number;
}

export async function inspectPdf(upload: Uint8Array, opts: InspectPdfOptions = {}): Promise<PdfInspection> {
  const maxPages = opts.maxPages ?? pipelineLimits().maxPages;
  const headerAt = pdfHeaderOffset(upload);
  if (headerAt < 0) throw new BrokenPdfError('The file is not a PDF: it has no %PDF- header in its first 1 KB.');
  // Junk before the header (a mail gateway's or proxy's) goes; offsets usually count from the header.
  const pdf = Buffer.from(upload.buffer, upload.byteOffset + headerAt, upload.byteLength - headerAt);
  const version = /^%PDF-(\d\.\d)/.exec(pdf.toString('latin1', 0, 16))?.[1] ?? '1.0';
  const maxStream = opts.maxStreamBytes ?? pipelineLimits().maxStreamBytes;
  const oversized = Number.isFinite(maxStream) ? await oversizedStream(pdf, maxStream) : undefined;
  if (oversized !== undefined) {
    const mb = (n: number) => `${Math.round(n / 2 ** 20)} MB`;
    throw new LimitError('size', `A compressed stream in the PDF inflates to more than ${mb(maxStream)}; this installation accepts at most ${mb(maxStream)} per stream (FOLIO_MAX_STREAM_MB).`);
  }

  const maxImagePixels = opts.maxImagePixels ?? pipelineLimits().maxImagePixels;
  const opened = await openWithPdfjs(pdf, maxImagePixels);
  if (opened.oversizedImage) throw new LimitError('pixels', opened.oversizedImage);
  if (!opened.ok && opened.needsPassword) throw new EncryptedPdfError();
  if (opened.ok) checkPageCount(opened.pageCount, maxPages);
  const xrefProblem = findXrefProblem(pdf);
  if (opened.ok && !xrefProblem) {
    const problem = headerAt > 0 ? `${headerAt} bytes of other data before the %PDF- header` : undefined;
    return { bytes: pdf, pageCount: opened.pageCount, version, repaired: headerAt > 0, problem, restricted: opened.restricted };
  }

  const problem = xrefProblem ?? `pdf.js could not read it: ${(opened as { error: string }).error}`;
  const rewritten = await rewriteWithPdfLib(pdf);
  if (rewritten.ok) {
    const check = await openWithPdfjs(rewritten.bytes, maxImagePixels);
    if (check.oversizedImage) throw new LimitError('pixels', check.oversizedImage);
    // pdf-lib rebuilds by scanning objects; never trade a copy pdf.js reads fully for one with fewer pages.
    if (check.ok && (!opened.ok || check.pageCount >= opened.pageCount)) {
      checkPageCount(check.pageCount, maxPages);
      return { bytes: rewritten.bytes, pageCount: check.pageCount, version, repaired: true, problem, restricted: false };
    }
  }
  // pdf-lib could not rewrite it (an owner-password file, say), but pdf.js, which every later step
  // uses, reads it as it is: keep it.
  if (opened.ok) return { bytes: pdf, pageCount: opened.pageCount, version, repaired: headerAt > 0, problem, restricted: opened.restricted };
  const reason = rewritten.ok ? 'the rebuilt file has no readable pages' : rewritten.error;
  // Folio's own finding about the structure is said; pdf.js's and pdf-lib's words go to `detail` only.
  throw new BrokenPdfError(
    `The PDF is damaged and could not be repaired${xrefProblem ? `: ${xrefProblem}` : ''}. Upload a repaired copy, for example the file printed again to PDF.`,
    { detail: `${problem}; ${reason}` },
  );
}

function openWithPdfjs(pdf: Uint8Array, maxImagePixels: number): Promise<PdfProbe> {
  return onSoundWorker((worker) => worker.probe(pdf, maxImagePixels));
}

function rewriteWithPdfLib(pdf: Uint8Array): Promise<PdfRewrite> {
  return onSoundWorker((worker) => worker.rewrite(pdf));
}

/**
 * The probe and the rewrite answer a file's faults as results; a worker that dies or stops answering meanwhile
 * is another matter. It may not be this file's doing: a warm worker can be brought down by what an earlier
 * document left running in it (the 500 one upload got from another's pdf.js error). So once more on a fresh
 * worker; a file that brings that one down too is refused as one the reader cannot take, a 400, not a 500.
 */
export async function onSoundWorker<T>(work: (worker: PdfWorker) => Promise<T>): Promise<T> {
  try {
    return await withPdfWorker(work);
  } catch (first) {
    // A file that takes longer than the time-out takes as long again: no second try.
    if (/^no answer after/.test((first as Error)?.message ?? '')) {
      throw new BrokenPdfError('The PDF could not be checked: reading it took too long. It may be damaged; upload a repaired copy, for example the file printed again to PDF.', { detail: (first as Error).message });
    }
    try {
      return await withPdfWorker(work, undefined, { fresh: true });
    } catch (err) {
      throw new BrokenPdfError('The PDF could not be checked: reading it stopped the PDF reader. It may be damaged; upload a repaired copy, for example the file printed again to PDF.', {
        detail: err instanceof Error ? err.message : String(err),
      });
    }
  }
}

// ---- Cross-reference check. pdf.js silently rebuilds a broken xref by scanning, so it cannot tell us
// whether one was needed; other readers (and pdf-lib edits later) trust the offsets, so check them.

const MAX_SECTIONS = 64;
const MAX_ENTRIES_CHECKED = 5000;

/** Why the file's cross-reference data is unusable, or null when every section checks out. */
export function findXrefProblem(pdf: Buffer): string | null {
  const tail = pdf.toString('latin1', Math.max(0, pdf.length - 4096));
  const at = tail.lastIndexOf('startxref');
  if (at < 0) return 'no startxref at its end (the file is cut short or its trailer is missing)';
  const offset = /^startxref\s+(\d+)/.exec(tail.slice(at))?.[1];
  if (offset === undefined) return 'startxref gives no offset';
  const seen = new Set<number>();
  for (let next: number | null = Number(offset); next !== null; ) {
    if (seen.has(next) || seen.size >= MAX_SECTIONS) return 'its cross-reference sections form a loop';
    seen.add(next);
    const section = readSection(pdf, next);
    if (typeof section === 'string') return section;
    next = section.prev;
  }
  return null;
}

/** One xref section (table or stream): its /Prev, or what is wrong with it. */
function readSection(pdf: Buffer, offset: number): { prev: number | null } | string {
  if (offset >= pdf.length) return `the cross-reference offset ${offset} is past the end of the file`;
  const head = pdf.toString('latin1', offset, Math.min(pdf.length, offset + 64));
  const prevOf = (dict: string) => {
    const m = /\/Prev\s+(\d+)/.exec(dict);
    return { prev: m ? Number(m[1]) : null };
  };
  if (/^\s*xref\b/.test(head)) {
    const trailerAt = pdf.indexOf('trailer', offset);
    if (trailerAt < 0) return `the cross-reference table at ${offset} has no trailer`;
    const problem = tableProblem(pdf, pdf.toString('latin1', offset + head.indexOf('xref') + 4, trailerAt));
    return problem ?? prevOf(pdf.toString('latin1', trailerAt, Math.min(pdf.length, trailerAt + 4096)).split('startxref')[0]);
  }
  if (/^\s*\d+\s+\d+\s+obj\b/.test(head)) {
    const dict = pdf.toString('latin1', offset, Math.min(pdf.length, offset + 4096)).split('stream')[0];
    return /\/Type\s*\/XRef\b/.test(dict) ? prevOf(dict) : `the cross-reference offset ${offset} points at an object that is not an xref stream`;
  }
  return `the cross-reference offset ${offset} points at neither an xref table nor an xref stream`;
}

/** Checks that in-use entries point at `N G obj` of their own object number (a spread sample for huge tables). */
function tableProblem(pdf: Buffer, table: string): string | null {
  const tokens = table.trim().split(/\s+/).filter(Boolean);
  const inUse: Array<[number, number]> = [];
  for (let i = 0; i < tokens.length; ) {
    const start = Number(tokens[i]);
    const count = Number(tokens[i + 1]);
    if (!Number.isInteger(start) || !Number.isInteger(count) || i + 2 + 3 * count > tokens.length) return 'its cross-reference table is unreadable';
    i += 2;
    for (let k = 0; k < count; k++, i += 3) {
      const kind = tokens[i + 2];
      if (kind !== 'n' && kind !== 'f') return 'its cross-reference table is unreadable';
      const offset = Number(tokens[i]);
      if (kind === 'n' && offset > 0) inUse.push([start + k, offset]);
    }
  }
  const step = Math.max(1, Math.ceil(inUse.length / MAX_ENTRIES_CHECKED));
  for (let i = 0; i < inUse.length; i += step) {
    const [num, offset] = inUse[i];
    const found = /^\s*(\d+)\s+\d+\s+obj\b/.exec(pdf.toString('latin1', offset, Math.min(pdf.length, offset + 40)));
    if (!found || Number(found[1]) !== num) return `its cross-reference table puts object ${num} at offset ${offset}, where it is not`;
  }
  return null;
}
