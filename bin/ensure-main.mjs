#!/usr/bin/env node
// Compiles the main process into dist/main before `npm start` / `npm run serve` when it is missing or
// older than its sources (as ensure-renderer.mjs does for the renderer), so that they run the compiled
// app (bin/folio.mjs) and a rebuild is skipped when nothing changed.
import { freshness, MAIN_SOURCES, MAIN_STAMP } from './build-freshness.mjs';

const { builtAt, fresh } = freshness(MAIN_STAMP, MAIN_SOURCES);
if (fresh) process.exit(0);

let buildMain;
try {
  await import('esbuild');
  ({ buildMain } = await import('../scripts/build-main.mjs'));
} catch {
  // An install without devDependencies has no esbuild: bin/folio.mjs then runs what it can.
  console.warn(`[folio] esbuild is not installed, so the main process cannot be ${builtAt ? 'rebuilt' : 'built'}; run \`npm install\` first.`);
  process.exit(0);
}
console.log(`[folio] Building the main process (dist/main is ${builtAt ? 'older than its sources' : 'missing'})…`);
try {
  await buildMain();
} catch (err) {
  console.error(`[folio] The main process build failed: ${err?.message ?? err}`);
  process.exit(1);
}
