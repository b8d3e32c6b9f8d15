// The API reference: the OpenAPI 3.1 document as JSON, and the interactive Swagger UI at /swagger,
// served from the swagger-ui-dist package (works offline). Both need a login (spec section 1).
import type { Express, NextFunction, Request, Response } from 'express';
import { createRequire } from 'node:module';
import path from 'node:path';
import { z } from 'zod';
import type { Core } from '../../core.ts';
import { AuthenticationError, NotFoundError } from '../../domain/errors.ts';
import { openApiDocument } from '../openapi.ts';
import { route, type Caller, type RouteSpec } from '../route.ts';

const OpenApiDocument = z
  .looseObject({
    openapi: z.string(),
    info: z.looseObject({ title: z.string(), version: z.string() }),
    paths: z.record(z.string(), z.unknown()),
  })
  .describe('OpenAPI 3.1 document');

const documentRoute = (p: string, routes: () => readonly RouteSpec[]) =>
  route({
    method: 'get',
    path: p,
    tag: 'docs',
    summary: 'This OpenAPI 3.1 description of the API',
    response: OpenApiDocument,
    // The document is built on first use: the list it describes holds these routes too.
    handler: () => openApiDocument(routes()),
  });

/** The two routes that answer the OpenAPI document of `routes` (allRoutes, which includes them: so it is
 * asked for when a request comes, not while the list is being built). */
export const docsRoutes = (routes: () => readonly RouteSpec[]): RouteSpec[] => [
  documentRoute('/api/v3/openapi.json', routes),
  documentRoute('/swagger.json', routes),
];

// ---- Swagger UI ---------------------------------------------------------------------------------

const REALM = 'Basic realm="Folio API reference"';

/**
 * The UI loads the document from under /swagger/ (not /api/v3/openapi.json) on purpose: a browser
 * sends the Basic credentials it was asked for on /swagger/ along to the same folder, and a 401
 * there repeats our Basic challenge, whereas the API's 401s ask for a Token, which a browser cannot give.
 */
const UI_DOCUMENT_URL = '/swagger/?format=openapi';

const PAGE = `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="UTF-8">
    <title>Folio API reference</title>
    <link rel="stylesheet" type="text/css" href="/swagger/swagger-ui.css">
    <link rel="stylesheet" type="text/css" href="/swagger/index.css">
    <link rel="icon" type="image/png" href="/swagger/favicon-32x32.png" sizes="32x32">
    <link rel="icon" type="image/png" href="/swagger/favicon-16x16.png" sizes="16x16">
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="/swagger/swagger-ui-bundle.js" charset="UTF-8"></script>
    <script src="/swagger/folio-initializer.js" charset="UTF-8"></script>
  </body>
</html>
`;

// The web app opens the page by a signed URL (shared/signedFileUrls.ts) with the token in the fragment,
// /swagger/?fk=…&sig=…#token=…, which no server or proxy sees; the page sends it as an Authorization header
// with the document request and every "Try it out". A script's /swagger/?token=... still works.
// The document URL starts from location.origin: relative to a page opened with user:password@ in its
// URL, fetch() refuses it. validatorUrl null: the default fetches a badge from validator.swagger.io.
const INITIALIZER = `// Folio: points Swagger UI at this server's OpenAPI document; nothing is loaded from elsewhere.
window.addEventListener('load', function () {
  var token = new URLSearchParams(window.location.hash.slice(1)).get('token') || new URLSearchParams(window.location.search).get('token');
  window.ui = SwaggerUIBundle({
    url: window.location.origin + ${JSON.stringify(UI_DOCUMENT_URL)},
    requestInterceptor: function (request) {
      if (token && !request.headers.Authorization) request.headers.Authorization = 'Token ' + token;
      return request;
    },
    dom_id: '#swagger-ui',
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
    validatorUrl: null,
  });
  if (token) window.ui.preauthorizeApiKey('Token', 'Token ' + token);
});
`;

/** The files of swagger-ui-dist the page uses; the package's own index.html and initializer point at a demo API online. */
const ASSETS = new Set(['swagger-ui.css', 'index.css', 'swagger-ui-bundle.js', 'favicon-32x32.png', 'favicon-16x16.png']);

/** The package folder, found without loading its index (which would load the 1.5 MB browser bundle into Node). */
const swaggerUiDir = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

/** The caller, or undefined when credentials are missing or wrong (both answer with the Basic challenge). */
async function caller(core: Core, req: Request): Promise<Caller | undefined> {
  const token = typeof req.query.token === 'string' ? req.query.token : undefined;
  try {
    return await core.services.auth.authenticate(req.get('authorization'), token, req.method, req.ip, req.originalUrl);
  } catch (err) {
    if (err instanceof AuthenticationError) return undefined;
    throw err;
  }
}

/**
 * Mounts /swagger (page and document behind a login that a browser can prompt for) and its static
 * files. The static files are public: they are the stock Swagger UI and our initializer, with no
 * Folio data in them. Not route objects, so they stay out of the API description, and so that a
 * wrong password typed into the browser's prompt is asked again instead of ending in the API's
 * Token challenge. `routes` are the ones the document describes (the server's, allRoutes).
 */
export function mountApiReference(app: Express, core: Core, routes: readonly RouteSpec[]): void {
  app.get(['/swagger', '/swagger/index.html'], (req: Request, res: Response, next: NextFunction) => {
    caller(core, req)
      .then((user) => {
        res.set('Cache-Control', 'no-store');
        if (!user) {
          res.status(401).set('WWW-Authenticate', REALM).json({ detail: 'Log in with your Folio account (email and password) to view the API reference.' });
        } else if (req.query.format === 'openapi') {
          res.json(openApiDocument(routes));
        } else {
          res.type('html').send(PAGE);
        }
      })
      .catch(next);
  });
  app.get('/swagger/folio-initializer.js', (_req, res) => {
    res.type('text/javascript').send(INITIALIZER);
  });
  app.get('/swagger/:file', (req, res, next) => {
    const file = req.params.file as string;
    if (!ASSETS.has(file)) return next(new NotFoundError(`No file ${req.path}.`));
    res.sendFile(file, { root: swaggerUiDir, maxAge: '1d' }, (err) => err && next(err));
  });
}
