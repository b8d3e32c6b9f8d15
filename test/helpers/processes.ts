// Runs the real `folio` command (node bin/folio.mjs) as a child process, for the tests of the command
// line, restarts and crashes. Every wait is bounded, and every started process is stopped after a test.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { testDatabaseEnv } from './testStore.ts';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const folioBin = path.join(repoRoot, 'bin', 'folio.mjs');

/** How long a `folio` process may take to start up (it compiles TypeScript through tsx on the way). */
const START_TIMEOUT_MS = 20_000;

export interface FolioEnv {
  dataDir: string;
  /** Extra variables; `undefined` removes one. FOLIO_PORT defaults to 0 and FOLIO_HOST to 127.0.0.1. */
  env?: Record<string, string | undefined>;
}

/** The test runner's environment without the developer's own FOLIO_* settings, which would leak in. */
function childEnv({ dataDir, env = {} }: FolioEnv): NodeJS.ProcessEnv {
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('FOLIO_')));
  // The sources, as edited, even where a current dist/main would run (bin/folio.mjs): test/build.test.ts
  // tests the compiled app.
  // A data folder whose test server runs on PostgreSQL (FOLIO_TEST_DB=postgres) names its database too.
  const merged: NodeJS.ProcessEnv = { ...base, FOLIO_RUN: 'source', FOLIO_PORT: '0', FOLIO_HOST: '127.0.0.1', FOLIO_DATA_DIR: dataDir, ...testDatabaseEnv(dataDir), ...env };
  for (const [k, v] of Object.entries(merged)) if (v === undefined) delete merged[k];
  return merged;
}

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs `folio <args>` to completion (killed after `timeoutMs`). */
export function runFolio(args: string[], opts: FolioEnv & { timeoutMs?: number }): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [folioBin, ...args], { cwd: repoRoot, env: childEnv(opts), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`folio ${args.join(' ')} did not finish in ${opts.timeoutMs ?? START_TIMEOUT_MS} ms.\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, opts.timeoutMs ?? START_TIMEOUT_MS);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

export interface FolioProcess {
  /** The API's base URL, as printed by the process (no trailing slash). */
  url: string;
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /**
   * Resolves with the output once `pattern` appears in it: stdout and stderr are separate pipes, so
   * what a process printed before its URL line may still be on its way when startFolio resolves.
   */
  waitFor(pattern: RegExp, stream?: 'stdout' | 'stderr', timeoutMs?: number): Promise<string>;
  /** Resolves when the process has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Sends SIGTERM (a clean shutdown) and waits for the exit. */
  stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGKILL: the process dies at once, as in a crash or a power cut of the process. */
  kill(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const running = new Set<ChildProcess>();

/**
 * Starts `folio serve` (or `args`) and resolves once it prints the URL it listens on. Rejects, with
 * everything it printed, when it exits first or does not start in time.
 */
export function startFolio(opts: FolioEnv & { args?: string[]; startTimeoutMs?: number }): Promise<FolioProcess> {
  const startTimeoutMs = opts.startTimeoutMs ?? START_TIMEOUT_MS;
  const args = opts.args ?? ['serve'];
  const child = spawn(process.execPath, [folioBin, ...args], { cwd: repoRoot, env: childEnv(opts), stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  let stdout = '';
  let stderr = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on('close', (code, signal) => {
      running.delete(child);
      resolve({ code, signal });
    });
  });
  const signalAndWait = (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    return exited;
  };

  const waitFor = (pattern: RegExp, stream: 'stdout' | 'stderr' = 'stdout', timeoutMs = 5_000) =>
    new Promise<string>((resolve, reject) => {
      const read = () => (stream === 'stdout' ? stdout : stderr);
      const check = () => {
        if (!pattern.test(read())) return false;
        clearTimeout(timer);
        child[stream]!.off('data', onData);
        resolve(read());
        return true;
      };
      // Runs after the collecting listener, which was added first.
      const onData = () => void check();
      const timer = setTimeout(() => {
        child[stream]!.off('data', onData);
        reject(new Error(`folio ${args.join(' ')} did not print ${pattern} on ${stream} within ${timeoutMs} ms.\nstdout: ${stdout}\nstderr: ${stderr}`));
      }, timeoutMs);
      if (!check()) child[stream]!.on('data', onData);
    });

  return new Promise((resolve, reject) => {
    let settled = false;
    const fail = (why: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`folio ${args.join(' ')} ${why}.\nstdout: ${stdout}\nstderr: ${stderr}`));
    };
    const timer = setTimeout(() => fail(`printed no URL within ${startTimeoutMs} ms`), startTimeoutMs);
    child.on('error', (err) => fail(`could not be spawned (${err.message})`));
    void exited.then(({ code, signal }) => fail(`exited (code ${code}, signal ${signal}) before it listened`));
    child.stderr!.on('data', (d) => (stderr += d));
    child.stdout!.on('data', (d) => {
      stdout += d;
      const m = /Folio is running at (http:\/\/\S+?)\/? /.exec(stdout);
      if (!m || settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({
        url: m[1],
        child,
        stdout: () => stdout,
        stderr: () => stderr,
        waitFor,
        exited,
        stop: () => signalAndWait('SIGTERM'),
        kill: () => signalAndWait('SIGKILL'),
      });
    });
  });
}

/** Kills every process that startFolio started and that is still running (for afterEach/afterAll). */
export async function killAllFolios(): Promise<void> {
  await Promise.all(
    [...running].map(
      (child) =>
        new Promise<void>((resolve) => {
          child.once('close', () => resolve());
          child.kill('SIGKILL');
        }),
    ),
  );
}
