// The app scheme (folio://app) that serves the desktop window: the built renderer's files, nothing outside
// its folder, the API's files forwarded to the real embedded server, and the CSP header on every answer.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appProtocolHandler, resolveAppRequest } from '../../main/electron/protocol.ts';
import { APP_ORIGIN, CONTENT_SECURITY_POLICY } from '../../main/electron/security.ts';
import { startTestServer, tempDir, type TestServer } from '../helpers/testServer.ts';
import { created } from '../helpers/documentFixtures.ts';

let s: TestServer;
let dir: string;
let handle: (request: Request) => Promise<Response>;

beforeAll(async () => {
  s = await startTestServer();
  dir = tempDir('folio-renderer-');
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>Folio</title>');
  fs.writeFileSync(path.join(dir, 'assets', 'app.js'), 'console.log(1)');
  fs.writeFileSync(path.join(path.dirname(dir), 'folio-secret.txt'), 'secret');
  handle = appProtocolHandler(dir, () => s.url);
});
afterAll(() => s.close());

describe('what an app URL names', () => {
  const resolve = (p: string) => resolveAppRequest(`${APP_ORIGIN}${p}`, dir, s.url);

  it('files of the built renderer, and the page for its own routes', () => {
    expect(resolve('/')).toEqual({ kind: 'file', file: path.join(dir, 'index.html') });
    expect(resolve('/assets/app.js')).toEqual({ kind: 'file', file: path.join(dir, 'assets', 'app.js') });
    expect(resolve('/projects/3?x=1#/a')).toEqual({ kind: 'file', file: path.join(dir, 'index.html') });
    expect(resolve('/assets/missing.js')).toEqual({ kind: 'not-found' });
  });

  it('nothing outside the renderer folder, and nothing of another origin', () => {
    expect(resolve('/..%2ffolio-secret.txt')).toEqual({ kind: 'not-found' });
    expect(resolve('/%2e%2e/folio-secret.txt')).toEqual({ kind: 'not-found' });
    expect(resolve('/a%00.js')).toEqual({ kind: 'not-found' });
    expect(resolveAppRequest('folio://elsewhere/', dir, s.url)).toEqual({ kind: 'not-found' });
    expect(resolveAppRequest('https://example.com/', dir, s.url)).toEqual({ kind: 'not-found' });
  });

  it('the API\'s files on the embedded server', () => {
    expect(resolve('/page/show-image/4/?token=t')).toEqual({ kind: 'api', url: `${s.url}/page/show-image/4/?token=t` });
    expect(resolve('/doc/show/2/')).toEqual({ kind: 'api', url: `${s.url}/doc/show/2/` });
    expect(resolve('/swagger/')).toEqual({ kind: 'api', url: `${s.url}/swagger/` });
  });
});

describe('the answers', () => {
  const get = (p: string, init?: RequestInit) => handle(new Request(`${APP_ORIGIN}${p}`, init));

  it('serves the page and its assets typed, with the Content-Security-Policy', async () => {
    const page = await get('/');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(await page.text()).toContain('<title>Folio</title>');
    const script = await get('/assets/app.js');
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(script.headers.get('x-content-type-options')).toBe('nosniff');
    expect((await get('/assets/none.css')).status).toBe(404);
    expect((await get('/', { method: 'POST', body: 'x' })).status).toBe(405);
  });

  it('forwards file URLs to the embedded API with their token, and its refusals too', async () => {
    const project = (await created(s.admin.post('/api/v3/projects/', { name: 'Protocol' }))).id;
    const csv = await get(`/api/v3/projects/${project}/export/all.csv?token=${s.admin.token}`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(csv.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect((await csv.text()).split('\n')[0]).toMatch(/document/i);
    const anonymous = await get(`/api/v3/projects/${project}/export/all.csv`);
    expect(anonymous.status).toBe(401);
  });
});
