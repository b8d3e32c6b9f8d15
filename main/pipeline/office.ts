// Converts office documents to PDF with LibreOffice, headless: a throwaway profile and folder per run
// (never the user's own LibreOffice), a time limit that kills the whole process group, and a cap on
// how many run at once, since each one is a full office suite in memory.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { lowerChildProcess } from './backgroundPriority.ts';
import { OfficeConversionError, OfficeUnavailableError } from './errors.ts';
import type { OfficeFormat } from './sniff.ts';

export interface OfficeOptions {
  /** Per conversion, from LibreOffice's start (not its wait in the queue). Default 120 s. */
  timeoutMs?: number;
  /** Where the per-run folders go (default the OS temp folder); each is removed when the run ends. */
  tmpDir?: string;
  /** Environment to look up LibreOffice in (FOLIO_SOFFICE, PATH); default process.env. */
  env?: NodeJS.ProcessEnv;
}

export const DEFAULT_OFFICE_TIMEOUT_MS = 120_000;

export function officeAvailable(env: NodeJS.ProcessEnv = process.env): boolean {
  return findSoffice(env) !== null;
}

export function convertOfficeToPdf(bytes: Uint8Array, format: OfficeFormat, opts: OfficeOptions = {}): Promise<Buffer> {
  return convertOffice(bytes, format, 'pdf', opts);
}

/** Any conversion LibreOffice's `--convert-to` does, from a file with extension `from` to `to`. */
export async function convertOffice(bytes: Uint8Array, from: string, to: string, opts: OfficeOptions = {}): Promise<Buffer> {
  // Both become file names and a command-line argument: plain extensions only.
  if (!/^[a-z0-9]{2,5}$/.test(from) || !/^[a-z0-9]{2,5}$/.test(to)) throw new Error(`convertOffice: bad format "${from}" -> "${to}"`);
  const env = opts.env ?? process.env;
  const binary = findSoffice(env);
  if (!binary) throw new OfficeUnavailableError(unavailableMessage(env));
  const timeoutMs = opts.timeoutMs ?? DEFAULT_OFFICE_TIMEOUT_MS;
  return queue(env).run(async () => {
    const dir = await fsp.mkdtemp(path.join(opts.tmpDir ?? os.tmpdir(), 'folio-office-'));
    try {
      const input = path.join(dir, `document.${from}`);
      const outDir = path.join(dir, 'out');
      await fsp.writeFile(input, bytes);
      const args = [
        // A fresh profile: no clash with a LibreOffice the user has open, no state from earlier runs.
        `-env:UserInstallation=${pathToFileURL(path.join(dir, 'profile')).href}`,
        '--headless', '--invisible', '--nodefault', '--nolockcheck', '--nologo', '--norestore',
        '--convert-to', to, '--outdir', outDir, input,
      ];
      const run = await runSoffice(binary, args, dir, timeoutMs);
      if (run.timedOut) {
        throw new OfficeConversionError(
          `LibreOffice did not finish converting the file within ${timeoutMs / 1000} s. The file may be very large or damaged; upload a PDF export of it instead.`,
        );
      }
      // LibreOffice exits 0 even when it cannot load the file: the output file is the only proof.
      const out = await fsp.readFile(path.join(outDir, `document.${to}`)).catch(() => null);
      if (!out || out.length === 0) {
        throw new OfficeConversionError(
          'LibreOffice could not convert the file to PDF. It may be damaged or protected with a password: open it in its application and save a copy, or upload a PDF export of it.',
          { detail: failureReason(run) },
        );
      }
      return out;
    } finally {
      await fsp.rm(dir, { recursive: true, force: true, maxRetries: 3, retryDelay: 200 });
    }
  });
}

// ---- Finding LibreOffice

