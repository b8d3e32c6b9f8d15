// The OpenID Connect protocol for single sign-on (openid-client v6): the provider's metadata, found by
// discovery on first use and again after a failure (an issuer that is down when Folio starts does not
// stop Folio; the first sign-in after it is back works), the authorization URL with state, nonce and a
// PKCE challenge, and the code grant back to the claims of the person who signed in (the ID token's,
// with the userinfo endpoint's beside them). Every way this fails ends as an HttpError whose message
// tells the person at the browser what happened and what to do: a 4xx for a sign-in that went wrong
// at the browser or the provider, 502 when the provider cannot be reached or answers nonsense.
import * as oidc from 'openid-client';
import type { OidcConfig } from '../config.ts';
import { HttpError } from '../domain/errors.ts';
import { PENDING_SIGN_IN_MS, type PendingSignIn } from './pendingSignIn.ts';

/** The claims of the person who signed in: the ID token's (its `iss` and `sub` checked by openid-client), over the userinfo endpoint's. */
export type Claims = Record<string, unknown> & { sub: string; iss: string };

/** Seconds Folio waits for each request to the provider. */
const PROVIDER_TIMEOUT_S = 10;

/** A fetch that failed to reach the provider (refused, no route, a name that does not resolve, a timeout). */
function unreachable(err: unknown): boolean {
  const e = err as { name?: string; cause?: unknown; code?: string };
  return e?.name === 'TypeError' || e?.name === 'AbortError' || e?.name === 'TimeoutError' || e?.code === 'OAUTH_TIMEOUT';
}

function reason(err: unknown): string {
  const e = err as { message?: string; cause?: { code?: string; message?: string } };
  return e?.cause?.code ?? e?.cause?.message ?? e?.message ?? String(err);
}

export class OidcClient {
  private configuration?: Promise<oidc.Configuration>;

  constructor(private readonly settings: OidcConfig) {}

  get name(): string {
    return this.settings.name;
  }

  /** The provider's metadata; a failed discovery is forgotten, so the next sign-in tries again. */
  private discover(): Promise<oidc.Configuration> {
    const { issuer, clientId, clientSecret } = this.settings;
    this.configuration ??= oidc
      .discovery(new URL(issuer), clientId, clientSecret, clientSecret ? oidc.ClientSecretBasic(clientSecret) : oidc.None(), {
        // An http:// issuer is the administrator's explicit choice (a provider on the same host or network).
        execute: new URL(issuer).protocol === 'http:' ? [oidc.allowInsecureRequests] : [],
        timeout: PROVIDER_TIMEOUT_S,
      })
      .catch((err: unknown) => {
        this.configuration = undefined;
        throw new HttpError(
          502,
          `The sign-in provider ${this.name} (${issuer}) cannot be reached or did not describe itself (${reason(err)}). Try again in a moment; if this persists, an administrator should check FOLIO_OIDC_ISSUER.`,
        );
      });
    return this.configuration;
  }

  /** Where to send the browser, and what its return must match. */
  async authorizationUrl(redirectUri: string, now = Date.now()): Promise<{ url: URL; pending: PendingSignIn }> {
    const config = await this.discover();
    const pending: PendingSignIn = {
      state: oidc.randomState(),
      nonce: oidc.randomNonce(),
      verifier: oidc.randomPKCECodeVerifier(),
      redirectUri,
      expires: now + PENDING_SIGN_IN_MS,
    };
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: this.settings.scopes,
      state: pending.state,
      nonce: pending.nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(pending.verifier),
      code_challenge_method: 'S256',
    });
    return { url, pending };
  }

  /**
   * The provider's answer at the callback (`query`: its query string) to the claims of who signed in.
   * `pending`: what the browser's cookie held, undefined when it held nothing valid.
   */
  async claims(query: URLSearchParams, pending: PendingSignIn | undefined): Promise<Claims> {
    const error = query.get('error');
    if (error) {
      const description = query.get('error_description');
      const said = `${error}${description ? `: ${description}` : ''}`;
      if (error === 'access_denied') {
        throw new HttpError(403, `The sign-in at ${this.name} was cancelled or refused (${said}). Sign in again and allow Folio access, or ask your administrator.`);
      }
      throw new HttpError(400, `${this.name} could not sign you in (${said}). Start again from Folio's sign-in page.`);
    }
    if (!pending) {
      throw new HttpError(400, `This sign-in did not start in this browser or took longer than ${PENDING_SIGN_IN_MS / 60_000} minutes. Start again from Folio's sign-in page.`);
    }
    if (query.get('state') !== pending.state) {
      throw new HttpError(400, "The provider's answer does not belong to the sign-in this browser started (the state does not match). Start again from Folio's sign-in page.");
    }
    if (!query.get('code')) throw new HttpError(400, `${this.name} sent no authorization code back. Start again from Folio's sign-in page.`);
    const config = await this.discover();
    // The redirect_uri of the token request is this URL without its query: the one the provider was given.
    const currentUrl = new URL(pending.redirectUri);
    currentUrl.search = query.toString();
    try {
      const tokens = await oidc.authorizationCodeGrant(config, currentUrl, {
        pkceCodeVerifier: pending.verifier,
        expectedState: pending.state,
        expectedNonce: pending.nonce,
        idTokenExpected: true,
      });
      const idClaims = tokens.claims()!;
      const userinfo =
        tokens.access_token && config.serverMetadata().userinfo_endpoint ? await oidc.fetchUserInfo(config, tokens.access_token, idClaims.sub) : {};
      return { ...userinfo, ...idClaims } as Claims;
    } catch (err) {
      if (unreachable(err)) {
        throw new HttpError(502, `The sign-in provider ${this.name} could not be reached to finish the sign-in (${reason(err)}). Try again in a moment.`);
      }
      const e = err as { error?: string; error_description?: string; message?: string };
      const said = e.error ? `${e.error}${e.error_description ? `: ${e.error_description}` : ''}` : e.message;
      throw new HttpError(400, `The sign-in at ${this.name} could not be completed (${said}). Start again from Folio's sign-in page.`);
    }
  }
}
