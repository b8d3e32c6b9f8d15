// The sign-in endpoints besides the password login (routes/auth.ts): which ways of signing in this Folio
// offers, and single sign-on through an OpenID Connect provider (main/auth/singleSignOn.ts) for a browser:
//   GET /api/v3/auth/oidc/login/     sends the browser to the provider, the pending sign-in in a cookie
//   GET /api/v3/auth/oidc/callback/  the provider sends it back here; Folio finds or makes the account and
//                                    sends the browser to the workstation with the account's API token in
//                                    the address's fragment (#sso-token=...; never sent to a server), which
//                                    the page keeps like a password login's token and removes from the address.
// A sign-in that goes wrong (cancelled at the provider, an old or foreign state, an unverified email, a
// provider that cannot be reached) answers its 4xx (or 502) with a short page saying what happened and a
// link back to the sign-in page.
import type { Request, Response } from 'express';
import { RESPONDED, route, type RouteSpec } from './route.ts';
import { SignInMethods } from '../../shared/schemas/accounts.ts';
import { SSO_TOKEN_FRAGMENT } from '../../shared/signIn.ts';
import { HttpError, NotFoundError } from '../domain/errors.ts';
import type { Core } from '../core.ts';
import type { SingleSignOn } from '../auth/singleSignOn.ts';

const LOGIN_PATH = '/api/v3/auth/oidc/login/';
const PENDING_COOKIE = 'folio_oidc';

function ssoOf(core: Core): SingleSignOn {
  const sso = core.services.sso;
  if (!sso) throw new NotFoundError('Single sign-on is not set up on this Folio (FOLIO_OIDC_ISSUER).');
  return sso;
}

/** The cookie's path and the workstation's address follow the callback's path (a reverse proxy may add a prefix). */
function pathsOf(redirectUri: string): { cookiePath: string; appPath: string } {
  const callback = new URL(redirectUri).pathname;
  return { cookiePath: callback.replace(/[^/]*\/?$/, ''), appPath: callback.replace(/api\/v3\/auth\/oidc\/callback\/?$/, '') || '/' };
}

function cookieOf(req: Request, name: string): string | undefined {
  for (const part of (req.get('cookie') ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

function setPendingCookie(res: Response, redirectUri: string, value: string, maxAgeSeconds: number): void {
  const secure = new URL(redirectUri).protocol === 'https:' ? '; Secure' : '';
  // Lax: the browser sends it on the provider's top-level redirect back to the callback, and not on a
  // request another site makes in the background.
  res.append('Set-Cookie', `${PENDING_COOKIE}=${value}; Path=${pathsOf(redirectUri).cookiePath}; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Lax${secure}`);
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A sign-in that went wrong: its status and a page a person can read, with the way back. */
function failurePage(res: Response, err: HttpError, appPath: string): typeof RESPONDED {
  res
    .status(err.status)
    .set('Cache-Control', 'no-store')
    .type('html')
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sign-in failed - Folio</title></head>` +
        `<body><main><h1>Sign-in failed</h1><p role="alert">${escapeHtml(err.message)}</p>` +
        `<p><a href="${escapeHtml(appPath)}">Back to Folio's sign-in page</a></p></main></body></html>`,
    );
  return RESPONDED;
}

/** Runs a browser step of the sign-in; HttpErrors (the person's or the provider's) become the failure page. */
async function browserStep(res: Response, appPath: string, step: () => Promise<void>): Promise<typeof RESPONDED> {
  try {
    await step();
    return RESPONDED;
  } catch (err) {
    if (err instanceof HttpError) return failurePage(res, err, appPath);
    throw err;
  }
}

export const oidcRoutes: RouteSpec[] = [
  route({
    method: 'get',
    path: '/api/v3/auth/methods/',
    tag: 'auth',
    summary: 'How people sign in here: passwords, single sign-on, or both',
    auth: 'public',
    response: SignInMethods,
    handler: ({ core }) => ({
      password: core.services.auth.passwordLogins,
      sso: core.services.sso ? { name: core.services.sso.name, login_url: LOGIN_PATH } : null,
    }),
  }),
  route({
    method: 'get',
    path: LOGIN_PATH,
    tag: 'auth',
    summary: 'Single sign-on: sends the browser to the OpenID Connect provider (a browser navigation, not a script call)',
    auth: 'public',
    produces: 'text/html',
    async handler({ core, res, url }) {
      const sso = ssoOf(core);
      const origin = new URL(url('/')).origin;
      const redirectUri = sso.redirectUri(origin);
      return browserStep(res, pathsOf(redirectUri).appPath, async () => {
        const { url: providerUrl, sealed } = await sso.start(origin);
        setPendingCookie(res, redirectUri, sealed, 600);
        res.set('Cache-Control', 'no-store').redirect(302, providerUrl);
      });
    },
  }),
  route({
    method: 'get',
    path: '/api/v3/auth/oidc/callback/',
    tag: 'auth',
    summary: "Single sign-on: the provider's answer; sends the browser to the workstation, signed in (the redirect_uri registered with the provider)",
    auth: 'public',
    produces: 'text/html',
    async handler({ core, req, res, url }) {
      const sso = ssoOf(core);
      const redirectUri = sso.redirectUri(new URL(url('/')).origin);
      const { appPath } = pathsOf(redirectUri);
      const query = new URLSearchParams(req.originalUrl.split('?')[1] ?? '');
      // Used once, whatever the outcome: a failed sign-in starts again from the sign-in page.
      setPendingCookie(res, redirectUri, '', 0);
      return browserStep(res, appPath, async () => {
        const { token } = await sso.finish(query, cookieOf(req, PENDING_COOKIE));
        res.set('Cache-Control', 'no-store').redirect(302, `${appPath}#${SSO_TOKEN_FRAGMENT}=${encodeURIComponent(token)}`);
      });
    },
  }),
];
