// The Express application: every declared route behind authentication, body parsing and validation,
// then the renderer's static files, then the error mapper.
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import multer from 'multer';
import fs from 'node:fs';
import path from 'node:path';
import type { Core } from '../core.ts';
import { AuthenticationError, HttpError, NotFoundError } from '../domain/errors.ts';
import { allRoutes } from './routes/index.ts';
import { mountApiReference } from './routes/docs.ts';
import { RESPONDED, successStatus, type Ctx, type RouteSpec } from './route.ts';
import { parseListParams, pageLinks } from './listParams.ts';
import { applySparseFields } from './sparseFields.ts';
import { coerceForm, validate } from './validation.ts';
import { errorHandler } from './errors.ts';
import { ResponseCache } from './responseCache.ts';
import type { UserRow } from '../store/schema.ts';
import { rendererDist } from '../paths.ts';

declare module 'express-serve-static-core' {
  interface Request {
    user?: UserRow;
  }
}

const asyncHandler =
  (fn: (req: Request, res: Response, next: NextFunction) => Promise<void>): RequestHandler =>
  (req, res, next) => {
    fn(req, res, next).catch(next);
  };

export function authenticate(core: Core, required: boolean): RequestHandler {
  return asyncHandler(async (req, _res, next) => {
    const q = req.query.token;
    const user = await core.services.auth.authenticate(req.get('authorization'), typeof q === 'string' ? q : undefined, req.method);
    if (!user && required) throw new AuthenticationError();
    req.user = user;
    next();
  });
}

function hasBody(req: Request): boolean {
  return req.get('transfer-encoding') !== undefined || Number(req.get('content-length') ?? 0) > 0;
}

function bodyParsers(core: Core, spec: RouteSpec): RequestHandler[] {
  if (!spec.body || !['post', 'put', 'patch', 'delete'].includes(spec.method)) return [];
  const limit = core.config.maxBodyBytes;
  if (spec.bodyMode === 'multipart') {
    return [
      (req, _res, next) => {
        if (!req.is('multipart/form-data')) {
          return next(new HttpError(415, `This endpoint takes multipart/form-data (got "${req.get('content-type') ?? 'no content type'}").`));
        }
        next();
      },
      core.upload.single(spec.fileField ?? 'data_file'),
    ];
  }
  const json = express.json({ limit, type: ['application/json', 'application/*+json'], strict: false });
  const form = express.urlencoded({ extended: false, limit, parameterLimit: 10_000 });
  const multipartFields = multer({ limits: { fieldSize: limit, fields: 1000, files: 0 } }).none();
  return [
    (req, res, next) => {
      if (!hasBody(req)) {
        req.body = {};
        return next();
      }
      if (req.is(['application/json', 'application/*+json'])) return json(req, res, next);
      if (req.is('application/x-www-form-urlencoded')) {
        return form(req, res, (err?: unknown) => {
          if (err) return next(err);
          req.body = coerceForm(spec.body!, req.body ?? {});
          next();
        });
      }
      if (req.is('multipart/form-data')) {
        return multipartFields(req, res, (err?: unknown) => {
          if (err) return next(err);
          req.body = coerceForm(spec.body!, { ...(req.body ?? {}) });
          next();
        });
      }
      next(new HttpError(415, `Unsupported media type "${req.get('content-type') ?? ''}" in request. Send application/json or application/x-www-form-urlencoded.`));
    },
  ];
}

function toIntParam(raw: string | undefined): number {
  if (!raw || !/^\d+$/.test(raw)) throw new NotFoundError('Not found.');
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < 1) throw new NotFoundError('Not found.');
  return n;
}

function makeContext(core: Core, spec: RouteSpec, req: Request, res: Response): Ctx<unknown> {
  const origin = `${req.protocol}://${req.get('host') ?? `${core.config.host}:${core.config.port}`}`;
  return {
    req,
    res,
    core,
    user: req.user as UserRow,
    maybeUser: req.user,
    body: spec.body ? validate(spec.body, req.body ?? {}) : undefined,
    id: (name = 'id') => toIntParam(req.params[name] as string | undefined),
    list: () => parseListParams(req.query),
    page: (page, params, map) => ({ count: page.count, ...pageLinks(req, params, page.count), results: page.items.map(map) }),
    url: (p) => `${origin}${p}`,
  };
}

function mount(core: Core, spec: RouteSpec, cache: ResponseCache): RequestHandler[] {
  const cached = spec.cache === true && spec.method === 'get';
  const run = asyncHandler(async (req, res) => {
    // Stamp first, then build: whatever the handler reads is at least as new as the stamp.
    const stamp = cached ? core.store.changeStamp() : '';
    const key = cached ? `${req.user?.id ?? 'public'} ${req.get('host')} ${req.originalUrl}` : '';
    if (cached) {
      const hit = cache.get(key, stamp);
      if (hit !== undefined) {
        res.status(successStatus(spec)).type('application/json').send(hit);
        return;
      }
    }
    try {
      const ctx = makeContext(core, spec, req, res);
      const result = await spec.handler(ctx as Ctx<never>);
      if (result === RESPONDED || res.headersSent) return;
      const status = successStatus(spec);
      if (status === 204) {
        res.status(204).end();
        return;
      }
      const fields = spec.method === 'get' && typeof req.query.fields === 'string' ? req.query.fields : undefined;
      const body = Buffer.from(JSON.stringify(applySparseFields(result, fields)));
      if (cached) cache.set(key, stamp, body);
      res.status(status).type('application/json').send(body);
    } finally {
      // An upload that the handler did not take over is removed: no orphaned files.
      if (req.file?.path) fs.rm(req.file.path, { force: true }, () => {});
    }
  });
  return [authenticate(core, spec.auth !== 'public'), ...bodyParsers(core, spec), run];
}

export function createHttpApp(core: Core, routes: RouteSpec[] = allRoutes): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  const cache = new ResponseCache();
  for (const spec of routes) app[spec.method](spec.path, ...mount(core, spec, cache));
  mountApiReference(app, core);

  app.use(['/api', '/doc', '/page'], (req, _res, next) => next(new NotFoundError(`No endpoint ${req.method} ${req.originalUrl.split('?')[0]}.`)));
  mountRenderer(app);
  app.use(errorHandler);
  return app;
}

/** The built renderer (vite build -> dist/renderer) at `/`, with client-side routes falling back to index.html. */
function mountRenderer(app: express.Express): void {
  const dir = rendererDist;
  const index = path.join(dir, 'index.html');
  app.use(express.static(dir, { index: false, maxAge: '1h' }));
  app.get(/.*/, (req, res, next) => {
    if (!req.accepts('html')) return next(new NotFoundError());
    if (!fs.existsSync(index)) {
      res.status(503).type('text/plain').send('The Folio renderer is not built yet. Run `npm run build` (npm start and npm run serve do this for you).');
      return;
    }
    res.sendFile(index);
  });
}
