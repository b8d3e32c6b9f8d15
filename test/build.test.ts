// `npm run build`'s main process (scripts/build-main.mjs), built into a folder of its own for this test and
// run as the installed app runs it: `node cli.js serve` on a temporary data folder answers HTTP and
// processes a born-digital and a scanned PDF end to end, which loads the PDF worker and the OCR worker
// script from the build; the other worker bundles start as worker threads. Every other test runs the sources.
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WORKER_ENTRIES } from '../main/paths.ts';
import { pdfWithText } from './helpers/documentFixtures.ts';
import { repoRoot } from './helpers/processes.ts';
import { Client, tempDir } from './helpers/testServer.ts';
import { scanImage } from './fixtures/imageSamples.ts';

// Two levels below the app's folder, as dist/main is: the bundles find the app (paths.ts) and node_modules from there.
const outdir = path.join(repoRoot, 'dist', `main-test-${process.pid}`);
const ADMIN = { email: 'build@test.local', password: 'build-password-1' };
let child: ChildProcess | undefined;

beforeAll(() => {
  execFileSync(process.execPath, [path.join(repoRoot, 'scripts', 'build-main.mjs'), outdir], { cwd: repoRoot, stdio: 'pipe' });
}, 60_000);

afterAll(async () => {
  if (child && child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child!.once('close', resolve));
    child.kill('SIGKILL');
    await exited;
  }
  fs.rmSync(outdir, { recursive: true, force: true });
});

const read = (file: string) => fs.readFileSync(path.join(outdir, file), 'utf8');
const bundles = () => fs.readdirSync(outdir).filter((f) => f.endsWith('.js'));

