// The import watcher (issue 12 item 8) on real temporary folders and a real server polling every 0.25 s:
// a file is taken only once complete, lands as a document of the folder's project with its category and
// its owner as uploader, and moves to done/; a refused file moves to failed/ with the reason beside it;
// temporary, hidden and subfolder files stay; files wait while the folder's user is no member; and a file
// uploaded but not moved when Folio stopped is not uploaded again on the next start. Symbolic links and
// special files in a folder are left where they are and reported, never read or moved (issue 28 item 3).
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Client, startTestServer, tempDir, type TestServer } from '../helpers/testServer.ts';
import { pdfWithText } from '../helpers/documentFixtures.ts';
import { pollDocument } from '../helpers/aiFixtures.ts';

const ENV = { FOLIO_IMPORT_POLL_SECONDS: '0.25', FOLIO_IMPORT_ROOTS: fs.realpathSync(os.tmpdir()) };
/** Import folders are administrators' to add. */
const ADMINISTRATOR = { isAdmin: true };
const OWNER = { email: 'scanner-owner@test.local', password: 'user-password-1' };

let s: TestServer;
let owner: Client;
let ownerId: number;

beforeAll(async () => {
  s = await startTestServer({ env: ENV });
  owner = await s.userClient(OWNER.email, OWNER.password, ADMINISTRATOR);
  ownerId = (await owner.get('/api/v3/auth/me/')).body.id;
  s.core.startImports();
});
afterAll(() => s.close());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

