// How the renderer's client reaches Folio: one request shape for every call. In a browser the transport
// is HTTP (httpTransport.ts); in the desktop window it is IPC to the main process. Views never see which:
// they use FolioClient (client.ts), and the same contract tests run against both transports.

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export type QueryValue = string | number | boolean | undefined | null;

export interface ApiRequest {
  method: HttpMethod;
  /** An API path such as `/api/v3/documents/5/`, without the query string. */
  path: string;
  query?: Record<string, QueryValue>;
  body?: unknown;
}

export interface UploadRequest {
  path: string;
  fields: Record<string, string | number | boolean | undefined | null>;
  /** The multipart part that carries the file (`data_file` for documents, `file` for model files). */
  fileField: string;
  file: Blob;
  fileName: string;
  /** Bytes sent so far of the whole request; called as the upload goes. */
  onProgress?: (sent: number, total: number) => void;
  signal?: AbortSignal;
}

export interface Transport {
  request<T>(req: ApiRequest): Promise<T>;
  upload<T>(req: UploadRequest): Promise<T>;
  /** An address the page can load a file of the API from (page images, the searchable PDF, CSV). */
  fileUrl(path: string): string;
}

/** An answer of the API other than 2xx, with the API's reason as its message. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(describeError(status, body));
  }

  /** The messages of a 400 answer for one field (`{"name": ["..."]}`), empty when there are none. */
  fieldErrors(field: string): string[] {
    const value = (this.body as Record<string, unknown> | null)?.[field];
    return Array.isArray(value) ? value.map(String) : [];
  }
}

function describeError(status: number, body: unknown): string {
  if (body && typeof body === 'object') {
    const detail = (body as { detail?: unknown }).detail;
    if (typeof detail === 'string') return detail;
    // A 400 answer lists messages per field; spell them out for a summary line.
    const messages = Object.entries(body as Record<string, unknown>).flatMap(([field, v]) =>
      Array.isArray(v) ? v.map((m) => (field === 'non_field_errors' ? String(m) : `${field}: ${String(m)}`)) : [],
    );
    if (messages.length) return messages.join(' ');
  }
  if (typeof body === 'string' && body.trim()) return body.trim().slice(0, 300);
  if (status === 0) return 'Folio cannot be reached. Is it still running?';
  return `The request failed (HTTP ${status}).`;
}

export function queryString(query: Record<string, QueryValue> | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null && v !== '') params.set(k, String(v));
  const qs = params.toString();
  return qs ? `?${qs}` : '';
}
