// Starts a real Folio (real SQLite file in a fresh temporary data folder, or with FOLIO_TEST_DB=postgres a
// fresh PostgreSQL database: testStore.ts) on a random loopback port, and gives tests a small HTTP client for it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../main/config.ts';
import { openCore, type Core } from '../../main/core.ts';
import { startServer } from '../../main/server.ts';
import { withTestStore } from './testStore.ts';

export const ADMIN = { email: 'admin@test.local', password: 'admin-password-1' };

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
  text: string;
}

export interface RequestOptions {
  body?: unknown;
  /** Send `body` form-encoded instead of JSON. */
  form?: boolean;
  /** Raw body and content type, sent as they are. */
  raw?: { data: string | Uint8Array | FormData; contentType?: string };
  token?: string | null;
  headers?: Record<string, string>;
}

export class Client {
  constructor(readonly baseUrl: string, public token?: string) {}

  async request<T = any>(method: string, url: string, opts: RequestOptions = {}): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    const token = opts.token === undefined ? this.token : opts.token;
    if (token && !headers.Authorization) headers.Authorization = `Token ${token}`;
    let body: BodyInit | undefined;
    if (opts.raw) {
      body = opts.raw.data as BodyInit;
      if (opts.raw.contentType) headers['Content-Type'] = opts.raw.contentType;
    } else if (opts.body !== undefined) {
      if (opts.form) {
        const p = new URLSearchParams();
        for (const [k, v] of Object.entries(opts.body as Record<string, unknown>)) {
          if (Array.isArray(v)) v.forEach((x) => p.append(k, String(x)));
          else if (v !== undefined) p.append(k, String(v));
        }
        body = p.toString();
        headers['Content-Type'] = 'application/x-www-form-urlencoded';
      } else {
        body = JSON.stringify(opts.body);
        headers['Content-Type'] = 'application/json';
      }
    }
    const res = await fetch(url.startsWith('http') ? url : `${this.baseUrl}${url}`, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    if ((res.headers.get('content-type') ?? '').includes('json') && text) parsed = JSON.parse(text);
    return { status: res.status, body: parsed as T, headers: res.headers, text };
  }

  get<T = any>(url: string, opts?: RequestOptions) {
    return this.request<T>('GET', url, opts);
  }
  post<T = any>(url: string, body?: unknown, opts?: RequestOptions) {
    return this.request<T>('POST', url, { ...opts, body });
  }
  put<T = any>(url: string, body?: unknown, opts?: RequestOptions) {
    return this.request<T>('PUT', url, { ...opts, body });
  }
  patch<T = any>(url: string, body?: unknown, opts?: RequestOptions) {
    return this.request<T>('PATCH', url, { ...opts, body });
  }
  delete<T = any>(url: string, opts?: RequestOptions) {
    return this.request<T>('DELETE', url, opts);
  }

  /** Logs in through the API and keeps the token for later requests. */
  async login(email: string, password: string): Promise<string> {
    const r = await this.post('/api/v3/auth/', { username: email, password }, { token: null });
    if (r.status !== 200) throw new Error(`login failed: ${r.status} ${r.text}`);
    this.token = r.body.token;
    return this.token!;
  }
}

export interface TestServer {
  url: string;
  core: Core;
  dataDir: string;
  /** Logged in as the administrator. */
  admin: Client;
  /** A new client with no credentials. */
  anonymous(): Client;
  /** Creates a user (an administrator with `isAdmin`) and returns a client logged in as them. */
  userClient(email: string, password?: string, opts?: { isAdmin?: boolean }): Promise<Client>;
  close(): Promise<void>;
}

export function tempDir(prefix = 'folio-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export async function startTestServer(opts: { dataDir?: string; env?: NodeJS.ProcessEnv } = {}): Promise<TestServer> {
  const dataDir = opts.dataDir ?? tempDir();
  const config = loadConfig(await withTestStore(dataDir, opts.env), { dataDir, port: 0, host: '127.0.0.1' });
  const core = await openCore(config);
  await core.services.users.ensureAdmin(ADMIN.email, ADMIN.password);
  const server = await startServer(core);
  const admin = new Client(server.url);
  await admin.login(ADMIN.email, ADMIN.password);
  return {
    url: server.url,
    core,
    dataDir,
    admin,
    anonymous: () => new Client(server.url),
    async userClient(email, password = 'user-password-1', opts = {}) {
      await core.services.users.create(email, password, opts);
      const c = new Client(server.url);
      await c.login(email, password);
      return c;
    },
    async close() {
      await server.close();
      await core.close();
    },
  };
}
