// @ts-check
// What Electron starts (package.json "main"). The installed app runs the compiled main process,
// dist/main/electron.js (`npm run build`; the installer ships no TypeScript and no tsx). In a source tree
// it runs what `folio start` chose (FOLIO_RUN, as bin/folio.mjs chooses: compiled while dist/main is
// current), or by itself the same way; from the sources through tsx's loader. The top-level await holds
// Electron's ready event until the main process has registered its scheme and its event handlers.
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';

const sources = fileURLToPath(new URL('./main.ts', import.meta.url));
let run = process.env.FOLIO_RUN;
if (run !== 'compiled' && run !== 'source') {
  // bin/ is not shipped: an installed app has no sources and runs compiled.
  run = fs.existsSync(sources) && !(await import('../../bin/build-freshness.mjs')).mainIsFresh() ? 'source' : 'compiled';
}
if (run === 'compiled') {
  await import(new URL('../../dist/main/electron.js', import.meta.url).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('./main.ts');
}
