// npm run bench:ocr: seconds per page of Folio's OCR pool with one and with two workers, against the native
// tesseract command line (one thread, same model, same page segmentation) on the same generated 300 dpi
// A4 pages; also word accuracy and the process's peak memory. BENCH_OCR_PAGES sets the page count,
// BENCH_OCR_WORKERS the pool sizes to run ("1,2"), BENCH_OCR_NATIVE=0 leaves the command line out.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { bundledTraineddata } from '../../main/pipeline/languages.ts';
import { OcrPool } from '../../main/pipeline/ocr/ocrPool.ts';
import { bodyText, drawPage, type DrawnPage } from '../helpers/ocrPages.ts';

const PAGES = Number(process.env.BENCH_OCR_PAGES ?? process.argv[2] ?? 8);
const POOL_SIZES = (process.env.BENCH_OCR_WORKERS ?? '1,2').split(',').map(Number);
const NATIVE = process.env.BENCH_OCR_NATIVE !== '0';

/** A generated page on disk (read when the pool has room, as the pipeline renders) and what was drawn on it. */
interface BenchPage {
  file: string;
  dpi: number;
  widthPt: number;
  heightPt: number;
  words: string[];
}
const run = promisify(execFile);

/** Share of the drawn words recognised, in order (longest common subsequence of the word lists). */
function wordAccuracy(expected: string[], actual: string[]): number {
  let prev = new Array<number>(actual.length + 1).fill(0);
  for (const e of expected) {
    const row = [0];
    for (let j = 0; j < actual.length; j++) row.push(e === actual[j] ? prev[j] + 1 : Math.max(prev[j + 1], row[j]));
    prev = row;
  }
  return prev[actual.length] / expected.length;
}

const words = (s: string) => s.split(/\s+/).filter(Boolean);

/** Samples the whole process's resident memory (worker threads included) until stopped. */
function peakMemory(): () => number {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
  return () => {
    clearInterval(timer);
    return Math.max(peak, process.memoryUsage().rss);
  };
}

interface Figure {
  name: string;
  secondsPerPage: number;
  /** CPU time per page: what a page costs whatever else the machine is doing. */
  cpuPerPage: number;
  /** Cores busy on average (CPU time / wall time): below the worker count, other processes took the rest. */
  cores: number;
  accuracy: number;
  peakMb?: number;
  startSeconds?: number;
}

async function poolRun(pages: BenchPage[], size: number, dataDir: string): Promise<Figure> {
  const pool = new OcrPool({ dataDir, size });
  const request = (p: BenchPage) => ({ langs: 'eng', dpi: p.dpi, pageWidthPt: p.widthPt, pageHeightPt: p.heightPt });
  try {
    // Start every worker (engine, model) and warm it up on one page outside the measurement.
    let t = performance.now();
    const first = fs.readFileSync(pages[0].file);
    await Promise.all(Array.from({ length: size }, () => pool.recognize(first, request(pages[0]))));
    const startSeconds = (performance.now() - t) / 1000;
    const stop = peakMemory();
    const cpu = process.cpuUsage();
    t = performance.now();
    // A producer that loads a page only when the pool has room, like the pipeline renders them.
    const results: Promise<string>[] = [];
    for (const page of pages) {
      await pool.waitForRoom();
      results.push(pool.recognize(await fs.promises.readFile(page.file), request(page)).then((r) => r.text));
    }
    const texts = await Promise.all(results);
    const seconds = (performance.now() - t) / 1000;
    const used = process.cpuUsage(cpu);
    const cpuSeconds = (used.user + used.system) / 1e6;
    const accuracy = texts.reduce((sum, text, i) => sum + wordAccuracy(pages[i].words, words(text)), 0) / pages.length;
    return {
      name: `tesseract.js pool, ${size} worker${size > 1 ? 's' : ''}`,
      secondsPerPage: seconds / pages.length,
      cpuPerPage: cpuSeconds / pages.length,
      cores: cpuSeconds / seconds,
      accuracy,
      peakMb: stop() / 1e6,
      startSeconds,
    };
  } finally {
    await pool.close();
  }
}

