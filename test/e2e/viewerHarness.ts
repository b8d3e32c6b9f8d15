// The viewer harness (renderer/viewer-harness.html: the Viewer alone, embedded as the review view embeds
// it) built with the app's Vite config and served from the same origin as a running Folio: a small
// loopback server answers /__viewer-harness/ from the build and passes everything else to Folio, so
// the page's API calls, the searchable PDF and the pdf.js worker all load exactly as in the app.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { build } from 'vite';
import { repoRoot } from '../helpers/processes.ts';

const PREFIX = '/__viewer-harness/';
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.css': 'text/css',
  '.map': 'application/json',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};

export interface ViewerHarness {
  /** Origin of the harness server (Folio's API answers there too). */
  url: string;
  /** The harness page for a document. */
  pageUrl(documentId: number, query?: Record<string, string>): string;
  close(): Promise<void>;
}

/** Builds the harness (the app's Vite config, production mode, CSP included) into a temporary folder. */
export async function buildViewerHarness(): Promise<string> {
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-viewer-harness-'));
  await build({
    configFile: path.join(repoRoot, 'vite.config.ts'),
    base: PREFIX,
    logLevel: 'error',
    build: {
      outDir,
      emptyOutDir: true,
      sourcemap: false,
      rolldownOptions: { input: path.join(repoRoot, 'renderer', 'viewer-harness.html') },
    },
  });
  return outDir;
}

/** Serves a harness build in front of the Folio at `folioUrl`. */
export async function serveViewerHarness(folioUrl: string, dir: string): Promise<ViewerHarness> {
  const folio = new URL(folioUrl);
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://harness');
    if (url.pathname.startsWith(PREFIX)) {
      const file = path.join(dir, decodeURIComponent(url.pathname.slice(PREFIX.length)) || 'viewer-harness.html');
      if (!file.startsWith(dir) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'Content-Type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
      fs.createReadStream(file).pipe(res);
      return;
    }
    const upstream = http.request(
      { host: folio.hostname, port: folio.port, method: req.method, path: req.url, headers: { ...req.headers, host: folio.host } },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.on('error', (err) => {
      if (!res.headersSent) res.writeHead(502, { 'Content-Type': 'text/plain' });
      res.end(`Folio did not answer: ${err.message}`);
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    pageUrl: (documentId, query = {}) => `${url}${PREFIX}viewer-harness.html?${new URLSearchParams({ document: String(documentId), ...query })}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// --- documents for the viewer's test and benchmark ------------------------------------------------------

/** Words of line `line` on page `page`: twelve distinct words, so that every word can carry a box. */
export const lineText = (page: number, line: number) =>
  `P${page + 1}L${line + 1} item ${1000 + line * 7} amount ${(line * 3.75).toFixed(2)} EUR ref R-${line * 131} code C${page}x${line} note done`;

/**
 * A born-digital PDF of `pageCount` A4 pages with `linesPerPage` lines of 10-point Helvetica each.
 * `landscape` lists 0-based pages that are A4 landscape, `rotated` pages that carry /Rotate 90 (shown
 * turned, as a scan saved sideways would be), to test pages of other shapes.
 */
export async function textPdf(pageCount: number, linesPerPage: number, shapes: { landscape?: number[]; rotated?: number[] } = {}): Promise<Uint8Array> {
  const { PDFDocument, StandardFonts, degrees } = await import('pdf-lib');
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (let p = 0; p < pageCount; p++) {
    const wide = shapes.landscape?.includes(p) ?? false;
    const page = pdf.addPage(wide ? [842, 595] : [595, 842]);
    if (shapes.rotated?.includes(p)) page.setRotation(degrees(90));
    const top = wide ? 550 : 790;
    for (let line = 0; line < linesPerPage; line++) page.drawText(lineText(p, line), { x: 50, y: top - line * 14, size: 10, font });
  }
  return pdf.save();
}

/** Uploads a PDF through the API and waits until processing has finished (status 2). */
export async function uploadProcessed(base: string, token: string, fields: Record<string, string | number>, pdf: Uint8Array, name: string, timeoutMs = 300_000): Promise<any> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, String(v));
  form.set('data_file', new Blob([pdf as BlobPart], { type: 'application/pdf' }), name);
  const auth = { Authorization: `Token ${token}` };
  const res = await fetch(`${base}/api/v3/documents/`, { method: 'POST', headers: auth, body: form });
  if (res.status !== 201) throw new Error(`upload failed: ${res.status} ${await res.text()}`);
  const { id } = (await res.json()) as { id: number };
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    // A busy server may close a kept-alive connection just as the next poll goes out: poll again.
    const doc = (await fetch(`${base}/api/v3/documents/${id}/`, { headers: auth }).then((r) => r.json()).catch(() => null)) as any;
    if (doc?.status_data === 2) return doc;
    if (doc?.status_data === 111) throw new Error(`processing failed: ${JSON.stringify(doc.status_reason ?? doc)}`);
    if (Date.now() > deadline) throw new Error(`document ${id} was not processed within ${timeoutMs} ms (status ${doc?.status_data})`);
    await new Promise((r) => setTimeout(r, 250));
  }
}
