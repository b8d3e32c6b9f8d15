// Account management (issue 29 item 4) through the real server: a user changes their own password with the
// current one (their old token stops working, the answer carries a new one); an administrator resets another
// account's password (that account's token, signed file links and remembered Basic credentials stop working)
// and changes roles, never leaving the instance without an administrator; project owners pick new members
// from the existing accounts. Every refusal is a 4xx that says what is wrong.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, Client, startTestServer, type TestServer } from '../helpers/testServer.ts';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

const basic = (email: string, password: string) => ({ Authorization: `Basic ${Buffer.from(`${email}:${password}`).toString('base64')}` });

describe('changing your own password', () => {
  it('needs the current password, refuses weak ones, and hands back a new token while the old one stops working', async () => {
    const alice = await s.userClient('alice@accounts.test', 'alice-password-1');
    const oldToken = alice.token!;

    const wrong = await alice.post('/api/v3/auth/password/', { current_password: 'not-it-at-all', new_password: 'alice-password-2' });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ current_password: ['The current password is wrong.'] });
    const missing = await alice.post('/api/v3/auth/password/', { new_password: 'alice-password-2' });
    expect(missing.status).toBe(400);
    expect(missing.body.current_password).toEqual(['This field is required.']);
    for (const [weak, message] of [
      ['short', /at least 8 characters/],
      ['alice@accounts.test', /not be the account's email/],
      ['aaaaaaaaaaaa', /one character repeated/],
      ['alice-password-1', /is the current one/],
    ] as const) {
      const r = await alice.post('/api/v3/auth/password/', { current_password: 'alice-password-1', new_password: weak });
      expect(r.status, weak).toBe(400);
      expect(Object.keys(r.body), weak).toEqual(['new_password']);
      expect(r.body.new_password[0], weak).toMatch(message);
    }
    // Nothing changed through those refusals.
    expect((await alice.get('/api/v3/auth/me/')).status).toBe(200);
    expect((await s.anonymous().get('/api/v3/auth/me/', { headers: basic('alice@accounts.test', 'alice-password-1') })).status).toBe(200);

    const ok = await alice.post('/api/v3/auth/password/', { current_password: 'alice-password-1', new_password: 'alice-password-2' });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.token).toMatch(/^[0-9a-f]{40}$/);
    expect(ok.body.token).not.toBe(oldToken);
    const stale = await alice.get('/api/v3/auth/me/');
    expect(stale.status).toBe(401);
    alice.token = ok.body.token;
    expect((await alice.get('/api/v3/auth/me/')).body.email).toBe('alice@accounts.test');
    // The old password no longer signs in (remembered Basic credentials included), the new one does.
    expect((await s.anonymous().get('/api/v3/auth/me/', { headers: basic('alice@accounts.test', 'alice-password-1') })).status).toBe(401);
    expect((await s.anonymous().post('/api/v3/auth/', { username: 'alice@accounts.test', password: 'alice-password-1' })).status).toBe(400);
    expect(await new Client(s.url).login('alice@accounts.test', 'alice-password-2')).toBe(ok.body.token);
    // Anonymous: 401.
    expect((await s.anonymous().post('/api/v3/auth/password/', { current_password: 'x', new_password: 'y-password-3' })).status).toBe(401);
  });
});

