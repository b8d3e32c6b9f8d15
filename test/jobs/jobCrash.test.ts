// The queue's durability against a real crash: a worker process (test/jobs/fixtures/worker.ts) is
// SIGKILLed at random points several times, then run to the end. Every job must end done exactly once,
// the result rows must be exactly the expected set (none twice, none missing) and the file intact.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomInt } from 'node:crypto';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { integrityCheck, openStore } from '../../main/store/db.ts';
import { repoRoot } from '../helpers/processes.ts';
import { tempDir } from '../helpers/testServer.ts';
import { DOCUMENTS, PAGES, TOTAL_JOBS } from './fixtures/crashPlan.ts';

const KILLS = 5;
/** Bounds every wait on the worker (it starts through tsx, which takes a moment). */
const WAIT_MS = 30_000;

const children = new Set<ChildProcess>();
afterEach(() => {
  for (const child of children) child.kill('SIGKILL');
  children.clear();
});

interface Worker {
  child: ChildProcess;
  output(): string;
  /** Commits reported so far. */
  commits(): number;
  /** Resolves once `check(output)` holds; rejects when the worker exits first or after WAIT_MS. */
  waitFor(check: (out: string) => boolean, what: string): Promise<void>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function startWorker(dbFile: string): Worker {
  const child = spawn(process.execPath, ['bin/run-ts.mjs', 'test/jobs/fixtures/worker.ts', dbFile], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (err += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (code, signal) => {
      children.delete(child);
      resolve({ code, signal });
    }),
  );
  const output = () => `${out}${err ? `\nstderr: ${err}` : ''}`;
  const waitFor = (check: (o: string) => boolean, what: string) =>
    new Promise<void>((resolve, reject) => {
      const deadline = Date.now() + WAIT_MS;
      const poll = () => {
        if (check(out)) return resolve();
        if (child.exitCode !== null || child.signalCode !== null) return reject(new Error(`The worker exited before ${what}.\n${output()}`));
        if (Date.now() > deadline) return reject(new Error(`The worker did not reach ${what} in ${WAIT_MS} ms.\n${output()}`));
        setTimeout(poll, 2);
      };
      poll();
    });
  return { child, output, commits: () => out.match(/^committed /gm)?.length ?? 0, waitFor, exited };
}

describe('a worker killed mid-way (SIGKILL) and started again', () => {
  it('finishes every job exactly once, with exactly the expected result rows', { timeout: 120_000 }, async () => {
    const dbFile = path.join(tempDir('folio-jobs-'), 'folio.db');
    let kills = 0;
    let requeued = 0;

    for (let round = 0; round < KILLS; round++) {
      const w = startWorker(dbFile);
      await w.waitFor((o) => /^ready /m.test(o), 'ready');
      requeued += Number(/requeued=(\d+)/.exec(w.output())![1]);
      // A random point: after 1 to 6 more commits, and up to 15 ms later (often inside the next ones).
      const target = w.commits() + randomInt(1, 7);
      const reached = await w.waitFor(() => w.commits() >= target, `${target} commits`).then(
        () => true,
        () => false,
      );
      if (!reached) {
        // It ran out of work before the kill point: it must have ended cleanly.
        expect(await w.exited, w.output()).toEqual({ code: 0, signal: null });
        break;
      }
      await sleep(randomInt(0, 16));
      w.child.kill('SIGKILL');
      expect((await w.exited).signal).toBe('SIGKILL');
      kills++;
    }

    const last = startWorker(dbFile);
    await last.waitFor((o) => /^finished$/m.test(o), 'finished');
    expect(await last.exited, last.output()).toEqual({ code: 0, signal: null });
    requeued += Number(/requeued=(\d+)/.exec(last.output())![1]);
    expect(last.output()).not.toContain('stderr');

    expect(kills, 'the worker was killed mid-way').toBeGreaterThan(0);
    // The kills hit jobs in progress, which the next start re-queued (and ran again).
    expect(requeued).toBeGreaterThan(0);

    const store = openStore(dbFile);
    try {
      const jobs = store.sqlite.prepare('select kind, state, dedupe_key, attempts, interruptions from jobs order by id').all() as { kind: string; state: string; dedupe_key: string; attempts: number; interruptions: number }[];
      expect(jobs).toHaveLength(TOTAL_JOBS);
      expect(jobs.filter((j) => j.state !== 'done')).toEqual([]);
      const expectedKeys: string[] = [];
      for (let doc = 1; doc <= DOCUMENTS; doc++) {
        expectedKeys.push(`split:${doc}`, `assemble:${doc}`);
        for (let page = 1; page <= PAGES; page++) expectedKeys.push(`page:${doc}:${page}`);
      }
      expect(jobs.map((j) => j.dedupe_key).sort()).toEqual(expectedKeys.sort());
      // Every job ran to the end once more than it was interrupted, but a kill spends no attempt: one each.
      expect(jobs.reduce((n, j) => n + j.interruptions, 0)).toBeGreaterThan(0);
      expect(jobs.map((j) => j.attempts)).toEqual(jobs.map(() => 1));

      const pages = store.sqlite.prepare('select doc, page from crash_pages order by doc, page').all();
      const expectedPages = [];
      for (let doc = 1; doc <= DOCUMENTS; doc++) for (let page = 1; page <= PAGES; page++) expectedPages.push({ doc, page });
      expect(pages).toEqual(expectedPages);
      expect(store.sqlite.prepare('select doc, pages from crash_documents order by doc').all()).toEqual(
        Array.from({ length: DOCUMENTS }, (_, i) => ({ doc: i + 1, pages: PAGES })),
      );

      expect(await integrityCheck(store.db)).toBe('ok');
      expect(store.sqlite.pragma('foreign_key_check')).toEqual([]);
    } finally {
      await store.close();
    }
  });
});
