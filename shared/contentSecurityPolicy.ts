// The Content-Security-Policy of the renderer: the page may load code, styles and data from its own
// origin only (Folio works air-gapped, and the API token in the page must never reach another host).
// The build puts it in index.html's meta tag (vite.config.ts); the desktop window also sends it as a header
// (main/electron/security.ts), where it can add what a meta tag cannot (frame-ancestors).
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
