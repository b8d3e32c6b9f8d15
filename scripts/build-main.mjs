#!/usr/bin/env node
// Compiles the main process, the `folio` command and every worker thread into dist/main (`npm run build`,
// and bin/ensure-main.mjs before `npm start` / `npm run serve`). Without it each start compiled TypeScript
// through tsx: about a second and 100 MB at launch, and about 2 s and 170 MB for every worker thread, which
// starts without its parent's loader and had to register tsx again (the .mjs files beside the workers).
// The sources stay the program in development and tests (tsx); this is what `folio serve`, `folio` and the
// desktop app run.
//
// Only our own code is bundled: every package stays an import (packages: 'external'). The native ones
// (better-sqlite3, sharp, onnxruntime-node) cannot be bundled, and the others read their own files at run
// time (pdf.js its worker, cmaps and fonts; tesseract.js its worker script and wasm; the traineddata and
// the OCR models), which they find from their node_modules folders as they do from the sources.
//
// Output is one flat folder of ES modules: one file per entry (cli.js, electron.js, one per worker, named
// in main/paths.ts WORKER_ENTRIES), chunks of the code they share, and the CommonJS files that are loaded by
// path, not imported (the window's preload, tesseract.js's worker script): code that finds a file beside
// itself (new URL('./x', import.meta.url)) finds it there too. build.json is written last: its time is the
// build's for the staleness check (bin/build-freshness.mjs), and a failed build leaves none.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Files loaded by path at run time, copied beside the bundles. */
const COPIED = ['main/electron/preload.cjs', 'main/pipeline/ocr/tesseractWorker.cjs', 'main/store/sqliteWriter.cjs'];

/**
 * pdf.js's legacy build replaces JSON.stringify/parse as it loads, so nativeJson.ts must run before it
 * (main/pipeline/nativeJson.ts). In a bundle, the imports of external packages run before any bundled code
 * of that file, so nativeJson is a file of its own, imported like a package: every file then runs it at
 * the place its sources import it, as it does from the sources, and all share one copy.
 */
const nativeJsonApart = {
  name: 'native-json-apart',
  setup(build) {
    build.onResolve({ filter: /[\\/]nativeJson\.ts$/ }, (args) => (args.kind === 'entry-point' ? undefined : { path: './nativeJson.js', external: true }));
  },
};

/** Builds into `outdir` (default dist/main), replacing what was there. Resolves with the files written. */
export async function buildMain({ outdir = path.join(root, 'dist', 'main'), logLevel = 'warning' } = {}) {
  const esbuild = await import('esbuild');
  // paths.ts is TypeScript: loaded through tsx, which is installed wherever esbuild is (devDependencies).
  const { tsImport } = await import('tsx/esm/api');
  const { WORKER_ENTRIES } = await tsImport(pathToFileURL(path.join(root, 'main', 'paths.ts')).href, import.meta.url);
  const entryPoints = {
    cli: 'main/cliMain.ts',
    electron: 'main/electron/main.ts',
    nativeJson: 'main/pipeline/nativeJson.ts',
    ...Object.fromEntries(Object.entries(WORKER_ENTRIES).map(([name, file]) => [name, `main/${file}`])),
  };
  fs.rmSync(outdir, { recursive: true, force: true });
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints,
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    sourcemap: true,
    metafile: true,
    logLevel,
    plugins: [nativeJsonApart],
  });
  for (const file of COPIED) fs.copyFileSync(path.join(root, file), path.join(outdir, path.basename(file)));
  const files = [...Object.keys(result.metafile.outputs).map((f) => path.basename(f)), ...COPIED.map((f) => path.basename(f))].sort();
  fs.writeFileSync(path.join(outdir, 'build.json'), `${JSON.stringify({ entries: Object.keys(entryPoints), files }, null, 2)}\n`);
  return files;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = performance.now();
  const outdir = process.argv[2] ? path.resolve(process.argv[2]) : undefined;
  const files = await buildMain({ outdir });
  console.log(`[folio] Built the main process into ${path.relative(process.cwd(), outdir ?? path.join(root, 'dist', 'main')) || '.'} (${files.filter((f) => f.endsWith('.js')).length} files) in ${Math.round(performance.now() - started)} ms`);
}