async function nativeRun(pages: BenchPage[], dir: string): Promise<Figure | string> {
  try {
    await run('tesseract', ['--version']);
  } catch {
    return 'native tesseract not installed (apt-get install tesseract-ocr): skipped';
  }
  // The very model the pool reads (the bundled eng, gunzipped) and the same page segmentation (3, auto).
  const tessdata = path.join(dir, 'tessdata');
  fs.mkdirSync(tessdata);
  const eng = bundledTraineddata().find((t) => t.code === 'eng')!;
  fs.writeFileSync(path.join(tessdata, 'eng.traineddata'), zlib.gunzipSync(fs.readFileSync(eng.file)));
  const files = pages.map((p) => p.file);
  // One shell runs the pages one after the other; its `times` reports the CPU time the tesseract runs used.
  const MARK = '@@folio-page-end@@';
  const script = `for f in "$@"; do tesseract "$f" - --tessdata-dir "${tessdata}" -l eng --oem 1 --psm 3 --dpi 300 2>/dev/null; echo ${MARK}; done; times`;
  const env = { ...process.env, OMP_THREAD_LIMIT: '1' };
  const runAll = (list: string[]) => run('bash', ['-c', script, 'bench', ...list], { env, maxBuffer: 1 << 26 });
  await runAll(files.slice(0, 1));
  const t = performance.now();
  const { stdout } = await runAll(files);
  const seconds = (performance.now() - t) / 1000;
  const parts = stdout.split(`${MARK}\n`);
  const texts = parts.slice(0, files.length);
  // `times` prints the shell's user and system time, then its children's: "0m2.345s 0m0.120s".
  const [user, system] = parts[files.length].trim().split('\n')[1].split(/\s+/).map((v) => {
    const m = /^(\d+)m([\d.]+)s$/.exec(v);
    return m ? Number(m[1]) * 60 + Number(m[2]) : NaN;
  });
  const accuracy = texts.reduce((sum, text, i) => sum + wordAccuracy(pages[i].words, words(text)), 0) / pages.length;
  return {
    name: 'native tesseract CLI, OMP_THREAD_LIMIT=1',
    secondsPerPage: seconds / pages.length,
    cpuPerPage: (user + system) / pages.length,
    cores: (user + system) / seconds,
    accuracy,
  };
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-ocr-bench-'));
  try {
    console.log(`OCR benchmark: ${PAGES} generated A4 pages at 300 dpi (45 lines of 11 pt text each), English, ${os.availableParallelism()} cores, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
    const pages: BenchPage[] = [];
    for (let i = 0; i < PAGES; i++) {
      const drawn: DrawnPage = await drawPage(bodyText(i + 1));
      const file = path.join(dir, `page-${i + 1}.png`);
      fs.writeFileSync(file, drawn.png);
      pages.push({ file, dpi: drawn.dpi, widthPt: drawn.widthPt, heightPt: drawn.heightPt, words: drawn.words.map((w) => w.text) });
    }
    const pools = new Map<number, Figure>();
    for (const size of POOL_SIZES) pools.set(size, await poolRun(pages, size, dir));
    const native = NATIVE ? await nativeRun(pages, dir) : 'native tesseract: not run (BENCH_OCR_NATIVE=0)';
    const figures = [...pools.values(), ...(typeof native === 'string' ? [] : [native])];
    console.log('');
    for (const f of figures) {
      const extra = f.peakMb === undefined ? '' : `  peak RSS ${f.peakMb.toFixed(0)} MB  worker start ${f.startSeconds!.toFixed(2)} s`;
      console.log(`${f.name.padEnd(42)} ${f.secondsPerPage.toFixed(2)} s/page  CPU ${f.cpuPerPage.toFixed(2)} s/page  ${f.cores.toFixed(2)} cores busy  words ${(f.accuracy * 100).toFixed(1)} %${extra}`);
    }
    console.log('');
    const [one, two] = [pools.get(1), pools.get(2)];
    if (one && two) {
      console.log(`two workers vs one: ${(one.secondsPerPage / two.secondsPerPage).toFixed(2)}x faster (target at least 1.6x)`);
      if (two.cores < 1.8) console.log(`note: the two workers had ${two.cores.toFixed(2)} cores on average; other processes were using the machine, so the speed-up is understated`);
    }
    if (typeof native === 'string') console.log(native);
    else if (one) {
      console.log(`one worker vs native CLI: ${(one.secondsPerPage / native.secondsPerPage).toFixed(2)}x the time per page (target at most 1.3x)`);
      console.log(`one worker vs native CLI in CPU time: ${(one.cpuPerPage / native.cpuPerPage).toFixed(2)}x`);
    }
    const peak = Math.max(...[...pools.values()].map((f) => f.peakMb ?? 0));
    console.log(`peak RSS while reading ${PAGES} pages: ${peak.toFixed(0)} MB (target under 1500 MB for 100 pages)`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
