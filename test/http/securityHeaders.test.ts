// The security headers on every answer of a real server on loopback, from the one policy the renderer
// build and the desktop window use.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CSP_DIRECTIVES, CSP_HEADER } from '../../shared/contentSecurityPolicy.ts';
import { CONTENT_SECURITY_POLICY } from '../../main/electron/security.ts';
import { ADMIN, startTestServer, type TestServer } from '../helpers/testServer.ts';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

const expectSecurityHeaders = (headers: Headers, what: string) => {
  const get = (name: string) => headers.get(name);
  expect(get('content-security-policy'), what).toBe(CSP_HEADER);
  expect(get('x-frame-options'), what).toBe('DENY');
  expect(get('x-content-type-options'), what).toBe('nosniff');
  expect(get('referrer-policy'), what).toBe('no-referrer');
};

describe('security headers', () => {
  it('is the one policy of the renderer build and the desktop window, plus frame-ancestors', () => {
    expect(CSP_HEADER).toBe(CONTENT_SECURITY_POLICY);
    expect(CSP_HEADER.split('; ')).toEqual([...CSP_DIRECTIVES, "frame-ancestors 'none'"]);
  });

  it('are on every kind of answer: the web interface, its files, the API, errors, Swagger UI', async () => {
    const basic = `Basic ${Buffer.from(`${ADMIN.email}:${ADMIN.password}`).toString('base64')}`;
    const answers = {
      // index.html (or the 503 "not built yet" page when the renderer is not built in this checkout)
      'the web interface': await fetch(`${s.url}/`, { headers: { Accept: 'text/html' } }),
      'a client-side route': await fetch(`${s.url}/projects/1`, { headers: { Accept: 'text/html' } }),
      'an API answer': await fetch(`${s.url}/api/v3/projects/`, { headers: { Authorization: `Token ${s.admin.token}` } }),
      'a 401': await fetch(`${s.url}/api/v3/projects/`),
      'a 404': await fetch(`${s.url}/api/v3/nothing-here/`),
      'a 400': await fetch(`${s.url}/api/v3/auth/`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"broken' }),
      'Swagger UI': await fetch(`${s.url}/swagger/`, { headers: { Authorization: basic } }),
      "Swagger UI's script": await fetch(`${s.url}/swagger/swagger-ui-bundle.js`),
      "Swagger UI's initializer": await fetch(`${s.url}/swagger/folio-initializer.js`),
    };
    for (const [what, res] of Object.entries(answers)) {
      expect(res.status, what).toBeLessThan(600);
      expectSecurityHeaders(res.headers, what);
      await res.arrayBuffer();
    }
    expect(answers['Swagger UI'].status).toBe(200);
    // nosniff makes browsers insist on the type of scripts: Swagger UI's must be served as JavaScript.
    expect(answers["Swagger UI's script"].headers.get('content-type')).toMatch(/javascript/);
    expect(answers["Swagger UI's initializer"].headers.get('content-type')).toMatch(/javascript/);
  });
});
