// Why the pipeline refuses an upload. Each error carries the HTTP status and body the API answers
// with, so the HTTP layer maps every one of them with a single rule (status + body).

/** The file field of the document upload; every refusal is reported on it, like a validation error. */
export const FILE_FIELD = 'data_file';

export const SUPPORTED_TYPES =
  'PDF, JPEG, PNG, TIFF, Word (.doc, .docx), Excel (.xls, .xlsx), PowerPoint (.ppt, .pptx), Publisher, OpenDocument (.odt, .ods, .odp).';

/**
 * Base of every refusal: `status` and `body` (`{"data_file": [message]}`) are what the API sends. The
 * message is for the person who uploaded the file (it becomes a failed document's reason, issue 31);
 * `detail` keeps the reading library's own words (pdf.js, pdf-lib, libvips, LibreOffice) for the log.
 */
export abstract class FileRejectedError extends Error {
  abstract readonly status: number;
  readonly detail?: string;
  constructor(message: string, options?: ErrorOptions & { detail?: string }) {
    super(message, options);
    this.detail = options?.detail;
  }
  get body(): Record<string, string[]> {
    return { [FILE_FIELD]: [this.message] };
  }
}

/** Nothing was uploaded but a name: accepted, then 111 with the message, as a damaged file. */
export class EmptyFileError extends FileRejectedError {
  readonly status = 400;
  constructor() {
    super('The file is empty.');
  }
}

/** 415: the bytes are no type Folio reads, whatever the file is called. */
export class UnsupportedFileError extends FileRejectedError {
  readonly status = 415;
  constructor(readonly reason: string) {
    super(`The file type is not supported (${reason}). Supported: ${SUPPORTED_TYPES}`);
  }
}

export type LimitKind = 'size' | 'pages' | 'pixels';

/** 413: the file is larger than this installation accepts, in bytes, pages or image pixels. */
export class LimitError extends FileRejectedError {
  readonly status = 413;
  constructor(readonly limit: LimitKind, message: string) {
    super(message);
  }
}

/** A type Folio reads, but damaged beyond what it can repair: accepted, then processing ends in 111 with the message. */
export class BrokenFileError extends FileRejectedError {
  readonly status = 400;
}

export class BrokenPdfError extends BrokenFileError {}

/** 400: a PDF Folio reads but may not or cannot write its searchable copy of (restricted, or pdf-lib fails on it). */
export class UnwritablePdfError extends BrokenFileError {}

/** The file needs a password to open; Folio never asks for one. Accepted, then 111 with the message. */
export class EncryptedFileError extends FileRejectedError {
  readonly status = 400;
}

export class EncryptedPdfError extends EncryptedFileError {
  constructor() {
    super('The PDF is protected with a password; upload an unprotected copy.');
  }
}

export class EncryptedOfficeError extends EncryptedFileError {
  constructor() {
    super('The Office document is protected with a password; save a copy without the password and upload that.');
  }
}

/**
 * 415: office files need LibreOffice, which this machine does not have (or FOLIO_SOFFICE points
 * nowhere). The same type is accepted once LibreOffice is installed, hence the instructions.
 */
export class OfficeUnavailableError extends FileRejectedError {
  readonly status = 415;
}

/** LibreOffice ran but made no PDF of the file (damaged, or it gave up within the time limit): 111 with the message. */
export class OfficeConversionError extends FileRejectedError {
  readonly status = 400;
}
