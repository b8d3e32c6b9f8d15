// The window's origin, folio://app: the built renderer (dist/renderer), plus the files the page loads from
// the API by URL (page images, PDFs, the CSV export) forwarded to the embedded server on loopback. One
// origin for both keeps the renderer's CSP at 'self' and the API token inside the app. JSON calls do not
// come this way: they go over IPC (ipc.ts). Runs on Node's fetch/Response, so tests drive it directly.
import fs from 'node:fs';
import path from 'node:path';
import { APP_ORIGIN, CONTENT_SECURITY_POLICY, originOf } from './security.ts';

/** Paths of the API that the page loads as files (everything else under them is the same server anyway). */
const API_PREFIXES = ['/api/', '/doc/', '/page/', '/aimodel/', '/swagger'];

export type AppTarget = { kind: 'file'; file: string } | { kind: 'api'; url: string } | { kind: 'not-found' };

/** What an app URL names: a file of the built renderer, a file of the API, or nothing. */
export function resolveAppRequest(url: string, rendererDir: string, apiUrl: string): AppTarget {
  let u: URL;
  let pathname: string;
  try {
    u = new URL(url);
    pathname = decodeURIComponent(u.pathname);
  } catch {
    return { kind: 'not-found' };
  }
  if (originOf(url) !== APP_ORIGIN || pathname.includes('\0')) return { kind: 'not-found' };
  if (API_PREFIXES.some((p) => pathname.startsWith(p))) return { kind: 'api', url: `${originOf(apiUrl)}${u.pathname}${u.search}` };
  const root = path.resolve(rendererDir);
  const file = path.resolve(root, `.${pathname}`);
  if (file !== root && !file.startsWith(root + path.sep)) return { kind: 'not-found' };
  if (file !== root && isFile(file)) return { kind: 'file', file };
  // The page routes itself (hash routes); any other extension-less path is the page too, as in `folio serve`.
  return path.extname(pathname) === '' ? { kind: 'file', file: path.join(root, 'index.html') } : { kind: 'not-found' };
}

function isFile(file: string): boolean {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
};

/** Request headers worth passing on to the API: ranges (pdf.js reads PDFs in parts) and revalidation. */
const FORWARDED = ['accept', 'range', 'if-range', 'if-none-match', 'if-modified-since'];

const withPolicy = (headers: Headers): Headers => {
  headers.set('Content-Security-Policy', CONTENT_SECURITY_POLICY);
  headers.set('X-Content-Type-Options', 'nosniff');
  headers.delete('set-cookie');
  return headers;
};

/** The handler for protocol.handle(APP_SCHEME, ...). */
export function appProtocolHandler(rendererDir: string, apiUrl: () => string): (request: Request) => Promise<Response> {
  return async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return new Response(null, { status: 405, headers: withPolicy(new Headers({ Allow: 'GET, HEAD' })) });
    const target = resolveAppRequest(request.url, rendererDir, apiUrl());
    if (target.kind === 'api') {
      const headers = new Headers();
      for (const name of FORWARDED) {
        const v = request.headers.get(name);
        if (v !== null) headers.set(name, v);
      }
      const res = await fetch(target.url, { method: request.method, headers, redirect: 'manual' });
      return new Response(request.method === 'HEAD' ? null : res.body, { status: res.status, statusText: res.statusText, headers: withPolicy(new Headers(res.headers)) });
    }
    if (target.kind === 'not-found') return new Response('Not found', { status: 404, headers: withPolicy(new Headers({ 'Content-Type': 'text/plain' })) });
    let data: Buffer;
    try {
      data = await fs.promises.readFile(target.file);
    } catch {
      const hint = path.basename(target.file) === 'index.html' ? 'The Folio renderer is not built: run `npm run build`.' : 'Not found';
      return new Response(hint, { status: 404, headers: withPolicy(new Headers({ 'Content-Type': 'text/plain' })) });
    }
    const type = MIME[path.extname(target.file).toLowerCase()] ?? 'application/octet-stream';
    return new Response(request.method === 'HEAD' ? null : new Uint8Array(data), { status: 200, headers: withPolicy(new Headers({ 'Content-Type': type, 'Content-Length': String(data.length) })) });
  };
}
