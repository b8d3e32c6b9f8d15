// Headers every answer of the HTTP server carries, whatever answers it (a route, Swagger UI, the
// renderer's files, an error). The renderer runs with the user's API token in its memory: in a browser
// it gets the same protection the desktop window gives it (main/electron/security.ts), from the same policy.
import type { RequestHandler } from 'express';
import { CSP_HEADER } from '../../shared/contentSecurityPolicy.ts';

export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  // Code, styles and data from this origin only; no page may frame this one (clickjacking the review).
  'Content-Security-Policy': CSP_HEADER,
  // Older browsers know frame-ancestors by this name only.
  'X-Frame-Options': 'DENY',
  // A user's upload served back (/doc/show-original/) must never be run as a script or style by sniffing.
  'X-Content-Type-Options': 'nosniff',
  // URLs may carry ?token=: they must not travel to other sites in a Referer.
  'Referrer-Policy': 'no-referrer',
};

/** First middleware: set before anything can answer, so that no early answer goes without them. */
export const securityHeaders: RequestHandler = (_req, res, next) => {
  res.set(SECURITY_HEADERS);
  next();
};
