// What an upload must pass before it is stored: a file type Folio reads (by its bytes), within the page
// and pixel limits, and for office files a LibreOffice to convert them. Damaged, password-protected and
// empty files of those types pass: they fail in processing, with their reason (status 111).
// Each refusal is a FileRejectedError with its status and body.
import { sniff, type SniffResult } from './sniff.ts';
import { inspectPdf } from './pdfCheck.ts';
import { officeAvailable, unavailableMessage } from './office.ts';
import { BrokenFileError, EmptyFileError, EncryptedFileError, OfficeUnavailableError } from './errors.ts';
import { checkImageLimits } from './images.ts';
import type { PipelineLimits } from './limits.ts';

/**
 * Refuses what Folio will not take (another file type: 415, over a limit: 413, office files without
 * LibreOffice: 415). A file of a type Folio reads that is damaged, protected with a password or empty is
 * accepted (issue 31, the spec's flow): processing finds the same fault and the document ends in 111 with
 * the reason, its original kept, so uploaders and reviewers see one failure path. Returns null for those.
 */
export async function checkUpload(bytes: Uint8Array, limits: PipelineLimits): Promise<SniffResult | null> {
  try {
    return await refusals(bytes, limits);
  } catch (err) {
    if (err instanceof BrokenFileError || err instanceof EncryptedFileError || err instanceof EmptyFileError) return null;
    throw err;
  }
}

async function refusals(bytes: Uint8Array, limits: PipelineLimits): Promise<SniffResult> {
  const kind = sniff(bytes);
  if (kind.kind === 'office' && !officeAvailable()) throw new OfficeUnavailableError(unavailableMessage());
  if (kind.kind === 'pdf') await inspectPdf(bytes, { maxPages: limits.maxPages, maxStreamBytes: limits.maxStreamBytes, maxImagePixels: limits.maxImagePixels });
  if (kind.kind === 'jpeg' || kind.kind === 'png' || kind.kind === 'tiff') {
    await checkImageLimits(bytes, kind.kind, { maxPages: limits.maxPages, maxPixels: limits.maxImagePixels });
  }
  return kind;
}
