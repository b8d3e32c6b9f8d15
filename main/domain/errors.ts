// Errors the services raise; the HTTP layer turns each into its status code and body (compat.md).

/** 400 with `{"field": ["message", ...]}`; `non_field_errors` for messages about the whole request. */
export class ValidationError extends Error {
  constructor(public readonly fields: Record<string, string[]>) {
    super(Object.entries(fields).map(([k, v]) => `${k}: ${v.join(' ')}`).join('; '));
  }
  static of(field: string, message: string): ValidationError {
    return new ValidationError({ [field]: [message] });
  }
}

/** 404 `{"detail": "..."}`. Also used for records of projects the caller is not a member of. */
export class NotFoundError extends Error {
  constructor(detail = 'Not found.') {
    super(detail);
  }
}

/** 403 `{"detail": "..."}`. */
export class PermissionError extends Error {
  constructor(detail = 'You do not have permission to perform this action.') {
    super(detail);
  }
}

/** 401 `{"detail": "..."}`. */
export class AuthenticationError extends Error {
  constructor(detail = 'Authentication credentials were not provided.') {
    super(detail);
  }
}

/** Any other client error with its own status (409, 413, 415, ...), body `{"detail": "..."}`. */
export class HttpError extends Error {
  constructor(public readonly status: number, detail: string, public readonly extra: Record<string, unknown> = {}) {
    super(detail);
  }
}

/** 429 `{"detail": "..."}` with Retry-After: too many failed logins for an account or from an address. */
export class TooManyRequestsError extends HttpError {
  constructor(public readonly retryAfterSeconds: number, detail: string) {
    super(429, detail);
  }
}

/*
 * Constraints the database refused, in the domain's words: the store translates its driver's errors
 * into these (store/errors.ts), so nothing above main/store knows a driver's error codes.
 */

/** A write would repeat a value that must be unique (400: the record already exists). */
export class UniqueViolation extends Error {
  /** `columns` as "table.column", when the driver names them. */
  constructor(public readonly columns: string[], options?: ErrorOptions) {
    super(`A record with these values already exists${columns.length ? ` (${columns.join(', ')})` : ''}.`, options);
  }
}

/** A write refers to a record that does not exist, or a delete would leave references to it (400). */
export class ReferenceViolation extends Error {
  constructor(options?: ErrorOptions) {
    super('The request refers to a record that does not exist.', options);
  }
}

/**
 * A CHECK or NOT NULL constraint failed: the services validate every input first, so this is Folio's
 * mistake, not the client's, and answers 500 with the details in the log.
 */
export class IntegrityViolation extends Error {
  constructor(public readonly constraint: 'check' | 'not-null', public readonly columns: string[], options?: ErrorOptions) {
    super(`A ${constraint} constraint failed${columns.length ? ` on ${columns.join(', ')}` : ''}.`, options);
  }
}

/**
 * The database or the disk cannot be used just now (PostgreSQL down or restarting, a full, read-only or
 * failing disk): nobody's mistake and nothing to repair in the request, so the API answers 503 with
 * Retry-After. The store and the blob store raise it (store/errors.ts classifies their drivers' errors);
 * the cause stays in the log.
 */
export class StorageUnavailableError extends Error {
  constructor(
    public readonly what: 'database' | 'disk',
    public readonly reason: string,
    options?: ErrorOptions,
    public readonly retryAfterSeconds = 5,
  ) {
    super(`The ${what} is not available (${reason}).`, options);
  }
}