const isExecutable = (file: string) => {
  try {
    if (!fs.statSync(file).isFile()) return false;
    if (process.platform !== 'win32') fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/** FOLIO_SOFFICE when set (and then only it), else soffice/libreoffice on PATH, else the usual install folders. */
export function findSoffice(env: NodeJS.ProcessEnv = process.env): string | null {
  const explicit = env.FOLIO_SOFFICE?.trim();
  if (explicit) return isExecutable(explicit) ? explicit : null;
  const win = process.platform === 'win32';
  // soffice.com is the console variant on Windows: it waits for the conversion and passes on its output.
  const names = win ? ['soffice.com', 'soffice.exe'] : ['soffice', 'libreoffice'];
  const pathDirs = (env.PATH ?? env.Path ?? '').split(path.delimiter).filter(Boolean);
  const candidates = [...pathDirs.flatMap((dir) => names.map((n) => path.join(dir, n))), ...installLocations(env, names)];
  return candidates.find(isExecutable) ?? null;
}

function installLocations(env: NodeJS.ProcessEnv, names: string[]): string[] {
  if (process.platform === 'darwin') {
    return ['/Applications', path.join(os.homedir(), 'Applications')].map((apps) => path.join(apps, 'LibreOffice.app', 'Contents', 'MacOS', 'soffice'));
  }
  if (process.platform === 'win32') {
    const roots = [env.ProgramFiles, env['ProgramFiles(x86)'], env.ProgramW6432, 'C:\\Program Files'].filter((r): r is string => Boolean(r));
    return roots.flatMap((root) => names.map((n) => path.join(root, 'LibreOffice', 'program', n)));
  }
  // Linux and BSD: distribution packages, the LibreOffice project's own packages (/opt/libreofficeX.Y), snap.
  let opt: string[] = [];
  try {
    opt = fs.readdirSync('/opt').filter((d) => d.startsWith('libreoffice')).sort().reverse().map((d) => path.join('/opt', d, 'program', 'soffice'));
  } catch {
    /* no /opt */
  }
  return ['/usr/lib/libreoffice/program/soffice', '/usr/local/lib/libreoffice/program/soffice', ...opt, '/snap/bin/libreoffice'];
}

/** Why office files cannot be converted here, and how to enable it. */
export function unavailableMessage(env: NodeJS.ProcessEnv = process.env): string {
  const explicit = env.FOLIO_SOFFICE?.trim();
  const why = explicit
    ? `FOLIO_SOFFICE is set to "${explicit}", which is not an executable file.`
    : 'LibreOffice is not installed on this machine.';
  const install =
    process.platform === 'darwin' ? 'install LibreOffice (https://www.libreoffice.org, or `brew install --cask libreoffice`)'
    : process.platform === 'win32' ? 'install LibreOffice (https://www.libreoffice.org)'
    : 'install LibreOffice (for example `apt install libreoffice-core-nogui libreoffice-writer-nogui libreoffice-calc-nogui libreoffice-impress-nogui`)';
  return `Office documents (Word, Excel, PowerPoint, Publisher, OpenDocument) are converted to PDF with LibreOffice. ${why} To enable them, ${install}, or set FOLIO_SOFFICE to the path of its soffice program. Until then, upload a PDF export of the file.`;
}

// ---- Running it

interface SofficeRun {
  timedOut: boolean;
  code: number | null;
  output: string;
}

/** Process groups still running, killed if Folio exits first (they are detached, so would outlive it). */
const running = new Set<ChildProcess>();
let exitHookInstalled = false;

function killGroup(child: ChildProcess): void {
  if (!child.pid) return;
  if (process.platform === 'win32') {
    spawn('taskkill', ['/pid', String(child.pid), '/T', '/F'], { stdio: 'ignore', windowsHide: true }).on('error', () => {});
    return;
  }
  try {
    // soffice is a wrapper: oosplash and soffice.bin run under it in the same (new) process group.
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    /* already gone */
  }
}

function runSoffice(binary: string, args: string[], cwd: string, timeoutMs: number): Promise<SofficeRun> {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on('exit', () => running.forEach(killGroup));
  }
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, { cwd, detached: process.platform !== 'win32', stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
    lowerChildProcess(child.pid);
    running.add(child);
    let output = '';
    const collect = (chunk: Buffer) => {
      if (output.length < 16_384) output += chunk.toString('utf8');
    };
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child);
    }, timeoutMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      running.delete(child);
      reject(new OfficeUnavailableError(`Folio could not start LibreOffice (${binary}): ${err.message}. Check the installation or FOLIO_SOFFICE.`));
    });
    // 'close' waits until every holder of the output pipes (soffice.bin too) has exited.
    child.on('close', (code) => {
      clearTimeout(timer);
      running.delete(child);
      resolve({ timedOut, code, output });
    });
  });
}

function failureReason(run: SofficeRun): string {
  const errors = run.output.split(/\r?\n/).map((l) => l.trim()).filter((l) => /^error\b/i.test(l));
  if (errors.length) return errors.join(' ');
  return run.code ? `exit code ${run.code}` : 'it produced no output';
}

// ---- At most N conversions at once (FOLIO_OFFICE_CONCURRENCY, default 2); the rest wait their turn.

class Limiter {
  private waiting: Array<() => void> = [];
  constructor(private free: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.free > 0) this.free--;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.free++;
    }
  }
}

let limiter: Limiter | undefined;

function queue(env: NodeJS.ProcessEnv): Limiter {
  if (!limiter) {
    const n = Number(env.FOLIO_OFFICE_CONCURRENCY);
    limiter = new Limiter(Number.isInteger(n) && n > 0 ? n : 2);
  }
  return limiter;
}
