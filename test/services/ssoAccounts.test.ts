// Single sign-on's rules without HTTP or a provider: which account a set of claims (issuer + subject, email) is (main/auth/ssoAccounts.ts),
// the sealed pending sign-in (main/auth/pendingSignIn.ts) and password logins turned off (AuthService).
// The whole flow against a real provider is test/http/oidc.test.ts.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SsoAccounts } from '../../main/auth/ssoAccounts.ts';
import { openPendingSignIn, sealPendingSignIn, type PendingSignIn } from '../../main/auth/pendingSignIn.ts';
import { AuthService } from '../../main/services/authService.ts';
import { HttpError, PermissionError } from '../../main/domain/errors.ts';
import { openFixture, PASSWORD, type Fixture } from './fixture.ts';

let f: Fixture;
beforeAll(async () => {
  f = await openFixture();
});
afterAll(() => f.close());

const ISS = 'https://id.example.org';
const rules = { providerName: 'Corp ID', groupsClaim: 'roles', trustEmails: 'verified' as const };
const refusal = async (p: Promise<unknown>) => {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(HttpError);
  return err as HttpError;
};
/** Claims of the identity `sub` at ISS (or `iss`). */
const id = (sub: string, more: Record<string, unknown> = {}) => ({ iss: ISS, sub, ...more });

describe('the account of a sign-in', () => {
  it('is made from the email claim on first sign-in, with the name claim, as a member, and found again by issuer and subject', async () => {
    const accounts = new SsoAccounts(f.core.uow, rules);
    const user = await accounts.accountFor(id('s1', { email: 'Nia@Example.org', email_verified: true, name: 'Nia Okafor' }));
    expect(user).toMatchObject({ email: 'Nia@Example.org', name: 'Nia Okafor', is_admin: false });
    // Later sign-ins find it by the identity, whatever email they send now.
    expect((await accounts.accountFor(id('s1', { email: 'nia@example.org' }))).id).toBe(user.id);
    expect((await accounts.accountFor(id('s1', { email: 'nia.okafor@elsewhere.org', email_verified: false }))).id).toBe(user.id);
    expect((await accounts.accountFor(id('s1'))).id).toBe(user.id);
    expect((await f.services.users.byEmail('nia@example.org')).id).toBe(user.id);
    // Its password is random: nobody can log in with a guess.
    expect(await f.services.auth.checkCredentials('nia@example.org', '')).toBeUndefined();
    // The same subject at another issuer is another person.
    const other = await accounts.accountFor({ iss: 'https://other.example.org', sub: 's1', email: 'someone@other.example.org' });
    expect(other.id).not.toBe(user.id);
  });

  it('joins the local account of the same email only when the provider verified it (or the administrator vouches for all its emails)', async () => {
    const local = await f.user('local@example.org');
    const strict = new SsoAccounts(f.core.uow, rules);
    for (const claims of [id('x1', { email: 'local@example.org' }), id('x2', { email: 'LOCAL@EXAMPLE.ORG', email_verified: null })]) {
      const refused = await refusal(strict.accountFor(claims));
      expect(refused.status).toBe(403);
      expect(refused.message).toContain('Folio already has an account for');
      expect(refused.message).toContain('does not say that this address is verified');
    }
    expect((await strict.accountFor(id('x3', { email: 'Local@Example.org', email_verified: true }))).id).toBe(local.id);
    expect((await new SsoAccounts(f.core.uow, { ...rules, trustEmails: 'all' }).accountFor(id('x4', { email: 'local@example.org', preferred_username: 'loc' }))).id).toBe(local.id);
    // "all" still refuses what the provider says is unverified; "none" joins nothing by email.
    expect((await refusal(new SsoAccounts(f.core.uow, { ...rules, trustEmails: 'all' }).accountFor(id('x5', { email: 'local@example.org', email_verified: false })))).status).toBe(403);
    const none = await refusal(new SsoAccounts(f.core.uow, { ...rules, trustEmails: 'none' }).accountFor(id('x6', { email: 'local@example.org', email_verified: true })));
    expect(none.message).toContain('FOLIO_OIDC_TRUST_EMAILS=none');
    expect(await f.services.auth.checkCredentials('local@example.org', PASSWORD)).toBeDefined();
  });

  it('never joins anyone to an account a sign-in made from an address nobody verified', async () => {
    const accounts = new SsoAccounts(f.core.uow, rules);
    const squatter = await accounts.accountFor(id('squat', { email: 'victim@example.org' }));
    const refused = await refusal(accounts.accountFor(id('victim', { email: 'victim@example.org', email_verified: true })));
    expect(refused.message).toContain('made by a sign-in whose address nobody verified');
    expect((await accounts.accountFor(id('squat'))).id).toBe(squatter.id);
  });

  it('refuses claims without an email, or with email_verified false (also as text), with 403 and no account', async () => {
    const accounts = new SsoAccounts(f.core.uow, rules);
    const before = (await f.services.users.list()).length;
    expect((await refusal(accounts.accountFor(id('a')))).status).toBe(403);
    expect((await refusal(accounts.accountFor(id('a', { email: 'not an email' })))).message).toContain('Corp ID did not tell Folio your email');
    const unverified = await refusal(accounts.accountFor(id('a', { email: 'u@example.org', email_verified: false })));
    expect(unverified.status).toBe(403);
    expect(unverified.message).toContain('u@example.org is not verified');
    expect((await refusal(accounts.accountFor(id('a', { email: 'u@example.org', email_verified: 'false' })))).status).toBe(403);
    expect((await refusal(accounts.accountFor({ iss: '', sub: 'a', email: 'u@example.org' }))).message).toContain('did not say who signed in');
    expect((await f.services.users.list()).length).toBe(before);
    expect((await accounts.accountFor(id('a', { email: 'u@example.org', email_verified: 'true' }))).email).toBe('u@example.org');
  });

  it('follows the admin group both ways when one is set, and leaves administration alone when none is', async () => {
    const grouped = new SsoAccounts(f.core.uow, { ...rules, adminGroup: 'folio-admin' });
    expect((await grouped.accountFor(id('g', { email: 'g@example.org', roles: ['x', 'folio-admin'] }))).is_admin).toBe(true);
    expect((await grouped.accountFor(id('g', { email: 'g@example.org', roles: 'folio-admin' }))).is_admin).toBe(true);
    expect((await grouped.accountFor(id('g', { email: 'g@example.org', roles: ['x'] }))).is_admin).toBe(false);
    expect((await f.services.users.byEmail('g@example.org')).is_admin).toBe(false);
    // The first administrator (made with a password) keeps administration through group-less sign-ins.
    const plain = new SsoAccounts(f.core.uow, rules);
    expect((await plain.accountFor(id('adm', { email: f.admin.email, email_verified: true, roles: [] }))).is_admin).toBe(true);
  });

  it("makes FOLIO_ADMIN_EMAIL's account an administrator only with that email verified", async () => {
    const accounts = new SsoAccounts(f.core.uow, { ...rules, adminEmail: 'Chief@example.org' });
    // Claimed without email_verified: an ordinary account, not the administrator.
    expect((await accounts.accountFor(id('fake-chief', { email: 'chief@example.org' }))).is_admin).toBe(false);
    const accounts2 = new SsoAccounts(f.core.uow, { ...rules, adminGroup: 'folio-admin', adminEmail: 'Chief2@example.org' });
    expect((await accounts2.accountFor(id('c', { email: 'chief2@example.org', email_verified: true, roles: [] }))).is_admin).toBe(true);
  });

  it('makes one account when the same first sign-in arrives twice at once', async () => {
    const accounts = new SsoAccounts(f.core.uow, rules);
    const [a, b] = await Promise.all([accounts.accountFor(id('t', { email: 'twice@example.org' })), accounts.accountFor(id('t', { email: 'twice@example.org' }))]);
    expect(a.id).toBe(b.id);
    expect((await f.services.users.list()).filter((u) => u.email === 'twice@example.org')).toHaveLength(1);
  });
});

