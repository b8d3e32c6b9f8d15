// The window's security settings and guards, after Electron's security checklist: an isolated, sandboxed
// renderer without Node, a strict Content-Security-Policy, no navigation away from the app, no new
// windows, no permissions, no remote content. Pure functions over Electron's types (no runtime import of
// electron), so that tests can call each guard with fake events.
import type {
  BrowserWindowConstructorOptions,
  CallbackResponse,
  Event,
  HandlerDetails,
  HeadersReceivedResponse,
  OnBeforeRequestListenerDetails,
  OnHeadersReceivedListenerDetails,
  WindowOpenHandlerResponse,
} from 'electron';
import { API_URL_ARG, DATA_DIR_ARG } from '../../shared/desktopBridge.ts';
import { CSP_HEADER } from '../../shared/contentSecurityPolicy.ts';

/** The renderer is served from this privileged scheme (protocol.ts): one origin for the page and its files. */
export const APP_SCHEME = 'folio';
export const APP_ORIGIN = `${APP_SCHEME}://app`;

/**
 * The policy the renderer's build puts in index.html's meta tag (vite.config.ts), sent as a header as
 * well: a header cannot be removed by anything in the page, covers every file served beside it, and can
 * say what a meta tag cannot (frame-ancestors).
 */
export const CONTENT_SECURITY_POLICY = CSP_HEADER;

/** The window: `preloadPath` builds the bridge, which learns the API's address and the data folder from arguments. */
export function windowOptions(preloadPath: string, apiUrl: string, dataDir = ''): BrowserWindowConstructorOptions {
  return {
    width: 1400,
    height: 900,
    minWidth: 900,
    minHeight: 600,
    title: 'Folio',
    // Shown once the page has painted (no white flash).
    show: false,
    backgroundColor: '#ffffff',
    webPreferences: {
      preload: preloadPath,
      additionalArguments: [`${API_URL_ARG}${apiUrl}`, `${DATA_DIR_ARG}${dataDir}`],
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
      safeDialogs: true,
      spellcheck: false,
    },
  };
}

/**
 * scheme://host of a URL. Not URL.origin: Node's URL (and so the tests) calls the origin of a scheme it
 * does not know "null", where Chromium knows folio: as a registered standard scheme.
 */
export function originOf(url: string): string | undefined {
  const u = parse(url);
  return u && u.host ? `${u.protocol}//${u.host}` : undefined;
}

export const isAppUrl = (url: string): boolean => originOf(url) === APP_ORIGIN;

function parse(url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}

/** The Swagger UI (or the OpenAPI document) of the embedded API, asked for from the page or the API itself. */
export function apiReferenceUrl(url: string, apiUrl: string): string | undefined {
  const u = parse(url);
  const api = originOf(apiUrl);
  const from = originOf(url);
  if (!u || !api || (from !== APP_ORIGIN && from !== api)) return undefined;
  if (!(u.pathname === '/swagger' || u.pathname.startsWith('/swagger/') || u.pathname === '/api/v3/openapi.json')) return undefined;
  return `${api}${u.pathname}${u.search}`;
}

/** will-navigate: the page stays the app; a link elsewhere is never followed in the window. */
export function guardNavigation(event: Pick<Event, 'preventDefault'>, url: string): void {
  if (!isAppUrl(url)) event.preventDefault();
}

/**
 * setWindowOpenHandler: no window ever opens. The API reference is the one link that may leave the app,
 * to the system browser (it works there with the token in its URL, as in a browser session).
 */
export function windowOpenHandler(apiUrl: string, openExternal: (url: string) => void): (details: Pick<HandlerDetails, 'url'>) => WindowOpenHandlerResponse {
  return ({ url }) => {
    const reference = apiReferenceUrl(url, apiUrl);
    if (reference) openExternal(reference);
    return { action: 'deny' };
  };
}

/** Permission requests and checks (camera, notifications, clipboard reads, ...): Folio needs none. */
export const denyPermissionRequest = (_webContents: unknown, _permission: string, callback: (granted: boolean) => void): void => callback(false);
export const denyPermissionCheck = (): boolean => false;

/** No remote content: the window's session loads the app scheme and in-page data only. */
export function blockRemoteRequest(details: Pick<OnBeforeRequestListenerDetails, 'url'>, callback: (response: CallbackResponse) => void): void {
  const scheme = parse(details.url)?.protocol ?? '';
  callback({ cancel: ![`${APP_SCHEME}:`, 'data:', 'blob:', 'devtools:'].includes(scheme) });
}

/** Every answer the session receives carries the policy. */
export function addSecurityHeaders(details: Pick<OnHeadersReceivedListenerDetails, 'responseHeaders'>, callback: (response: HeadersReceivedResponse) => void): void {
  const headers = { ...(details.responseHeaders ?? {}) };
  for (const name of Object.keys(headers)) if (name.toLowerCase() === 'content-security-policy') delete headers[name];
  callback({ responseHeaders: { ...headers, 'Content-Security-Policy': [CONTENT_SECURITY_POLICY], 'X-Content-Type-Options': ['nosniff'] } });
}
