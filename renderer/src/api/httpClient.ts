// The renderer's client of the Folio API over HTTP, same origin only. Request and response types come
// from the zod schemas in shared/schemas, imported as types so that zod itself stays out of the bundle.
import type { z } from 'zod';
import type { Project, ProjectCreate } from '../../../shared/schemas/projects.ts';
import type { TokenResponse, User } from '../../../shared/schemas/accounts.ts';
import type { envelope } from '../../../shared/schemas/common.ts';

export type ProjectOut = z.infer<typeof Project>;
export type ProjectInput = z.input<typeof ProjectCreate>;
export type UserOut = z.infer<typeof User>;
/** The paginated list envelope of every collection endpoint. */
export type Envelope<S extends z.ZodType> = z.infer<ReturnType<typeof envelope<S>>>;

export interface ListQuery {
  limit?: number;
  offset?: number;
  /** Field names separated by commas; a leading minus reverses the order. */
  ordering?: string;
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
  if (status === 0) return 'Folio cannot be reached. Is it still running?';
  return `The request failed (HTTP ${status}).`;
}

/**
 * What the renderer needs from Folio. The desktop shell will implement the same interface over IPC;
 * views depend on this interface, never on fetch.
 */
export interface FolioClient {
  /** Exchanges an email and password for the account's API token. */
  login(email: string, password: string): Promise<string>;
  me(): Promise<UserOut>;
  listProjects(query?: ListQuery): Promise<Envelope<typeof Project>>;
  createProject(input: ProjectInput): Promise<ProjectOut>;
}

export class HttpClient implements FolioClient {
  /** `baseUrl` is empty in the page (same origin); tests and scripts may pass an absolute one. */
  constructor(
    private readonly token: string | null,
    private readonly baseUrl = '',
  ) {}

  private async request<T>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (this.token) headers.Authorization = `Token ${this.token}`;
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    let res: Response;
    try {
      res = await fetch(`${this.baseUrl}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        // The token travels in the header only; no cookies are involved.
        credentials: 'omit',
      });
    } catch {
      throw new ApiError(0, null);
    }
    const text = await res.text();
    let parsed: unknown = null;
    if (text && (res.headers.get('content-type') ?? '').includes('json')) parsed = JSON.parse(text);
    if (!res.ok) throw new ApiError(res.status, parsed ?? text);
    return parsed as T;
  }

  async login(email: string, password: string): Promise<string> {
    const r = await this.request<z.infer<typeof TokenResponse>>('POST', '/api/v3/auth/', { username: email, password });
    return r.token;
  }

  me(): Promise<UserOut> {
    return this.request('GET', '/api/v3/auth/me/');
  }

  listProjects(query: ListQuery = {}): Promise<Envelope<typeof Project>> {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) if (v !== undefined) params.set(k, String(v));
    const qs = params.toString();
    return this.request('GET', `/api/v3/projects/${qs ? `?${qs}` : ''}`);
  }

  createProject(input: ProjectInput): Promise<ProjectOut> {
    return this.request('POST', '/api/v3/projects/', input);
  }
}
