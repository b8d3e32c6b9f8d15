#!/usr/bin/env node
// The `folio` command. Runs the compiled CLI (dist/main/cli.js, `npm run build`) while it is current, and
// otherwise the TypeScript sources through tsx, so that a source tree runs without a build step and an edit
// is never hidden by an old build. FOLIO_RUN=compiled or FOLIO_RUN=source chooses; the choice is passed on
// (the desktop app that `folio start` launches runs the same, main/electron/main.mjs).
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { mainIsFresh, root } from './build-freshness.mjs';

const asked = process.env.FOLIO_RUN;
if (asked !== undefined && asked !== 'compiled' && asked !== 'source') {
  console.error(`folio: FOLIO_RUN must be "compiled" or "source", got "${asked}"`);
  process.exit(2);
}
const run = asked ?? (mainIsFresh() ? 'compiled' : 'source');
process.env.FOLIO_RUN = run;
if (run === 'compiled') {
  const cli = path.join(root, 'dist', 'main', 'cli.js');
  if (!fs.existsSync(cli)) {
    console.error('folio: FOLIO_RUN=compiled, but dist/main is not built: run `npm run build`.');
    process.exit(1);
  }
  // Runs the command and exits (main/cliMain.ts).
  await import(pathToFileURL(cli).href);
} else {
  let register;
  try {
    ({ register } = await import('tsx/esm/api'));
  } catch {
    console.error('folio: dist/main is missing or older than the sources, and tsx, which runs the sources, is not installed: run `npm install` and `npm run build`.');
    process.exit(1);
  }
  register();
  await import(pathToFileURL(path.join(root, 'main', 'cliMain.ts')).href);
}
