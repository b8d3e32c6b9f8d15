// ImportFolderService's rules without HTTP: only administrators add, change and remove a project's import
// folders (owners see them); the folder's files are uploaded as the user who adds it, so that user must be a
// member; the path must be an absolute, existing folder under FOLIO_IMPORT_ROOTS (here the temporary folder),
// not hidden, outside the data folder, watched by one folder record only; the category must be the project's own.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotFoundError, PermissionError, ValidationError } from '../../main/domain/errors.ts';
import type { ProjectRow, UserRow } from '../../main/store/schema.ts';
import { openFixture, refused, type Fixture, type Taxonomy } from './fixture.ts';

let f: Fixture;
let owner: UserRow;
/** The administrator, a member of both projects once the test that needs it has added them. */
let admin: UserRow;
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
  f = await openFixture({ env: { FOLIO_IMPORT_ROOTS: fs.realpathSync(os.tmpdir()) } });
  owner = await f.user('owner@imports.test');
  member = await f.user('member@imports.test');
  project = await f.project(owner, 'Imports', [member]);
  other = await f.project(owner, 'Other imports');
  admin = f.admin;
  taxonomy = await f.taxonomy(owner, project.id);
  otherTaxonomy = await f.taxonomy(owner, other.id);
});
afterAll(async () => {
  await f?.close();
  for (const dir of folders) fs.rmSync(dir, { recursive: true, force: true });
});

describe('ImportFolderService', () => {
  it('refuses an administrator who is not a member: the imports would be uploads by a non-member', async () => {
    const e = await refused(f.services.importFolders.create(f.admin, project.id, { path: folder() }), ValidationError);
    expect(e.fields.non_field_errors?.[0]).toMatch(/must be a member/);
    await f.services.projects.addMember(owner, project.id, admin.email);
    await f.services.projects.addMember(owner, other.id, admin.email);
  });

  it("lets administrators manage a project's folders and owners see them; an owner or member who is no administrator gets 403, a stranger the missing project", async () => {
    const s = f.services.importFolders;
    const made = await s.create(admin, project.id, { path: folder(), category: taxonomy.category });
    expect(made).toMatchObject({ project_id: project.id, category_id: taxonomy.category, enabled: true, created_by: admin.id });
    expect((await s.list(owner, project.id)).map((x) => x.id)).toEqual([made.id]);
    expect((await refused(s.list(member, project.id), PermissionError)).message).toMatch(/owner of this project or an administrator/);
    for (const who of [owner, member]) {
      expect((await refused(s.create(who, project.id, { path: folder() }), PermissionError)).message).toMatch(/Only an administrator can add, change or remove import folders/);
    }
    await refused(s.update(owner, project.id, made.id, { enabled: false }), PermissionError);
    await refused(s.remove(owner, project.id, made.id), PermissionError);
    const stranger = await f.user('stranger@imports.test');
    await refused(s.get(stranger, project.id, made.id), NotFoundError);
    // A folder is addressed within its project: another project's id does not reach it.
    await refused(s.get(admin, other.id, made.id), NotFoundError);
    await s.remove(admin, project.id, made.id);
    expect(await s.list(owner, project.id)).toEqual([]);
  });

  it('takes only an absolute, existing folder under the roots, not hidden, outside the data folder, watched once', async () => {
    const s = f.services.importFolders;
    const pathError = async (p: string) => (await refused(s.create(admin, project.id, { path: p }), ValidationError)).fields.path?.[0];
    expect(await pathError(fs.realpathSync(path.dirname(os.tmpdir())))).toMatch(/outside the folders import folders may be in \(FOLIO_IMPORT_ROOTS/);
    const hidden = path.join(folder(), '.ssh');
    fs.mkdirSync(hidden);
    expect(await pathError(hidden)).toMatch(/hidden folder \.ssh/);
    expect(await pathError('relative/scans')).toMatch(/absolute path/);
    expect(await pathError(path.join(folder(), 'missing'))).toMatch(/does not exist/);
    const file = path.join(folder(), 'a.pdf');
    fs.writeFileSync(file, 'x');
    expect(await pathError(file)).toMatch(/is a file/);
    expect(await pathError(path.join(f.core.config.dataDir, 'blobs'))).toMatch(/inside Folio's data folder/);
    const dir = folder();
    await s.create(admin, project.id, { path: dir });
    expect(await pathError(dir)).toMatch(/already an import folder of this project/);
    expect((await refused(s.create(admin, other.id, { path: dir }), ValidationError)).fields.path?.[0]).toMatch(/of another project/);
  });

  it("takes only the project's own category, and changes category and watching in place", async () => {
    const s = f.services.importFolders;
    const e = await refused(s.create(admin, project.id, { path: folder(), category: otherTaxonomy.category }), ValidationError);
    expect(e.fields.category?.[0]).toBe(`Invalid pk "${otherTaxonomy.category}" - object does not exist.`);
    const made = await s.create(admin, project.id, { path: folder() });
    const changed = await s.update(admin, project.id, made.id, { category: taxonomy.category, enabled: false });
    expect(changed).toMatchObject({ id: made.id, category_id: taxonomy.category, enabled: false });
  });
});
