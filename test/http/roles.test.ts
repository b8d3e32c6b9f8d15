// Project roles (issue 11, item 8): owners and administrators change a project's settings and members
// and delete it; members upload, review, train and set up the taxonomy; a stranger learns nothing (404).
// Each rule is tried as the owner, a member, the administrator (not a member) and a stranger.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type Client, type TestServer } from '../helpers/testServer.ts';

let s: TestServer;
let owner: Client;
let member: Client;
let stranger: Client;
let ids: { owner: number; member: number; stranger: number; admin: number };
let n = 0;

beforeAll(async () => {
  s = await startTestServer();
  owner = await s.userClient('owner@test.local');
  member = await s.userClient('member@test.local');
  stranger = await s.userClient('stranger@test.local');
  const id = async (c: Client) => (await c.get('/api/v3/auth/me/')).body.id as number;
  ids = { owner: await id(owner), member: await id(member), stranger: await id(stranger), admin: await id(s.admin) };
});
afterAll(() => s.close());

/** A fresh project of `owner` with `member` as a member, and its base URL. */
let project: number;
let url: string;
beforeEach(async () => {
  const p = await owner.post('/api/v3/projects/', { name: `Roles ${++n}` });
  expect(p.status).toBe(201);
  project = p.body.id;
  url = `/api/v3/projects/${project}/`;
  expect((await owner.post(`${url}members/`, { email: 'member@test.local' })).status).toBe(201);
});

const roles = async () =>
  Object.fromEntries((await s.admin.get(`${url}members/`)).body.results.map((m: { email: string; role: string }) => [m.email, m.role]));

/** A member's refusal names who may do it. */
function expectOwnersOnly(r: { status: number; body: any }, what: string) {
  expect(r.status, what).toBe(403);
  expect(r.body.detail, what).toMatch(/^Only an owner of this project or an administrator can .+; you are a member\.$/);
}

describe('seeing a project', () => {
  it('owner, member and administrator see the project and its members with their roles; a stranger gets 404', async () => {
    for (const c of [owner, member, s.admin]) {
      expect((await c.get(url)).status).toBe(200);
      const members = await c.get(`${url}members/`);
      expect(members.status).toBe(200);
      expect(members.body.results.map((m: any) => [m.email, m.role])).toEqual([
        ['owner@test.local', 'owner'],
        ['member@test.local', 'member'],
      ]);
    }
    expect((await stranger.get(url)).status).toBe(404);
    expect((await stranger.get(`${url}members/`)).status).toBe(404);
  });

  it('lists every project for the administrator, only their own for the others', async () => {
    const listed = async (c: Client) => (await c.get('/api/v3/projects/?limit=1000')).body.results.map((p: any) => p.id);
    expect(await listed(s.admin)).toContain(project);
    expect(await listed(owner)).toContain(project);
    expect(await listed(member)).toContain(project);
    expect(await listed(stranger)).not.toContain(project);
  });
});

describe('settings', () => {
  it('refuses a member with 403 and a stranger with 404, and changes nothing', async () => {
    for (const [method, body] of [
      ['PATCH', { name: 'Taken over' }],
      ['PATCH', { splitting_enabled: true }],
      ['PATCH', { ocr_languages: ['English'] }],
      ['PUT', { name: 'Taken over' }],
    ] as const) {
      expectOwnersOnly(await member.request(method, url, { body }), `member ${method} ${JSON.stringify(body)}`);
      const r = await stranger.request(method, url, { body });
      expect(r.status, `stranger ${method}`).toBe(404);
      expect(r.body.detail).toBe('Project not found.');
    }
    expect((await owner.get(url)).body).toMatchObject({ name: `Roles ${n}`, splitting_enabled: false, ocr_languages: ['deu', 'eng'] });
  });

  it('lets the owner and the administrator (who is not a member) change them', async () => {
    expect((await owner.patch(url, { name: 'By the owner', splitting_enabled: true })).body).toMatchObject({ name: 'By the owner', splitting_enabled: true });
    expect((await s.admin.patch(url, { name: 'By the admin' })).body).toMatchObject({ name: 'By the admin', splitting_enabled: true });
    expect((await s.admin.put(url, { name: 'Replaced by the admin' })).status).toBe(200);
    expect((await member.get(url)).body.name).toBe('Replaced by the admin');
  });

  it('leaves the taxonomy open to members, who review and train with it', async () => {
    const c = await member.post('/api/v3/categories/', { project, name: 'Invoice' });
    expect(c.status).toBe(201);
    expect((await member.patch(`/api/v3/categories/${c.body.id}/`, { name: 'Invoices' })).status).toBe(200);
    expect((await stranger.post('/api/v3/categories/', { project, name: 'Nope' })).status).toBe(400);
  });
});

