// ImportFolderService's rules without HTTP: only owners and administrators manage a project's import
// folders; the folder's files are uploaded as the user who adds it, so that user must be a member; the
// path must be an absolute, existing folder outside the data folder, watched by one folder record only;
// the category must be the project's own.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotFoundError, PermissionError, ValidationError } from '../../main/domain/errors.ts';
import type { ProjectRow, UserRow } from '../../main/store/schema.ts';
import { openFixture, refused, type Fixture, type Taxonomy } from './fixture.ts';

let f: Fixture;
let owner: UserRow;
let member: UserRow;
let project: ProjectRow;
let other: ProjectRow;
let taxonomy: Taxonomy;
let otherTaxonomy: Taxonomy;
const folders: string[] = [];

const folder = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-import-svc-'));
  folders.push(dir);
  return dir;
};

beforeAll(async () => {
  f = await openFixture();
  owner = await f.user('owner@imports.test');
  member = await f.user('member@imports.test');
  project = await f.project(owner, 'Imports', [member]);
  other = await f.project(owner, 'Other imports');
  taxonomy = await f.taxonomy(owner, project.id);
  otherTaxonomy = await f.taxonomy(owner, other.id);
});
afterAll(async () => {
  await f?.close();
  for (const dir of folders) fs.rmSync(dir, { recursive: true, force: true });
});

describe('ImportFolderService', () => {
  it("lets owners manage a project's folders; a member gets 403 naming who may, a stranger the missing project", async () => {
    const s = f.services.importFolders;
    const made = await s.create(owner, project.id, { path: folder(), category: taxonomy.category });
    expect(made).toMatchObject({ project_id: project.id, category_id: taxonomy.category, enabled: true, created_by: owner.id });
    expect((await s.list(owner, project.id)).map((x) => x.id)).toEqual([made.id]);
    expect((await refused(s.list(member, project.id), PermissionError)).message).toMatch(/owner of this project or an administrator/);
    await refused(s.create(member, project.id, { path: folder() }), PermissionError);
    const stranger = await f.user('stranger@imports.test');
    await refused(s.get(stranger, project.id, made.id), NotFoundError);
    // A folder is addressed within its project: another project's id does not reach it.
    await refused(s.get(owner, other.id, made.id), NotFoundError);
    await s.remove(owner, project.id, made.id);
    expect(await s.list(owner, project.id)).toEqual([]);
  });

  it('refuses an administrator who is not a member: the imports would be uploads by a non-member', async () => {
    const e = await refused(f.services.importFolders.create(f.admin, project.id, { path: folder() }), ValidationError);
    expect(e.fields.non_field_errors?.[0]).toMatch(/must be a member/);
  });

  it('takes only an absolute, existing folder outside the data folder, watched once', async () => {
    const s = f.services.importFolders;
    const pathError = async (p: string) => (await refused(s.create(owner, project.id, { path: p }), ValidationError)).fields.path?.[0];
    expect(await pathError('relative/scans')).toMatch(/absolute path/);
    expect(await pathError(path.join(folder(), 'missing'))).toMatch(/does not exist/);
    const file = path.join(folder(), 'a.pdf');
    fs.writeFileSync(file, 'x');
    expect(await pathError(file)).toMatch(/is a file/);
    expect(await pathError(path.join(f.core.config.dataDir, 'blobs'))).toMatch(/inside Folio's data folder/);
    const dir = folder();
    await s.create(owner, project.id, { path: dir });
    expect(await pathError(dir)).toMatch(/already an import folder of this project/);
    expect((await refused(s.create(owner, other.id, { path: dir }), ValidationError)).fields.path?.[0]).toMatch(/of another project/);
  });

  it("takes only the project's own category, and changes category and watching in place", async () => {
    const s = f.services.importFolders;
    const e = await refused(s.create(owner, project.id, { path: folder(), category: otherTaxonomy.category }), ValidationError);
    expect(e.fields.category?.[0]).toBe(`Invalid pk "${otherTaxonomy.category}" - object does not exist.`);
    const made = await s.create(owner, project.id, { path: folder() });
    const changed = await s.update(owner, project.id, made.id, { category: taxonomy.category, enabled: false });
    expect(changed).toMatchObject({ id: made.id, category_id: taxonomy.category, enabled: false });
  });
});