describe('the compiled main process (scripts/build-main.mjs)', () => {
  it('has one bundle per entry and worker, and imports no TypeScript, tsx or esbuild', () => {
    const built = JSON.parse(read('build.json')) as { entries: string[]; files: string[] };
    expect(built.entries).toEqual(['cli', 'electron', 'nativeJson', ...Object.keys(WORKER_ENTRIES)]);
    for (const name of [...built.entries.map((e) => `${e}.js`), 'preload.cjs', 'tesseractWorker.cjs', 'sqliteWriter.cjs']) expect(fs.existsSync(path.join(outdir, name)), name).toBe(true);
    for (const file of bundles()) {
      const code = read(file);
      expect(code, file).not.toMatch(/from\s*["'](tsx|esbuild)[/"']|import\(["'](tsx|esbuild)[/"']/);
      expect(code, file).not.toMatch(/from\s*["'][^"']+\.ts["']/);
    }
    // Packages stay imports (native ones cannot be bundled; the others read their own files).
    expect(read('pdfWorker.js')).toMatch(/from "pdfjs-dist\/legacy\/build\/pdf\.mjs"/);
  });

  it('runs nativeJson before pdf.js loads, as the sources do', () => {
    // pdf.js replaces JSON.stringify/parse as it loads; nativeJson keeps the engine's own. In a bundle the
    // package imports run first, so nativeJson is a file of its own imported before pdf.js.
    const code = read('pdfWorker.js');
    const nativeAt = code.indexOf('from "./nativeJson.js"');
    expect(nativeAt).toBeGreaterThan(-1);
    expect(nativeAt).toBeLessThan(code.indexOf('from "pdfjs-dist/'));
    for (const file of bundles().filter((f) => f !== 'nativeJson.js')) expect(read(file), file).not.toMatch(/nativeStringify =/);
  });

  it('starts every worker bundle as a worker thread: the training worker loads, the Paddle worker opens its models', async () => {
    const run = (name: string, workerData: unknown) =>
      new Promise<{ code: number; messages: unknown[] }>((resolve, reject) => {
        const messages: unknown[] = [];
        const w = new Worker(pathToFileURL(path.join(outdir, `${name}.js`)), { workerData });
        w.on('message', (m) => {
          messages.push(m);
          void w.terminate();
        });
        w.on('error', reject);
        w.on('exit', (code) => resolve({ code, messages }));
      });
    // Without its role a worker only loads its modules (and exits): every import of the bundle resolves.
    for (const name of Object.keys(WORKER_ENTRIES)) expect((await run(name, null)).code, name).toBe(0);
    const paddle = await run('paddleWorker', { role: 'folio-paddle', options: {} });
    expect(paddle.messages).toEqual([{ id: 0, ready: true }]);
  }, 60_000);

  it('serves: `node cli.js serve` answers HTTP and processes a born-digital and a scanned PDF', async () => {
    const dataDir = tempDir('folio-build-');
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('FOLIO_')));
    const started = Date.now();
    child = spawn(process.execPath, [path.join(outdir, 'cli.js'), 'serve'], {
      cwd: dataDir,
      env: { ...env, FOLIO_DATA_DIR: dataDir, FOLIO_PORT: '0', FOLIO_HOST: '127.0.0.1', FOLIO_ADMIN_EMAIL: ADMIN.email, FOLIO_ADMIN_PASSWORD: ADMIN.password, FOLIO_OCR_ENGINE: 'wasm', FOLIO_OCR_WORKERS: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout!.on('data', (d) => (out += d));
    child.stderr!.on('data', (d) => (out += d));
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no URL within 20 s:\n${out}`)), 20_000);
      child!.stdout!.on('data', () => {
        const m = /Folio is running at (http:\/\/\S+?)\/? /.exec(out);
        if (m) (clearTimeout(timer), resolve(m[1]));
      });
      child!.once('close', (code) => reject(new Error(`exited with ${code}:\n${out}`)));
    });
    expect(Date.now() - started).toBeLessThan(20_000);

    const c = new Client(url);
    await c.login(ADMIN.email, ADMIN.password);
    const project = (await c.post('/api/v3/projects/', { name: 'Compiled' })).body.id;
    const scan = await PDFDocument.create();
    const image = await scanImage('Compiled worker 4711', { dpi: 300, format: 'png' });
    const page = scan.addPage([(image.width * 72) / 300, (image.height * 72) / 300]);
    page.drawImage(await scan.embedPng(image.data), { x: 0, y: 0, width: page.getWidth(), height: page.getHeight() });
    const ids: number[] = [];
    for (const [name, data] of [['digital.pdf', await pdfWithText('Invoice from the compiled app 2024-001')], ['scan.pdf', await scan.save()]] as const) {
      const form = new FormData();
      form.append('project', String(project));
      form.append('data_file', new Blob([data as BlobPart], { type: 'application/pdf' }), name);
      const r = await c.request('POST', '/api/v3/documents/', { raw: { data: form } });
      expect(r.status, r.text).toBe(201);
      ids.push(r.body.id);
    }
    const done = async (id: number) => {
      const end = Date.now() + 90_000;
      for (;;) {
        const d = (await c.get(`/api/v3/documents/${id}/`)).body;
        if (d.status_data === 111) throw new Error(`document ${id} failed: ${d.status_reason}\n${out}`);
        if (d.status_data === 2) return d;
        if (Date.now() > end) throw new Error(`document ${id} not done in 90 s (status ${d.status_data})\n${out}`);
        await new Promise((r) => setTimeout(r, 200));
      }
    };
    const [digital, scanned] = [await done(ids[0]), await done(ids[1])];
    expect(digital.text).toContain('Invoice from the compiled app 2024-001');
    expect(digital.number_of_pages).toBe(1);
    expect(scanned.text).toMatch(/Compiled\s+worker\s+4711/);
    // The page's picture, rendered by the PDF worker.
    const pages = (await c.get(`/api/v3/documents/${ids[0]}/pages/`)).body.results;
    const png = await fetch(`${url}/page/show-image/${pages[0].id}/`, { headers: { Authorization: `Token ${c.token}` } });
    expect(png.status).toBe(200);
    expect(Buffer.from(await png.arrayBuffer()).subarray(1, 4).toString()).toBe('PNG');
    fs.rmSync(dataDir, { recursive: true, force: true });
  }, 150_000);
});
