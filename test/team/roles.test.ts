// The team server's process roles on the command line: `folio worker` and `folio serve --no-workers` are
// processes beside others on one PostgreSQL; on a desktop data folder (SQLite, one owning process) both
// refuse with a message saying what to run instead, and touch nothing; so do they on PostgreSQL without the
// shared bucket. Running them on PostgreSQL:
// test/team/multiProcess.test.ts.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runFolio } from '../helpers/processes.ts';
import { tempDir } from '../helpers/testServer.ts';

describe('process roles outside a team server', () => {
  it('folio worker refuses: the data folder has one owner, `folio serve`', async () => {
    const dataDir = tempDir('folio-roles-');
    const r = await runFolio(['worker'], { dataDir, env: { FOLIO_DATABASE_URL: undefined } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('folio worker is a process of a team server');
    expect(r.stderr).toContain('FOLIO_DATABASE_URL is not set');
    expect(r.stderr).toContain('`folio serve` runs the workers of its data folder itself');
    expect(fs.existsSync(`${dataDir}/folio.db`)).toBe(false);
  });

  it('folio serve --no-workers refuses: nothing else could run its jobs', async () => {
    const dataDir = tempDir('folio-roles-');
    const r = await runFolio(['serve', '--no-workers'], { dataDir, env: { FOLIO_DATABASE_URL: undefined } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('folio serve --no-workers is a process of a team server');
    expect(r.stderr).toContain('only `folio serve` itself can run its jobs');
    expect(fs.existsSync(`${dataDir}/folio.db`)).toBe(false);
  });

  it('on PostgreSQL without object storage both refuse too: each process has a data folder of its own', async () => {
    // Nothing listens there: the refusal comes before any connection.
    const env = { FOLIO_DATABASE_URL: 'postgres://folio@127.0.0.1:1/folio' };
    for (const args of [['worker'], ['serve', '--no-workers']]) {
      const r = await runFolio(args, { dataDir: tempDir('folio-roles-'), env });
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.stderr).toContain(`folio ${args.join(' ')} shares the files with the team server's other processes through object storage, which is not set`);
    }
  });
});
