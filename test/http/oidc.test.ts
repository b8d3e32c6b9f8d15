// Single sign-on through a real OpenID Connect provider (oidc-provider on loopback, test/helpers/oidcProvider.ts),
// walked with fetch as a browser walks it: Folio's sign-in link, the provider's login and consent forms,
// the callback, and the account's API token on the REST API. Also what goes wrong: a provider that is
// down when Folio starts, a cancelled consent, a state that does not match, an unverified or missing
// email; and an install whose local passwords are off.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, ConfigError } from '../../main/config.ts';
import { openCore, type Core } from '../../main/core.ts';
import { startServer } from '../../main/server.ts';
import { ADMIN, Client, startTestServer, tempDir, type TestServer } from '../helpers/testServer.ts';
import { freePort, startOidcProvider, type TestOidcProvider } from '../helpers/oidcProvider.ts';

const CLIENT = { clientId: 'folio', clientSecret: 'folio-test-client-secret-0123456789' };
const ADMIN_GROUP = 'folio-admins';
const CALLBACK = '/api/v3/auth/oidc/callback/';

/** Cookies per host and manual redirects: enough of a browser for the authorization code flow. */
class FetchBrowser {
  private jars = new Map<string, Map<string, string>>();

  private store(url: URL, res: Response): void {
    const jar = this.jars.get(url.host) ?? new Map<string, string>();
    this.jars.set(url.host, jar);
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attrs.some((a) => /^\s*max-age=0\s*$/i.test(a) || /^\s*expires=thu, 01 jan 1970/i.test(a));
      if (expired || value === '') jar.delete(name);
      else jar.set(name, value);
    }
  }

  /** One request, with the host's cookies, no redirect followed. */
  async request(url: string, init: { method?: string; form?: Record<string, string> } = {}): Promise<Response> {
    const u = new URL(url);
    const cookie = [...(this.jars.get(u.host) ?? new Map()).entries()].map(([k, v]) => `${k}=${v}`).join('; ');
    const headers: Record<string, string> = { Accept: 'text/html' };
    if (cookie) headers.Cookie = cookie;
    let body: string | undefined;
    if (init.form) {
      body = new URLSearchParams(init.form).toString();
      headers['Content-Type'] = 'application/x-www-form-urlencoded';
    }
    const res = await fetch(u, { method: init.method ?? (body ? 'POST' : 'GET'), headers, body, redirect: 'manual' });
    this.store(u, res);
    return res;
  }

  /**
   * Follows redirects from `url` until a page answers, or until one points at Folio's workstation with
   * a token in its fragment (a browser would load the page and keep the fragment to itself).
   */
  async follow(url: string, init: { method?: string; form?: Record<string, string> } = {}): Promise<{ url: string; res: Response }> {
    let current = url;
    let res = await this.request(current, init);
    for (let hops = 0; res.status >= 300 && res.status < 400; hops++) {
      if (hops > 20) throw new Error(`too many redirects from ${url}`);
      current = new URL(res.headers.get('location')!, current).href;
      if (current.includes('#')) break;
      res = await this.request(current);
    }
    return { url: current, res };
  }
}

const formAction = (html: string, base: string) => new URL(/<form[^>]*action="([^"]+)"/.exec(html)![1].replace(/&amp;/g, '&'), base).href;

/**
 * Signs `login` in at the provider from Folio's sign-in link. Stops at the consent page when `consent`
 * is false (and answers that page), else answers where Folio sent the browser at the end.
 */
async function signIn(folioUrl: string, login: string, browser = new FetchBrowser()): Promise<{ url: string; res: Response; browser: FetchBrowser; html: string }> {
  let step = await browser.follow(`${folioUrl}/api/v3/auth/oidc/login/`);
  let html = await step.res.text();
  if (step.res.status !== 200 || !html.includes('name="login"')) return { ...step, browser, html };
  step = await browser.follow(formAction(html, step.url), { form: { prompt: 'login', login, password: 'any-password' } });
  html = step.res.status === 200 ? await step.res.text() : '';
  if (html.includes('name="prompt" value="consent"')) {
    step = await browser.follow(formAction(html, step.url), { form: { prompt: 'consent' } });
    html = step.res.status === 200 || step.res.status >= 400 ? await step.res.text() : '';
  }
  return { ...step, browser, html };
}

