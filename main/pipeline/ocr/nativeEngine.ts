// The native engine: the `tesseract` program (4 or later) when the machine has it, one process per page,
// reading Folio's own staged models (--tessdata-dir), so it reads with the same models as the embedded
// engine at native speed. Its hOCR output (with character boxes) becomes the same result tree tesseract.js
// gives, so the pool's geometry is the same for both.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { lowerChildProcess } from '../backgroundPriority.ts';
import { OcrError } from './errors.ts';
import type { OcrEngine, OcrSession, OsdResult, RecognizeOptions } from './engineTypes.ts';
import { parseHocr } from './hocr.ts';

export interface NativeProgram {
  file: string;
  /** "tesseract 5.3.0" */
  version: string;
}

const found = new Map<string, NativeProgram | null>();

/** FOLIO_TESSERACT, else `tesseract` on PATH, when it runs and is version 4 or later (LSTM models). */
export function findNativeTesseract(env: NodeJS.ProcessEnv = process.env): NativeProgram | undefined {
  const candidates = env.FOLIO_TESSERACT ? [env.FOLIO_TESSERACT] : onPath('tesseract', env.PATH ?? '');
  for (const file of candidates) {
    if (!found.has(file)) found.set(file, probe(file));
    const program = found.get(file);
    if (program) return program;
  }
  return undefined;
}

function onPath(name: string, pathVar: string): string[] {
  const exts = process.platform === 'win32' ? ['.exe', ''] : [''];
  return pathVar.split(path.delimiter).filter(Boolean).flatMap((dir) => exts.map((e) => path.join(dir, name + e))).filter((f) => {
    try {
      return fs.statSync(f).isFile();
    } catch {
      return false;
    }
  });
}

function probe(file: string): NativeProgram | null {
  try {
    const out = execFileSync(file, ['--version'], { encoding: 'utf8', timeout: 10_000, stdio: ['ignore', 'pipe', 'pipe'] });
    const m = /tesseract v?(\d+)\.(\d+)\.(\d+)/i.exec(out);
    if (!m || Number(m[1]) < 4) return null;
    return { file, version: `tesseract ${m[1]}.${m[2]}.${m[3]}` };
  } catch {
    return null;
  }
}

export function nativeEngine(program: NativeProgram): OcrEngine {
  return {
    name: 'native',
    version: async () => program.version,
    open: async (codes, modelDir) => {
      const running = new Set<ReturnType<typeof spawn>>();
      let closed = false;
      const run = (args: string[], png: Uint8Array) => {
        if (closed) return Promise.reject(new OcrError('The OCR engine was closed.'));
        return runTesseract(program.file, ['stdin', 'stdout', '--tessdata-dir', modelDir, ...args], png, running);
      };
      const session: OcrSession = {
        // A process per page: nothing outlives a page, so nothing can be lost between pages.
        lost: new Promise<never>(() => {}),
        recognize: async (png: Uint8Array, options: RecognizeOptions) => {
          const { stdout, stderr, code } = await run(['-l', codes.join('+'), '--oem', '1', '--psm', String(options.psm), '--dpi', String(Math.round(options.dpi)), '-c', 'tessedit_create_hocr=1', '-c', 'hocr_char_boxes=1'], png);
          if (code !== 0 && /load(ing)? (any )?language|initialize tesseract/i.test(stderr)) {
            // The same words as the embedded engine's, so a broken model reads alike whichever engine runs.
            throw new OcrError(`Could not start OCR for ${codes.join('+')} (${lastLines(stderr)}): are ${codes.map((c) => `${c}.traineddata`).join(', ')} tesseract 4 or later (LSTM) models?`);
          }
          if (code !== 0) throw new OcrError(`tesseract failed (exit code ${code}): ${lastLines(stderr)}`);
          return parseHocr(stdout);
        },
        detectOrientation: async (png: Uint8Array, dpi: number): Promise<OsdResult | undefined> => {
          const { stdout, code } = await run(['--psm', '0', '--dpi', String(Math.round(dpi))], png);
          // Exit 1 with "Too few characters" is no opinion, not a failure.
          if (code !== 0) return undefined;
          const rotate = /Rotate:\s*(\d+)/.exec(stdout);
          const confidence = /Orientation confidence:\s*([\d.]+)/.exec(stdout);
          if (!rotate || !confidence) return undefined;
          const turn = ((Math.round(Number(rotate[1]) / 90) * 90) % 360) as 0 | 90 | 180 | 270;
          return { turn, confidence: Number(confidence[1]) };
        },
        close: async () => {
          closed = true;
          for (const child of running) child.kill('SIGKILL');
        },
      };
      return session;
    },
  };
}

function lastLines(s: string): string {
  return s.trim().split('\n').slice(-3).join(' ').slice(0, 500) || 'no message';
}

function runTesseract(file: string, args: string[], input: Uint8Array, running: Set<ReturnType<typeof spawn>>): Promise<{ stdout: string; stderr: string; code: number | null }> {
  return new Promise((resolve, reject) => {
    // One thread per process: the pool runs one process per worker slot, and tesseract's OpenMP threads
    // would only fight over the same cores (and are slower than one thread on small pages).
    const child = spawn(file, args, { env: { ...process.env, OMP_THREAD_LIMIT: '1' }, stdio: ['pipe', 'pipe', 'pipe'] });
    lowerChildProcess(child.pid);
    running.add(child);
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => err.push(d));
    child.on('error', (e) => {
      running.delete(child);
      reject(new OcrError(`Could not run ${file}: ${e.message}`));
    });
    child.on('close', (code, signal) => {
      running.delete(child);
      if (signal) return reject(new OcrError(`tesseract was stopped (${signal})`));
      resolve({ stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8'), code });
    });
    // A process that died early closes stdin: its exit code tells why, not the broken pipe.
    child.stdin.on('error', () => {});
    child.stdin.end(Buffer.from(input.buffer, input.byteOffset, input.byteLength));
  });
}
