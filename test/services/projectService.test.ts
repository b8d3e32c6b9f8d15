// ProjectService's rules without HTTP: who sees a project, who changes its settings and members and
// deletes it (owners and administrators), what a member may do (leave), and that a project keeps an owner.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { NotFoundError, PermissionError, ValidationError } from '../../main/domain/errors.ts';
import type { ProjectRow, UserRow } from '../../main/store/schema.ts';
import { listParams, openFixture, refused, type Fixture } from './fixture.ts';

let f: Fixture;
let owner: UserRow;
let member: UserRow;
let stranger: UserRow;
let project: ProjectRow;
let n = 0;

beforeAll(async () => {
  f = await openFixture();
  owner = await f.user('owner@projects.test');
  member = await f.user('member@projects.test');
  stranger = await f.user('stranger@projects.test');
});
afterAll(() => f?.close());
beforeEach(async () => {
  project = await f.project(owner, `Roles ${++n}`, [member]);
});

const roles = async () => (await f.services.projects.adminMembers(project.id)).map((m) => [m.email, m.role]);

describe('ProjectService', () => {
  it('shows a project and its members to members and the administrator; a stranger gets the 404 of a missing project', async () => {
    for (const u of [owner, member, f.admin]) expect((await f.services.projects.access(u, project.id)).project.id).toBe(project.id);
    expect((await refused(f.services.projects.access(stranger, project.id), NotFoundError)).message).toBe('Project not found.');
    expect((await refused(f.services.projects.members(stranger, project.id), NotFoundError)).message).toBe('Project not found.');
    const listed = async (u: UserRow) => (await f.services.projects.list(u, listParams())).items.map((p) => p.id);
    expect(await listed(f.admin)).toContain(project.id);
    expect(await listed(stranger)).not.toContain(project.id);
  });

  it("keeps a project's contents to its members: the administrator manages it but reads it only as a member", async () => {
    await refused(f.services.projects.get(f.admin, project.id), NotFoundError);
    expect((await refused(f.services.projects.getForField(stranger, project.id), ValidationError)).fields).toEqual({ project: [`Invalid pk "${project.id}" - object does not exist.`] });
    expect((await f.services.projects.get(member, project.id)).id).toBe(project.id);
  });

  it('lets only owners and administrators change settings, members and roles, or delete; a member learns who may', async () => {
    const p = f.services.projects;
    // Made one at a time: a call started before its refusal is awaited would reject unhandled meanwhile.
    const attempts = (u: UserRow) => [
      () => p.update(u, project.id, { name: 'Taken over' }),
      () => p.addMember(u, project.id, stranger.email),
      () => p.setRole(u, project.id, owner.id, 'member'),
      () => p.removeMember(u, project.id, owner.id),
      () => p.remove(u, project.id),
    ];
    for (const call of attempts(member)) {
      expect((await refused(call(), PermissionError)).message).toMatch(/^Only an owner of this project or an administrator can .+; you are a member\.$/);
    }
    for (const call of attempts(stranger)) await refused(call(), NotFoundError);
    expect((await p.access(owner, project.id)).project.name).toBe(`Roles ${n}`);
    expect(await roles()).toEqual([['owner@projects.test', 'owner'], ['member@projects.test', 'member']]);

    expect((await p.update(f.admin, project.id, { name: 'Renamed by admin' })).name).toBe('Renamed by admin');
    await p.addMember(owner, project.id, stranger.email, 'owner');
    await p.remove(f.admin, project.id);
    await refused(p.access(owner, project.id), NotFoundError);
  });

  it('lets a member leave the project', async () => {
    await f.services.projects.removeMember(member, project.id, member.id);
    await refused(f.services.projects.access(member, project.id), NotFoundError);
  });

  it('keeps at least one owner: the last owner can be neither removed nor demoted, by the administrator either', async () => {
    for (const call of [
      () => f.services.projects.removeMember(owner, project.id, owner.id),
      () => f.services.projects.setRole(f.admin, project.id, owner.id, 'member'),
    ]) {
      expect(Object.values((await refused(call(), ValidationError)).fields).flat()).toEqual([
        'A project keeps at least one owner: make another member an owner first, or delete the project.',
      ]);
    }
    await f.services.projects.setRole(owner, project.id, member.id, 'owner');
    await f.services.projects.removeMember(member, project.id, owner.id);
    expect(await roles()).toEqual([['member@projects.test', 'owner']]);
  });

  it('adds only existing users, and never changes a role by adding again', async () => {
    expect((await refused(f.services.projects.addMember(owner, project.id, 'nobody@projects.test'), ValidationError)).fields).toEqual({ email: ['No user with the email nobody@projects.test.'] });
    expect((await f.services.projects.addMember(owner, project.id, member.email)).role).toBe('member');
    expect(Object.keys((await refused(f.services.projects.addMember(owner, project.id, member.email, 'owner'), ValidationError)).fields)).toEqual(['role']);
    expect(await roles()).toEqual([['owner@projects.test', 'owner'], ['member@projects.test', 'member']]);
  });

  it('takes only installed OCR languages, naming the others', async () => {
    const err = await refused(f.services.projects.create(owner, { name: 'Klingon', ocr_languages: ['Klingon'] }), ValidationError);
    expect(err.fields.ocr_languages).toEqual(['"Klingon" is not an OCR language (see spec 2.16: names like "German" or tesseract codes like "deu").']);
    expect((await f.services.projects.create(owner, { name: 'English', ocr_languages: ['English'] })).ocr_languages).toEqual(['eng']);
  });
});
