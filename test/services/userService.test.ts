// UserService's rules without HTTP: valid accounts only, one account per email, the first-run
// administrator, and an account that is a project's only owner stays until the project has another.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotFoundError, PermissionError, ValidationError } from '../../main/domain/errors.ts';
import { openFixture, PASSWORD, refused, type Fixture } from './fixture.ts';

let f: Fixture;

beforeAll(async () => {
  f = await openFixture();
});
afterAll(() => f?.close());

describe('UserService', () => {
  it('refuses a malformed email and a short password together, and a second account for one email', async () => {
    const err = await refused(f.services.users.create('not-an-email', 'short'), ValidationError);
    expect(err.fields).toEqual({ email: ['"not-an-email" is not a valid email address.'], password: ['The password must have at least 8 characters.'] });
    await f.user('once@users.test');
    expect((await refused(f.services.users.create('once@users.test', PASSWORD), ValidationError)).fields).toEqual({ email: ['A user with the email once@users.test already exists.'] });
    await refused(f.services.users.setPassword('once@users.test', 'short'), ValidationError);
  });

  it('makes the first-run administrator only on an empty database', async () => {
    expect(f.admin.is_admin).toBe(true);
    expect(await f.services.users.ensureAdmin('second@users.test', PASSWORD)).toBeUndefined();
    await refused(f.services.users.byEmail('second@users.test'), NotFoundError);
  });

  it("keeps a project's only owner until another member is an owner", async () => {
    const owner = await f.user('sole-owner@users.test');
    const other = await f.user('other@users.test');
    const project = await f.project(owner, 'Kept', [other]);
    const err = await refused(f.services.users.remove(owner.email), ValidationError);
    expect(err.fields.user).toEqual([`sole-owner@users.test is the only owner of project ${project.id} (Kept): make another member an owner first, or delete the project.`]);
    await refused(f.services.users.removeById(owner.id), ValidationError);
    await f.services.projects.setRole(owner, project.id, other.id, 'owner');
    await f.services.users.removeById(owner.id);
    await refused(f.services.users.removeById(owner.id), NotFoundError);
    expect((await f.services.projects.adminMembers(project.id)).map((m) => m.email)).toEqual(['other@users.test']);
  });

  it('keeps the last administrator one, and lets only administrators change roles (issue 29 item 4)', async () => {
    const u = f.services.users;
    const user = await f.user('role@users.test');
    await refused(u.update(user, user.id, { is_admin: true }), PermissionError);
    expect((await refused(u.update(f.admin, f.admin.id, { is_admin: false }), ValidationError)).fields.is_admin[0]).toMatch(/is the last administrator/);
    expect((await u.update(f.admin, user.id, { is_admin: true })).is_admin).toBe(true);
    expect((await u.update(f.admin, user.id, { is_admin: false })).is_admin).toBe(false);
    await refused(u.update(f.admin, 999_999, { is_admin: true }), NotFoundError);
  });

  it("revokes an account's token on a reset or its own change, and refuses weak and unchanged passwords", async () => {
    const u = f.services.users;
    const user = await f.user('reset@users.test');
    await f.services.auth.issueToken(user);
    expect(await f.core.repos.users.findTokenByUser(user.id)).toBeTruthy();
    expect((await refused(u.resetPassword(f.admin, user.id, 'reset@users.test'), ValidationError)).fields.password[0]).toMatch(/email/);
    await refused(u.resetPassword(user, f.admin.id, 'long-enough-9'), PermissionError);
    expect((await refused(u.resetPassword(f.admin, f.admin.id, 'long-enough-9'), ValidationError)).fields.password[0]).toMatch(/your own account/);
    expect(await f.core.repos.users.findTokenByUser(user.id)).toBeTruthy();
    await u.resetPassword(f.admin, user.id, 'long-enough-9');
    expect(await f.core.repos.users.findTokenByUser(user.id)).toBeUndefined();
    const fresh = (await f.core.repos.users.findById(user.id))!;
    expect((await refused(u.changeOwnPassword(fresh, 'long-enough-9'), ValidationError)).fields.new_password[0]).toMatch(/is the current one/);
    await f.services.auth.issueToken(fresh);
    await u.changeOwnPassword(fresh, 'long-enough-10');
    expect(await f.core.repos.users.findTokenByUser(user.id)).toBeUndefined();
    expect(await f.services.auth.checkCredentials('reset@users.test', 'long-enough-10')).toBeTruthy();
  });
});
