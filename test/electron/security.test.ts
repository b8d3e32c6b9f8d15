// The desktop window's security (Electron's checklist), tested without the Electron binary: the window
// options, the preload's bridge (built with a fake contextBridge and ipcRenderer), and the navigation,
// new-window, permission, remote-request and header guards called with fake events.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { describe, expect, it, vi } from 'vitest';
import type { FolioBridge, MenuCommand } from '../../shared/desktopBridge.ts';
import { API_URL_ARG, DATA_DIR_ARG, IPC_CHANNELS } from '../../shared/desktopBridge.ts';
import {
  APP_ORIGIN,
  addSecurityHeaders,
  blockRemoteRequest,
  CONTENT_SECURITY_POLICY,
  denyPermissionCheck,
  denyPermissionRequest,
  guardNavigation,
  windowOpenHandler,
  windowOptions,
} from '../../main/electron/security.ts';
import { menuTemplate } from '../../main/electron/menu.ts';
import { appRoot } from '../../main/paths.ts';
import { CSP_DIRECTIVES } from '../../shared/contentSecurityPolicy.ts';

const API = 'http://127.0.0.1:8427';
const require = createRequire(import.meta.url);
const PRELOAD = path.join(appRoot, 'main', 'electron', 'preload.cjs');

interface PreloadModule {
  CHANNELS: Record<string, string>;
  API_URL_ARG: string;
  DATA_DIR_ARG: string;
  exposeBridge(contextBridge: { exposeInMainWorld(key: string, api: unknown): void }, ipc: unknown, argv: string[]): void;
}

describe('window options', () => {
  it('isolate and sandbox the renderer, without Node and with web security', () => {
    const o = windowOptions('/app/main/electron/preload.cjs', API, '/data/folio');
    expect(o.webPreferences).toMatchObject({
      preload: '/app/main/electron/preload.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      experimentalFeatures: false,
      navigateOnDragDrop: false,
    });
    // The only thing the page learns from the main process up front: where the API is.
    expect(o.webPreferences?.additionalArguments).toEqual([`${API_URL_ARG}${API}`, `${DATA_DIR_ARG}/data/folio`]);
  });
});

