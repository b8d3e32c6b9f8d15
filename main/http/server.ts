// The Express application: every declared route behind authentication, body parsing and validation,
// then the renderer's static files, then the error mapper.
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import multer from 'multer';
import fs from 'node:fs';
import path from 'node:path';
import type { Core } from '../core.ts';
import { HttpError, NotFoundError } from '../domain/errors.ts';
import { allRoutes } from './routes/index.ts';
import { mountApiReference } from './routes/docs.ts';
import { RESPONDED, successStatus, type RouteSpec } from './route.ts';
import { coerceForm } from './validation.ts';
import { errorHandler } from './errors.ts';
import { authenticateCaller, noEndpoint, runRoute } from './dispatch.ts';
import { ResponseCache } from './responseCache.ts';
import type { UserRow } from '../store/schema.ts';
import { rendererDist } from '../paths.ts';
import { securityHeaders } from './securityHeaders.ts';
import { hostCheck } from './hostCheck.ts';

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

/** First of a route's middleware: a 401 comes before any body is read or file is stored. */
export function authenticate(core: Core, spec: RouteSpec): RequestHandler {
  return asyncHandler(async (req, _res, next) => {
    const q = req.query.token;
    req.user = await authenticateCaller(core, spec, { authorization: req.get('authorization'), queryToken: typeof q === 'string' ? q : undefined, method: req.method, address: req.ip, url: req.originalUrl });
    next();
  });
}

function hasBody(req: Request): boolean {
  return req.get('transfer-encoding') !== undefined || Number(req.get('content-length') ?? 0) > 0;
}

/** A multipart body is cut into parts at its boundary: without one there is nothing to read. */
function missingBoundary(req: Request): HttpError | undefined {
  const boundary = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(req.get('content-type') ?? '');
  if (boundary?.[1] || boundary?.[2]) return undefined;
  return new HttpError(400, 'Malformed multipart body: the Content-Type multipart/form-data needs a boundary parameter (multipart/form-data; boundary=...).');
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
        next(missingBoundary(req));
      },
      (req, res, next) => {
        const single = core.upload.single(spec.fileField ?? 'data_file');
        single(req, res, (err?: unknown) => {
          if (!err) return next();
          // multer removes the files it finished, not the one whose write failed (ENOSPC): core.ts names it.
          const partial = (req as { uploadTemps?: string[] }).uploadTemps ?? [];
          void Promise.all(partial.map((f) => fs.promises.rm(f, { force: true }))).finally(() => next(err));
        });
      },
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
        const noBoundary = missingBoundary(req);
        if (noBoundary) return next(noBoundary);
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

function mount(core: Core, spec: RouteSpec, cache: ResponseCache): RequestHandler[] {
  const cached = spec.cache === true && spec.method === 'get';
  const run = asyncHandler(async (req, res) => {
    // Stamp first, then build: whatever the handler reads is at least as new as the stamp.
    const stamp = cached ? await core.changes.changeStamp() : '';
    const key = cached ? `${req.user?.id ?? 'public'} ${req.get('host')} ${req.originalUrl}` : '';
    if (cached) {
      const hit = cache.get(key, stamp);
      if (hit !== undefined) {
        res.status(successStatus(spec)).type('application/json').send(hit);
        return;
      }
    }
    const origin = `${req.protocol}://${req.get('host') ?? `${core.config.host}:${core.config.port}`}`;
    const outcome = await runRoute(core, spec, {
      user: req.user,
      params: req.params as Record<string, string>,
      query: req.query,
      body: req.body,
      file: req.file,
      url: `${origin}${req.originalUrl}`,
      http: { req, res },
      clientAddress: req.ip,
    });
    if (outcome === RESPONDED || res.headersSent) return;
    if (outcome.status === 204) {
      res.status(204).end();
      return;
    }
    const body = Buffer.from(JSON.stringify(outcome.body));
    if (cached) cache.set(key, stamp, body);
    res.status(outcome.status).type('application/json').send(body);
  });
  return [authenticate(core, spec), ...bodyParsers(core, spec), run];
}

export function createHttpApp(core: Core, routes: RouteSpec[] = allRoutes): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  // Before everything: the refusal of a foreign Host carries the headers too, and is answered before
  // any route, login or static file is reached.
  app.use(securityHeaders, hostCheck(core.config));
  const cache = new ResponseCache();
  for (const spec of routes) app[spec.method](spec.path, ...mount(core, spec, cache));
  mountApiReference(app, core, routes);

  app.use(['/api', '/doc', '/page'], (req, _res, next) => next(noEndpoint(req.method, req.originalUrl.split('?')[0])));
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
