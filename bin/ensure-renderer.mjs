#!/usr/bin/env node
// Builds the renderer before `npm start` / `npm run serve` when dist/renderer/index.html is missing or
// older than its sources, so that a fresh clone works right after `npm install` and a rebuild is skipped
// when nothing changed.
import path from 'node:path';
import { freshness, root } from './build-freshness.mjs';

const index = path.join(root, 'dist', 'renderer', 'index.html');
/** What the built files are made from: the renderer's sources, the shared code it imports, the build config and the dependency versions. */
const sources = [path.join(root, 'renderer'), path.join(root, 'shared'), path.join(root, 'vite.config.ts'), path.join(root, 'package-lock.json')];

const { builtAt, fresh } = freshness(index, sources);
if (fresh) process.exit(0);

let vite;
try {
  vite = await import('vite');
} catch {
  // An install without devDependencies has no vite: serve what is there (the server explains a missing build).
  console.warn(`[folio] vite is not installed, so the renderer cannot be ${builtAt ? 'rebuilt' : 'built'}; run \`npm install\` first.`);
  process.exit(0);
}
console.log(`[folio] Building the renderer (dist/renderer is ${builtAt ? 'older than its sources' : 'missing'})…`);
try {
  await vite.build({ configFile: path.join(root, 'vite.config.ts'), logLevel: 'warn' });
} catch (err) {
  console.error(`[folio] The renderer build failed: ${err?.message ?? err}`);
  process.exit(1);
}
