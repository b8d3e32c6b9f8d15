// The Host check against DNS rebinding, against a real server on loopback: requests are sent with
// node:http (or a raw socket), because fetch does not let a caller choose the Host header.
import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allowedHostNames, hostNameOf } from '../../main/http/hostCheck.ts';
import { ConfigError } from '../../main/config.ts';
import { ADMIN, startTestServer, type TestServer } from '../helpers/testServer.ts';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ env: { FOLIO_ALLOWED_HOSTS: 'folio.example.org,10.0.0.5,fd00::5' } });
});
afterAll(() => s.close());

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One request to the test server (on loopback) with the Host header given, as a browser would send it. */
function rawRequest(path: string, host: string | undefined, opts: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Raw> {
  const { port } = new URL(s.url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, path, method: opts.method ?? 'GET', setHost: false, headers: { ...(host === undefined ? {} : { Host: host }), ...(opts.headers ?? {}) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.on('error', reject);
    req.end(opts.body);
  });
}

describe('the Host check (DNS rebinding)', () => {
  it.each(['127.0.0.1', '127.0.0.1:8427', 'localhost', 'LOCALHOST:1234', '127.3.2.1:80', '[::1]', '[::1]:8427', '[0:0:0:0:0:0:0:1]:1'])(
    'answers Host %j (loopback, any port)',
    async (host) => {
      const r = await rawRequest('/api/v3/auth/me/', host, { headers: { Authorization: `Token ${s.admin.token}` } });
      expect(r.status).toBe(200);
      expect(JSON.parse(r.body).email).toBe(ADMIN.email);
    },
  );

  it.each(['folio.example.org', 'FOLIO.example.org:8427', '10.0.0.5:8427', '[fd00::5]:8427'])('answers Host %j, listed in FOLIO_ALLOWED_HOSTS', async (host) => {
    const r = await rawRequest('/api/v3/auth/me/', host, { headers: { Authorization: `Token ${s.admin.token}` } });
    expect(r.status).toBe(200);
  });

  it.each(['attacker.example', 'attacker.example:8427', '127.0.0.1.attacker.example', '127.evil', 'localhost.attacker.example', '10.0.0.6', 'example.org@127.0.0.1', '0.0.0.0'])(
    'refuses Host %j with a 403 that names the setting, before any route runs',
    async (host) => {
      const r = await rawRequest('/api/v3/auth/me/', host, { headers: { Authorization: `Token ${s.admin.token}` } });
      expect(r.status).toBe(403);
      const body = JSON.parse(r.body);
      expect(body.detail).toContain('FOLIO_ALLOWED_HOSTS');
      expect(body.detail).not.toContain(ADMIN.email);
      // The refusal is an answer like any other: the security headers are on it too.
      expect(r.headers['x-frame-options']).toBe('DENY');
    },
  );

  it('refuses a rebound page its login, the web interface and Swagger UI too', async () => {
    const login = await rawRequest('/api/v3/auth/', 'rebind.attacker.example:8427', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: ADMIN.email, password: ADMIN.password }),
    });
    expect(login.status).toBe(403);
    expect(login.body).not.toContain('token');
    for (const path of ['/', '/swagger/', '/swagger/swagger-ui-bundle.js', '/api/v3/openapi.json']) {
      expect((await rawRequest(path, 'rebind.attacker.example')).status, path).toBe(403);
    }
  });

  it('refuses a request without a Host header (HTTP/1.0) as well', async () => {
    // HTTP/1.1 demands a Host header (node answers 400 without one); HTTP/1.0 reaches the check.
    const { port } = new URL(s.url);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(port), '127.0.0.1', () => socket.end(`GET /api/v3/auth/me/ HTTP/1.0\r\nAuthorization: Token ${s.admin.token}\r\n\r\n`));
      const chunks: Buffer[] = [];
      socket.on('data', (c: Buffer) => chunks.push(c));
      socket.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 403 /);
    expect(answer).toMatch(/no Host header.*FOLIO_ALLOWED_HOSTS/);
    expect(answer).not.toContain(ADMIN.email);
  });

  it('allows FOLIO_HOST when it is one address, never the wildcard', () => {
    expect([...allowedHostNames({ host: '192.168.1.20', allowedHosts: [] })]).toEqual(['192.168.1.20']);
    expect([...allowedHostNames({ host: '0.0.0.0', allowedHosts: [] })]).toEqual([]);
    expect([...allowedHostNames({ host: '::', allowedHosts: [] })]).toEqual([]);
    expect([...allowedHostNames({ host: '127.0.0.1', allowedHosts: ['Folio.Example.org:8427', 'fd00::5'] })]).toEqual(['folio.example.org', '[fd00::5]', '127.0.0.1']);
  });

  it('refuses a FOLIO_ALLOWED_HOSTS entry that is not a host at start-up', () => {
    expect(() => allowedHostNames({ host: '127.0.0.1', allowedHosts: ['https://folio.example.org/'] })).toThrow(ConfigError);
    expect(() => allowedHostNames({ host: '127.0.0.1', allowedHosts: ['a b'] })).toThrow(/FOLIO_ALLOWED_HOSTS/);
    expect(hostNameOf('[::1]:80')).toBe('[::1]');
  });
});