describe("an administrator resets another account's password", () => {
  it("sets it, revoking that account's token and signed file links; refuses non-admins, weak passwords, unknown users and one's own account", async () => {
    const bob = await s.userClient('bob@accounts.test', 'bob-password-1');
    const bobId = (await bob.get('/api/v3/auth/me/')).body.id;
    const fileKey = (await bob.post('/api/v3/auth/file-key/', {})).body;
    expect(fileKey.key).toBeTruthy();
    expect((await s.anonymous().get('/api/v3/auth/me/', { headers: basic('bob@accounts.test', 'bob-password-1') })).status).toBe(200);

    const carol = await s.userClient('carol@accounts.test', 'carol-password-1');
    const notAdmin = await carol.post(`/api/v3/users/${bobId}/password/`, { password: 'carol-chose-this' });
    expect(notAdmin.status).toBe(403);
    expect(notAdmin.body.detail).toMatch(/Only an administrator/);
    const weak = await s.admin.post(`/api/v3/users/${bobId}/password/`, { password: 'short' });
    expect(weak.status).toBe(400);
    expect(weak.body.password[0]).toMatch(/at least 8 characters/);
    const unknown = await s.admin.post('/api/v3/users/999999/password/', { password: 'long-enough-1' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.detail).toBe('User not found.');
    const adminId = (await s.admin.get('/api/v3/auth/me/')).body.id;
    const own = await s.admin.post(`/api/v3/users/${adminId}/password/`, { password: 'long-enough-1' });
    expect(own.status).toBe(400);
    expect(own.body.password[0]).toMatch(/your own account.*\/api\/v3\/auth\/password\//);
    // Still signed in after all the refusals.
    expect((await bob.get('/api/v3/auth/me/')).status).toBe(200);

    const reset = await s.admin.post(`/api/v3/users/${bobId}/password/`, { password: 'given-by-admin-1' });
    expect(reset.status, reset.text).toBe(200);
    expect(reset.body).toMatchObject({ id: bobId, email: 'bob@accounts.test' });
    // Bob's session is over: his token, and the file key made from it, and his old password.
    const after = await bob.get('/api/v3/auth/me/');
    expect(after.status).toBe(401);
    expect(after.body.detail).toMatch(/invalid token/i);
    expect((await s.anonymous().get('/api/v3/auth/me/', { headers: basic('bob@accounts.test', 'bob-password-1') })).status).toBe(401);
    // With the password the administrator gave him he signs in again, with a new token.
    const again = await new Client(s.url).login('bob@accounts.test', 'given-by-admin-1');
    expect(again).not.toBe(bob.token);
  });
});

describe("an administrator changes an account's role", () => {
  it('makes a user an administrator and back; the last administrator cannot be demoted; non-admins and unknown ids are refused', async () => {
    const dave = await s.userClient('dave@accounts.test', 'dave-password-1');
    const daveId = (await dave.get('/api/v3/auth/me/')).body.id;
    const adminId = (await s.admin.get('/api/v3/auth/me/')).body.id;

    const byUser = await dave.patch(`/api/v3/users/${daveId}/`, { is_admin: true });
    expect(byUser.status).toBe(403);
    expect((await dave.get('/api/v3/auth/me/')).body.is_admin).toBe(false);
    expect((await s.admin.patch('/api/v3/users/999999/', { is_admin: true })).status).toBe(404);
    const badType = await s.admin.patch(`/api/v3/users/${daveId}/`, { is_admin: 'yes' });
    expect(badType.status).toBe(400);
    expect(Object.keys(badType.body)).toEqual(['is_admin']);

    // The only administrator cannot step down.
    const last = await s.admin.patch(`/api/v3/users/${adminId}/`, { is_admin: false });
    expect(last.status).toBe(400);
    expect(last.body).toEqual({ is_admin: [`${ADMIN.email} is the last administrator: make another account an administrator first.`] });
    expect((await s.admin.get('/api/v3/auth/me/')).body.is_admin).toBe(true);

    const promoted = await s.admin.patch(`/api/v3/users/${daveId}/`, { is_admin: true, name: 'Dave D.' });
    expect(promoted.status, promoted.text).toBe(200);
    expect(promoted.body).toMatchObject({ id: daveId, is_admin: true, name: 'Dave D.' });
    // Dave's own token carries the new role at once: he lists the users.
    expect((await dave.get('/api/v3/users/')).status).toBe(200);
    // With two administrators one may step down; then Dave is the last one and cannot.
    expect((await dave.patch(`/api/v3/users/${adminId}/`, { is_admin: false })).body.is_admin).toBe(false);
    expect((await s.admin.get('/api/v3/users/')).status).toBe(403);
    const daveLast = await dave.patch(`/api/v3/users/${daveId}/`, { is_admin: false });
    expect(daveLast.status).toBe(400);
    expect(daveLast.body.is_admin[0]).toMatch(/dave@accounts.test is the last administrator/);
    // Back as it was.
    expect((await dave.patch(`/api/v3/users/${adminId}/`, { is_admin: true })).status).toBe(200);
    expect((await s.admin.patch(`/api/v3/users/${daveId}/`, { is_admin: false })).body.is_admin).toBe(false);
  });

  it('two administrators demoting each other at once leave one administrator', async () => {
    const erin = await s.userClient('erin@accounts.test', 'erin-password-1', { isAdmin: true });
    const frank = await s.userClient('frank@accounts.test', 'frank-password-1', { isAdmin: true });
    const erinId = (await erin.get('/api/v3/auth/me/')).body.id;
    const frankId = (await frank.get('/api/v3/auth/me/')).body.id;
    const adminId = (await s.admin.get('/api/v3/auth/me/')).body.id;
    // The test administrator steps aside first, so that erin and frank are the only two.
    expect((await erin.patch(`/api/v3/users/${adminId}/`, { is_admin: false })).status).toBe(200);
    const [a, b] = await Promise.all([erin.patch(`/api/v3/users/${frankId}/`, { is_admin: false }), frank.patch(`/api/v3/users/${erinId}/`, { is_admin: false })]);
    // One wins; the other is refused: 400 (the last administrator) or, when the winner's demotion came first, 403.
    expect([a.status, b.status].filter((x) => x === 200)).toHaveLength(1);
    expect([a.status, b.status].find((x) => x !== 200)).toBeOneOf([400, 403]);
    const admins = (await (a.status === 200 ? erin : frank).get('/api/v3/users/?limit=100')).body.results.filter((u: any) => u.is_admin);
    expect(admins).toHaveLength(1);
    const winner = a.status === 200 ? erin : frank;
    expect((await winner.patch(`/api/v3/users/${adminId}/`, { is_admin: true })).status).toBe(200);
  });
});

describe('members are picked from existing accounts', () => {
  it('lists the accounts that are not members yet to owners and administrators; members get 403, strangers 404', async () => {
    const owner = await s.userClient('owner@accounts.test', 'owner-password-1');
    const member = await s.userClient('member@accounts.test', 'member-password-1');
    const stranger = await s.userClient('stranger@accounts.test', 'stranger-password-1');
    const project = (await owner.post('/api/v3/projects/', { name: 'Picked members' })).body.id;
    const candidates = async (c: Client) => {
      const r = await c.get(`/api/v3/projects/${project}/member-candidates/?limit=100`);
      expect(r.status, r.text).toBe(200);
      return r.body.results.map((u: any) => u.email);
    };
    const before = await candidates(owner);
    expect(before).toContain('member@accounts.test');
    expect(before).not.toContain('owner@accounts.test');
    expect((await owner.post(`/api/v3/projects/${project}/members/`, { email: 'member@accounts.test' })).status).toBe(201);
    expect(await candidates(owner)).not.toContain('member@accounts.test');
    expect(await candidates(s.admin)).toEqual(await candidates(owner));
    const byMember = await member.get(`/api/v3/projects/${project}/member-candidates/`);
    expect(byMember.status).toBe(403);
    expect(byMember.body.detail).toMatch(/Only an owner of this project or an administrator can add members/);
    expect((await stranger.get(`/api/v3/projects/${project}/member-candidates/`)).status).toBe(404);
    const first = (await owner.get(`/api/v3/projects/${project}/member-candidates/?limit=1`)).body;
    expect(Object.keys(first.results[0]).sort()).toEqual(['email', 'id', 'name']);
    expect(first.count).toBe(before.length - 1);
  });
});
