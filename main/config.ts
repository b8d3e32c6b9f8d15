// Runtime configuration of a Folio instance: where data lives and where the API listens.
// Read once from the environment (and CLI flags) at start-up; everything else receives a Config.
import os from 'node:os';
import path from 'node:path';

export interface Config {
  dataDir: string;
  host: string;
  port: number;
  /** Largest JSON or form body accepted, in bytes. */
  maxBodyBytes: number;
  /** Largest uploaded file, in bytes. */
  maxUploadBytes: number;
  /** How long a sync=true upload waits for processing before answering with the document as it stands. */
  syncTimeoutMs: number;
  /** Continuous learning's wait after a finished review before it trains (FOLIO_LEARNING_DELAY_SECONDS; docs/continuous-learning.md). */
  learningDelayMs: number;
  adminEmail?: string;
  adminPassword?: string;
  /** Host names besides loopback the API answers to (FOLIO_ALLOWED_HOSTS; main/http/hostCheck.ts). */
  allowedHosts: string[];
  /** Private addresses and names completion callbacks may reach (FOLIO_CALLBACK_ALLOW; main/events/callbackTargets.ts). */
  callbackAllow: string[];
  /** Failed logins allowed per account and per client address within the window; 0 turns that limit off. */
  loginLimits: { perAccount: number; perAddress: number; windowMs: number };
  /** How often the import watcher reads the import folders (FOLIO_IMPORT_POLL_SECONDS; main/imports/importWatcher.ts). */
  importPollMs: number;
  /** The folders import folders may be in (FOLIO_IMPORT_ROOTS; main/imports/importRoots.ts); empty turns them off. */
  importRoots: string[];
  /** Single sign-on through an OpenID Connect provider (FOLIO_OIDC_*; main/auth/); undefined without FOLIO_OIDC_ISSUER. */
  oidc?: OidcConfig;
  /** Whether passwords sign in (POST /auth/, /api/token-auth/, Basic): FOLIO_LOCAL_LOGIN=off turns them off, with OIDC set. */
  localLogin: boolean;
  /** The team server's object store (FOLIO_S3_*; main/blobs/s3BlobStore.ts); undefined keeps blobs in <data>/blobs. */
  s3?: S3Config;
  /** The team server's PostgreSQL (FOLIO_DATABASE_URL, postgres://...; main/store/pgStore.ts); undefined keeps SQLite in the data folder. */
  databaseUrl?: string;
}

export interface S3Config {
  /** The S3 API's URL (an S3-compatible store: MinIO, Ceph, AWS's regional endpoint). */
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** The bound on the local copies of blobs read by path (FOLIO_S3_CACHE_MB, default 1024). */
  cacheBytes: number;
}

export interface OidcConfig {
  /** The provider's issuer URL (discovery reads `<issuer>/.well-known/openid-configuration`). */
  issuer: string;
  clientId: string;
  /** Without it Folio is a public client (PKCE only). */
  clientSecret?: string;
  /** Shown as "Sign in with <name>" (FOLIO_OIDC_NAME; default the issuer's host name). */
  name: string;
  /** The callback registered with the provider; without it, `<the address the browser used>/api/v3/auth/oidc/callback/`. */
  redirectUrl?: string;
  /** Scopes asked for (FOLIO_OIDC_SCOPES; default `openid email profile`). */
  scopes: string;
  /** Members of this group are administrators (FOLIO_OIDC_ADMIN_GROUP), read from the claim `groupsClaim`. */
  adminGroup?: string;
  groupsClaim: string;
  /**
   * Which of the provider's emails may join a sign-in to an existing Folio account, and make
   * FOLIO_ADMIN_EMAIL's account an administrator (FOLIO_OIDC_TRUST_EMAILS): `verified` (default) those
   * the provider marks email_verified; `all` every one it sends except those it marks unverified (for
   * providers that never send the claim: the administrator vouches for their emails); `none` no email
   * (every identity reaches only the account it made).
   */
  trustEmails: TrustEmails;
}

export const TRUST_EMAILS = ['verified', 'all', 'none'] as const;
export type TrustEmails = (typeof TRUST_EMAILS)[number];

export const DEFAULT_PORT = 8427;

/** The per-OS data folder a desktop app is expected to use. */
export function defaultDataDir(platform = process.platform, env = process.env, home = os.homedir()): string {
  if (platform === 'win32') return path.join(env.APPDATA ?? path.join(home, 'AppData', 'Roaming'), 'Folio');
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support', 'Folio');
  return path.join(env.XDG_DATA_HOME ?? path.join(home, '.local', 'share'), 'folio');
}

export class ConfigError extends Error {}

function parsePort(raw: string | undefined): number {
  if (raw === undefined || raw === '') return DEFAULT_PORT;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n > 65535) throw new ConfigError(`FOLIO_PORT must be an integer from 0 to 65535, got "${raw}"`);
  return n;
}