describe('deleting a project', () => {
  it('refuses a member (403) and a stranger (404); the project stays', async () => {
    expectOwnersOnly(await member.delete(url), 'member delete');
    expect((await stranger.delete(url)).status).toBe(404);
    expect((await owner.get(url)).status).toBe(200);
  });

  it('lets the owner delete it', async () => {
    expect((await owner.delete(url)).status).toBe(204);
    expect((await owner.get(url)).status).toBe(404);
    expect((await s.admin.get(url)).status).toBe(404);
  });

  it('lets the administrator delete it without being a member', async () => {
    expect((await s.admin.delete(url)).status).toBe(204);
    expect((await owner.get(url)).status).toBe(404);
  });
});

describe('members', () => {
  it('a member cannot add, re-role or remove others: not the owner, not the administrator', async () => {
    // What the issue measured: a member removed the owner and the administrator.
    expect((await s.admin.post(`${url}members/`, { email: 'admin@test.local' })).status).toBe(201);
    expectOwnersOnly(await member.post(`${url}members/`, { email: 'stranger@test.local' }), 'member add');
    expectOwnersOnly(await member.patch(`${url}members/${ids.member}/`, { role: 'owner' }), 'member promotes themselves');
    expectOwnersOnly(await member.patch(`${url}members/${ids.owner}/`, { role: 'member' }), 'member demotes the owner');
    expectOwnersOnly(await member.delete(`${url}members/${ids.owner}/`), 'member removes the owner');
    expectOwnersOnly(await member.delete(`${url}members/${ids.admin}/`), 'member removes the administrator');
    expect(await roles()).toEqual({ 'owner@test.local': 'owner', 'member@test.local': 'member', 'admin@test.local': 'member' });
  });

  it('a stranger gets 404 for every change, and is not added', async () => {
    expect((await stranger.post(`${url}members/`, { email: 'stranger@test.local' })).status).toBe(404);
    expect((await stranger.patch(`${url}members/${ids.member}/`, { role: 'owner' })).status).toBe(404);
    expect((await stranger.delete(`${url}members/${ids.member}/`)).status).toBe(404);
    expect(Object.keys(await roles())).toEqual(['owner@test.local', 'member@test.local']);
  });

  it('a member may leave the project', async () => {
    expect((await member.delete(`${url}members/${ids.member}/`)).status).toBe(204);
    expect((await member.get(url)).status).toBe(404);
  });

  it('the owner adds with a role, changes roles and removes', async () => {
    const added = await owner.post(`${url}members/`, { email: 'stranger@test.local', role: 'owner' });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ id: ids.stranger, email: 'stranger@test.local', role: 'owner' });
    const promoted = await owner.patch(`${url}members/${ids.member}/`, { role: 'owner' });
    expect(promoted.status).toBe(200);
    expect(promoted.body).toMatchObject({ id: ids.member, role: 'owner' });
    // Now an owner, the former member manages the project too.
    expect((await member.patch(url, { name: 'Managed by a second owner' })).status).toBe(200);
    expect((await owner.patch(`${url}members/${ids.stranger}/`, { role: 'member' })).body.role).toBe('member');
    expect((await owner.delete(`${url}members/${ids.stranger}/`)).status).toBe(204);
    expect(await roles()).toEqual({ 'owner@test.local': 'owner', 'member@test.local': 'owner' });
  });

  it('the administrator manages the members of a project they are not in', async () => {
    expect((await s.admin.post(`${url}members/`, { email: 'stranger@test.local' })).body.role).toBe('member');
    expect((await s.admin.patch(`${url}members/${ids.stranger}/`, { role: 'owner' })).body.role).toBe('owner');
    expect((await s.admin.delete(`${url}members/${ids.owner}/`)).status).toBe(204);
    expect(await roles()).toEqual({ 'member@test.local': 'member', 'stranger@test.local': 'owner' });
    // The removed owner is a stranger now.
    expect((await owner.get(url)).status).toBe(404);
  });

  it('keeps at least one owner: removing or demoting the last one is a 400, for the owner and the administrator alike', async () => {
    for (const c of [owner, s.admin]) {
      const demote = await c.patch(`${url}members/${ids.owner}/`, { role: 'member' });
      expect(demote.status).toBe(400);
      expect(demote.body.role[0]).toMatch(/at least one owner/);
      const remove = await c.delete(`${url}members/${ids.owner}/`);
      expect(remove.status).toBe(400);
      expect(remove.body.user[0]).toMatch(/at least one owner/);
    }
    expect(await roles()).toEqual({ 'owner@test.local': 'owner', 'member@test.local': 'member' });
    // With a second owner, the first may step down (and then is a member, refused like one).
    expect((await owner.patch(`${url}members/${ids.member}/`, { role: 'owner' })).status).toBe(200);
    expect((await owner.patch(`${url}members/${ids.owner}/`, { role: 'member' })).body.role).toBe('member');
    expectOwnersOnly(await owner.delete(url), 'former owner deletes');
    const last = await member.delete(`${url}members/${ids.member}/`);
    expect(last.status).toBe(400);
  });

  it('two owners demoting each other at once leave one owner', async () => {
    expect((await owner.patch(`${url}members/${ids.member}/`, { role: 'owner' })).status).toBe(200);
    const [a, b] = await Promise.all([
      owner.patch(`${url}members/${ids.member}/`, { role: 'member' }),
      member.patch(`${url}members/${ids.owner}/`, { role: 'member' }),
    ]);
    // Whichever lands second finds the last owner (400), or finds itself demoted already (403).
    const [first, second] = [a.status, b.status].sort();
    expect(first).toBe(200);
    expect([400, 403]).toContain(second);
    expect(Object.values(await roles()).filter((r) => r === 'owner')).toHaveLength(1);
  });

  it('answers bad input with a 400 or 404 that says what is wrong', async () => {
    const badRole = await owner.post(`${url}members/`, { email: 'stranger@test.local', role: 'boss' });
    expect(badRole.status).toBe(400);
    expect(badRole.body.role).toEqual(['The role is "owner" or "member".']);
    expect((await owner.patch(`${url}members/${ids.member}/`, {})).body.role).toEqual(['This field is required.']);
    expect((await owner.patch(`${url}members/${ids.member}/`, { role: 'admin' })).status).toBe(400);
    expect((await owner.post(`${url}members/`, { email: 'nobody@test.local' })).body.email[0]).toMatch(/No user/);
    const notMember = await owner.patch(`${url}members/${ids.stranger}/`, { role: 'owner' });
    expect(notMember.status).toBe(404);
    expect((await owner.delete(`${url}members/${ids.stranger}/`)).status).toBe(404);
    expect((await owner.patch(`${url}members/abc/`, { role: 'owner' })).status).toBe(404);
    // Adding a member again changes nothing; naming another role there is refused (PATCH changes roles).
    const again = await owner.post(`${url}members/`, { email: 'member@test.local' });
    expect(again.status).toBe(201);
    expect(again.body.role).toBe('member');
    const conflict = await owner.post(`${url}members/`, { email: 'member@test.local', role: 'owner' });
    expect(conflict.status).toBe(400);
    expect(conflict.body.role[0]).toContain(`PATCH /api/v3/projects/${project}/members/${ids.member}/`);
    expect(await roles()).toEqual({ 'owner@test.local': 'owner', 'member@test.local': 'member' });
  });

  it("an account that is a project's only owner is not removed until another member is an owner", async () => {
    const solo = await s.userClient('solo@test.local');
    const soloId = (await solo.get('/api/v3/auth/me/')).body.id;
    const p = (await solo.post('/api/v3/projects/', { name: 'Solo' })).body;
    await solo.post(`/api/v3/projects/${p.id}/members/`, { email: 'member@test.local' });
    const refused = await s.admin.delete(`/api/v3/users/${soloId}/`);
    expect(refused.status).toBe(400);
    expect(refused.body.user[0]).toBe(`solo@test.local is the only owner of project ${p.id} (Solo): make another member an owner first, or delete the project.`);
    expect((await solo.get(`/api/v3/projects/${p.id}/`)).status).toBe(200);
    expect((await solo.patch(`/api/v3/projects/${p.id}/members/${ids.member}/`, { role: 'owner' })).status).toBe(200);
    expect((await s.admin.delete(`/api/v3/users/${soloId}/`)).status).toBe(204);
    expect((await member.get(`/api/v3/projects/${p.id}/members/`)).body.results.map((m: any) => [m.email, m.role])).toEqual([['member@test.local', 'owner']]);
  });

  it('form-encoded role works like JSON', async () => {
    const r = await owner.post(`${url}members/`, { email: 'stranger@test.local', role: 'owner' }, { form: true });
    expect(r.status).toBe(201);
    expect(r.body.role).toBe('owner');
  });
});
