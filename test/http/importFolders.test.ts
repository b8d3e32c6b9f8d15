// Import folders through the API (issue 12 item 8, issue 28 item 3): what a folder must be (absolute, an
// existing folder Folio may read and write, under FOLIO_IMPORT_ROOTS, not hidden, outside the data folder, not
// watched twice), each refusal a 400 naming the problem, and who may set them up (administrators who are
// members; owners see them, an owner or member who is no administrator gets 403, a stranger 404).
// Real temporary folders and a real server; the watcher is not started here (importWatcher.test.ts).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, tempDir, type Client, type TestServer } from '../helpers/testServer.ts';

let s: TestServer;
let owner: Client;
let member: Client;
let stranger: Client;
let adminId: number;
let project: number;
let category: number;
let url: string;
let n = 0;

beforeAll(async () => {
  s = await startTestServer({ env: { FOLIO_IMPORT_ROOTS: fs.realpathSync(os.tmpdir()) } });
  owner = await s.userClient('owner@test.local');
  member = await s.userClient('member@test.local');
  stranger = await s.userClient('stranger@test.local');
  adminId = (await s.admin.get('/api/v3/auth/me/')).body.id;
});
afterAll(() => s.close());

beforeEach(async () => {
  const p = await owner.post('/api/v3/projects/', { name: `Imports ${++n}` });
  expect(p.status, p.text).toBe(201);
  project = p.body.id;
  url = `/api/v3/projects/${project}/import-folders/`;
  expect((await owner.post(`/api/v3/projects/${project}/members/`, { email: 'member@test.local' })).status).toBe(201);
  // The imports are the adding administrator's uploads: a member of the project.
  expect((await owner.post(`/api/v3/projects/${project}/members/`, { email: 'admin@test.local' })).status).toBe(201);
  const c = await owner.post('/api/v3/categories/', { project, name: 'Invoice' });
  expect(c.status, c.text).toBe(201);
  category = c.body.id;
});

/** A 400 on `field` whose message matches `pattern`. */
function expect400(r: { status: number; body: any; text: string }, field: string, pattern: RegExp) {
  expect(r.status, r.text).toBe(400);
  expect(r.body[field], r.text).toHaveLength(1);
  expect(r.body[field][0]).toMatch(pattern);
}

describe('an administrator', () => {
  it('adds a folder, lists it, changes it and removes it', async () => {
    const dir = tempDir('folio-import-');
    const r = await s.admin.post(url, { path: dir, category });
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject({
      project,
      category,
      path: fs.realpathSync(dir),
      enabled: true,
      created_by: adminId,
      last_scan_at: null,
      last_error: null,
      last_import_at: null,
      last_import_file: null,
      last_import_document: null,
    });
    const id = r.body.id;

    const list = await owner.get(url);
    expect(list.status).toBe(200);
    expect(list.body.count).toBe(1);
    expect(list.body.results[0]).toEqual(r.body);
    expect((await owner.get(`${url}${id}/`)).body).toEqual(r.body);

    const off = await s.admin.patch(`${url}${id}/`, { enabled: false, category: null });
    expect(off.status, off.text).toBe(200);
    expect(off.body).toMatchObject({ enabled: false, category: null, path: r.body.path });
    // Form-encoded like every body, with the API's booleans.
    const on = await s.admin.request('PATCH', `${url}${id}/`, { body: { enabled: 'true' }, form: true });
    expect(on.status, on.text).toBe(200);
    expect(on.body.enabled).toBe(true);

    const other = tempDir('folio-import-');
    const moved = await s.admin.patch(`${url}${id}/`, { path: other });
    expect(moved.body.path).toBe(fs.realpathSync(other));

    expect((await s.admin.delete(`${url}${id}/`)).status).toBe(204);
    expect((await owner.get(`${url}${id}/`)).status).toBe(404);
    expect((await owner.get(url)).body.count).toBe(0);
    // The folders themselves are not touched.
    expect(fs.existsSync(other)).toBe(true);
  });

  it('sees a folder of another project as not found through this project', async () => {
    const dir = tempDir('folio-import-');
    const id = (await s.admin.post(url, { path: dir })).body.id;
    const otherProject = (await s.admin.post('/api/v3/projects/', { name: `Other ${n}` })).body.id;
    const elsewhere = `/api/v3/projects/${otherProject}/import-folders/${id}/`;
    expect((await owner.get(elsewhere)).status).toBe(404);
    expect((await s.admin.patch(elsewhere, { enabled: false })).status).toBe(404);
    expect((await s.admin.delete(elsewhere)).status).toBe(404);
    expect((await owner.get(`${url}${id}/`)).body.enabled).toBe(true);
  });

  it('loses the folders with the project', async () => {
    const dir = tempDir('folio-import-');
    expect((await s.admin.post(url, { path: dir })).status).toBe(201);
    expect((await owner.delete(`/api/v3/projects/${project}/`)).status).toBe(204);
    // The path is free again for another project.
    const next = (await s.admin.post('/api/v3/projects/', { name: `After ${n}` })).body.id;
    expect((await s.admin.post(`/api/v3/projects/${next}/import-folders/`, { path: dir })).status).toBe(201);
  });
});

