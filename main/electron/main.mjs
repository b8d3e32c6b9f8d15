// @ts-check
// What Electron starts (package.json "main"). Electron runs JavaScript, and Folio runs from its TypeScript
// sources as `folio serve` does (bin/folio.mjs): register tsx's loader, then load main.ts. The top-level
// await holds Electron's ready event until main.ts has registered its scheme and its event handlers.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

// In the installed app this file lies inside app.asar. tsx compiles with esbuild's binary, which cannot be
// started from inside an archive: electron-builder.yml unpacks it, and esbuild is told where (it reads
// ESBUILD_BINARY_PATH when it loads; worker threads inherit the environment).
const here = fileURLToPath(import.meta.url);
if (/[\\/]app\.asar[\\/]/.test(here) && !process.env.ESBUILD_BINARY_PATH) {
  const fromEsbuild = createRequire(createRequire(import.meta.url).resolve('esbuild'));
  const binary = process.platform === 'win32' ? `@esbuild/win32-${process.arch}/esbuild.exe` : `@esbuild/${process.platform}-${process.arch}/bin/esbuild`;
  process.env.ESBUILD_BINARY_PATH = fromEsbuild.resolve(binary).replace(/([\\/])app\.asar([\\/])/, '$1app.asar.unpacked$2');
}

const { register } = await import('tsx/esm/api');
register();
await import('./main.ts');
