// Maps every error to its status and body (compat.md): the API answers 4xx with a reason, never a
// bare 500 for a client's mistake.
import type { ErrorRequestHandler } from 'express';
import {
  AuthenticationError,
  HttpError,
  NotFoundError,
  PermissionError,
  ReferenceViolation,
  StorageUnavailableError,
  TooManyRequestsError,
  UniqueViolation,
  ValidationError,
} from '../domain/errors.ts';
import { FileRejectedError } from '../pipeline/errors.ts';
import { logProblem } from '../log.ts';
import { diskFault } from '../store/errors.ts';

interface BodyParserError extends Error {
  type?: string;
  status?: number;
  limit?: number;
  code?: string;
  field?: string;
}

export function errorResponse(err: unknown): { status: number; body: Record<string, unknown>; headers?: Record<string, string> } {
  if (err instanceof ValidationError) return { status: 400, body: err.fields };
  if (err instanceof NotFoundError) return { status: 404, body: { detail: err.message } };
  if (err instanceof AuthenticationError) {
    return { status: 401, body: { detail: err.message }, headers: { 'WWW-Authenticate': 'Token realm="folio"' } };
  }
  if (err instanceof PermissionError) return { status: 403, body: { detail: err.message } };
  if (err instanceof TooManyRequestsError) return { status: 429, body: { detail: err.message }, headers: { 'Retry-After': String(err.retryAfterSeconds) } };
  if (err instanceof HttpError) return { status: err.status, body: { detail: err.message, ...err.extra } };
  if (err instanceof FileRejectedError) return { status: err.status, body: err.body };
  // Constraints the database refused (the store's translation of its driver's errors); the columns stay
  // in the log, not in the answer. IntegrityViolation (CHECK, NOT NULL) is Folio's mistake: a 500.
  if (err instanceof ReferenceViolation) return { status: 400, body: { detail: 'The request refers to a record that does not exist.' } };
  if (err instanceof UniqueViolation) return { status: 400, body: { detail: 'A record with these values already exists.' } };
  // The database or the disk is out (the store's and the blob store's translation; multer's own writes of
  // an upload arrive as file system errors): nobody's mistake, so 503 and when to try again.
  const unavailable = err instanceof StorageUnavailableError ? err : diskFault(err);
  if (unavailable) {
    return {
      status: 503,
      body: { detail: `${unavailable.message} Nothing was changed by this request; try again in a few seconds.`, code: 'storage_unavailable' },
      headers: { 'Retry-After': String(unavailable.retryAfterSeconds) },
    };
  }

  const e = err as BodyParserError;
  switch (e?.type) {
    case 'entity.parse.failed':
      return { status: 400, body: { detail: `JSON parse error - ${e.message}` } };
    case 'entity.too.large':
      return { status: 413, body: { detail: `Request body is too large: the limit is ${e.limit} bytes.` } };
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return { status: 415, body: { detail: e.message } };
    case 'request.aborted':
      return { status: 400, body: { detail: 'The request was aborted by the client.' } };
  }
  if (e?.name === 'MulterError') {
    if (e.code === 'LIMIT_FILE_SIZE') {
      return { status: 413, body: { [e.field ?? 'data_file']: ['The file is larger than this installation accepts (FOLIO_MAX_UPLOAD_MB).'] } };
    }
    return { status: 400, body: { [e.field ?? 'non_field_errors']: [e.message] } };
  }
  // busboy's words for a broken multipart body (a missing boundary, a cut-off or malformed part).
  if (typeof e?.message === 'string' && /^(Multipart: |Malformed part header|Unexpected end of form)/.test(e.message)) {
    return { status: 400, body: { detail: `Malformed multipart body: ${e.message}` } };
  }
  return { status: 500, body: { detail: 'Internal server error. The details are in the Folio log.' } };
}

/**
 * A 500 goes to the log with its stack; a 503 (storage unavailable) in one line with its cause, since an
 * outage answers every request so.
 */
export function logFailure(request: string, status: number, err: unknown): void {
  if (status === 503) {
    const cause = (err as Error)?.cause;
    logProblem(`[folio] ${request}: 503, ${(err as Error)?.message}${cause instanceof Error ? ` (${cause.message})` : ''}`);
  } else if (status >= 500) logProblem(`[folio] ${request} failed:`, err);
}

export const errorHandler: ErrorRequestHandler = (err, req, res, _next) => {
  const { status, body, headers } = errorResponse(err);
  logFailure(`${req.method} ${req.originalUrl}`, status, err);
  if (res.headersSent) {
    res.end();
    return;
  }
  if (headers) res.set(headers);
  res.status(status).json(body);
};