const tokenOf = (url: string) => new URL(url).hash.match(/^#sso-token=([0-9a-f]+)$/)?.[1];

let s: TestServer;
/** A Folio whose administrator vouches for all the provider's emails (FOLIO_OIDC_TRUST_EMAILS=all). */
let trusting: TestServer;
let off: { url: string; core: Core; close(): Promise<void> };
let idp: TestOidcProvider;
/** Folio's answer to a sign-in while the provider was not running yet. */
let beforeProvider: { status: number; html: string };

/** A Folio whose local passwords are off: the first administrator comes from FOLIO_ADMIN_EMAIL. */
async function startPasswordlessFolio(env: NodeJS.ProcessEnv) {
  const dataDir = tempDir();
  const core = await openCore(loadConfig(env, { dataDir, port: 0, host: '127.0.0.1' }));
  const server = await startServer(core);
  return {
    url: server.url,
    core,
    async close() {
      await server.close();
      await core.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

beforeAll(async () => {
  // The provider's address is known before it runs: Folio starts without it and finds it on first use.
  const providerPort = await freePort();
  const issuer = `http://127.0.0.1:${providerPort}`;
  const oidcEnv = {
    FOLIO_OIDC_ISSUER: issuer,
    FOLIO_OIDC_CLIENT_ID: CLIENT.clientId,
    FOLIO_OIDC_CLIENT_SECRET: CLIENT.clientSecret,
    FOLIO_OIDC_NAME: 'Test IdP',
    FOLIO_OIDC_SCOPES: 'openid email profile groups',
    FOLIO_OIDC_ADMIN_GROUP: ADMIN_GROUP,
  };
  s = await startTestServer({ env: oidcEnv });
  trusting = await startTestServer({ env: { ...oidcEnv, FOLIO_OIDC_ADMIN_GROUP: '', FOLIO_OIDC_TRUST_EMAILS: 'all' } });
  off = await startPasswordlessFolio({ ...oidcEnv, FOLIO_OIDC_ADMIN_GROUP: '', FOLIO_LOCAL_LOGIN: 'off', FOLIO_ADMIN_EMAIL: 'boss@example.org' });
  const early = await new FetchBrowser().request(`${s.url}/api/v3/auth/oidc/login/`);
  beforeProvider = { status: early.status, html: await early.text() };
  idp = await startOidcProvider({
    port: providerPort,
    client: { ...CLIENT, redirectUris: [`${s.url}${CALLBACK}`, `${off.url}${CALLBACK}`, `${trusting.url}${CALLBACK}`] },
    accounts: [
      { id: 'ann', email: 'ann@example.org', email_verified: true, name: 'Ann Lee', groups: [ADMIN_GROUP, 'staff'] },
      { id: 'ben', email: 'ben@example.org', name: 'Ben Ode', groups: ['staff'] },
      { id: 'una', email: 'una@example.org', email_verified: false, name: 'Una Verified' },
      { id: 'nomail', name: 'No Mail' },
      { id: 'boss', email: 'boss@example.org', email_verified: true, name: 'The Boss' },
      // Identities that claim the password administrator's email (admin@test.local).
      { id: 'mallory', email: ADMIN.email, name: 'Mallory' },
      { id: 'mallory-upper', email: ADMIN.email.toUpperCase(), name: 'Mallory' },
      { id: 'mallory-false', email: 'Admin@Test.Local', email_verified: false, name: 'Mallory' },
      { id: 'admin-sso', email: ADMIN.email.toUpperCase(), email_verified: true, name: 'The Administrator', groups: [ADMIN_GROUP] },
      { id: 'cleo', email: 'cleo@example.org', email_verified: true, name: 'Cleo' },
    ],
  });
});

afterAll(async () => {
  await idp?.close();
  await off?.close();
  await trusting?.close();
  await s?.close();
});

describe('single sign-on through an OpenID Connect provider', () => {
  it('starts while the provider is down, says so at sign-in (502, not 500), and discovers it once it is up', async () => {
    expect(beforeProvider.status).toBe(502);
    expect(beforeProvider.html).toContain('The sign-in provider Test IdP');
    expect(beforeProvider.html).toMatch(/cannot be reached.*Try again in a moment/);
    // The same Folio, now that the provider runs: the sign-in link leads to its login page.
    const first = await new FetchBrowser().follow(`${s.url}/api/v3/auth/oidc/login/`);
    expect(first.url.startsWith(idp.issuer)).toBe(true);
    expect(await first.res.text()).toContain('name="login"');
  });

  it('offers the provider on the sign-in page beside passwords', async () => {
    const r = await s.anonymous().get('/api/v3/auth/methods/');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ password: true, sso: { name: 'Test IdP', login_url: '/api/v3/auth/oidc/login/' } });
  });

  it('makes the account from the email claim on first sign-in, an administrator by the group claim, and its API token works', async () => {
    expect((await s.admin.get('/api/v3/users/')).body.results.map((u: { email: string }) => u.email)).not.toContain('ann@example.org');

    const done = await signIn(s.url, 'ann');
    expect(done.url.startsWith(`${s.url}/#sso-token=`)).toBe(true);
    const token = tokenOf(done.url)!;
    expect(token).toMatch(/^[0-9a-f]{40}$/);

    const ann = new Client(s.url, token);
    const me = await ann.get('/api/v3/auth/me/');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ email: 'ann@example.org', name: 'Ann Lee', is_admin: true });
    // The token is the account's API token: the REST API takes it, also as ?token= and for an admin's work.
    const project = await ann.post('/api/v3/projects/', { name: 'Made by SSO' });
    expect(project.status).toBe(201);
    expect((await ann.get(`/api/v3/projects/${project.body.id}/`)).body.name).toBe('Made by SSO');
    expect((await ann.get('/api/v3/users/')).status).toBe(200);
    expect((await s.anonymous().get(`/api/v3/auth/me/?token=${token}`)).body.email).toBe('ann@example.org');

    // One account per email: signing in again finds it, with the same token (scripts keep working).
    const again = await signIn(s.url, 'ann');
    expect(tokenOf(again.url)).toBe(token);
    const accounts = (await s.admin.get('/api/v3/users/')).body.results.filter((u: { email: string }) => u.email === 'ann@example.org');
    expect(accounts).toHaveLength(1);
  });

  it("replaces the account's token as a local account does: delete it, sign in again, the old one stops working", async () => {
    const old = tokenOf((await signIn(s.url, 'ann')).url)!;
    expect((await new Client(s.url, old).delete('/api/v3/auth/')).status).toBe(204);
    const fresh = tokenOf((await signIn(s.url, 'ann')).url)!;
    expect(fresh).not.toBe(old);
    expect((await new Client(s.url, old).get('/api/v3/auth/me/')).status).toBe(401);
    expect((await new Client(s.url, fresh).get('/api/v3/projects/')).status).toBe(200);
  });

  it('takes administration away at the next sign-in without the group, and gives it back with it', async () => {
    const ann = idp.accounts.get('ann')!;
    ann.groups = ['staff'];
    const token = tokenOf((await signIn(s.url, 'ann')).url)!;
    const c = new Client(s.url, token);
    expect((await c.get('/api/v3/auth/me/')).body.is_admin).toBe(false);
    expect((await c.get('/api/v3/users/')).status).toBe(403);
    ann.groups = [ADMIN_GROUP];
    await signIn(s.url, 'ann');
    expect((await c.get('/api/v3/auth/me/')).body.is_admin).toBe(true);
  });

  it('makes an ordinary member of someone outside the group, without email_verified sent', async () => {
    const token = tokenOf((await signIn(s.url, 'ben')).url)!;
    expect((await new Client(s.url, token).get('/api/v3/auth/me/')).body).toMatchObject({ email: 'ben@example.org', is_admin: false });
  });

  it('refuses an email the provider says is not verified, and one it does not send, with 403 and no account', async () => {
    const unverified = await signIn(s.url, 'una');
    expect(unverified.res.status).toBe(403);
    expect(unverified.html).toContain('una@example.org is not verified');
    const noMail = await signIn(s.url, 'nomail');
    expect(noMail.res.status).toBe(403);
    expect(noMail.html).toContain('did not tell Folio your email address');
    const emails = (await s.admin.get('/api/v3/users/')).body.results.map((u: { email: string }) => u.email);
    expect(emails).not.toContain('una@example.org');
    expect(emails).toHaveLength(3); // the administrator, ann, ben
  });

  it("never signs an identity in to the administrator's account on an email it only claims (any case), and says why", async () => {
    const before = (await s.admin.get('/api/v3/users/')).body.count;
    for (const login of ['mallory', 'mallory-upper']) {
      const r = await signIn(s.url, login);
      expect(r.res.status, login).toBe(403);
      expect(tokenOf(r.url)).toBeUndefined();
      expect(r.html).toContain('Folio already has an account for');
      expect(r.html).toContain('does not say that this address is verified');
      expect(r.html).not.toContain(s.admin.token);
    }
    const unverified = await signIn(s.url, 'mallory-false');
    expect(unverified.res.status).toBe(403);
    expect(unverified.html).toContain('is not verified');
    // Nothing was made or changed: the administrator still signs in by password, with the same token.
    expect((await s.admin.get('/api/v3/users/')).body.count).toBe(before);
    expect((await s.admin.get('/api/v3/auth/me/')).body).toMatchObject({ email: ADMIN.email, is_admin: true });
  });

  it('joins an identity whose email the provider verified (in another case) to the account of that email', async () => {
    const r = await signIn(s.url, 'admin-sso');
    expect(tokenOf(r.url)).toBe(s.admin.token);
    // Joined for good: later sign-ins of that identity reach the account by issuer and subject.
    idp.accounts.get('admin-sso')!.email_verified = false;
    expect(tokenOf((await signIn(s.url, 'admin-sso')).url)).toBe(s.admin.token);
  });

  it('finds an identity again by issuer and subject after its email changed at the provider, even to another account\'s', async () => {
    const cleo = tokenOf((await signIn(s.url, 'cleo')).url)!;
    const account = (await new Client(s.url, cleo).get('/api/v3/auth/me/')).body;
    const idpCleo = idp.accounts.get('cleo')!;
    idpCleo.email = 'cleo.new@example.org';
    expect(tokenOf((await signIn(s.url, 'cleo')).url)).toBe(cleo);
    idpCleo.email = 'ann@example.org'; // another account's address, verified: still Cleo's own account
    expect(tokenOf((await signIn(s.url, 'cleo')).url)).toBe(cleo);
    expect((await new Client(s.url, cleo).get('/api/v3/auth/me/')).body).toMatchObject({ id: account.id, email: 'cleo@example.org' });
    const emails = (await s.admin.get('/api/v3/users/')).body.results.map((u: { email: string }) => u.email);
    expect(emails.filter((e: string) => e.startsWith('cleo'))).toEqual(['cleo@example.org']);
  });

  it('answers a consent cancelled at the provider (error=access_denied) with a 403 page that says so', async () => {
    const browser = new FetchBrowser();
    let step = await browser.follow(`${s.url}/api/v3/auth/oidc/login/`);
    const login = await step.res.text();
    // A fresh browser: the provider asks for the login, then for consent, whose Cancel link aborts.
    step = await browser.follow(formAction(login, step.url), { form: { prompt: 'login', login: 'ben', password: 'x' } });
    const consent = await step.res.text();
    expect(consent).toContain('name="prompt" value="consent"');
    const cancel = /<a href="([^"]+\/abort)"/.exec(consent)![1];
    const end = await browser.follow(new URL(cancel, step.url).href);
    expect(end.url.startsWith(`${s.url}${CALLBACK}?error=access_denied`)).toBe(true);
    expect(end.res.status).toBe(403);
    const html = await end.res.text();
    expect(html).toContain('The sign-in at Test IdP was cancelled or refused (access_denied');
    expect(html).toContain('Back to Folio');
  });

  it('refuses a callback whose state is not the one this browser started with, or without a started sign-in (400)', async () => {
    const browser = new FetchBrowser();
    await browser.request(`${s.url}/api/v3/auth/oidc/login/`); // the sealed state is now in the browser's cookie
    const wrong = await browser.request(`${s.url}${CALLBACK}?code=abc&state=not-the-state&iss=${encodeURIComponent(idp.issuer)}`);
    expect(wrong.status).toBe(400);
    expect(await wrong.text()).toContain('the state does not match');

    const stranger = await new FetchBrowser().request(`${s.url}${CALLBACK}?code=abc&state=xyz`);
    expect(stranger.status).toBe(400);
    expect(await stranger.text()).toContain('did not start in this browser');

    // A real code and state, but the cookie altered: refused as not started here.
    const forged = new FetchBrowser();
    const start = await forged.request(`${s.url}/api/v3/auth/oidc/login/`);
    const state = new URL(start.headers.get('location')!).searchParams.get('state')!;
    const sealed = /folio_oidc=([^;]+)/.exec(start.headers.getSetCookie().join('\n'))![1];
    // One character of the ciphertext changed (a middle one: all its bits count).
    const at = sealed.indexOf('.', sealed.indexOf('.') + 1) + 2;
    const altered = `${sealed.slice(0, at)}${sealed[at] === 'A' ? 'B' : 'A'}${sealed.slice(at + 1)}`;
    const tampered = await fetch(`${s.url}${CALLBACK}?code=abc&state=${state}`, { headers: { Cookie: `folio_oidc=${altered}` }, redirect: 'manual' });
    expect(tampered.status).toBe(400);
    expect(await tampered.text()).toContain('did not start in this browser');
  });

  it('seals the pending sign-in in its cookie: neither the state nor anything else of it can be read from it', async () => {
    const start = await new FetchBrowser().request(`${s.url}/api/v3/auth/oidc/login/`);
    const state = new URL(start.headers.get('location')!).searchParams.get('state')!;
    const sealed = /folio_oidc=([^;]+)/.exec(start.headers.getSetCookie().join('\n'))![1];
    const readable = [sealed, ...sealed.split('.').map((part) => Buffer.from(part, 'base64url').toString('latin1'))].join('\n');
    for (const secretPart of [state, 'verifier', 'nonce', 'redirectUri', CALLBACK]) expect(readable).not.toContain(secretPart);
    // Two sign-ins started alike seal differently (a fresh IV each).
    const other = await new FetchBrowser().request(`${s.url}/api/v3/auth/oidc/login/`);
    expect(/folio_oidc=([^;]+)/.exec(other.headers.getSetCookie().join('\n'))![1]).not.toBe(sealed);
  });

  it('answers 404 at the sign-in link where single sign-on is not set up', async () => {
    const plain = await startTestServer();
    try {
      const r = await plain.anonymous().get('/api/v3/auth/oidc/login/');
      expect(r.status).toBe(404);
      expect(r.text).toContain('FOLIO_OIDC_ISSUER');
      expect((await plain.anonymous().get('/api/v3/auth/methods/')).body).toEqual({ password: true, sso: null });
    } finally {
      await plain.close();
    }
  });
});

