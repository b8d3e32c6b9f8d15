// A throwaway PostgreSQL cluster for tests: `initdb` in a temporary folder, started by `pg_ctl` on a
// free loopback port, trust authentication, no fsync (a test cluster is thrown away, never recovered).
// When the run is root, the cluster belongs to the `postgres` user (PostgreSQL refuses to run as root).
//
// One cluster serves a whole vitest run when `FOLIO_TEST_PG_ADMIN_URL` names it (test/globalSetup.ts starts
// it for `FOLIO_TEST_DB=postgres`); otherwise the first caller in a test process starts one for that
// process and stops it at exit. Each test asks for a database of its own (`createTestDatabase`). A cluster of
// its own can be halted and resumed (halt/resume: an outage, as npm run test:chaos makes one).
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

export interface PgCluster {
  /** postgres://postgres@127.0.0.1:<port>/postgres */
  adminUrl: string;
  port: number;
  /** The cluster's folder (data/, the server log, the socket). */
  dir: string;
  stop(): void;
  /** Stops the server as a crash would (`pg_ctl stop -m immediate`), keeping its data: an outage. */
  halt(): void;
  /** Starts it again on the same port after halt(). */
  resume(): void;
}

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

/** The folder holding initdb and pg_ctl: PATH first, then Debian's /usr/lib/postgresql/<version>/bin. */
export function findPgBin(): string | null {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (dir && fs.existsSync(path.join(dir, 'initdb')) && fs.existsSync(path.join(dir, 'pg_ctl'))) return dir;
  }
  const base = '/usr/lib/postgresql';
  if (fs.existsSync(base)) {
    const versions = fs
      .readdirSync(base)
      .filter((v) => fs.existsSync(path.join(base, v, 'bin', 'initdb')))
      .sort((a, b) => Number(b) - Number(a));
    if (versions.length) return path.join(base, versions[0], 'bin');
  }
  return null;
}

export const postgresAvailable = (): boolean => findPgBin() !== null;

function run(bin: string, args: string[]): void {
  const [cmd, argv] = isRoot ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
  const r = spawnSync(cmd, argv, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (r.status !== 0) throw new Error(`${path.basename(bin)} ${args.join(' ')} failed (${r.status}): ${r.stderr || r.stdout}`);
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/**
 * Starts a new cluster; `stop()` (also run at process exit) shuts it down and deletes its folder. By default
 * it trades durability for speed (no fsync, asynchronous commit: a test cluster is thrown away); `durable`
 * keeps PostgreSQL's own settings, for tests that crash the server (`halt`) and then count what was kept: with
 * asynchronous commit a crash may drop a commit PostgreSQL had already acknowledged (test:chaos saw one).
 */
export async function startPgCluster({ durable = false }: { durable?: boolean } = {}): Promise<PgCluster> {
  const binDir = findPgBin();
  if (!binDir) throw new Error('PostgreSQL is not installed (no initdb/pg_ctl on PATH or in /usr/lib/postgresql/*/bin).');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-pg-'));
  fs.chmodSync(dir, 0o700);
  if (isRoot) execFileSync('chown', ['postgres:postgres', dir]);
  const data = path.join(dir, 'data');
  run(path.join(binDir, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
  const port = await freePort();
  const options = [
    `-p ${port}`,
    `-k ${dir}`,
    '-c listen_addresses=127.0.0.1',
    ...(durable ? [] : ['-c fsync=off', '-c synchronous_commit=off', '-c full_page_writes=off']),
    '-c max_connections=300',
  ].join(' ');
  const pgStart = () => run(path.join(binDir, 'pg_ctl'), ['-D', data, '-o', options, '-l', path.join(dir, 'server.log'), '-w', '-t', '60', 'start']);
  pgStart();
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    try {
      run(path.join(binDir, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']);
    } catch {
      // already gone
    }
    fs.rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  };
  process.once('exit', stop);
  watchParent(binDir, data, dir);
  const halt = () => run(path.join(binDir, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']);
  return { adminUrl: `postgres://postgres@127.0.0.1:${port}/postgres`, port, dir, stop, halt, resume: pgStart };
}

/**
 * Vitest ends its test processes with a signal, which skips 'exit' handlers: a detached watchdog stops the
 * cluster and deletes its folder once the process that started it is gone, however it ended.
 */
function watchParent(binDir: string, data: string, dir: string): void {
  const pgCtl = `${isRoot ? 'runuser -u postgres -- ' : ''}'${path.join(binDir, 'pg_ctl')}' -D '${data}' -m immediate -w stop`;
  const script = `while kill -0 ${process.pid} 2>/dev/null; do sleep 1; done; ${pgCtl} >/dev/null 2>&1; rm -rf '${dir}'`;
  spawn('sh', ['-c', script], { detached: true, stdio: 'ignore' }).unref();
}

let own: Promise<PgCluster> | undefined;

/** The run's shared cluster (FOLIO_TEST_PG_ADMIN_URL) or one started for this test process. */
export async function testClusterUrl(): Promise<string> {
  const shared = process.env.FOLIO_TEST_PG_ADMIN_URL;
  if (shared) return shared;
  own ??= startPgCluster();
  return (await own).adminUrl;
}

let counter = 0;

/** A new, empty database on the test cluster; returns its URL. */
export async function createTestDatabase(prefix = 'folio'): Promise<string> {
  const adminUrl = await testClusterUrl();
  const name = `${prefix}_${process.pid}_${Date.now().toString(36)}_${counter++}`.toLowerCase().replace(/[^a-z0-9_]/g, '_');
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`create database "${name}" template template0`);
  } finally {
    await client.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Drops a database made by createTestDatabase (connections to it are ended first). */
export async function dropTestDatabase(url: string): Promise<void> {
  const name = new URL(url).pathname.slice(1);
  const client = new pg.Client({ connectionString: await testClusterUrl() });
  await client.connect();
  try {
    await client.query(`drop database if exists "${name}" with (force)`);
  } finally {
    await client.end();
  }
}
