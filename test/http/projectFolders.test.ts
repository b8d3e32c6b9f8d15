// Project folders over HTTP (POST projects/import/ with a ZIP, GET projects/<id>/export/project-folder.zip)
// and the command line (folio import-project / export-project), against a real server and real processes.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, tempDir, type Client, type TestServer } from '../helpers/testServer.ts';
import { runFolio } from '../helpers/processes.ts';
import { writeZip } from '../../main/domain/zip.ts';
import { folderInZip } from '../../main/projectFolder/files.ts';
import { payslipCopy, walk } from '../helpers/projectFolders.ts';

const DOCS = [44823, 44834, 137234];

function zipOf(dir: string, inside = ''): Buffer {
  return writeZip(walk(dir).map((f) => ({ name: `${inside}${f}`, data: fs.readFileSync(path.join(dir, f)) })));
}

function postZip(c: Client, zip: Buffer | string, fields: Record<string, string> = {}, fileName = 'payslips.zip') {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('file', new Blob([zip as BlobPart], { type: 'application/zip' }), fileName);
  return c.request('POST', '/api/v3/projects/import/', { raw: { data: form } });
}

describe('project folders over HTTP', () => {
  let s: TestServer;
  let folder: string;
  let ann: Client;
  beforeAll(async () => {
    s = await startTestServer();
    folder = payslipCopy(DOCS);
    ann = await s.userClient('ann@projectfolders.test');
  });
  afterAll(async () => {
    await s.close();
    fs.rmSync(folder, { recursive: true, force: true });
  });

  it('imports a zipped folder as a new project of the caller, reports it, and refuses it a second time', async () => {
    const r = await postZip(ann, zipOf(folder, 'payslips/'), { name: 'Payslips from the service' });
    expect(r.status, r.text).toBe(201);
    expect(r.body.project.name).toBe('Payslips from the service');
    expect(r.body.counts).toMatchObject({ categories: 2, labels: 47, documents: 3, original_files: 0, page_images: 1 });
    const projectId = r.body.project.id;
    const docs = (await ann.get(`/api/v3/documents/?project=${projectId}`)).body;
    expect(docs.count).toBe(3);
    const members = (await ann.get(`/api/v3/projects/${projectId}/members/`)).body;
    expect(members.results.map((m: any) => [m.email, m.role])).toEqual([['ann@projectfolders.test', 'owner']]);

    // The document's page shows its text: its PDF (drawn from the boxes) downloads, and the API's text is the folder's.
    const doc = r.body.ids.documents['44823'];
    const detail = (await ann.get(`/api/v3/documents/${doc}/`)).body;
    expect(detail.text).toBe(fs.readFileSync(path.join(folder, 'documents/44823/document.txt'), 'utf8'));
    // Its text is searchable at once (the store's full-text index), as a processed upload's.
    const word = detail.text.match(/\p{L}{8,}/u)![0];
    const found = (await ann.get(`/api/v3/documents/?project=${projectId}&q=${encodeURIComponent(word)}`)).body;
    expect(found.results.map((d: any) => d.id)).toContain(doc);
    const pdf = await fetch(`${s.url}/doc/show/${doc}/`, { headers: { Authorization: `Token ${ann.token}` } });
    expect(pdf.status).toBe(200);
    expect(Buffer.from(await pdf.arrayBuffer()).subarray(0, 5).toString()).toBe('%PDF-');

    const again = await postZip(ann, zipOf(folder));
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'project_folder_already_imported', project: projectId });
    expect(again.body.detail).toContain(`as project ${projectId} ("Payslips from the service")`);
  });

  it('exports a project as a ZIP the import reads again', async () => {
    const list = (await s.admin.get('/api/v3/projects/')).body.results;
    const id = list.find((p: any) => p.name === 'Payslips from the service').id;
    // Members only: another user gets 404, as for any of the project's contents.
    const bob = await s.userClient('bob@projectfolders.test');
    expect((await bob.get(`/api/v3/projects/${id}/export/project-folder.zip`)).status).toBe(404);
    const res = await fetch(`${s.url}/api/v3/projects/${id}/export/project-folder.zip`, { headers: { Authorization: `Token ${ann.token}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/zip');
    const files = folderInZip(Buffer.from(await res.arrayBuffer()), 'export.zip');
    expect(files.baseName).toBe(`project-${id}`);
    expect(files.list()).toEqual(expect.arrayContaining(['categories_and_label_data.json5', 'documents_meta.json5', 'folio_project.json5']));
    expect(JSON.parse(files.read('documents_meta.json5')!.toString())).toHaveLength(3);
  });

  it('answers a clear 400 for what is not a project folder, and stores nothing', async () => {
    const before = (await s.admin.get('/api/v3/projects/')).body.count;
    const notZip = await postZip(s.admin, 'just some text', {}, 'notes.zip');
    expect(notZip.status).toBe(400);
    expect(notZip.body.detail).toBe('notes.zip: This is not a ZIP file (no end of central directory).');
    const noMeta = await postZip(s.admin, writeZip([{ name: 'readme.txt', data: 'hello' }]), {}, 'other.zip');
    expect(noMeta.status).toBe(400);
    expect(noMeta.body.detail).toMatch(/^other\.zip is not a project folder: it has no documents_meta\.json5/);
    const noFile = await s.admin.request('POST', '/api/v3/projects/import/', { raw: { data: new FormData() } });
    expect(noFile.status).toBe(400);
    expect(JSON.stringify(noFile.body)).toContain('No file was submitted');
    expect((await s.admin.get('/api/v3/projects/')).body.count).toBe(before);
  });
});

describe('folio import-project and export-project', () => {
  const dataDir = tempDir('folio-cli-folders-');
  let folder: string;
  beforeAll(() => {
    folder = payslipCopy(DOCS);
  });
  afterAll(() => {
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(folder, { recursive: true, force: true });
  });

  it('imports, refuses the same folder again, exports, and says what is wrong with a bad folder', async () => {
    expect((await runFolio(['user', 'add', 'admin@cli.test', '--password', 'long-enough-1', '--admin'], { dataDir })).code).toBe(0);
    const imported = await runFolio(['import-project', folder], { dataDir });
    expect(imported.stderr).toBe('');
    expect(imported.code).toBe(0);
    expect(imported.stdout).toMatch(/^Imported .* as project 1 \("folio-folder-\w+"\)$/m);
    expect(imported.stdout).toContain('3 documents (0 with their own file)');
    expect(imported.stdout).toContain('documents ids: 44823->1 44834->2 137234->3');

    const again = await runFolio(['import-project', folder], { dataDir });
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^folio: This project folder was imported before, on .*, as project 1/);

    const out = path.join(dataDir, 'exported');
    const exported = await runFolio(['export-project', '1', out], { dataDir });
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout).toContain('3 documents');
    expect(fs.readdirSync(path.join(out, 'documents'))).toHaveLength(3);
    const notEmpty = await runFolio(['export-project', '1', out], { dataDir });
    expect(notEmpty.code).toBe(1);
    expect(notEmpty.stderr).toContain('is not empty; name a new or empty folder to export into.');

    const missing = await runFolio(['import-project', path.join(dataDir, 'nowhere')], { dataDir });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe(`folio: There is no folder ${path.join(dataDir, 'nowhere')}.\n`);
  }, 60_000);
});
