// The pieces of the app's lifecycle that need no window: files handed over on a command line or from the
// open dialog (read for the renderer to upload), and the bounded wait of a quit.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { filesFromArgv, readImports } from '../../main/electron/imports.ts';
import { closeWithin } from '../../main/electron/shutdown.ts';
import { loadConfig } from '../../main/config.ts';
import { openCore } from '../../main/core.ts';
import { startTestServer, tempDir } from '../helpers/testServer.ts';

describe('files named on a command line', () => {
  it('keeps existing files only: no switches, no folders, nothing of the app, each once', () => {
    const cwd = tempDir('folio-argv-');
    const app = tempDir('folio-app-');
    fs.writeFileSync(path.join(cwd, 'scan.pdf'), 'x');
    fs.writeFileSync(path.join(cwd, 'second.png'), 'x');
    fs.mkdirSync(path.join(cwd, 'folder'));
    fs.writeFileSync(path.join(app, 'main.mjs'), 'x');
    const argv = ['/opt/Folio/folio', '--enable-features=X', app, path.join(app, 'main.mjs'), 'scan.pdf', 'folder', 'missing.pdf', path.join(cwd, 'second.png'), './scan.pdf', '-psn_0_1'];
    expect(filesFromArgv(argv, cwd, app)).toEqual([path.join(cwd, 'scan.pdf'), path.join(cwd, 'second.png')]);
    expect(filesFromArgv(['/opt/Folio/folio'], cwd, app)).toEqual([]);
  });
});

describe('reading files for an import', () => {
  it('hands over each file\'s name and exact bytes, and says why it skipped the others', async () => {
    const dir = tempDir('folio-import-');
    const small = path.join(dir, 'Rechnung März.pdf');
    fs.writeFileSync(small, Buffer.from('%PDF-1.4 small'));
    const big = path.join(dir, 'big.pdf');
    fs.writeFileSync(big, Buffer.alloc(2048));
    const { files, skipped } = await readImports([small, big, dir, path.join(dir, 'gone.pdf')], 1024);
    expect(files.map((f) => f.name)).toEqual(['Rechnung März.pdf']);
    expect(files[0].data).toBeInstanceOf(ArrayBuffer);
    expect(Buffer.from(files[0].data).toString()).toBe('%PDF-1.4 small');
    expect(skipped.map((s) => [path.basename(s.file), s.reason])).toEqual([
      ['big.pdf', expect.stringMatching(/upload limit.*FOLIO_MAX_UPLOAD_MB/)],
      [path.basename(dir), 'not a file'],
      ['gone.pdf', expect.stringMatching(/ENOENT/)],
    ]);
  });
});

describe('quitting', () => {
  it('waits for the core to close', async () => {
    let closed = false;
    const outcome = await closeWithin(async () => {
      await new Promise((r) => setTimeout(r, 20));
      closed = true;
    }, 5_000);
    expect(outcome).toBe('closed');
    expect(closed).toBe(true);
  });

  it('closes a running Folio cleanly within the limit: the data folder is free again', async () => {
    const s = await startTestServer();
    expect(await closeWithin(() => s.close())).toBe('closed');
    expect(fs.existsSync(path.join(s.dataDir, 'folio.instance.json'))).toBe(false);
    const next = await openCore(loadConfig({}, { dataDir: s.dataDir, port: 0 }));
    await next.close();
  });

  it('stops waiting at the limit, and a failed close still lets the app quit', async () => {
    expect(await closeWithin(() => new Promise(() => {}), 30)).toBe('timed-out');
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(await closeWithin(async () => Promise.reject(new Error('disk gone')), 1_000)).toBe('closed');
    expect(error).toHaveBeenCalledWith('[folio] shutdown failed:', expect.any(Error));
    error.mockRestore();
  });
});