describe('the pending sign-in in the cookie', () => {
  const secret = randomBytes(32);
  const pending: PendingSignIn = { state: 's', nonce: 'n', verifier: 'v', redirectUri: 'http://127.0.0.1:1/api/v3/auth/oidc/callback/', expires: Date.now() + 60_000 };

  it('opens with the secret that sealed it, and not when altered, sealed elsewhere, signed only or expired', () => {
    const sealed = sealPendingSignIn(secret, pending);
    expect(openPendingSignIn(secret, sealed)).toEqual(pending);
    // Encrypted: no part of it decodes to the state or the verifier.
    for (const part of sealed.split('.')) expect(Buffer.from(part, 'base64url').toString('latin1')).not.toMatch(/"state"|"verifier"/);
    const [version, iv, ciphertext, tag] = sealed.split('.');
    const flipped = Buffer.from(ciphertext, 'base64url');
    flipped[0] ^= 1;
    expect(openPendingSignIn(secret, [version, iv, flipped.toString('base64url'), tag].join('.'))).toBeUndefined();
    expect(openPendingSignIn(secret, [version, iv, ciphertext, tag.slice(1)].join('.'))).toBeUndefined();
    expect(openPendingSignIn(secret, [version, randomBytes(12).toString('base64url'), ciphertext, tag].join('.'))).toBeUndefined();
    expect(openPendingSignIn(randomBytes(32), sealed)).toBeUndefined();
    // The signed-only form of before (payload.mac) is refused.
    const payload = Buffer.from(JSON.stringify(pending)).toString('base64url');
    expect(openPendingSignIn(secret, `${payload}.${tag}`)).toBeUndefined();
    expect(openPendingSignIn(secret, sealed, pending.expires + 1)).toBeUndefined();
    expect(openPendingSignIn(secret, undefined)).toBeUndefined();
    expect(openPendingSignIn(secret, 'a.b.c')).toBeUndefined();
    expect(openPendingSignIn(secret, 'v2.a.b.c')).toBeUndefined();
  });
});

describe('password logins turned off', () => {
  it('refuses a login and Basic with a 403 naming the provider, before any password is checked', async () => {
    let checks = 0;
    const auth = new AuthService(f.core.repos, randomBytes(32), { passwordsOffFor: 'Corp ID', verify: async () => (checks++, true) });
    expect(auth.passwordLogins).toBe(false);
    await expect(auth.login(f.admin.email, PASSWORD, '127.0.0.1')).rejects.toThrow(PermissionError);
    await expect(auth.login(f.admin.email, PASSWORD, '127.0.0.1')).rejects.toThrow(/sign in with Corp ID/);
    await expect(auth.authenticate(`Basic ${Buffer.from(`${f.admin.email}:${PASSWORD}`).toString('base64')}`, undefined, 'GET')).rejects.toThrow(PermissionError);
    expect(checks).toBe(0);
    // Tokens still work.
    const token = await auth.issueToken(f.admin);
    expect((await auth.authenticate(`Token ${token}`, undefined, 'GET'))?.id).toBe(f.admin.id);
  });
});
