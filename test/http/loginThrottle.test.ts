// Login throttling against a real server: failed logins (POST /api/v3/auth/, /api/token-auth/ and Basic)
// are counted per account and per client address; past the limit the answer is 429 with Retry-After and
// no password is checked. An unknown email costs a password check like a real account's.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthService, dummyPasswordHash } from '../../main/services/authService.ts';
import { LoginThrottle } from '../../main/services/loginThrottle.ts';
import { verifyPassword } from '../../main/services/passwords.ts';
import { ADMIN, Client, startTestServer, type TestServer } from '../helpers/testServer.ts';

const basic = (email: string, password: string) => `Basic ${Buffer.from(`${email}:${password}`).toString('base64')}`;

describe('per account', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ env: { FOLIO_LOGIN_MAX_FAILURES: '3', FOLIO_LOGIN_MAX_FAILURES_PER_ADDRESS: '50' } });
    for (const email of ['ann@test.local', 'ben@test.local', 'cay@test.local', 'dan@test.local']) await s.core.services.users.create(email, 'right-password-1');
  });
  afterAll(() => s.close());

  const login = (path: string, username: string, password: string) => s.anonymous().post(path, { username, password }, { token: null });

  it('answers 429 with Retry-After after the limit, even to the right password, on both login paths and Basic', async () => {
    for (let i = 0; i < 3; i++) expect((await login('/api/v3/auth/', 'ann@test.local', `guess-${i}`)).status).toBe(400);
    const locked = await login('/api/v3/auth/', 'ann@test.local', 'right-password-1');
    expect(locked.status).toBe(429);
    const retryAfter = Number(locked.headers.get('retry-after'));
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    expect(locked.body.detail).toMatch(/too many failed logins/i);
    expect(locked.body).not.toHaveProperty('token');

    // The same account by its other spellings and doors.
    expect((await login('/api/token-auth/', 'ANN@test.local ', 'right-password-1')).status).toBe(429);
    const byBasic = await s.anonymous().get('/api/v3/auth/me/', { headers: { Authorization: basic('ann@test.local', 'right-password-1') } });
    expect(byBasic.status).toBe(429);
    expect(byBasic.headers.get('retry-after')).toMatch(/^\d+$/);

    // Another account from the same address is not affected.
    expect((await login('/api/v3/auth/', 'ben@test.local', 'right-password-1')).status).toBe(200);
  });

  it('counts failed Basic logins and /api/token-auth/ toward the same limit', async () => {
    expect((await s.anonymous().get('/api/v3/projects/', { headers: { Authorization: basic('cay@test.local', 'nope-1') } })).status).toBe(401);
    expect((await login('/api/token-auth/', 'cay@test.local', 'nope-2')).status).toBe(400);
    expect((await s.anonymous().get('/swagger/', { headers: { Authorization: basic('cay@test.local', 'nope-3') } })).status).toBe(401);
    expect((await login('/api/v3/auth/', 'cay@test.local', 'right-password-1')).status).toBe(429);
  });

  it('resets an account on a successful login', async () => {
    for (let i = 0; i < 2; i++) expect((await login('/api/v3/auth/', 'dan@test.local', `guess-${i}`)).status).toBe(400);
    expect((await login('/api/v3/auth/', 'dan@test.local', 'right-password-1')).status).toBe(200);
    for (let i = 0; i < 3; i++) expect((await login('/api/v3/auth/', 'dan@test.local', `again-${i}`)).status).toBe(400);
    expect((await login('/api/v3/auth/', 'dan@test.local', 'right-password-1')).status).toBe(429);
  });

  it('throttles an unknown email exactly like a real account, so the answers do not tell them apart', async () => {
    for (let i = 0; i < 3; i++) {
      const r = await login('/api/v3/auth/', 'nobody@test.local', `guess-${i}`);
      expect(r.status).toBe(400);
      expect(r.body.non_field_errors[0]).toMatch(/unable to log in/i);
    }
    expect((await login('/api/v3/auth/', 'nobody@test.local', 'guess')).status).toBe(429);
  });

  it('leaves tokens alone: a locked account keeps working through its token', async () => {
    const ann = new Client(s.url, await s.core.services.auth.issueToken((await s.core.repos.users.findByEmail('ann@test.local'))!));
    expect((await ann.get('/api/v3/auth/me/')).status).toBe(200);
  });
});

describe('per address', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ env: { FOLIO_LOGIN_MAX_FAILURES: '3', FOLIO_LOGIN_MAX_FAILURES_PER_ADDRESS: '5' } });
  });
  afterAll(() => s.close());

  it('refuses every login from an address that failed too often, whichever accounts it tried', async () => {
    for (let i = 0; i < 5; i++) {
      expect((await s.anonymous().post('/api/v3/auth/', { username: `spray-${i}@test.local`, password: 'Winter2024!' }, { token: null })).status).toBe(400);
    }
    const r = await s.anonymous().post('/api/v3/auth/', { username: ADMIN.email, password: ADMIN.password }, { token: null });
    expect(r.status).toBe(429);
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
    // The administrator's token, from before, still works.
    expect((await s.admin.get('/api/v3/auth/me/')).status).toBe(200);
  });
});

describe('the login of an unknown email', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.close());

  it('checks the password against a dummy hash made like a real one, so it costs what a wrong password costs', async () => {
    const calls: string[] = [];
    const auth = new AuthService(s.core.repos, randomBytes(32), {
      verify: (password, stored) => {
        calls.push(stored);
        return verifyPassword(password, stored);
      },
    });
    expect(await auth.login('nobody@test.local', 'whatever', '127.0.0.1')).toBeUndefined();
    expect(calls).toHaveLength(1);
    const dummy = calls[0];
    expect(dummy).toBe(await dummyPasswordHash());
    // The same scheme and cost parameters as the stored hash of a real account.
    const real = (await s.core.repos.users.findByEmail(ADMIN.email))!.password_hash;
    expect(dummy.split('$').slice(0, 4)).toEqual(real.split('$').slice(0, 4));

    expect(await auth.login(ADMIN.email, 'wrong', '127.0.0.1')).toBeUndefined();
    expect(calls).toHaveLength(2);
    expect(calls[1]).toBe(real);
  });
});

describe('LoginThrottle', () => {
  it('opens again once enough failures have left the window, and says when', () => {
    let now = 1_000_000;
    const t = new LoginThrottle({ perAccount: 2, perAddress: 0, windowMs: 60_000 }, () => now);
    t.recordFailure('a@x', '10.0.0.1');
    now += 20_000;
    t.recordFailure('a@x', '10.0.0.1');
    expect(t.retryAfterSeconds('a@x', '10.0.0.2')).toBe(40); // the first failure leaves the window in 40 s
    now += 40_000;
    expect(t.retryAfterSeconds('a@x', '10.0.0.2')).toBe(0);
    // perAddress 0: the address is never limited.
    for (let i = 0; i < 50; i++) t.recordFailure(`other-${i}@x`, '10.0.0.1');
    expect(t.retryAfterSeconds('fresh@x', '10.0.0.1')).toBe(0);
  });
});
