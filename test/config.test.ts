// Configuration from the environment: per-OS data folders, FOLIO_PORT and size limits, and which hosts
// count as loopback (anything else makes `folio serve` warn).
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_PORT, defaultDataDir, importRoots, isLoopback, loadConfig } from '../main/config.ts';

describe('defaultDataDir', () => {
  const home = '/home/ada';

  it.each([
    ['win32', { APPDATA: 'C:\\Users\\ada\\AppData\\Roaming' }, path.join('C:\\Users\\ada\\AppData\\Roaming', 'Folio')],
    ['win32', {}, path.join(home, 'AppData', 'Roaming', 'Folio')],
    ['darwin', {}, path.join(home, 'Library', 'Application Support', 'Folio')],
    ['linux', {}, path.join(home, '.local', 'share', 'folio')],
    ['linux', { XDG_DATA_HOME: '/data/xdg' }, path.join('/data/xdg', 'folio')],
    ['freebsd', {}, path.join(home, '.local', 'share', 'folio')],
  ] as const)('on %s with %j is %s', (platform, env, expected) => {
    expect(defaultDataDir(platform, env, home)).toBe(expected);
  });

  it('is where loadConfig puts the data without FOLIO_DATA_DIR', () => {
    expect(loadConfig({}).dataDir).toBe(path.resolve(defaultDataDir()));
  });
});

describe('loadConfig', () => {
  it('defaults to loopback, the default port and 2 MB bodies / 200 MB uploads', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ host: '127.0.0.1', port: DEFAULT_PORT, maxBodyBytes: 2 * 1024 * 1024, maxUploadBytes: 200 * 1024 * 1024 });
    expect(c.adminEmail).toBeUndefined();
    expect(c.adminPassword).toBeUndefined();
  });

  it('reads the FOLIO_* variables, with a relative data folder made absolute', () => {
    const c = loadConfig({
      FOLIO_DATA_DIR: 'rel/data',
      FOLIO_HOST: '0.0.0.0',
      FOLIO_PORT: '9000',
      FOLIO_MAX_BODY_MB: '0.5',
      FOLIO_MAX_UPLOAD_MB: '10',
      FOLIO_ADMIN_EMAIL: 'boss@example.org',
      FOLIO_ADMIN_PASSWORD: 'secret-password',
      FOLIO_ALLOWED_HOSTS: 'folio.example.org, 10.0.0.5,',
      FOLIO_CALLBACK_ALLOW: '10.0.0.0/8,hooks.internal',
      FOLIO_LOGIN_MAX_FAILURES: '5',
      FOLIO_LOGIN_MAX_FAILURES_PER_ADDRESS: '0',
      FOLIO_IMPORT_POLL_SECONDS: '2.5',
      FOLIO_IMPORT_ROOTS: '/srv/scans',
    });
    expect(c).toEqual({
      dataDir: path.resolve('rel/data'),
      host: '0.0.0.0',
      port: 9000,
      maxBodyBytes: 512 * 1024,
      maxUploadBytes: 10 * 1024 * 1024,
      syncTimeoutMs: 300_000,
      adminEmail: 'boss@example.org',
      adminPassword: 'secret-password',
      allowedHosts: ['folio.example.org', '10.0.0.5'],
      callbackAllow: ['10.0.0.0/8', 'hooks.internal'],
      loginLimits: { perAccount: 5, perAddress: 0, windowMs: 15 * 60_000 },
      importPollMs: 2500,
      importRoots: ['/srv/scans'],
      localLogin: true,
      learningDelayMs: 30_000,
    });
  });

  it('lets command-line overrides win over the environment', () => {
    const c = loadConfig({ FOLIO_DATA_DIR: '/from/env', FOLIO_PORT: '9000', FOLIO_HOST: '::1' }, { dataDir: '/from/flag', port: 0, host: '127.0.0.2' });
    expect(c).toMatchObject({ dataDir: path.resolve('/from/flag'), port: 0, host: '127.0.0.2' });
  });

  it.each([
    ['', DEFAULT_PORT],
    ['0', 0],
    ['1', 1],
    ['65535', 65535],
  ])('accepts FOLIO_PORT=%j as %d', (raw, port) => {
    expect(loadConfig({ FOLIO_PORT: raw }).port).toBe(port);
  });

  it.each(['-1', '65536', '1.5', 'abc', '80 80'])('refuses FOLIO_PORT=%j with a message that names it', (raw) => {
    expect(() => loadConfig({ FOLIO_PORT: raw })).toThrow(ConfigError);
    expect(() => loadConfig({ FOLIO_PORT: raw })).toThrow(`FOLIO_PORT must be an integer from 0 to 65535, got "${raw}"`);
  });

  it.each([
    ['FOLIO_MAX_BODY_MB', '0'],
    ['FOLIO_MAX_BODY_MB', '-3'],
    ['FOLIO_MAX_UPLOAD_MB', 'lots'],
  ])('refuses %s=%j', (name, raw) => {
    expect(() => loadConfig({ [name]: raw })).toThrow(`${name} must be a positive number of megabytes, got "${raw}"`);
  });

  it('polls import folders every 5 s unless FOLIO_IMPORT_POLL_SECONDS says otherwise, never every 0 s', () => {
    expect(loadConfig({}).importPollMs).toBe(5000);
    expect(loadConfig({ FOLIO_IMPORT_POLL_SECONDS: '0.2' }).importPollMs).toBe(200);
    expect(() => loadConfig({ FOLIO_IMPORT_POLL_SECONDS: '0' })).toThrow('FOLIO_IMPORT_POLL_SECONDS must be more than 0, got "0"');
    expect(() => loadConfig({ FOLIO_IMPORT_POLL_SECONDS: 'often' })).toThrow('FOLIO_IMPORT_POLL_SECONDS must be a number of seconds, got "often"');
  });
});

describe('importRoots (FOLIO_IMPORT_ROOTS)', () => {
  it("is the user's home on the desktop and nothing (import folders off) on a team server when unset", () => {
    expect(importRoots({}, false, '/home/ada')).toEqual(['/home/ada']);
    expect(importRoots({}, true, '/home/ada')).toEqual([]);
    expect(loadConfig({ FOLIO_DATABASE_URL: 'postgres://u:p@db:5432/folio' }).importRoots).toEqual([]);
  });

  it('lists absolute folders; empty turns import folders off; a relative one is a start-up error', () => {
    expect(importRoots({ FOLIO_IMPORT_ROOTS: ['/srv/scans', '/mnt/inbox/'].join(path.delimiter) }, true)).toEqual(['/srv/scans', '/mnt/inbox']);
    expect(importRoots({ FOLIO_IMPORT_ROOTS: '' }, false)).toEqual([]);
    expect(() => importRoots({ FOLIO_IMPORT_ROOTS: 'scans' }, false)).toThrow(ConfigError);
    expect(() => importRoots({ FOLIO_IMPORT_ROOTS: 'scans' }, false)).toThrow(/absolute folders/);
  });
});

describe('isLoopback', () => {
  it.each(['127.0.0.1', '127.0.0.2', '127.255.255.254', 'localhost', '::1'])('%s is loopback', (host) => {
    expect(isLoopback(host)).toBe(true);
  });

  it.each(['0.0.0.0', '::', '192.168.1.10', '10.0.0.1', 'example.org', '128.0.0.1', ''])('%j is not loopback', (host) => {
    expect(isLoopback(host)).toBe(false);
  });
});
