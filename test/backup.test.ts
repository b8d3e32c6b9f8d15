// `folio backup` and `folio restore` (issue 11, item 9), as a user runs them: real `folio` processes on
// real data folders. A backup taken during a burst of uploads restores everything acknowledged before it
// started, and a Folio started on the restored folder serves it; damaged, foreign and misplaced
// restores are refused with a message and leave nothing behind.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../main/config.ts';
import { openCore } from '../main/core.ts';
import { createBackup, LAST_BACKUP_FILE } from '../main/backup/backup.ts';
import { Client, startTestServer, tempDir } from './helpers/testServer.ts';
import { killAllFolios, runFolio, startFolio } from './helpers/processes.ts';
import { created, makeTaxonomy, pdfWithText, textLineSpan, upload } from './helpers/documentFixtures.ts';

afterEach(killAllFolios);

const ADMIN = { FOLIO_ADMIN_EMAIL: 'admin@backup.local', FOLIO_ADMIN_PASSWORD: 'admin-password-1' };

async function login(url: string): Promise<Client> {
  const c = new Client(url);
  await c.login(ADMIN.FOLIO_ADMIN_EMAIL, ADMIN.FOLIO_ADMIN_PASSWORD);
  return c;
}

interface Acked {
  document: number;
  bytes: Uint8Array;
  annotation?: number;
}

describe('folio backup during a burst of uploads', () => {
  it('restores every document and annotation acknowledged before it started, and a Folio on the restored folder serves them', async () => {
    const dataDir = tempDir();
    const folio = await startFolio({ dataDir, env: ADMIN });
    const api = await login(folio.url);
    expect((await api.get('/api/v3/backup/')).body).toEqual({ last_backup: null });
    const t = await makeTaxonomy(api, 'Backed up');

    // Writers upload and annotate until told to stop; each records a write once it was answered.
    const acked: Acked[] = [];
    let stop = false;
    let n = 0;
    const writer = async () => {
      while (!stop) {
        const bytes = await pdfWithText(`Backup burst ${++n} total ${n}.00 EUR`);
        const doc = await created(upload(api, { project: t.project, category: t.category }, { name: `burst-${n}.pdf`, data: bytes }));
        const entry: Acked = { document: doc.id, bytes };
        acked.push(entry);
        const a = await created(api.post(`/api/v3/documents/${doc.id}/annotations/`, { label: t.labels.total, label_set: t.category, span: [textLineSpan()] }));
        entry.annotation = a.id;
      }
    };
    const writers = [writer(), writer(), writer()];
    while (acked.filter((a) => a.annotation).length < 6) await new Promise((r) => setTimeout(r, 50));

    // What was answered before the backup starts must be in it: copies, since the writers go on.
    const before = acked.map((a) => ({ ...a }));
    const file = path.join(tempDir('folio-backups-'), 'folio.tar');
    const backup = await runFolio(['backup', file], { dataDir, timeoutMs: 120_000 });
    stop = true;
    await Promise.all(writers);
    expect(backup.stderr).toBe('');
    expect(backup.code).toBe(0);
    expect(backup.stdout).toMatch(/^Backed up .+ to .+folio\.tar \(\d+ files, \d+ bytes; data as of \S+\)\n$/);

    // The settings screen's source: the time of the snapshot, which is after the last write before it.
    const status = (await api.get('/api/v3/backup/')).body;
    expect(status.last_backup.size).toBe(fs.statSync(file).size);
    expect(Date.parse(status.last_backup.created_at)).not.toBeNaN();
    await folio.stop();

    const restoredDir = tempDir();
    const restored = await runFolio(['restore', file], { dataDir: restoredDir, timeoutMs: 120_000 });
    expect(restored.stderr).toBe('');
    expect(restored.code).toBe(0);
    expect(restored.stdout).toContain(`into ${restoredDir}`);

    const again = await startFolio({ dataDir: restoredDir, env: ADMIN });
    const back = await login(again.url);
    for (const a of before) {
      const detail = await back.get(`/api/v3/documents/${a.document}/`);
      expect(detail.status, `document ${a.document}`).toBe(200);
      const original = await fetch(`${again.url}/doc/show-original/${a.document}/`, { headers: { Authorization: `Token ${back.token}` } });
      expect(original.status, `original of ${a.document}`).toBe(200);
      expect(Buffer.from(await original.arrayBuffer()).equals(Buffer.from(a.bytes)), `bytes of ${a.document}`).toBe(true);
      if (a.annotation) expect((await back.get(`/api/v3/annotations/${a.annotation}/`)).status, `annotation ${a.annotation}`).toBe(200);
    }
    // The restored folder carries no backup record of its own: it has not been backed up yet.
    expect((await back.get('/api/v3/backup/')).body).toEqual({ last_backup: null });
  }, 240_000);
});

