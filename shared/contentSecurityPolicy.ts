// The Content-Security-Policy of the renderer: the page may load code, styles and data from its own
// origin only (Folio works air-gapped, and the API token in the page must never reach another host).
// The build puts it in index.html's meta tag (vite.config.ts); the desktop window (main/electron/security.ts)
// and the HTTP server (main/http/securityHeaders.ts) also send it as a header, where it can add what a meta
// tag cannot (frame-ancestors).
export const CSP_DIRECTIVES = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
] as const;

/** The policy as a response header: the directives plus frame-ancestors, which a meta tag cannot carry. */
export const CSP_HEADER = [...CSP_DIRECTIVES, "frame-ancestors 'none'"].join('; ');
