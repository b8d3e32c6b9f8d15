// What an upload must pass before it is stored: a file type Folio reads (by its bytes), not empty,
// not password-protected, within the page and pixel limits, and for office files a LibreOffice to
// convert them.
// Each refusal is a FileRejectedError with its status and body; processing repeats none of this work
// but the PDF repair, which it needs the bytes of.
import { sniff, type SniffResult } from './sniff.ts';
import { inspectPdf } from './pdfCheck.ts';
import { officeAvailable, unavailableMessage } from './office.ts';
import { OfficeUnavailableError } from './errors.ts';
import { checkImageLimits } from './images.ts';
import type { PipelineLimits } from './limits.ts';

export async function checkUpload(bytes: Uint8Array, limits: PipelineLimits): Promise<SniffResult> {
  const kind = sniff(bytes);
  if (kind.kind === 'office' && !officeAvailable()) throw new OfficeUnavailableError(unavailableMessage());
  if (kind.kind === 'pdf') await inspectPdf(bytes, { maxPages: limits.maxPages, maxStreamBytes: limits.maxStreamBytes, maxImagePixels: limits.maxImagePixels });
  if (kind.kind === 'jpeg' || kind.kind === 'png' || kind.kind === 'tiff') {
    await checkImageLimits(bytes, kind.kind, { maxPages: limits.maxPages, maxPixels: limits.maxImagePixels });
  }
  return kind;
}
