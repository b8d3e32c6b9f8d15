// The data folder is private to its user: folders 700, files 600, for a new install, for what Folio
// writes while it runs, and for an install from before, which is corrected at start. (No modes on Windows.)
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../main/config.ts';
import { openCore } from '../main/core.ts';
import { securePermissions } from '../main/dataPermissions.ts';
import { startTestServer, tempDir, type TestServer } from './helpers/testServer.ts';
import { created, pdfWithText, upload } from './helpers/documentFixtures.ts';

const windows = process.platform === 'win32';
const modeOf = (p: string) => fs.statSync(p).mode & 0o777;

/** Every folder and file under `dir` (itself included) with its mode, as `relative path -> octal`. */
function modes(dir: string): Map<string, string> {
  const out = new Map<string, string>([['.', modeOf(dir).toString(8)]]);
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isSymbolicLink()) continue;
      out.set(path.relative(dir, p), modeOf(p).toString(8));
      if (e.isDirectory()) walk(p);
    }
  };
  walk(dir);
  return out;
}

const widerThanPrivate = (m: Map<string, string>, dir: string) =>
  [...m].filter(([rel, mode]) => mode !== (fs.statSync(path.join(dir, rel)).isDirectory() ? '700' : '600'));

describe.skipIf(windows)('permissions of the data folder', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.close());

  it('are 700 for folders and 600 for files in a new install, including what an upload and its processing wrote', async () => {
    const project = (await created(s.admin.post('/api/v3/projects/', { name: 'Private' }))).id;
    await created(upload(s.admin, { project, sync: 'true' }, { name: 'private.pdf', data: await pdfWithText('Salary 4200') }));
    const m = modes(s.dataDir);
    for (const name of ['.', 'folio.db', 'folio.db-wal', 'folio.db-shm', 'secret.key', 'blobs', 'blobs/tmp']) {
      expect(m.get(name), name).toBe(name.includes('.') && name !== '.' ? '600' : '700');
    }
    const blobFiles = [...m.keys()].filter((k) => /^blobs\/[0-9a-f]{2}\/[0-9a-f]{64}$/.test(k));
    // The upload itself and at least its page image and thumbnail.
    expect(blobFiles.length).toBeGreaterThanOrEqual(3);
    expect(widerThanPrivate(m, s.dataDir)).toEqual([]);
  });
});

describe.skipIf(windows)('an install from before', () => {
  it('is corrected at start: the folder, the database and its journal files, the key, blobs, tessdata and caches', async () => {
    const dataDir = tempDir();
    const first = await openCore(loadConfig({}, { dataDir, port: 0, host: '127.0.0.1' }));
    const key = (await first.blobs.put(Buffer.from('a document'))).key;
    await first.close();
    // As an older Folio (or a copy by hand) left it: readable by everyone.
    for (const [rel, mode] of [
      ['.', 0o755],
      ['folio.db', 0o644],
      ['secret.key', 0o644],
      ['blobs', 0o755],
      [`blobs/${key.slice(0, 2)}`, 0o755],
      [`blobs/${key.slice(0, 2)}/${key}`, 0o644],
    ] as const) {
      fs.chmodSync(path.join(dataDir, rel), mode);
    }
    fs.mkdirSync(path.join(dataDir, 'tessdata'), { mode: 0o755 });
    fs.writeFileSync(path.join(dataDir, 'tessdata', 'fra.traineddata'), 'model', { mode: 0o644 });
    fs.mkdirSync(path.join(dataDir, 'cache', 'ocr'), { recursive: true, mode: 0o775 });
    fs.writeFileSync(path.join(dataDir, 'cache', 'ocr', 'page.json'), '{}', { mode: 0o666 });
    // A link out of the folder is left alone, and so is what it points at.
    const outside = path.join(tempDir(), 'shared.txt');
    fs.writeFileSync(outside, 'not Folio data', { mode: 0o644 });
    fs.symlinkSync(outside, path.join(dataDir, 'link-out'));

    expect(widerThanPrivate(modes(dataDir), dataDir).length).toBeGreaterThanOrEqual(9);
    // Without the lock (as a CLI command beside a server opens it), so that the start-up sweep leaves the
    // blob, which no document refers to, in place: the correction runs either way.
    const core = await openCore(loadConfig({}, { dataDir, port: 0, host: '127.0.0.1' }), { lock: false });
    try {
      const m = modes(dataDir);
      expect(widerThanPrivate(m, dataDir)).toEqual([]);
      expect(m.get('tessdata/fra.traineddata')).toBe('600');
      expect(m.get('cache/ocr')).toBe('700');
      expect(modeOf(outside)).toBe(0o644);
      expect((await core.blobs.read(key)).toString()).toBe('a document');
    } finally {
      await core.close();
    }
  });

  it('does nothing on Windows, which has no such modes', () => {
    const dir = tempDir();
    fs.chmodSync(dir, 0o755);
    expect(securePermissions(dir, 'win32')).toBe(0);
    expect(modeOf(dir)).toBe(0o755);
  });
});
