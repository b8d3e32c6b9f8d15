// AuthService's rules without HTTP: one token per user until deleted, only its hash stored, the
// credential schemes, and the failed-login throttle (here with a limit of 3 per account).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { AuthenticationError, TooManyRequestsError } from '../../main/domain/errors.ts';
import type { UserRow } from '../../main/store/schema.ts';
import { openFixture, PASSWORD, refused, type Fixture } from './fixture.ts';

let f: Fixture;
let user: UserRow;

beforeAll(async () => {
  f = await openFixture({ env: { FOLIO_LOGIN_MAX_FAILURES: '3' } });
  user = await f.user('token@auth.test');
});
afterAll(() => f?.close());

const basic = (email: string, password: string) => `Basic ${Buffer.from(`${email}:${password}`).toString('base64')}`;

describe('AuthService', () => {
  it('issues the same token until it is deleted, keeping only its hash', async () => {
    const auth = f.services.auth;
    const token = await auth.issueToken(user);
    expect(await auth.issueToken(user)).toBe(token);
    expect((await auth.authenticate(`Token ${token}`, undefined, 'POST'))?.id).toBe(user.id);
    const stored = await f.core.repos.users.findTokenByUser(user.id);
    expect(JSON.stringify(stored)).not.toContain(token);
    expect((await f.core.repos.users.userByTokenHash(createHash('sha256').update(token).digest('hex')))?.id).toBe(user.id);

    expect(await auth.deleteToken(user)).toBe(true);
    expect((await refused(auth.userForToken(token), AuthenticationError)).message).toBe('Invalid token.');
    expect(await auth.issueToken(user)).not.toBe(token);
  });

  it('takes Basic, Token and Bearer headers, the token query on GET only, and refuses other schemes', async () => {
    const auth = f.services.auth;
    const token = await auth.issueToken(user);
    expect((await auth.authenticate(basic(user.email, PASSWORD), undefined, 'GET'))?.id).toBe(user.id);
    expect((await auth.authenticate(`Bearer ${token}`, undefined, 'GET'))?.id).toBe(user.id);
    expect((await auth.authenticate(undefined, token, 'GET'))?.id).toBe(user.id);
    expect(await auth.authenticate(undefined, token, 'POST')).toBeUndefined();
    expect((await refused(auth.authenticate(`Digest ${token}`, undefined, 'GET'), AuthenticationError)).message).toBe('Unsupported authorization scheme "Digest". Use Basic or Token.');
    expect((await refused(auth.authenticate(basic(user.email, 'wrong-password'), undefined, 'GET', '10.0.0.9'), AuthenticationError)).message).toBe('Invalid username/password.');
  });

  it('refuses logins past the limit of failures without checking the password, for unknown emails alike', async () => {
    const victim = await f.user('throttled@auth.test');
    for (const email of [victim.email, 'nobody@auth.test']) {
      for (let i = 0; i < 3; i++) expect(await f.services.auth.login(email, 'wrong-password', undefined)).toBeUndefined();
      const err = await refused(f.services.auth.login(email, PASSWORD, undefined), TooManyRequestsError);
      expect(err.status).toBe(429);
      expect(err.retryAfterSeconds).toBeGreaterThan(0);
      expect(err.message).toMatch(/^Too many failed logins for this account or from this address\. Try again in \d+ minutes, or use an API token\.$/);
    }
    // A locked account keeps working through its token.
    const token = await f.services.auth.issueToken(victim);
    expect((await f.services.auth.userForToken(token)).id).toBe(victim.id);
  });

  it('clears the failures of an account on a correct password', async () => {
    const u = await f.user('forgetful@auth.test');
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 2; i++) await f.services.auth.login(u.email, 'wrong-password', undefined);
      expect((await f.services.auth.login(u.email, PASSWORD, undefined))?.id).toBe(u.id);
    }
  });
});
