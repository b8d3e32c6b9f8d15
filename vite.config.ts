// Builds the renderer (renderer/ -> dist/renderer), which the Folio server serves at `/` and the
// desktop window loads. `npm run build` runs it; `npm start` / `npm run serve` run it when stale.
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { CSP_DIRECTIVES } from './shared/contentSecurityPolicy.ts';

/**
 * The page's Content-Security-Policy (shared/contentSecurityPolicy.ts), added at build time only, because
 * the dev server injects an inline script (React Fast Refresh) and a websocket that it would block.
 */
const CONTENT_SECURITY_POLICY = CSP_DIRECTIVES.join('; ');

function contentSecurityPolicy(): Plugin {
  return {
    name: 'folio-content-security-policy',
    apply: 'build',
    transformIndexHtml: () => [
      { tag: 'meta', attrs: { 'http-equiv': 'Content-Security-Policy', content: CONTENT_SECURITY_POLICY }, injectTo: 'head-prepend' },
    ],
  };
}

/** `vite` (dev) forwards API calls to a Folio started with `npm run serve` on the default port. */
const apiTarget = `http://127.0.0.1:${process.env.FOLIO_PORT || 8427}`;

// Absolute, so that the build works from any working directory (bin/ensure-renderer.mjs, the desktop build).
const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

export default defineConfig({
  root: here('./renderer'),
  base: '/',
  plugins: [react(), contentSecurityPolicy()],
  build: {
    outDir: here('./dist/renderer'),
    emptyOutDir: true,
    // No inline data: URLs for scripts; small assets may still be inlined by CSS (img-src allows data:).
    assetsInlineLimit: 0,
    sourcemap: true,
  },
  server: {
    host: '127.0.0.1',
    proxy: { '/api': apiTarget, '/doc': apiTarget, '/page': apiTarget },
  },
});