describe('a provider that never sends email_verified', () => {
  it('joins no existing account by default, and every one where the administrator vouches for its emails (FOLIO_OIDC_TRUST_EMAILS=all)', async () => {
    // ben sends no email_verified; on the default Folio his email is his own account's, made at his first sign-in.
    await s.core.services.users.create('bea@example.org', 'bea-password-1');
    const bea = idp.accounts.get('ben')!;
    const benBefore = bea.email;
    try {
      // A first sign-in of a new identity that claims bea's address without email_verified: refused on the default Folio.
      idp.accounts.set('bea', { id: 'bea', email: 'bea@example.org', name: 'Bea' });
      const refused = await signIn(s.url, 'bea');
      expect(refused.res.status).toBe(403);
      expect(refused.html).toContain('FOLIO_OIDC_TRUST_EMAILS');
      // Where the administrator vouches for the provider's emails, the same sign-in joins bea's local account...
      const local = await trusting.core.services.users.create('bea@example.org', 'bea-password-1');
      const joined = tokenOf((await signIn(trusting.url, 'bea')).url)!;
      expect((await new Client(trusting.url, joined).get('/api/v3/auth/me/')).body).toMatchObject({ id: local.id, email: 'bea@example.org', is_admin: false });
      // ... and the administrator's too, in any case (their choice), but never against email_verified false.
      expect(tokenOf((await signIn(trusting.url, 'mallory-upper')).url)).toBe(trusting.admin.token);
      expect((await signIn(trusting.url, 'mallory-false')).res.status).toBe(403);
    } finally {
      idp.accounts.delete('bea');
      bea.email = benBefore;
    }
  });
});