describe('validation', () => {
  it('refuses a missing, blank or relative path', async () => {
    expect400(await s.admin.post(url, {}), 'path', /required/i);
    expect400(await s.admin.post(url, { path: '  ' }), 'path', /may not be blank/);
    expect400(await s.admin.post(url, { path: 'scans/inbox' }), 'path', /absolute path .*"scans\/inbox" is relative/);
  });

  it('refuses a folder that does not exist, and a file', async () => {
    const dir = tempDir('folio-import-');
    expect400(await s.admin.post(url, { path: path.join(dir, 'nowhere') }), 'path', /does not exist/);
    const file = path.join(dir, 'scan.pdf');
    fs.writeFileSync(file, 'x');
    expect400(await s.admin.post(url, { path: file }), 'path', /is a file, not a folder/);
    expect400(await s.admin.post(url, { path: path.join(file, 'below') }), 'path', /does not exist/);
  });

  it.skipIf(process.getuid?.() === 0)('refuses a folder Folio may not write in (the move to done/ needs it)', async () => {
    const dir = tempDir('folio-import-');
    fs.chmodSync(dir, 0o500);
    try {
      expect400(await s.admin.post(url, { path: dir }), 'path', /may not read and write/);
    } finally {
      fs.chmodSync(dir, 0o700);
    }
  });

  it("refuses Folio's data folder, a folder inside it, and a link that leads there", async () => {
    expect400(await s.admin.post(url, { path: s.dataDir }), 'path', /inside Folio's data folder/);
    expect400(await s.admin.post(url, { path: path.join(s.dataDir, 'blobs') }), 'path', /inside Folio's data folder/);
    const link = path.join(tempDir('folio-import-'), 'looks-harmless');
    fs.symlinkSync(path.join(s.dataDir, 'blobs'), link);
    expect400(await s.admin.post(url, { path: link }), 'path', /inside Folio's data folder/);
  });

  it('refuses a folder that is already an import folder, here or in another project, also by another spelling', async () => {
    const dir = tempDir('folio-import-');
    expect((await s.admin.post(url, { path: dir })).status).toBe(201);
    expect400(await s.admin.post(url, { path: `${dir}/` }), 'path', /already an import folder of this project/);
    const other = (await s.admin.post('/api/v3/projects/', { name: `Second ${n}` })).body.id;
    expect400(await s.admin.post(`/api/v3/projects/${other}/import-folders/`, { path: path.join(dir, '.') }), 'path', /already an import folder of another project/);
  });

  it("refuses a category of another project, and a change to an unusable path, changing nothing", async () => {
    const other = (await owner.post('/api/v3/projects/', { name: `Third ${n}` })).body.id;
    const foreign = (await owner.post('/api/v3/categories/', { project: other, name: 'Receipt' })).body.id;
    const dir = tempDir('folio-import-');
    expect400(await s.admin.post(url, { path: dir, category: foreign }), 'category', /Invalid pk/);
    expect400(await s.admin.post(url, { path: dir, category: 'x' }), 'category', /.+/);
    expect((await owner.get(url)).body.count).toBe(0);

    const made = (await s.admin.post(url, { path: dir, category })).body;
    expect400(await s.admin.patch(`${url}${made.id}/`, { path: 'relative', enabled: false }), 'path', /relative/);
    expect400(await s.admin.patch(`${url}${made.id}/`, { category: foreign, enabled: false }), 'category', /Invalid pk/);
    expect400(await s.admin.patch(`${url}${made.id}/`, { enabled: 'maybe' }), 'enabled', /boolean/);
    expect((await owner.get(`${url}${made.id}/`)).body).toEqual(made);
  });
});

describe('roles', () => {
  it('lets an owner who is no administrator see the folders but not add, change or remove one (403 saying who may)', async () => {
    const id = (await s.admin.post(url, { path: tempDir('folio-import-') })).body.id;
    expect((await owner.get(url)).body.count).toBe(1);
    expect((await owner.get(`${url}${id}/`)).status).toBe(200);
    const tries: [string, string, unknown][] = [
      ['POST', url, { path: tempDir('folio-import-') }],
      ['PATCH', `${url}${id}/`, { enabled: false }],
      ['DELETE', `${url}${id}/`, undefined],
    ];
    for (const [method, u, body] of tries) {
      const r = await owner.request(method, u, { body });
      expect(r.status, `owner ${method} ${u}`).toBe(403);
      expect(r.body.detail).toMatch(/^Only an administrator can add, change or remove import folders/);
    }
    // Also with the path of the machine owner's home, as in the report: refused before the path is looked at.
    expect((await owner.post(url, { path: os.homedir() })).status).toBe(403);
    expect((await owner.get(url)).body.results.map((f: any) => [f.id, f.enabled])).toEqual([[id, true]]);
  });

  it('refuses a member with 403 and a stranger with 404, for every verb', async () => {
    const dir = tempDir('folio-import-');
    const id = (await s.admin.post(url, { path: dir })).body.id;
    const tries: [string, string, unknown][] = [
      ['GET', url, undefined],
      ['POST', url, { path: tempDir('folio-import-') }],
      ['GET', `${url}${id}/`, undefined],
      ['PATCH', `${url}${id}/`, { enabled: false }],
      ['DELETE', `${url}${id}/`, undefined],
    ];
    for (const [method, u, body] of tries) {
      const m = await member.request(method, u, { body });
      expect(m.status, `member ${method} ${u}`).toBe(403);
      const x = await stranger.request(method, u, { body });
      expect(x.status, `stranger ${method} ${u}`).toBe(404);
      expect(x.body.detail).toBe('Project not found.');
    }
    expect((await s.admin.get(url)).body.results.map((f: any) => [f.id, f.enabled])).toEqual([[id, true]]);
  });

  it('refuses an administrator who is not a member (the imports are their uploads)', async () => {
    const other = (await owner.post('/api/v3/projects/', { name: `Not the admin's ${n}` })).body.id;
    const refused = await s.admin.post(`/api/v3/projects/${other}/import-folders/`, { path: tempDir('folio-import-') });
    expect400(refused, 'non_field_errors', /uploaded as the user who adds it, who must be a member of the project/);
  });

  it('needs credentials', async () => {
    expect((await s.anonymous().get(url)).status).toBe(401);
  });
});

describe('the allowed roots (FOLIO_IMPORT_ROOTS)', () => {
  it('refuses an administrator a folder outside them, a hidden folder within, and a link from within to outside', async () => {
    expect400(await s.admin.post(url, { path: os.homedir() }), 'path', /outside the folders import folders may be in \(FOLIO_IMPORT_ROOTS: /);
    expect400(await s.admin.post(url, { path: '/etc' }), 'path', /outside the folders import folders may be in/);
    const hidden = path.join(tempDir('folio-import-'), '.ssh');
    fs.mkdirSync(hidden);
    expect400(await s.admin.post(url, { path: hidden }), 'path', /hidden folder \.ssh/);
    const link = path.join(tempDir('folio-import-'), 'inbox');
    fs.symlinkSync('/etc', link);
    expect400(await s.admin.post(url, { path: link }), 'path', /\/etc is outside the folders/);
    const made = (await s.admin.post(url, { path: tempDir('folio-import-') })).body;
    expect400(await s.admin.patch(`${url}${made.id}/`, { path: '/etc' }), 'path', /outside the folders/);
    expect((await s.admin.get(url)).body.count).toBe(1);
  });
});

describe('the OpenAPI document', () => {
  it('describes the endpoints as a Folio addition', async () => {
    const doc = (await s.admin.get('/api/v3/openapi.json')).body;
    const list = doc.paths['/api/v3/projects/{id}/import-folders/'];
    expect(Object.keys(list).sort()).toEqual(['get', 'post']);
    expect(list.post.description).toMatch(/Folio addition/);
    expect(Object.keys(doc.paths['/api/v3/projects/{id}/import-folders/{folderId}/']).sort()).toEqual(['delete', 'get', 'patch']);
  });
});