export interface ConfigOverrides {
  dataDir?: string;
  host?: string;
  port?: number;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: ConfigOverrides = {}): Config {
  const mb = (name: string, fallback: number) => {
    const raw = env[name];
    if (!raw) return fallback * 1024 * 1024;
    const n = Number(raw);
    if (!Number.isFinite(n) || n <= 0) throw new ConfigError(`${name} must be a positive number of megabytes, got "${raw}"`);
    return Math.round(n * 1024 * 1024);
  };
  const seconds = (name: string, fallback: number) => {
    const raw = env[name];
    if (!raw) return fallback * 1000;
    if (!/^\d+(\.\d+)?$/.test(raw)) throw new ConfigError(`${name} must be a number of seconds, got "${raw}"`);
    return Math.round(Number(raw) * 1000);
  };
  const count = (name: string, fallback: number) => {
    const raw = env[name];
    if (!raw) return fallback;
    if (!/^\d+$/.test(raw)) throw new ConfigError(`${name} must be a whole number (0 turns the limit off), got "${raw}"`);
    return Number(raw);
  };
  const importPollMs = seconds('FOLIO_IMPORT_POLL_SECONDS', 5);
  if (importPollMs <= 0) throw new ConfigError(`FOLIO_IMPORT_POLL_SECONDS must be more than 0, got "${env.FOLIO_IMPORT_POLL_SECONDS}"`);
  const list = (name: string) => (env[name] ?? '').split(',').map((x) => x.trim()).filter(Boolean);
  return {
    dataDir: path.resolve(overrides.dataDir ?? env.FOLIO_DATA_DIR ?? defaultDataDir()),
    host: overrides.host ?? env.FOLIO_HOST ?? '127.0.0.1',
    port: overrides.port ?? parsePort(env.FOLIO_PORT),
    maxBodyBytes: mb('FOLIO_MAX_BODY_MB', 2),
    maxUploadBytes: mb('FOLIO_MAX_UPLOAD_MB', 200),
    syncTimeoutMs: seconds('FOLIO_SYNC_TIMEOUT_S', 300),
    learningDelayMs: seconds('FOLIO_LEARNING_DELAY_SECONDS', 30),
    adminEmail: env.FOLIO_ADMIN_EMAIL || undefined,
    adminPassword: env.FOLIO_ADMIN_PASSWORD || undefined,
    allowedHosts: list('FOLIO_ALLOWED_HOSTS'),
    callbackAllow: list('FOLIO_CALLBACK_ALLOW'),
    loginLimits: {
      perAccount: count('FOLIO_LOGIN_MAX_FAILURES', 10),
      perAddress: count('FOLIO_LOGIN_MAX_FAILURES_PER_ADDRESS', 100),
      windowMs: 15 * 60_000,
    },
    importPollMs,
    importRoots: importRoots(env, Boolean(env.FOLIO_DATABASE_URL)),
    oidc: oidcConfig(env),
    localLogin: localLogin(env),
    s3: s3Config(env, mb('FOLIO_S3_CACHE_MB', 1024)),
    databaseUrl: databaseUrl(env.FOLIO_DATABASE_URL),
  };
}

/** FOLIO_IMPORT_ROOTS: absolute folders separated by the platform's path delimiter (`:`, on Windows `;`). Unset:
 * the user's home folder on the desktop, none on a team server (whose users are not the machine's); empty: none. */
export function importRoots(env: NodeJS.ProcessEnv, teamServer: boolean, home = os.homedir()): string[] {
  const raw = env.FOLIO_IMPORT_ROOTS;
  if (raw === undefined) return teamServer ? [] : [home];
  const roots = raw.split(path.delimiter).map((r) => r.trim()).filter(Boolean);
  const relative = roots.find((r) => !path.isAbsolute(r));
  if (relative !== undefined) throw new ConfigError(`FOLIO_IMPORT_ROOTS must list absolute folders separated by "${path.delimiter}", got "${relative}"`);
  return roots.map((r) => path.resolve(r));
}

/** FOLIO_DATABASE_URL: a PostgreSQL connection URL with a host and a database, or nothing (SQLite). */
function databaseUrl(raw: string | undefined): string | undefined {
  const value = raw?.trim();
  if (!value) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError('FOLIO_DATABASE_URL must be a PostgreSQL URL like postgres://user:password@host:5432/folio, got something that is not a URL');
  }
  // Not echoed back: the URL may hold a password.
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new ConfigError(`FOLIO_DATABASE_URL must start with postgres:// or postgresql:// (Folio's team server runs on PostgreSQL), got "${url.protocol}//..."`);
  }
  // A socket folder in ?host= stands for the host name (postgres:///folio?host=/var/run/postgresql).
  if (!url.hostname && !url.searchParams.get('host')) throw new ConfigError('FOLIO_DATABASE_URL names no host: postgres://user:password@host:5432/folio');
  if (url.pathname.length <= 1) throw new ConfigError('FOLIO_DATABASE_URL names no database: add it after the host, postgres://user:password@host:5432/folio');
  return value;
}

