// Whether a build in dist/ is current: built after the newest change to what it is made from. Shared by
// bin/ensure-renderer.mjs and bin/ensure-main.mjs (which rebuild before `npm start` / `npm run serve`),
// bin/folio.mjs and main/electron/main.mjs (which run the compiled main process only while it is current).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** What dist/main is made from: the main process's sources, the shared code, the build script and the dependency versions. */
export const MAIN_SOURCES = ['main', 'shared', 'scripts/build-main.mjs', 'package.json', 'package-lock.json'].map((p) => path.join(root, p));
/** Written last by scripts/build-main.mjs: a failed or half-written build has none. */
export const MAIN_STAMP = path.join(root, 'dist', 'main', 'build.json');

/** The newest modification time under `p` (0 when it does not exist). */
export function newestMtime(p) {
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

/** When `stamp` was written (0 when it is missing), and whether that is after every change to `sources`. */
export function freshness(stamp, sources) {
  const builtAt = fs.existsSync(stamp) ? fs.statSync(stamp).mtimeMs : 0;
  return { builtAt, fresh: builtAt > 0 && builtAt >= Math.max(...sources.map(newestMtime)) };
}

/** Whether dist/main is built and current. */
export const mainIsFresh = () => freshness(MAIN_STAMP, MAIN_SOURCES).fresh;