describe("an administrator's link (folio user sso-link)", () => {
  it('lets one identity of a provider without email_verified sign in to an existing account, until unlinked', async () => {
    const dan = await s.core.services.users.create('dan@example.org', 'dan-password-1');
    idp.accounts.set('dan', { id: 'dan', email: 'dan@example.org', name: 'Dan' });
    try {
      expect((await signIn(s.url, 'dan')).res.status).toBe(403);
      await s.core.services.users.linkSso('DAN@example.org', idp.issuer, 'dan');
      const token = tokenOf((await signIn(s.url, 'dan')).url)!;
      expect((await new Client(s.url, token).get('/api/v3/auth/me/')).body).toMatchObject({ id: dan.id, email: 'dan@example.org' });
      expect((await s.core.services.users.ssoIdentities('dan@example.org')).map((i) => [i.issuer, i.subject, i.email, i.vouched])).toEqual([[idp.issuer, 'dan', 'dan@example.org', true]]);
      // Another account's identity cannot be taken over by a link.
      await expect(s.core.services.users.linkSso(ADMIN.email, idp.issuer, 'dan')).rejects.toThrow(/signs in to dan@example.org: unlink it there first/);
      await s.core.services.users.unlinkSso('dan@example.org', idp.issuer, 'dan');
      expect((await signIn(s.url, 'dan')).res.status).toBe(403);
    } finally {
      idp.accounts.delete('dan');
    }
  });
});