/** The object store's settings: all five or none (a partial set is a mistake, not the desktop default). */
const S3_SETTINGS = {
  endpoint: 'FOLIO_S3_ENDPOINT',
  bucket: 'FOLIO_S3_BUCKET',
  region: 'FOLIO_S3_REGION',
  accessKeyId: 'FOLIO_S3_ACCESS_KEY_ID',
  secretAccessKey: 'FOLIO_S3_SECRET_ACCESS_KEY',
} as const;

function s3Config(env: NodeJS.ProcessEnv, cacheBytes: number): S3Config | undefined {
  const fields = Object.keys(S3_SETTINGS) as (keyof typeof S3_SETTINGS)[];
  const value = (f: keyof typeof S3_SETTINGS) => env[S3_SETTINGS[f]]?.trim() ?? '';
  const missing = fields.filter((f) => !value(f)).map((f) => S3_SETTINGS[f]);
  if (missing.length === fields.length) return undefined;
  if (missing.length) {
    const set = fields.filter((f) => value(f)).map((f) => S3_SETTINGS[f]);
    throw new ConfigError(`Object storage needs all five FOLIO_S3_* settings: ${set.join(', ')} ${set.length === 1 ? 'is' : 'are'} set but ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} not`);
  }
  const bucket = value('bucket');
  // S3's bucket naming rules: 3 to 63 lower-case letters, digits, dots and hyphens, a letter or digit at each end.
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) throw new ConfigError(`FOLIO_S3_BUCKET must be a bucket name (3 to 63 lower-case letters, digits, dots and hyphens), got "${bucket}"`);
  return {
    endpoint: httpUrl('FOLIO_S3_ENDPOINT', value('endpoint')),
    bucket,
    region: value('region'),
    accessKeyId: value('accessKeyId'),
    secretAccessKey: value('secretAccessKey'),
    cacheBytes,
  };
}

function httpUrl(name: string, raw: string): string {
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) throw new ConfigError(`${name} must be an http(s) URL, got "${raw}"`);
  return raw;
}

function oidcConfig(env: NodeJS.ProcessEnv): OidcConfig | undefined {
  const issuer = env.FOLIO_OIDC_ISSUER?.trim();
  const clientId = env.FOLIO_OIDC_CLIENT_ID?.trim();
  if (!issuer) {
    if (clientId) throw new ConfigError('FOLIO_OIDC_CLIENT_ID is set but FOLIO_OIDC_ISSUER is not: set the provider\'s issuer URL too');
    return undefined;
  }
  if (!clientId) throw new ConfigError('FOLIO_OIDC_ISSUER is set but FOLIO_OIDC_CLIENT_ID is not: set the client id Folio is registered under');
  const redirect = env.FOLIO_OIDC_REDIRECT_URL?.trim();
  return {
    issuer: httpUrl('FOLIO_OIDC_ISSUER', issuer),
    clientId,
    clientSecret: env.FOLIO_OIDC_CLIENT_SECRET || undefined,
    name: env.FOLIO_OIDC_NAME?.trim() || new URL(issuer).hostname,
    redirectUrl: redirect ? httpUrl('FOLIO_OIDC_REDIRECT_URL', redirect) : undefined,
    scopes: env.FOLIO_OIDC_SCOPES?.trim() || 'openid email profile',
    adminGroup: env.FOLIO_OIDC_ADMIN_GROUP?.trim() || undefined,
    groupsClaim: env.FOLIO_OIDC_GROUPS_CLAIM?.trim() || 'groups',
    trustEmails: trustEmails(env.FOLIO_OIDC_TRUST_EMAILS),
  };
}

function trustEmails(raw: string | undefined): TrustEmails {
  const value = (raw ?? '').trim().toLowerCase() || 'verified';
  if (!(TRUST_EMAILS as readonly string[]).includes(value)) {
    throw new ConfigError(`FOLIO_OIDC_TRUST_EMAILS must be one of ${TRUST_EMAILS.map((v) => `"${v}"`).join(', ')}, got "${raw}"`);
  }
  return value as TrustEmails;
}

function localLogin(env: NodeJS.ProcessEnv): boolean {
  const raw = (env.FOLIO_LOCAL_LOGIN ?? '').trim().toLowerCase();
  if (raw === '' || raw === 'on') return true;
  if (raw !== 'off') throw new ConfigError(`FOLIO_LOCAL_LOGIN must be "on" or "off", got "${env.FOLIO_LOCAL_LOGIN}"`);
  if (!env.FOLIO_OIDC_ISSUER?.trim()) throw new ConfigError('FOLIO_LOCAL_LOGIN=off needs single sign-on (FOLIO_OIDC_ISSUER): without either, nobody could sign in');
  return false;
}

/** Loopback addresses are the only ones that keep the API private to this machine. */
export function isLoopback(host: string): boolean {
  const h = host.trim().toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || h.startsWith('127.') || h.startsWith('::ffff:127.');
}
