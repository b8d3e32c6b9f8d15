// Where the application's own files are (not the user's data folder: see config.ts). Folio runs either
// from its TypeScript sources (tsx: development, tests) or compiled into dist/main (scripts/build-main.mjs:
// `folio serve`, `folio`, the desktop app); this module is the one place that tells the two apart.
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** True in the esbuild bundle in dist/main: there this module is part of a .js file, not paths.ts. */
export const compiled = !import.meta.url.endsWith('.ts');
/** The folder holding package.json: main/.. from the sources, dist/main/../.. compiled. */
export const appRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), compiled ? '../..' : '..');
export const rendererDist = path.join(appRoot, 'dist', 'renderer');
/** The compiled main process, CLI and workers (npm run build: dist/main), all in one flat folder. */
export const mainDist = compiled ? path.dirname(fileURLToPath(import.meta.url)) : path.join(appRoot, 'dist', 'main');

/**
 * The worker threads' entries: the file under main/ whose worker it is, by name. Compiled, each is its own
 * bundle dist/main/<name>.js (scripts/build-main.mjs builds one per entry here). From the sources a worker
 * thread starts without the parent's tsx loader, so it starts the `.mjs` file beside the `.ts`, which
 * registers tsx and then loads it. Every entry is named `*.worker.ts` (the type says so; the import rules,
 * scripts/import-rules.mjs, make every file that takes parentPort or workerData one).
 */
export const WORKER_ENTRIES = {
  pdfWorker: 'pipeline/pdf.worker.ts',
  trainWorker: 'ai/extraction/train.worker.ts',
  paddleWorker: 'pipeline/ocr/paddle/paddle.worker.ts',
} as const satisfies Record<string, `${string}.worker.ts`>;

/** What `new Worker()` starts for a worker entry, compiled or from the sources. */
export function workerEntry(name: keyof typeof WORKER_ENTRIES): URL {
  if (compiled) return pathToFileURL(path.join(mainDist, `${name}.js`));
  return pathToFileURL(path.join(appRoot, 'main', WORKER_ENTRIES[name].replace(/\.ts$/, '.mjs')));
}