async function waitFor<T>(what: string, probe: () => T | undefined | false | Promise<T | undefined | false>, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

interface Setup {
  project: number;
  category: number;
  folder: number;
  dir: string;
}

/** A project of `c` with a category "Invoice" and an import folder (a fresh temporary one) for it. */
async function setUp(c: Client, name: string): Promise<Setup> {
  const project = (await c.post('/api/v3/projects/', { name })).body.id;
  const category = (await c.post('/api/v3/categories/', { project, name: 'Invoice' })).body.id;
  const dir = fs.realpathSync(tempDir('folio-inbox-'));
  const r = await c.post(`/api/v3/projects/${project}/import-folders/`, { path: dir, category });
  expect(r.status, r.text).toBe(201);
  return { project, category, folder: r.body.id, dir };
}

const documentsOf = async (c: Client, project: number) => (await c.get(`/api/v3/documents/?project=${project}&limit=1000`)).body.results as any[];
const folderOf = async (c: Client, x: Setup) => (await c.get(`/api/v3/projects/${x.project}/import-folders/${x.folder}/`)).body;
const ls = (dir: string) => (fs.existsSync(dir) ? fs.readdirSync(dir).sort() : []);

let n = 0;
let x: Setup;
beforeEach(async () => {
  x = await setUp(owner, `Inbox ${++n}`);
});

describe('a complete file', () => {
  it('is not taken while it is being written, and is once two polls see it unchanged', async () => {
    const pdf = await pdfWithText('Written in two chunks');
    const file = path.join(x.dir, 'chunked.pdf');
    const half = Math.floor(pdf.length / 2);
    const watcher = s.core.imports;
    // Each write right after a scan ends: the next scan sees the file changed.
    await watcher.nextScan();
    fs.writeFileSync(file, pdf.subarray(0, half));
    await watcher.nextScan(); // first sight
    fs.appendFileSync(file, pdf.subarray(half));
    await watcher.nextScan(); // changed since: still not taken
    expect(ls(x.dir)).toEqual(['chunked.pdf']);
    expect(await documentsOf(owner, x.project)).toEqual([]);

    await watcher.nextScan(); // unchanged between two polls: uploaded and moved in this scan
    expect(ls(x.dir)).toEqual(['done']);
    expect(ls(path.join(x.dir, 'done'))).toEqual(['chunked.pdf']);
    const docs = await documentsOf(owner, x.project);
    expect(docs).toHaveLength(1);
    // The whole file, not the first half.
    expect(docs[0].content_hash).toBe(sha256(pdf));
    expect(docs[0].data_file_name).toBe('chunked.pdf');
  });

  it('lands as a document of the project with the folder\'s category and owner, is processed, and moves to done/ under a free name', async () => {
    fs.mkdirSync(path.join(x.dir, 'done'));
    fs.writeFileSync(path.join(x.dir, 'done', 'invoice.pdf'), 'an earlier import of the same name');
    const pdf = await pdfWithText('Invoice 77 from the scanner');
    fs.writeFileSync(path.join(x.dir, 'invoice.pdf'), pdf);

    await waitFor('invoice.pdf in done/', () => ls(path.join(x.dir, 'done')).length === 2);
    expect(ls(x.dir)).toEqual(['done']);
    expect(ls(path.join(x.dir, 'done'))).toEqual(['invoice (1).pdf', 'invoice.pdf']);
    expect(fs.readFileSync(path.join(x.dir, 'done', 'invoice (1).pdf'))).toEqual(Buffer.from(pdf));

    const [doc] = await documentsOf(owner, x.project);
    expect(doc).toMatchObject({ data_file_name: 'invoice.pdf', category: x.category, content_hash: sha256(pdf) });
    const row = await s.core.repos.documents.findById(doc.id);
    expect(row!.created_by).toBe(ownerId);
    // Processed like any upload: its text read.
    const done = await pollDocument(owner, doc.id);
    expect(done.status_data).toBe(2);
    expect(done.text).toContain('Invoice 77 from the scanner');

    const folder = await folderOf(owner, x);
    expect(folder).toMatchObject({ last_import_file: 'invoice.pdf', last_import_document: doc.id, last_error: null });
    expect(folder.last_import_at).not.toBeNull();
    expect(folder.last_scan_at).not.toBeNull();
  });

  it('the upload refuses moves to failed/ with <name>.error.txt saying why, and no document is made', async () => {
    fs.writeFileSync(path.join(x.dir, 'notes.txt'), 'Just some text, not a document Folio reads.\n');
    await waitFor('notes.txt in failed/', () => ls(path.join(x.dir, 'failed')).length === 2);
    expect(ls(x.dir)).toEqual(['failed']);
    expect(ls(path.join(x.dir, 'failed'))).toEqual(['notes.txt', 'notes.txt.error.txt']);
    const why = fs.readFileSync(path.join(x.dir, 'failed', 'notes.txt.error.txt'), 'utf8');
    expect(why).toMatch(/^Folio did not import notes\.txt \(import folder .+, project \d+\) on \d{4}-/);
    expect(why).toContain('The file type is not supported');
    expect(why).toContain('Supported: PDF');
    expect(await documentsOf(owner, x.project)).toEqual([]);

    const folder = await folderOf(owner, x);
    expect(folder.last_error).toMatch(/^notes\.txt was not imported and is in failed\/: The file type is not supported/);
    expect(folder.last_error_at).not.toBeNull();
    expect(folder.last_import_file).toBeNull();
  });

  it('leaves hidden, temporary and lock files and subfolders alone', async () => {
    const pdf = await pdfWithText('left alone');
    const stay = ['.hidden.pdf', 'scan.pdf.part', 'download.pdf.crdownload', 'copy.tmp', '~$letter.docx', 'Thumbs.db'];
    for (const name of stay) fs.writeFileSync(path.join(x.dir, name), pdf);
    fs.mkdirSync(path.join(x.dir, 'later'));
    fs.writeFileSync(path.join(x.dir, 'later', 'nested.pdf'), pdf);
    for (let i = 0; i < 4; i++) await s.core.imports.nextScan();
    expect(ls(x.dir)).toEqual([...stay, 'later'].sort());
    expect(await documentsOf(owner, x.project)).toEqual([]);
  });

  it('waits while the folder is disabled, and imports once it is enabled', async () => {
    const base = `/api/v3/projects/${x.project}/import-folders/${x.folder}/`;
    expect((await owner.patch(base, { enabled: false })).status).toBe(200);
    fs.writeFileSync(path.join(x.dir, 'paused.pdf'), await pdfWithText('paused'));
    for (let i = 0; i < 3; i++) await s.core.imports.nextScan();
    expect(ls(x.dir)).toEqual(['paused.pdf']);
    expect((await owner.patch(base, { enabled: true })).status).toBe(200);
    await waitFor('paused.pdf in done/', () => ls(path.join(x.dir, 'done')).includes('paused.pdf'));
    expect(await documentsOf(owner, x.project)).toHaveLength(1);
  });

  it('says so when the folder is gone, and imports again once it is back', async () => {
    fs.rmSync(x.dir, { recursive: true });
    const folder = await waitFor('the error', async () => {
      const f = await folderOf(owner, x);
      return f.last_error ? f : undefined;
    });
    expect(folder.last_error).toBe(`The folder ${x.dir} does not exist (any more).`);
    fs.mkdirSync(x.dir);
    fs.writeFileSync(path.join(x.dir, 'back.pdf'), await pdfWithText('back again'));
    await waitFor('back.pdf in done/', () => ls(path.join(x.dir, 'done')).includes('back.pdf'));
  });
});

describe('links and special files', () => {
  it('leaves a symbolic link (to a file elsewhere) and a FIFO where they are, reports each, and imports the real file beside them', async () => {
    // Another user's confidential file, as in the report: a link to it must not import it, nor move it.
    const secret = path.join(fs.realpathSync(tempDir('folio-secret-')), 'id_rsa');
    fs.writeFileSync(secret, await pdfWithText('Confidential'));
    fs.symlinkSync(secret, path.join(x.dir, 'linked.pdf'));
    execFileSync('mkfifo', [path.join(x.dir, 'pipe.pdf')]);
    fs.writeFileSync(path.join(x.dir, 'real.pdf'), await pdfWithText('A real scan'));
    await waitFor('real.pdf in done/', () => ls(path.join(x.dir, 'done')).includes('real.pdf'));
    for (let i = 0; i < 3; i++) await s.core.imports.nextScan();
    expect(ls(x.dir)).toEqual(['done', 'linked.pdf', 'pipe.pdf']);
    expect(fs.lstatSync(path.join(x.dir, 'linked.pdf')).isSymbolicLink()).toBe(true);
    expect(fs.lstatSync(path.join(x.dir, 'pipe.pdf')).isFIFO()).toBe(true);
    expect(fs.existsSync(secret)).toBe(true);
    expect(ls(path.join(x.dir, 'done'))).toEqual(['real.pdf']);
    const docs = await documentsOf(owner, x.project);
    expect(docs.map((d) => d.data_file_name)).toEqual(['real.pdf']);
    // Each was reported (the latest problem is the folder's last_error; the log has both).
    const folder = await folderOf(owner, x);
    expect(folder.last_error).toMatch(/^(linked|pipe)\.pdf is (a symbolic link|a named pipe \(FIFO\)), not a file: Folio imports only regular files and leaves it where it is\.$/);
  });

  it('moves nothing through a done/ that is a link out of the folder', async () => {
    const elsewhere = fs.realpathSync(tempDir('folio-elsewhere-'));
    fs.symlinkSync(elsewhere, path.join(x.dir, 'done'));
    fs.writeFileSync(path.join(x.dir, 'scan.pdf'), await pdfWithText('Stays in the folder'));
    await waitFor('the failed move', async () => (await folderOf(owner, x)).last_error?.includes('could not be moved to done/'));
    expect(ls(elsewhere)).toEqual([]);
    expect(ls(x.dir)).toEqual(['done', 'scan.pdf']);
  });

  it('stops reading a folder replaced by a link to another folder', async () => {
    const elsewhere = fs.realpathSync(tempDir('folio-elsewhere-'));
    fs.writeFileSync(path.join(elsewhere, 'theirs.pdf'), await pdfWithText('Not for this project'));
    fs.rmSync(x.dir, { recursive: true });
    fs.symlinkSync(elsewhere, x.dir);
    const folder = await waitFor('the error', async () => {
      const f = await folderOf(owner, x);
      return f.last_error ? f : undefined;
    });
    expect(folder.last_error).toBe(`${x.dir} has been replaced by a link to ${elsewhere}, which is not read.`);
    expect(ls(elsewhere)).toEqual(['theirs.pdf']);
    expect(await documentsOf(owner, x.project)).toEqual([]);
    fs.unlinkSync(x.dir);
  });
});

describe("the folder's user", () => {
  it('must stay a member: without them the files wait and the folder says why', async () => {
    const helper = await s.userClient(`helper-${n}@test.local`, undefined, ADMINISTRATOR);
    const helperId = (await helper.get('/api/v3/auth/me/')).body.id;
    expect((await owner.post(`/api/v3/projects/${x.project}/members/`, { email: `helper-${n}@test.local`, role: 'owner' })).status).toBe(201);
    const dir = fs.realpathSync(tempDir('folio-inbox-'));
    const made = await helper.post(`/api/v3/projects/${x.project}/import-folders/`, { path: dir });
    expect(made.status, made.text).toBe(201);
    expect((await owner.delete(`/api/v3/projects/${x.project}/members/${helperId}/`)).status).toBe(204);

    fs.writeFileSync(path.join(dir, 'waiting.pdf'), await pdfWithText('waiting for a member'));
    const folder = await waitFor('the error', async () => {
      const f = (await owner.get(`/api/v3/projects/${x.project}/import-folders/${made.body.id}/`)).body;
      return f.last_error ? f : undefined;
    });
    expect(folder.last_error).toMatch(/^helper-\d+@test\.local, who added this folder, is no longer a member of the project/);
    for (let i = 0; i < 2; i++) await s.core.imports.nextScan();
    expect(ls(dir)).toEqual(['waiting.pdf']);
    expect(await documentsOf(owner, x.project)).toEqual([]);

    // Back in the project, the file is imported as them.
    expect((await owner.post(`/api/v3/projects/${x.project}/members/`, { email: `helper-${n}@test.local` })).status).toBe(201);
    await waitFor('waiting.pdf in done/', () => ls(path.join(dir, 'done')).includes('waiting.pdf'));
    const [doc] = await documentsOf(owner, x.project);
    expect((await s.core.repos.documents.findById(doc.id))!.created_by).toBe(helperId);
  });
});

describe('a restart', () => {
  it('does not upload again a file that was uploaded but not moved to done/', async () => {
    const dataDir = tempDir();
    let s2: TestServer | undefined = await startTestServer({ dataDir, env: ENV });
    try {
      const c = await s2.userClient(OWNER.email, OWNER.password, ADMINISTRATOR);
      const y = await setUp(c, 'Restart');
      // done/ as a link to nowhere: the upload succeeds, the move to done/ fails, as if Folio had died
      // between the two.
      fs.symlinkSync(path.join(y.dir, 'missing', 'target'), path.join(y.dir, 'done'));
      const pdf = await pdfWithText('Uploaded once');
      fs.writeFileSync(path.join(y.dir, 'once.pdf'), pdf);
      s2.core.startImports();
      const stuck = await waitFor('the failed move', async () => {
        const f = await folderOf(c, y);
        return f.last_error?.includes('could not be moved to done/') ? f : undefined;
      });
      expect(stuck.last_error).toMatch(/^once\.pdf was imported \(document \d+\) but could not be moved to done\/: .+\. It is not imported again\.$/);
      // Later polls of the same process do not upload it again either.
      for (let i = 0; i < 3; i++) await s2.core.imports.nextScan();
      expect(await documentsOf(c, y.project)).toHaveLength(1);
      expect(ls(y.dir)).toEqual(['done', 'once.pdf']);
      await s2.close();
      s2 = undefined;

      fs.unlinkSync(path.join(y.dir, 'done'));
      s2 = await startTestServer({ dataDir, env: ENV });
      const again = new Client(s2.url);
      await again.login(OWNER.email, OWNER.password);
      s2.core.startImports();
      await waitFor('once.pdf in done/', () => ls(path.join(y.dir, 'done')).includes('once.pdf'));
      for (let i = 0; i < 2; i++) await s2.core.imports.nextScan();
      const docs = await documentsOf(again, y.project);
      expect(docs).toHaveLength(1);
      expect(docs[0].content_hash).toBe(sha256(pdf));
      expect(ls(y.dir)).toEqual(['done']);
      const records = await s2.core.repos.importFolders.listUnmoved(y.folder);
      expect(records).toEqual([]);

      // The same bytes dropped again later are a new upload (the project's duplicate detection shows it).
      fs.writeFileSync(path.join(y.dir, 'once.pdf'), pdf);
      await waitFor('the second once.pdf in done/', () => ls(path.join(y.dir, 'done')).includes('once (1).pdf'));
      const twice = await documentsOf(again, y.project);
      expect(twice).toHaveLength(2);
    } finally {
      await s2?.close();
    }
  });
});
