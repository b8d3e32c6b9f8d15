// UserService's rules without HTTP: valid accounts only, one account per email, the first-run
// administrator, and an account that is a project's only owner stays until the project has another.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotFoundError, ValidationError } from '../../main/domain/errors.ts';
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
});
