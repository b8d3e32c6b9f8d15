// Single sign-on through an OpenID Connect provider, as the HTTP routes (main/http/oidcRoutes.ts) use it:
// start() sends the browser to the provider with a sealed pending sign-in for its cookie; finish() takes
// the provider's answer and that cookie back to the account of the identity (issuer + subject, ssoAccounts.ts) and its API token, the same
// one token per account that a password login answers (AuthService.issueToken), so scripts keep working
// whichever way their owner signs in. Built by makeServices when FOLIO_OIDC_ISSUER is set.
import type { OidcConfig } from '../config.ts';
import type { UnitOfWork } from '../store/repositories/index.ts';
import type { UserRow } from '../store/schema.ts';
import type { AuthService } from '../services/authService.ts';
import { OidcClient } from './oidcClient.ts';
import { openPendingSignIn, sealPendingSignIn } from './pendingSignIn.ts';
import { SsoAccounts } from './ssoAccounts.ts';

/** Where the provider sends the browser back to, on this server (unless FOLIO_OIDC_REDIRECT_URL names another address). */
export const OIDC_CALLBACK_PATH = '/api/v3/auth/oidc/callback/';

export class SingleSignOn {
  private readonly client: OidcClient;
  private readonly accounts: SsoAccounts;

  constructor(
    private readonly settings: OidcConfig,
    uow: UnitOfWork,
    private readonly auth: AuthService,
    private readonly secret: Buffer,
    adminEmail: string | undefined,
  ) {
    this.client = new OidcClient(settings);
    this.accounts = new SsoAccounts(uow, {
      providerName: settings.name,
      adminEmail,
      adminGroup: settings.adminGroup,
      groupsClaim: settings.groupsClaim,
      trustEmails: settings.trustEmails,
    });
  }

  /** "Sign in with <name>". */
  get name(): string {
    return this.settings.name;
  }

  /** The callback address: FOLIO_OIDC_REDIRECT_URL, else this server's as the browser reached it (`origin`). */
  redirectUri(origin: string): string {
    return this.settings.redirectUrl ?? `${origin}${OIDC_CALLBACK_PATH}`;
  }

  /** The provider's authorization URL, and the sealed pending sign-in the browser keeps until it comes back. */
  async start(origin: string): Promise<{ url: string; sealed: string }> {
    const { url, pending } = await this.client.authorizationUrl(this.redirectUri(origin));
    return { url: url.href, sealed: sealPendingSignIn(this.secret, pending) };
  }

  /** The provider's answer (the callback's query) and the browser's sealed pending sign-in, to the account and its API token. */
  async finish(query: URLSearchParams, sealed: string | undefined): Promise<{ user: UserRow; token: string }> {
    const claims = await this.client.claims(query, openPendingSignIn(this.secret, sealed));
    const user = await this.accounts.accountFor(claims);
    return { user, token: await this.auth.issueToken(user) };
  }
}
