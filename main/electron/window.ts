// The Folio window and the guards of its session: the app scheme serving the renderer, the CSP header,
// remote requests cancelled, permissions denied, navigation and new windows blocked (security.ts).
import { BrowserWindow, session, shell, type WebContents } from 'electron';
import { fileURLToPath } from 'node:url';
import { rendererDist } from '../paths.ts';
import { appProtocolHandler } from './protocol.ts';
import {
  APP_ORIGIN,
  APP_SCHEME,
  addSecurityHeaders,
  blockRemoteRequest,
  denyPermissionCheck,
  denyPermissionRequest,
  guardNavigation,
  windowOpenHandler,
  windowOptions,
} from './security.ts';

export const PRELOAD_PATH = fileURLToPath(new URL('./preload.cjs', import.meta.url));

/** Once, after app ready and before the first window: the default session serves and guards the app. */
export function secureSession(apiUrl: () => string): void {
  const ses = session.defaultSession;
  ses.protocol.handle(APP_SCHEME, appProtocolHandler(rendererDist, apiUrl));
  ses.setPermissionRequestHandler(denyPermissionRequest);
  ses.setPermissionCheckHandler(denyPermissionCheck);
  ses.webRequest.onBeforeRequest({ urls: ['<all_urls>'] }, blockRemoteRequest);
  ses.webRequest.onHeadersReceived({ urls: ['<all_urls>'] }, addSecurityHeaders);
}

/** Every web contents (the window, and anything it might try to create) gets the navigation guards. */
export function guardContents(contents: WebContents, apiUrl: () => string): void {
  contents.on('will-navigate', guardNavigation);
  contents.on('will-redirect', guardNavigation);
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler((details) => windowOpenHandler(apiUrl(), (url) => void shell.openExternal(url))(details));
}

export function createMainWindow(apiUrl: string, dataDir: string): BrowserWindow {
  const win = new BrowserWindow(windowOptions(PRELOAD_PATH, apiUrl, dataDir));
  win.once('ready-to-show', () => win.show());
  void win.loadURL(`${APP_ORIGIN}/`);
  return win;
}