describe('two providers', () => {
  it('are two people for the same subject: each identity (issuer + subject) reaches its own account', async () => {
    const dataDir = tempDir();
    const ports = [await freePort(), await freePort()];
    const env = (port: number) => ({ FOLIO_OIDC_ISSUER: `http://127.0.0.1:${port}`, FOLIO_OIDC_CLIENT_ID: CLIENT.clientId, FOLIO_OIDC_CLIENT_SECRET: CLIENT.clientSecret, FOLIO_OIDC_NAME: 'IdP' });
    // One Folio (one data folder, one database), first set up with provider A, then moved to provider B.
    const signInAt = async (port: number, accounts: Parameters<typeof startOidcProvider>[0]['accounts'], login: string) => {
      const folio = await startTestServer({ dataDir, env: env(port) });
      const provider = await startOidcProvider({ port, client: { ...CLIENT, redirectUris: [`${folio.url}${CALLBACK}`] }, accounts });
      try {
        const r = await signIn(folio.url, login);
        const token = tokenOf(r.url);
        const me = token ? (await new Client(folio.url, token).get('/api/v3/auth/me/')).body : undefined;
        return { status: r.res.status, html: r.html, me };
      } finally {
        await provider.close();
        await folio.close();
      }
    };
    try {
      const atA = await signInAt(ports[0], [{ id: 'u1', email: 'kim@a.example', email_verified: true, name: 'Kim at A' }], 'u1');
      expect(atA.me).toMatchObject({ email: 'kim@a.example' });
      // Subject u1 at B is someone else: claiming A's person's address without verification gets nothing...
      const claiming = await signInAt(ports[1], [{ id: 'u1', email: 'kim@a.example', name: 'Not Kim' }], 'u1');
      expect(claiming.status).toBe(403);
      expect(claiming.me).toBeUndefined();
      // ... and with an address of its own gets an account of its own.
      const atB = await signInAt(ports[1], [{ id: 'u1', email: 'lou@b.example', email_verified: true, name: 'Lou at B' }], 'u1');
      expect(atB.me).toMatchObject({ email: 'lou@b.example', name: 'Lou at B' });
      expect(atB.me.id).not.toBe(atA.me.id);
      // A's person, back at A with a new address, still reaches their own account.
      const again = await signInAt(ports[0], [{ id: 'u1', email: 'kim.new@a.example', email_verified: true }], 'u1');
      expect(again.me).toMatchObject({ id: atA.me.id, email: 'kim@a.example' });
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('with local passwords off (FOLIO_LOCAL_LOGIN=off)', () => {
  it('says on the sign-in page that only the provider signs in', async () => {
    const r = await new Client(off.url).get('/api/v3/auth/methods/');
    expect(r.body).toEqual({ password: false, sso: { name: 'Test IdP', login_url: '/api/v3/auth/oidc/login/' } });
  });

  it('refuses password logins and Basic with a 403 that points at the provider', async () => {
    await off.core.services.users.create('local@example.org', 'local-password-1');
    for (const path of ['/api/v3/auth/', '/api/token-auth/']) {
      const r = await new Client(off.url).post(path, { username: 'local@example.org', password: 'local-password-1' });
      expect(r.status).toBe(403);
      expect(r.body.detail).toContain('sign in with Test IdP');
      expect(r.body.detail).toContain('FOLIO_LOCAL_LOGIN=off');
    }
    const basic = await new Client(off.url).get('/api/v3/projects/', { headers: { Authorization: `Basic ${Buffer.from('local@example.org:local-password-1').toString('base64')}` } });
    expect(basic.status).toBe(403);
    expect(basic.body.detail).toContain('Test IdP');
  });

  it('makes FOLIO_ADMIN_EMAIL the first administrator at its first sign-in; others are members', async () => {
    const boss = tokenOf((await signIn(off.url, 'boss')).url)!;
    expect((await new Client(off.url, boss).get('/api/v3/auth/me/')).body).toMatchObject({ email: 'boss@example.org', is_admin: true });
    const ann = tokenOf((await signIn(off.url, 'ann')).url)!;
    // No admin group on this install: the group claim changes nothing.
    expect((await new Client(off.url, ann).get('/api/v3/auth/me/')).body).toMatchObject({ email: 'ann@example.org', is_admin: false });
    expect((await new Client(off.url, boss).get('/api/v3/users/')).body.count).toBe(3);
  });
});

describe('the settings', () => {
  const base = { FOLIO_OIDC_ISSUER: 'https://id.example.org/realms/x', FOLIO_OIDC_CLIENT_ID: 'folio' };

  it('reads the provider, its name (default: the issuer host) and the admin group', () => {
    expect(loadConfig(base).oidc).toEqual({
      issuer: base.FOLIO_OIDC_ISSUER,
      clientId: 'folio',
      clientSecret: undefined,
      name: 'id.example.org',
      redirectUrl: undefined,
      scopes: 'openid email profile',
      adminGroup: undefined,
      groupsClaim: 'groups',
      trustEmails: 'verified',
    });
    expect(loadConfig({ ...base, FOLIO_OIDC_TRUST_EMAILS: 'ALL' }).oidc?.trustEmails).toBe('all');
    expect(loadConfig({ ...base, FOLIO_OIDC_TRUST_EMAILS: 'none' }).oidc?.trustEmails).toBe('none');
    expect(loadConfig({}).oidc).toBeUndefined();
    expect(loadConfig({}).localLogin).toBe(true);
    expect(loadConfig({ ...base, FOLIO_LOCAL_LOGIN: 'off' }).localLogin).toBe(false);
  });

  it.each([
    [{ FOLIO_LOCAL_LOGIN: 'off' }, /FOLIO_LOCAL_LOGIN=off needs single sign-on/],
    [{ ...base, FOLIO_LOCAL_LOGIN: 'no' }, /FOLIO_LOCAL_LOGIN must be "on" or "off"/],
    [{ FOLIO_OIDC_ISSUER: base.FOLIO_OIDC_ISSUER }, /FOLIO_OIDC_CLIENT_ID is not/],
    [{ FOLIO_OIDC_CLIENT_ID: 'folio' }, /FOLIO_OIDC_ISSUER is not/],
    [{ ...base, FOLIO_OIDC_ISSUER: 'id.example.org' }, /FOLIO_OIDC_ISSUER must be an http\(s\) URL/],
    [{ ...base, FOLIO_OIDC_REDIRECT_URL: 'ftp://x/cb' }, /FOLIO_OIDC_REDIRECT_URL must be an http\(s\) URL/],
    [{ ...base, FOLIO_OIDC_TRUST_EMAILS: 'yes' }, /FOLIO_OIDC_TRUST_EMAILS must be one of "verified", "all", "none"/],
  ])('refuses %j', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});

