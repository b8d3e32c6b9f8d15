// A real OpenID Connect provider for the single sign-on tests (oidc-provider, certified, started in the
// test on a loopback port): one confidential client registered for Folio, in-memory accounts with email,
// email_verified, name and groups claims, and oidc-provider's own development login and consent pages
// (devInteractions: any password signs in the account whose id is typed as the login; the consent page
// has a Continue button and a Cancel link, which answers error=access_denied).
//
// The provider's port can be reserved first (freePort) and named in Folio's FOLIO_OIDC_ISSUER before the
// provider runs: Folio must start without it and discover it on first use. Used by
// test/http/oidc.test.ts (fetch) and test/e2e/oidc.e2e.ts (Chromium).
import http from 'node:http';
import net from 'node:net';
import Provider from 'oidc-provider';

export interface TestAccount {
  /** What is typed as the login on the provider's page. */
  id: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
  groups?: string[];
}

export interface TestClient {
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
}

export interface TestOidcProvider {
  issuer: string;
  /** The accounts the provider knows; change them between sign-ins (groups, email_verified). */
  accounts: Map<string, TestAccount>;
  close(): Promise<void>;
}

/** A loopback port nobody listens on (yet). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Starts the provider at http://127.0.0.1:<port> (a free one unless given). */
export async function startOidcProvider(opts: { port?: number; client: TestClient; accounts: TestAccount[] }): Promise<TestOidcProvider> {
  const port = opts.port ?? (await freePort());
  const issuer = `http://127.0.0.1:${port}`;
  const accounts = new Map(opts.accounts.map((a) => [a.id, a]));
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: opts.client.clientId,
        client_secret: opts.client.clientSecret,
        redirect_uris: opts.client.redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    scopes: ['openid', 'email', 'profile', 'groups'],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'], groups: ['groups'] },
    async findAccount(_ctx, id) {
      const account = accounts.get(id);
      if (!account) return undefined;
      return {
        accountId: id,
        async claims() {
          const { email, email_verified, name, groups } = accounts.get(id) ?? account;
          return { sub: id, email, email_verified, name, groups };
        },
      };
    },
    pkce: { required: () => true },
    features: { devInteractions: { enabled: true } },
    cookies: { keys: ['folio-test-provider-cookie-key'] },
    // Lifetimes in seconds (set, so the provider does not log a notice for each default it uses).
    ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 600, IdToken: 600, AuthorizationCode: 60 },
  });
  const server = http.createServer(provider.callback());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return {
    issuer,
    accounts,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
