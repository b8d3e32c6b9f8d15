// Runs one declared route for any transport: who is calling, the body checked against the route's zod
// schema, the handler, sparse fields, and every error turned into its status and body. The HTTP server
// (server.ts) and the desktop window's IPC (electron/ipc.ts) both go through here, so a request is
// checked and answered by the same code whichever door it comes in by.
import fs from 'node:fs';
import type { Request, Response } from 'express';
import multer from 'multer';
import type { Core } from '../core.ts';
import type { UserRow } from '../store/schema.ts';
import type { UploadedFile } from '../services/documentService.ts';
import { AuthenticationError, HttpError, NotFoundError } from '../domain/errors.ts';
import { RESPONDED, successStatus, type Ctx, type RouteSpec } from './route.ts';
import { pageLinks, parseListParams } from './listParams.ts';
import { applySparseFields } from './sparseFields.ts';
import { coerceForm, validate } from './validation.ts';
import { errorResponse, logFailure } from './errors.ts';

/** The credentials of a request: an Authorization header value, or a `?token=` (GET and HEAD only). */
export interface Credentials {
  authorization?: string;
  queryToken?: string;
  method: string;
  /** The client's IP address, which failed Basic logins are counted against. */
  address?: string;
  /** The path and query as requested: a signed file URL (shared/signedFileUrls.ts) is checked against it. */
  url?: string;
}

/** The caller of `spec`, or a 401 when the route needs one and the request names none. */
export async function authenticateCaller(core: Core, spec: Pick<RouteSpec, 'auth'>, c: Credentials): Promise<UserRow | undefined> {
  const user = await core.services.auth.authenticate(c.authorization, c.queryToken, c.method.toUpperCase(), c.address, c.url);
  if (!user && spec.auth !== 'public') throw new AuthenticationError();
  return user;
}

/** One request to one route, as any transport hands it over. */
export interface RouteCall {
  user: UserRow | undefined;
  params: Record<string, string>;
  query: Request['query'];
  /** The parsed body (JSON, or form fields already coerced); undefined when the request had none. */
  body: unknown;
  file?: UploadedFile;
  /** The absolute URL of the request as the caller sees it: the base of paging links and `ctx.url`. */
  url: string;
  /** Present over HTTP only; the routes that write files themselves need it. */
  http?: { req: Request; res: Response };
  /** The client's IP address (HTTP only). */
  clientAddress?: string;
}

/** The answer of a route: JSON-ready `body` (undefined for 204), or RESPONDED when the handler wrote it. */
export type RouteOutcome = { status: number; body: unknown } | typeof RESPONDED;

function positiveIntParam(raw: string | undefined): number {
  if (!raw || !/^\d+$/.test(raw)) throw new NotFoundError('Not found.');
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < 1) throw new NotFoundError('Not found.');
  return n;
}

const httpOnly = (what: string) => () => {
  throw new Error(`ctx.${what} exists over HTTP only: routes that send files are not served over IPC.`);
};

function routeContext(core: Core, spec: RouteSpec, call: RouteCall): Ctx<unknown> {
  const origin = new URL(call.url).origin;
  const ctx = {
    core,
    user: call.user as UserRow,
    maybeUser: call.user,
    query: call.query,
    file: call.file,
    body: spec.body ? validate(spec.body, call.body ?? {}) : undefined,
    id: (name = 'id') => positiveIntParam(call.params[name]),
    param: (name: string) => call.params[name] ?? '',
    list: () => parseListParams(call.query),
    page: (page, params, map) => ({ count: page.count, ...pageLinks(call.url, params, page.count), results: page.items.map(map) }),
    url: (p) => `${origin}${p}`,
    clientAddress: call.clientAddress,
    header: (name: string) => call.http?.req.get(name),
  } as Omit<Ctx<unknown>, 'req' | 'res'> as Ctx<unknown>;
  if (call.http) Object.assign(ctx, call.http);
  else Object.defineProperties(ctx, { req: { get: httpOnly('req') }, res: { get: httpOnly('res') } });
  return ctx;
}

/** Runs the route's handler; an uploaded file the handler did not take over is removed afterwards. */
export async function runRoute(core: Core, spec: RouteSpec, call: RouteCall): Promise<RouteOutcome> {
  try {
    const result = await spec.handler(routeContext(core, spec, call) as Ctx<never>);
    if (result === RESPONDED) return RESPONDED;
    const status = successStatus(spec);
    if (status === 204) return { status, body: undefined };
    const fields = spec.method === 'get' && typeof call.query.fields === 'string' ? call.query.fields : undefined;
    return { status, body: applySparseFields(result, fields) };
  } finally {
    // Awaited: once the answer is out, no temporary file of this request is left.
    if (call.file?.path) await fs.promises.rm(call.file.path, { force: true }).catch(() => {});
  }
}

