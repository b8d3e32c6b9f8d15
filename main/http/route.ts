// Declarative routes: one object per endpoint holds its path, schemas and handler, so that the
// Express wiring (server.ts) and the OpenAPI description (openapi.ts) come from the same source.
import type { Request, Response } from 'express';
import type { z } from 'zod';
import type { UserRow } from '../store/schema.ts';
import type { Core } from '../core.ts';
import type { UploadedFile } from '../services/documentService.ts';
import type { ListParams, Page } from '../../shared/listParams.ts';

/** The authenticated caller as the services take it; route files name it so, not by its store row. */
export type Caller = UserRow;

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface ListDoc {
  /** Filter query parameter -> description. */
  filters: Record<string, string>;
  /** Fields accepted by `ordering`. */
  ordering: string[];
}

export interface Ctx<B> {
  /**
   * The HTTP exchange, for the routes that send a file themselves (`produces`). Only the HTTP server
   * serves those: over the desktop IPC (dispatch.ts) these two throw. JSON routes use `query` and `file`.
   */
  req: Request;
  res: Response;
  core: Core;
  /** The parsed query string. */
  query: Request['query'];
  /** The uploaded file of a multipart route, in the blob store's temporary folder. */
  file: UploadedFile | undefined;
  /** The authenticated caller (routes with `auth: 'public'` may see undefined through `maybeUser`). */
  user: UserRow;
  maybeUser: UserRow | undefined;
  body: B;
  /** A path parameter as a positive integer; anything else is a 404, as for an unknown id. */
  id(name?: string): number;
  /** A path parameter as text (a public link's token), decoded. */
  param(name: string): string;
  /** The list conventions parsed from the query string (limit, offset, ordering, dates, filters). */
  list(): ListParams;
  /** The envelope of spec 2.13 with absolute next/previous. */
  page<T>(page: Page<T>, params: ListParams, map: (item: T) => unknown): PageEnvelope;
  /** Absolute URL of a path on this server. */
  url(path: string): string;
  /** The client's IP address over HTTP (login throttling); undefined over the desktop window's IPC. */
  clientAddress: string | undefined;
  /** A request header over HTTP (Idempotency-Key); undefined over the desktop window's IPC, which has none. */
  header(name: string): string | undefined;
}

export interface PageEnvelope {
  count: number;
  next: string | null;
  previous: string | null;
  results: unknown[];
}

/** Returned by handlers that wrote the response themselves (files, redirects). */
export const RESPONDED = Symbol('responded');

export interface RouteSpec<S extends z.ZodType | undefined = z.ZodType | undefined> {
  method: Method;
  /** Express path syntax (`/api/v3/projects/:id/`); a trailing slash is optional for clients. */
  path: string;
  summary: string;
  tag: string;
  description?: string;
  /** Default 'required'. */
  auth?: 'required' | 'public';
  /** Request body schema (JSON, form-encoded or multipart fields). */
  body?: S;
  /** 'multipart' bodies are documented as multipart/form-data only (document upload). */
  bodyMode?: 'json' | 'multipart';
  /** The multipart part that carries the file (default `data_file`, the document upload's). */
  fileField?: string;
  list?: ListDoc;
  /** Extra query parameters (documentation only; handlers read them). */
  query?: Record<string, string>;
  response?: z.ZodType;
  /** Content type of a non-JSON response (files). */
  produces?: string;
  /**
   * GET only: keep the serialized answer per caller and URL while the database is unchanged
   * (see responseCache.ts). For heavy reads whose result depends only on stored data.
   */
  cache?: boolean;
  /** Success status; defaults to 201 for POST, 204 for DELETE, else 200. */
  status?: number;
  /** A password login: past the failed-login limits it answers 429 (documented in the OpenAPI document). */
  throttled?: boolean;
  handler(ctx: Ctx<S extends z.ZodType ? z.infer<S> : undefined>): Promise<unknown> | unknown;
}

/** Keeps each route's body type tied to its handler while collecting routes into plain arrays. */
export function route<S extends z.ZodType | undefined = undefined>(spec: RouteSpec<S>): RouteSpec {
  return spec as unknown as RouteSpec;
}

export function successStatus(spec: RouteSpec): number {
  if (spec.status) return spec.status;
  if (spec.method === 'post') return 201;
  if (spec.method === 'delete') return 204;
  return 200;
}