describe('folio restore refuses', () => {
  it('a non-empty folder, a foreign file, a damaged or cut archive and a missing one, with a message; nothing is left behind', async () => {
    // A small real data folder, backed up in this process (the CLI's own path is the test above).
    const source = tempDir();
    const core = await openCore(loadConfig({}, { dataDir: source, port: 0 }));
    try {
      const owner = await core.services.users.create('ann@backup.local', 'ann-password-1');
      await core.services.projects.create(owner, { name: 'Kept' });
    } finally {
      await core.close();
    }
    const dir = tempDir('folio-backups-');
    const good = path.join(dir, 'good.tar');
    await createBackup(source, good);
    expect(fs.existsSync(path.join(source, LAST_BACKUP_FILE))).toBe(true);
    // It holds what the data folder holds (documents, password hashes): as private as those.
    if (process.platform !== 'win32') expect(fs.statSync(good).mode & 0o777).toBe(0o600);
    const archive = fs.readFileSync(good);

    const foreign = path.join(dir, 'notes.txt');
    fs.writeFileSync(foreign, 'These are not the files you are looking for.\n'.repeat(40));
    const damaged = path.join(dir, 'damaged.tar');
    const flipped = Buffer.from(archive);
    // A byte inside the database entry (its content starts one header block after its name).
    const at = flipped.indexOf(Buffer.from('folio.db\0')) + 512 + 4096;
    flipped[at] ^= 0xff;
    fs.writeFileSync(damaged, flipped);
    const cut = path.join(dir, 'cut.tar');
    fs.writeFileSync(cut, archive.subarray(0, Math.floor(archive.length / 2)));
    const nonEmpty = tempDir();
    fs.writeFileSync(path.join(nonEmpty, 'keep.txt'), 'mine');

    const cases: [string, string, string][] = [
      [good, nonEmpty, `The data folder ${nonEmpty} is not empty`],
      [foreign, tempDir(), 'is not a Folio backup'],
      [damaged, tempDir(), 'is damaged: folio.db does not match its checksum'],
      [cut, tempDir(), 'is damaged'],
      [path.join(dir, 'missing.tar'), tempDir(), 'There is no backup file'],
    ];
    const results = await Promise.all(cases.map(([file, target]) => runFolio(['restore', file], { dataDir: target, timeoutMs: 60_000 })));
    results.forEach((r, i) => {
      const [file, target, message] = cases[i];
      expect(r.code, file).toBe(1);
      expect(r.stderr, file).toContain(message);
      // The target is as it was, and no unpacking folder stays beside it.
      expect(fs.readdirSync(target), file).toEqual(target === nonEmpty ? ['keep.txt'] : []);
      expect(fs.readdirSync(path.dirname(target)).filter((f) => f.startsWith('.folio-restore-')), file).toEqual([]);
    });
    expect(fs.readFileSync(path.join(nonEmpty, 'keep.txt'), 'utf8')).toBe('mine');

    // The good archive restores, into a folder that does not exist yet, with the project and its owner.
    const fresh = path.join(tempDir(), 'new-folder');
    const ok = await runFolio(['restore', good], { dataDir: fresh });
    expect(ok.stderr).toBe('');
    expect(ok.code).toBe(0);
    if (process.platform !== 'win32') {
      expect(fs.statSync(fresh).mode & 0o777).toBe(0o700);
      expect(fs.statSync(path.join(fresh, 'folio.db')).mode & 0o777).toBe(0o600);
    }
    const listed = await runFolio(['member', 'list', '1'], { dataDir: fresh });
    expect(listed.stdout).toMatch(/\tann@backup\.local\towner\n/);
  }, 120_000);

  it('folio backup refuses a folder without Folio data and a missing target folder', async () => {
    const empty = tempDir();
    const withData = tempDir();
    await (await openCore(loadConfig({}, { dataDir: withData, port: 0 }))).close();
    const [noData, noFolder] = await Promise.all([
      runFolio(['backup', path.join(tempDir(), 'x.tar')], { dataDir: empty }),
      runFolio(['backup', path.join(empty, 'no', 'such', 'x.tar')], { dataDir: withData }),
    ]);
    expect(noData.code).toBe(1);
    expect(noData.stderr).toContain(`There is no Folio data in ${empty}`);
    expect(noFolder.code).toBe(1);
    expect(noFolder.stderr).toContain(`The folder ${path.join(empty, 'no', 'such')} does not exist.`);
    expect(fs.readdirSync(empty)).toEqual([]);
    expect(fs.existsSync(path.join(withData, LAST_BACKUP_FILE))).toBe(false);
  }, 60_000);
});

describe('GET /api/v3/backup/', () => {
  it('needs a login, and answers null for a missing or unreadable record instead of failing', async () => {
    const s = await startTestServer();
    try {
      expect((await s.anonymous().get('/api/v3/backup/')).status).toBe(401);
      const user = await s.userClient('reader@backup.local');
      expect((await user.get('/api/v3/backup/')).body).toEqual({ last_backup: null });
      for (const garbage of ['{"created_at": "yesterday", "size": 1}', '{not json', '[]']) {
        fs.writeFileSync(path.join(s.dataDir, LAST_BACKUP_FILE), garbage);
        const r = await user.get('/api/v3/backup/');
        expect(r.status, garbage).toBe(200);
        expect(r.body, garbage).toEqual({ last_backup: null });
      }
      fs.writeFileSync(path.join(s.dataDir, LAST_BACKUP_FILE), JSON.stringify({ created_at: '2026-05-01T10:00:00.000Z', size: 1234 }));
      expect((await user.get('/api/v3/backup/')).body).toEqual({ last_backup: { created_at: '2026-05-01T10:00:00.000Z', size: 1234 } });
    } finally {
      await s.close();
    }
  });
});
