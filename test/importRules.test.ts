// The import rules (scripts/import-rules.mjs, checked by scripts/check-imports.mjs in `npm test`): a small
// tree laid out like Folio's, with one forbidden import per rule, makes the check fail and name each one;
// the same tree without them passes. And the checker really reads Folio's TypeScript (a checker that reads
// no file passes every rule: dependency-cruiser 16 does exactly that with TypeScript 6).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkImports, readImports } from '../scripts/check-imports.mjs';
import { ROOTS, RULES } from '../scripts/import-rules.mjs';
import { repoRoot } from './helpers/processes.ts';

const made: string[] = [];
afterAll(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

/** A temporary tree of the given files (path -> source). */
function tree(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-import-rules-'));
  made.push(root);
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  }
  return root;
}

/** Files that keep every rule: the layers as they should be. */
const CLEAN = {
  'shared/schemas/status.ts': "import { z } from 'zod';\nexport const Status = z.enum(['new', 'done']);\n",
  'main/domain/status.ts': "import path from 'node:path';\nimport type { Status } from '../../shared/schemas/status.ts';\nexport const done = (s: string) => s === 'done' && path.sep.length > 0;\nexport type { Status };\n",
  'main/store/db.ts': "import { Kysely } from 'kysely';\nexport const db = {} as Kysely<object>;\n",
  'main/services/documentService.ts': "import { done } from '../domain/status.ts';\nimport { db } from '../store/db.ts';\nexport const finish = () => done('done') && db;\n",
  'main/pipeline/pdf.worker.ts': "import { parentPort } from 'node:worker_threads';\nexport type PdfRequest = { page: number };\nparentPort?.on('message', () => {});\n",
  'main/pipeline/pdf.worker.mjs': "await import('./pdf.worker.ts');\n",
  'main/pipeline/pdfPool.ts': "import { Worker } from 'node:worker_threads';\nimport type { PdfRequest } from './pdf.worker.ts';\nexport const start = (r: PdfRequest) => new Worker(new URL('./pdf.worker.mjs', import.meta.url), { workerData: r });\n",
  'renderer/src/viewer/types.ts': 'export interface BoxOnPage { page: number }\n',
  'renderer/src/viewer/Viewer.tsx': "import type { BoxOnPage } from './types.ts';\nexport const Viewer = (p: { boxes: BoxOnPage[] }) => <div>{p.boxes.length}</div>;\n",
  'renderer/src/state/review.ts': "import { create } from 'zustand';\nimport type { BoxOnPage } from '../viewer/types.ts';\nexport const useReview = create(() => ({ boxes: [] as BoxOnPage[] }));\n",
  'renderer/src/views/Review.tsx': "import { useReview } from '../state/review.ts';\nexport const Review = () => { useReview(); return <div />; };\n",
};

/** One forbidden import per rule, each in a file of its own. */
const FORBIDDEN = {
  // the domain reaching up into a service
  'main/domain/rules.ts': "import { finish } from '../services/documentService.ts';\nexport const again = finish;\n",
  // a cycle of two services, one side type-only
  'main/services/a.ts': "import { b } from './b.ts';\nexport const a = () => b;\n",
  'main/services/b.ts': "import type { a } from './a.ts';\nexport const b: typeof a | null = null;\n",
  // a service using the SQL driver's types itself
  'main/services/rawSql.ts': "import type { Kysely } from 'kysely';\nexport type Db = Kysely<object>;\n",
  // a store importing a screen
  'renderer/src/state/documents.ts': "import { Review } from '../views/Review.tsx';\nexport const screen = Review;\n",
  // a store importing the viewer's component (its types.ts is allowed)
  'renderer/src/state/pages.ts': "import { Viewer } from '../viewer/Viewer.tsx';\nexport const v = Viewer;\n",
  // a worker entry not named *.worker.ts
  'main/ai/trainThread.ts': "import { parentPort, workerData } from 'node:worker_threads';\nparentPort?.postMessage(workerData);\n",
  // the main thread loading a worker entry's code (not only its types)
  'main/pipeline/pages.ts': "import * as worker from './pdf.worker.ts';\nexport const w = worker;\n",
  // shared reaching into the main process
  'shared/helpers.ts': "export { done } from '../main/domain/status.ts';\n",
};

describe('import rules', () => {
  it('pass on a tree that keeps them', () => {
    const { files, imports, violations } = checkImports({ root: tree(CLEAN), folders: ROOTS, rules: RULES });
    expect(files).toHaveLength(Object.keys(CLEAN).length);
    expect(imports.length).toBeGreaterThan(10);
    expect(violations).toEqual([]);
  });

  it('name every forbidden import, and the check fails', () => {
    const root = tree({ ...CLEAN, ...FORBIDDEN });
    const { violations } = checkImports({ root, folders: ROOTS, rules: RULES });
    const found = violations.map((v) => `${v.rule}: ${v.cycle ? v.cycle.join(' -> ') : `${v.from} -> ${v.to}`}`).sort();
    expect(found).toEqual(
      [
        'domain-imports-nothing-above: main/domain/rules.ts -> main/services/documentService.ts',
        'no-cycles: main/services/a.ts -> main/services/b.ts -> main/services/a.ts',
        'services-know-no-driver-or-transport: main/services/rawSql.ts -> npm:kysely',
        'renderer-state-imports-no-views: renderer/src/state/documents.ts -> renderer/src/views/Review.tsx',
        'renderer-state-imports-no-views: renderer/src/state/pages.ts -> renderer/src/viewer/Viewer.tsx',
        'worker-entries-named-worker: main/ai/trainThread.ts -> node:worker_threads',
        'worker-entries-not-imported: main/pipeline/pages.ts -> main/pipeline/pdf.worker.ts',
        'shared-imports-neither-side: shared/helpers.ts -> main/domain/status.ts',
      ].sort(),
    );
    // `npm run lint:deps` is this script: it fails, naming the file, line and target, and the rule's reason.
    const run = spawnSync(process.execPath, [path.join(repoRoot, 'scripts', 'check-imports.mjs'), root], { encoding: 'utf8' });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('main/domain/rules.ts:1 -> main/services/documentService.ts');
    expect(run.stderr).toContain('main/domain is the rules themselves');
    expect(run.stderr).toMatch(/8 import rule violation\(s\) in 20 files/);
  });

  it("a relative import of no file fails rather than being skipped", () => {
    const { violations } = checkImports({ root: tree({ 'main/services/x.ts': "import { y } from './gone.ts';\nexport const x = y;\n" }), folders: ['main'], rules: RULES });
    expect(violations.map((v) => [v.rule, v.from, v.to])).toEqual([['resolvable', 'main/services/x.ts', './gone.ts']]);
  });

  it("read Folio's own sources: every folder, TypeScript and TSX, type-only imports as such", () => {
    const { files, imports } = readImports(repoRoot, ROOTS);
    expect(files.length).toBeGreaterThan(300);
    expect(files).toContain('main/core.ts');
    expect(files).toContain('renderer/src/App.tsx');
    const from = (file: string) => imports.filter((i) => i.from === file);
    expect(from('main/core.ts').map((i) => i.to)).toContain('main/services/index.ts');
    expect(from('renderer/src/App.tsx').some((i) => i.to.startsWith('renderer/src/'))).toBe(true);
    expect(imports.some((i) => i.typeOnly) && imports.some((i) => !i.typeOnly)).toBe(true);
  });
});