describe('the preload', () => {
  function exposed(argv: string[] = ['electron', `${API_URL_ARG}${API}`, `${DATA_DIR_ARG}/data/folio`]) {
    const preload = require(PRELOAD) as PreloadModule;
    const exposeInMainWorld = vi.fn();
    const listeners = new Map<string, (...args: unknown[]) => void>();
    const ipc = {
      invoke: vi.fn(async (channel: string, payload: unknown) => ({ status: 200, body: JSON.stringify({ channel, payload }) })),
      on: vi.fn((channel: string, fn: (...args: unknown[]) => void) => void listeners.set(channel, fn)),
      removeListener: vi.fn((channel: string) => void listeners.delete(channel)),
      send: vi.fn(),
      sendSync: vi.fn(),
    };
    preload.exposeBridge({ exposeInMainWorld }, ipc, argv);
    return { preload, exposeInMainWorld, ipc, listeners, bridge: exposeInMainWorld.mock.calls[0]?.[1] as FolioBridge };
  }

  it('exposes one object, window.folio, with the API address and four functions, frozen', () => {
    const { exposeInMainWorld, bridge } = exposed();
    expect(exposeInMainWorld).toHaveBeenCalledTimes(1);
    expect(exposeInMainWorld.mock.calls[0][0]).toBe('folio');
    expect(Object.keys(bridge).sort()).toEqual(['apiUrl', 'chooseFolder', 'dataDir', 'onMenu', 'request', 'upload']);
    expect(bridge.apiUrl).toBe(API);
    expect(bridge.dataDir).toBe('/data/folio');
    for (const name of ['request', 'upload', 'onMenu', 'chooseFolder'] as const) expect(typeof bridge[name]).toBe('function');
    expect(Object.isFrozen(bridge)).toBe(true);
  });

  it('passes calls to the invoke channels and leaks nothing of ipcRenderer', async () => {
    const { bridge, ipc } = exposed();
    const values = Object.values(bridge);
    for (const fn of Object.values(ipc)) expect(values).not.toContain(fn);
    expect(values).not.toContain(ipc);

    const req = { method: 'GET' as const, path: '/api/v3/projects/', query: {}, token: 't' };
    expect(JSON.parse((await bridge.request(req)).body)).toEqual({ channel: IPC_CHANNELS.request, payload: req });
    const up = { path: '/api/v3/documents/', fields: {}, fileField: 'data_file', fileName: 'a.pdf', data: new ArrayBuffer(1), token: 't' };
    expect(JSON.parse((await bridge.upload(up)).body).channel).toBe(IPC_CHANNELS.upload);
    expect(ipc.invoke).toHaveBeenCalledTimes(2);
    // The folder chooser sends nothing of the page's: whatever it is called with stays behind.
    await (bridge.chooseFolder as (...args: unknown[]) => Promise<unknown>)('/etc', { properties: ['openFile'] });
    expect(ipc.invoke).toHaveBeenLastCalledWith(IPC_CHANNELS.chooseFolder);
    expect(ipc.send).not.toHaveBeenCalled();
    expect(ipc.sendSync).not.toHaveBeenCalled();
  });

  it('hands menu commands to the page without the IPC event, and stops on request', () => {
    const { bridge, listeners, ipc } = exposed();
    const got: unknown[] = [];
    const stop = bridge.onMenu((command) => got.push(command));
    const command: MenuCommand = { kind: 'show-shortcuts' };
    listeners.get(IPC_CHANNELS.menu)!({ sender: ipc, senderFrame: {} }, command);
    expect(got).toEqual([command]);
    stop();
    expect(listeners.has(IPC_CHANNELS.menu)).toBe(false);
    expect(() => bridge.onMenu('not a function' as never)).toThrow(TypeError);
  });

  it('spells the channels and the argument as the main process does', () => {
    const { preload, bridge } = exposed(['electron']);
    expect(preload.CHANNELS).toEqual(IPC_CHANNELS);
    expect(preload.API_URL_ARG).toBe(API_URL_ARG);
    expect(preload.DATA_DIR_ARG).toBe(DATA_DIR_ARG);
    expect(bridge.apiUrl).toBe('');
    expect(bridge.dataDir).toBe('');
  });
});

describe('navigation and new windows', () => {
  const navigate = (url: string) => {
    const event = { preventDefault: vi.fn() };
    guardNavigation(event, url);
    return event.preventDefault.mock.calls.length > 0;
  };

  it('keeps the window on the app: every other address is refused', () => {
    expect(navigate(`${APP_ORIGIN}/`)).toBe(false);
    expect(navigate(`${APP_ORIGIN}/#/projects/3`)).toBe(false);
    for (const url of ['https://example.com/', `${API}/`, 'file:///etc/passwd', 'folio://other/', 'javascript:alert(1)', 'not a url']) {
      expect(navigate(url), url).toBe(true);
    }
  });

  it('opens no window; only the API reference goes to the system browser, on the API address', () => {
    const openExternal = vi.fn();
    const handler = windowOpenHandler(API, openExternal);
    expect(handler({ url: `${APP_ORIGIN}/swagger/?token=abc` })).toEqual({ action: 'deny' });
    expect(openExternal).toHaveBeenLastCalledWith(`${API}/swagger/?token=abc`);
    expect(handler({ url: `${APP_ORIGIN}/api/v3/openapi.json` })).toEqual({ action: 'deny' });
    expect(openExternal).toHaveBeenLastCalledWith(`${API}/api/v3/openapi.json`);
    openExternal.mockClear();
    for (const url of ['https://example.com/swagger/', `${APP_ORIGIN}/doc/show/1/`, 'https://evil.example/?u=folio://app/swagger/', 'javascript:open()']) {
      expect(handler({ url })).toEqual({ action: 'deny' });
    }
    expect(openExternal).not.toHaveBeenCalled();
  });
});

