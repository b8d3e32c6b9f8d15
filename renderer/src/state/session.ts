// Who is logged in to this window. The API token lives in sessionStorage: it survives a reload of
// the page but not the closing of the window, and it is never written to disk by the renderer.
// A single sign-on ends at `/#sso-token=<token>` (main/http/oidcRoutes.ts): the token is taken from the
// address before anything reads it, kept like a password login's, and the address is replaced.
import { useMemo } from 'react';
import { create } from 'zustand';
import type { FileKey } from '../../../shared/signedFileUrls.ts';
import { SSO_TOKEN_FRAGMENT } from '../../../shared/signIn.ts';
import { FolioClient, type UserOut } from '../api/client.ts';
import { HttpTransport } from '../api/httpTransport.ts';
import { IpcTransport } from '../api/ipcTransport.ts';
import { ApiError } from '../api/transport.ts';

/** The client for a token: over IPC in the desktop window (its preload exposes `window.folio`), else HTTP. Its file
 * URLs are signed with `fileKey`, by default the session's current one. */
export const clientFor = (token: string | null, fileKey: FileKey | null = useSession.getState().fileKey) =>
  new FolioClient(window.folio ? new IpcTransport(window.folio, token, fileKey) : new HttpTransport(token, '', fileKey));

/** The session's client, made anew when the token or the file key changes (so file URLs are signed with a current key). */
export function useClient(): FolioClient {
  const token = useSession((s) => s.token);
  const fileKey = useSession((s) => s.fileKey);
  return useMemo(() => clientFor(token, fileKey), [token, fileKey]);
}

/** A file key is renewed this long before it expires: a URL built just before stays valid at least this long. */
const FILE_KEY_RENEW_MS = 5 * 60_000;
let renewal: ReturnType<typeof setTimeout> | undefined;

/** Fetches a file key for `token` into the session, and again before it expires, while the token is the session's. */
async function keepFileKey(token: string): Promise<void> {
  clearTimeout(renewal);
  let next = 30_000;
  try {
    const fileKey = await clientFor(token, null).fileKey();
    if (useSession.getState().token !== token) return;
    useSession.setState({ fileKey });
    next = Math.max(30_000, Date.parse(fileKey.expires_at) - Date.now() - FILE_KEY_RENEW_MS);
  } catch {
    // Offline for a moment, or the token was deleted (the next API call signs out): tried again shortly.
  }
  if (useSession.getState().token === token) renewal = setTimeout(() => void keepFileKey(token), next);
}

const TOKEN_KEY = 'folio.token';
/** How this window signed in: 'sso' when through the provider (Settings then renews the token there). */
const VIA_KEY = 'folio.signedInVia';

export type SignedInVia = 'password' | 'sso';

function storedToken(): string | null {
  try {
    return sessionStorage.getItem(TOKEN_KEY);
  } catch {
    return null; // storage disabled: the user logs in again after a reload
  }
}

function storeToken(token: string | null, via: SignedInVia = 'password'): void {
  try {
    if (token) {
      sessionStorage.setItem(TOKEN_KEY, token);
      sessionStorage.setItem(VIA_KEY, via);
    } else {
      sessionStorage.removeItem(TOKEN_KEY);
      sessionStorage.removeItem(VIA_KEY);
    }
  } catch {
    /* storage disabled: the token lives in memory only */
  }
}

function storedVia(): SignedInVia {
  try {
    return sessionStorage.getItem(VIA_KEY) === 'sso' ? 'sso' : 'password';
  } catch {
    return 'password';
  }
}

/** The token a single sign-on just handed over in the address, taken out of it (and out of the history entry). */
function takeSsoToken(): string | null {
  if (typeof location === 'undefined') return null;
  const match = new RegExp(`^#${SSO_TOKEN_FRAGMENT}=([^&]+)$`).exec(location.hash);
  if (!match) return null;
  history.replaceState(null, '', `${location.pathname}${location.search}#/projects`);
  const token = decodeURIComponent(match[1]);
  storeToken(token, 'sso');
  return token;
}

interface SessionState {
  token: string | null;
  /** How the token was had: a password, or the single sign-on provider. */
  via: SignedInVia;
  user: UserOut | null;
  /** The key file URLs are signed with (shared/signedFileUrls.ts), renewed before it expires. */
  fileKey: FileKey | null;
  /** `checking` while a token kept from before the reload is being verified. */
  status: 'checking' | 'signed-out' | 'signed-in';
  /** Why the user was signed out, shown above the login form. */
  notice: string | null;
  /** Verifies a token kept from before a reload; called once at start-up. */
  restore(): Promise<void>;
  /** Logs in; rejects with an ApiError carrying the API's reason. */
  login(email: string, password: string): Promise<void>;
  /**
   * Forgets the token in this window. It does not delete the token on the server: the API gives an
   * account one token, shared with that user's scripts, which a DELETE would break.
   */
  logout(notice?: string): void;
  /** Runs an API call with the session's client; a 401 (token deleted elsewhere) signs the window out. */
  call<T>(fn: (client: FolioClient) => Promise<T>): Promise<T>;
}

const initialToken = takeSsoToken() ?? storedToken();

export const useSession = create<SessionState>()((set, get) => ({
  token: initialToken,
  via: storedVia(),
  user: null,
  fileKey: null,
  status: initialToken ? 'checking' : 'signed-out',
  notice: null,

  async restore() {
    const { token } = get();
    if (!token) return set({ status: 'signed-out' });
    try {
      const user = await clientFor(token).me();
      await keepFileKey(token);
      set({ user, status: 'signed-in' });
    } catch (err) {
      get().logout(err instanceof ApiError && err.status === 401 ? 'Your session has ended. Please log in again.' : (err as Error).message);
    }
  },

  async login(email, password) {
    const token = await clientFor(null).login(email, password);
    const user = await clientFor(token).me();
    storeToken(token, 'password');
    set({ token, via: 'password', user, fileKey: null, notice: null });
    await keepFileKey(token);
    set({ status: 'signed-in' });
  },

  logout(notice) {
    storeToken(null);
    clearTimeout(renewal);
    set({ token: null, user: null, fileKey: null, status: 'signed-out', notice: notice ?? null });
  },

  async call(fn) {
    try {
      return await fn(clientFor(get().token));
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) get().logout('Your session has ended. Please log in again.');
      throw err;
    }
  },
}));
