#!/usr/bin/env node
// Builds the renderer before `npm start` / `npm run serve` when dist/renderer/index.html is missing or
// older than its sources, so that a fresh clone works right after `npm install` and a rebuild is skipped
// when nothing changed.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const index = path.join(root, 'dist', 'renderer', 'index.html');
/** What the built files are made from: the renderer's sources, the shared code it imports, the build config and the dependency versions. */
const sources = [path.join(root, 'renderer'), path.join(root, 'shared'), path.join(root, 'vite.config.ts'), path.join(root, 'package-lock.json')];

function newestMtime(p) {
  let st;
  try {
    st = fs.statSync(p);
  } catch {
    return 0;
  }
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs; // a deleted file changes its folder's mtime
  for (const name of fs.readdirSync(p)) newest = Math.max(newest, newestMtime(path.join(p, name)));
  return newest;
}

const builtAt = fs.existsSync(index) ? fs.statSync(index).mtimeMs : 0;
const changedAt = Math.max(...sources.map(newestMtime));
if (builtAt && builtAt >= changedAt) process.exit(0);

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