describe('permissions, remote content and headers', () => {
  it('denies every permission request and check', () => {
    for (const permission of ['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal']) {
      const callback = vi.fn();
      denyPermissionRequest({}, permission, callback);
      expect(callback).toHaveBeenCalledWith(false);
    }
    expect(denyPermissionCheck()).toBe(false);
  });

  it('cancels every request that is not the app itself or in-page data', () => {
    const cancelled = (url: string) => {
      const callback = vi.fn();
      blockRemoteRequest({ url }, callback);
      return callback.mock.calls[0][0].cancel as boolean;
    };
    expect(cancelled(`${APP_ORIGIN}/assets/index.js`)).toBe(false);
    expect(cancelled('data:image/png;base64,AAAA')).toBe(false);
    expect(cancelled('blob:folio://app/1234')).toBe(false);
    for (const url of ['https://fonts.example/font.woff2', 'http://example.com/', `${API}/api/v3/projects/`, 'ws://127.0.0.1:1/', 'file:///tmp/x']) {
      expect(cancelled(url), url).toBe(true);
    }
  });

  it('puts the Content-Security-Policy on every answer, replacing any other', () => {
    const callback = vi.fn();
    addSecurityHeaders({ responseHeaders: { 'content-security-policy': ["default-src *"], 'Content-Type': ['text/html'] } }, callback);
    const headers = callback.mock.calls[0][0].responseHeaders as Record<string, string[]>;
    expect(headers['Content-Security-Policy']).toEqual([CONTENT_SECURITY_POLICY]);
    expect(headers['content-security-policy']).toBeUndefined();
    expect(headers['Content-Type']).toEqual(['text/html']);
  });

  it('is strict: own origin only, no inline script, no plugins, not framed', () => {
    const directives = new Map(CONTENT_SECURITY_POLICY.split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name, values]));
    expect(directives.get('default-src')).toEqual(["'self'"]);
    expect(directives.get('script-src')).toEqual(["'self'"]);
    expect(directives.get('connect-src')).toEqual(["'self'"]);
    expect(directives.get('object-src')).toEqual(["'none'"]);
    expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-|https?:|\*/);
  });

  it('is the policy the renderer build writes into index.html, plus frame-ancestors', () => {
    // Both come from shared/contentSecurityPolicy.ts: the build's meta tag and the desktop header cannot drift.
    const source = fs.readFileSync(path.join(appRoot, 'vite.config.ts'), 'utf8');
    expect(source).toMatch(/CSP_DIRECTIVES\.join\('; '\)/);
    expect(CONTENT_SECURITY_POLICY.split('; ')).toEqual([...CSP_DIRECTIVES, "frame-ancestors 'none'"]);
    expect(CSP_DIRECTIVES).toContain("default-src 'self'");
  });
});

describe('the menu', () => {
  const actions = { importDocuments: vi.fn(), openDataFolder: vi.fn(), openApiReference: vi.fn(), showShortcuts: vi.fn() };
  type Item = { label?: string; role?: string; accelerator?: string; registerAccelerator?: boolean; click?: () => void; submenu?: Item[] };
  const items = (packaged: boolean, platform: NodeJS.Platform = 'linux') => (menuTemplate(actions, { platform, packaged }) as Item[]).flatMap((m) => [m, ...(m.submenu ?? [])]);
  const byLabel = (list: Item[], label: string) => list.find((i) => i.label === label)!;

  it('imports documents, opens the data folder and the API reference, and shows the shortcuts', () => {
    const list = items(true);
    byLabel(list, 'Import Documents…').click!();
    byLabel(list, 'Open Data Folder').click!();
    byLabel(list, 'API Reference').click!();
    byLabel(list, 'Keyboard Shortcuts').click!();
    for (const fn of Object.values(actions)) expect(fn).toHaveBeenCalledTimes(1);
    expect(byLabel(list, 'Import Documents…').accelerator).toBe('CmdOrCtrl+O');
    // "?" is shown but left to the page (its own shortcut, and typing in fields).
    expect(byLabel(list, 'Keyboard Shortcuts')).toMatchObject({ accelerator: '?', registerAccelerator: false });
  });

  it('offers developer tools in development only', () => {
    expect(items(true).some((i) => i.role === 'toggleDevTools')).toBe(false);
    expect(items(false).some((i) => i.role === 'toggleDevTools')).toBe(true);
    expect(items(true, 'darwin')[0].role).toBe('appMenu');
  });
});
