// Background work yields to the API's thread (backgroundPriority.ts): the PDF worker threads and the
// native tesseract processes run at BACKGROUND_NICE, the thread that answers requests stays at its own.
// Read from /proc, so Linux only (elsewhere only child processes are lowered, and nothing is checked).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BACKGROUND_NICE, lowerChildProcess } from '../../main/pipeline/backgroundPriority.ts';
import { inspectPdf } from '../../main/pipeline/pdfCheck.ts';
import { textPdf } from '../fixtures/pdfSamples.ts';

/** Field 19 of /proc/<pid>/task/<tid>/stat (after the parenthesised name) is the nice value. */
function niceOf(statFile: string): number {
  const stat = fs.readFileSync(statFile, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
}

const threadNices = () => fs.readdirSync('/proc/self/task').map((tid) => ({ tid: Number(tid), nice: niceOf(`/proc/self/task/${tid}/stat`) }));

describe.runIf(process.platform === 'linux')('background priority', () => {
  it('a PDF worker thread runs at the background nice value, the calling thread keeps its own', async () => {
    const mine = niceOf('/proc/thread-self/stat');
    expect(mine).toBeLessThan(BACKGROUND_NICE);
    await inspectPdf(await textPdf([['Priority check']]));
    const lowered = threadNices().filter((t) => t.nice === BACKGROUND_NICE);
    expect(lowered.length).toBeGreaterThan(0);
    expect(niceOf('/proc/thread-self/stat')).toBe(mine);
  });

  it('a child process doing background work is lowered', async () => {
    const child = spawn('sleep', ['5'], { stdio: 'ignore' });
    try {
      lowerChildProcess(child.pid);
      expect(niceOf(`/proc/${child.pid}/stat`)).toBe(BACKGROUND_NICE);
    } finally {
      child.kill();
    }
  });
});