export const noEndpoint = (method: string, path: string) => new NotFoundError(`No endpoint ${method.toUpperCase()} ${path}.`);

// ---- transports without their own router (IPC) -----------------------------------------------------

/** A request as a transport without a router of its own (the desktop IPC) hands it in. */
export interface ApiCall {
  method: string;
  /** The path without query string, e.g. `/api/v3/projects/5/`. */
  path: string;
  query: Record<string, string | string[]>;
  body?: unknown;
  /** The caller's API token. */
  token?: string | null;
  /** For multipart routes: the file part and the form fields (strings, coerced like a form's). */
  upload?: { field: string; fileName: string; bytes: Uint8Array; fields: Record<string, string> };
}

/** Status and JSON body, the same as the HTTP server would answer (`body` undefined for 204). */
export interface ApiAnswer {
  status: number;
  body: unknown;
}

interface CompiledRoute {
  spec: RouteSpec;
  method: string;
  segments: string[];
}

const segmentsOf = (path: string) => path.replace(/\/+$/, '').split('/');

/** Answers ApiCalls from the declared routes, matched as Express matches them (case-insensitive, trailing slash optional). */
export class RouteDispatcher {
  private readonly table: CompiledRoute[];

  /** `origin`: the HTTP server's address, the base of the absolute URLs in answers (paging links). */
  constructor(
    private readonly core: Core,
    routes: RouteSpec[],
    private readonly origin: string,
  ) {
    this.table = routes.map((spec) => ({ spec, method: spec.method, segments: segmentsOf(spec.path) }));
  }

  match(method: string, path: string): { spec: RouteSpec; params: Record<string, string> } | undefined {
    const wanted = segmentsOf(path);
    const m = method.toLowerCase();
    for (const r of this.table) {
      if (r.method !== m || r.segments.length !== wanted.length) continue;
      const params: Record<string, string> = {};
      const ok = r.segments.every((seg, i) => {
        if (seg.startsWith(':')) {
          if (!wanted[i]) return false;
          params[seg.slice(1)] = safeDecode(wanted[i]);
          return true;
        }
        return seg.toLowerCase() === wanted[i].toLowerCase();
      });
      if (ok) return { spec: r.spec, params };
    }
    return undefined;
  }

  async dispatch(call: ApiCall): Promise<ApiAnswer> {
    try {
      const found = this.match(call.method, call.path);
      if (!found) throw noEndpoint(call.method, call.path);
      const { spec, params } = found;
      if (spec.produces) throw new HttpError(406, `${call.method.toUpperCase()} ${call.path} answers with a file (${spec.produces}): load it from its URL instead.`);
      // As over HTTP: who is calling is settled before any body is read or file is stored.
      const user = await authenticateCaller(this.core, spec, { authorization: call.token ? `Token ${call.token}` : undefined, method: call.method });
      const multipart = spec.bodyMode === 'multipart';
      if (multipart !== (call.upload !== undefined)) {
        throw new HttpError(415, multipart ? 'This endpoint takes a file: send it as an upload.' : 'This endpoint takes no file: send a JSON body.');
      }
      let body = call.body;
      let file: UploadedFile | undefined;
      if (call.upload) {
        body = coerceForm(spec.body!, { ...call.upload.fields });
        file = await this.writeUpload(spec, call.upload);
      }
      const qs = new URLSearchParams(Object.entries(call.query).flatMap(([k, v]) => (Array.isArray(v) ? v.map((x) => [k, x]) : [[k, v]]))).toString();
      // runRoute owns the file from here: it removes it unless the handler took it over.
      const outcome = await runRoute(this.core, spec, { user, params, query: call.query, body, file, url: `${this.origin}${call.path}${qs ? `?${qs}` : ''}` });
      if (outcome === RESPONDED) throw new Error(`${spec.method} ${spec.path} wrote its own answer, which IPC cannot carry`);
      return outcome;
    } catch (err) {
      const { status, body } = errorResponse(err);
      logFailure(`${call.method} ${call.path}`, status, err);
      return { status, body };
    }
  }

  /** The file of an upload into the blob store's temporary folder, with multer's limits and errors. */
  private async writeUpload(spec: RouteSpec, upload: NonNullable<ApiCall['upload']>): Promise<UploadedFile> {
    const expected = spec.fileField ?? 'data_file';
    if (upload.field !== expected) throw new multer.MulterError('LIMIT_UNEXPECTED_FILE', upload.field);
    if (upload.bytes.byteLength > this.core.config.maxUploadBytes) throw new multer.MulterError('LIMIT_FILE_SIZE', upload.field);
    const path = this.core.blobs.tempPath('.upload');
    try {
      await fs.promises.writeFile(path, upload.bytes);
    } catch (err) {
      await fs.promises.rm(path, { force: true }).catch(() => {});
      throw err;
    }
    return { path, originalname: upload.fileName, size: upload.bytes.byteLength };
  }
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
