// Starts `folio worker` (a team server's processing process, no HTTP: main/cli.ts) as a child process and
// resolves once it says it is running; startFolio (processes.ts) does the same for the processes that
// print a URL. The child runs the sources, without the caller's own FOLIO_* settings.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { repoRoot } from './processes.ts';

export interface WorkerProcess {
  pid: number;
  /** SIGTERM (a clean shutdown: the job in hand finishes or goes back to the queue) and waits for the exit. */
  stop(): Promise<void>;
  /** SIGKILL (the process dies at once, its jobs in hand with it) and waits for the exit. */
  kill(): Promise<void>;
  /** Still running. */
  alive(): boolean;
  /** What it printed so far, stdout and stderr. */
  output(): string;
}

const START_TIMEOUT_MS = 60_000;

export function startWorker(dataDir: string, env: Record<string, string>): Promise<WorkerProcess> {
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('FOLIO_')));
  const child = spawn(process.execPath, [path.join(repoRoot, 'bin', 'folio.mjs'), 'worker'], {
    cwd: repoRoot,
    env: { ...base, FOLIO_RUN: 'source', FOLIO_DATA_DIR: dataDir, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`folio worker did not start within ${START_TIMEOUT_MS} ms:\n${out}`));
    }, START_TIMEOUT_MS);
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`folio worker exited before it ran:\n${out}`));
    });
    child.stderr!.on('data', (d) => (out += d));
    child.stdout!.on('data', (d) => {
      out += d;
      if (!/Folio worker is running/.test(out)) return;
      clearTimeout(timer);
      const alive = () => child.exitCode === null && child.signalCode === null;
      const signal = async (name: NodeJS.Signals) => {
        if (alive()) child.kill(name);
        await exited;
      };
      resolve({ pid: child.pid!, stop: () => signal('SIGTERM'), kill: () => signal('SIGKILL'), alive, output: () => out });
    });
  });
}
