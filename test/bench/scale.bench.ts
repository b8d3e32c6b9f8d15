// npm run bench:scale: the team server's scaling (issue 14). The same scan workload (40 pages of 300 dpi
// scans as 10 four-page PDFs, uploaded at once through the API) on one PostgreSQL (a throwaway cluster)
// and one S3 bucket (s3rver), processed by 1 and then 2 `folio worker` processes beside one
// `folio serve --no-workers`, every process with one OCR thread (FOLIO_OCR_WORKERS=1) and a data folder of
// its own, all running the compiled program (dist/main, built at the start, as a team server runs it):
// pages per minute from the first upload to the last document done (its updated_at), and the ratio (aim: at least
// 1.8x on 2 cores). Beside them, for reference, the desktop shape: one `folio serve` on SQLite with one OCR
// thread on the same workload. Then the API's document detail (a processed page with 300 annotations,
// 500 sequential GETs, from the response cache and rebuilt) on PostgreSQL beside SQLite. Prints the CPU
// seconds per page of each part (OCR, worker, API, PostgreSQL, s3rver) and of the whole machine, from
// /proc: when other programs took the cores, the speed figures mean nothing, and it says so.
// BENCH_SCALE_PAGES changes the 40 (BENCH_SCALE_PAGES=8 for a quick check that it runs);
// BENCH_SCALE_BASELINE=0 skips the desktop reference run; BENCH_SCALE_GETS changes the 500;
// BENCH_SCALE_ROUNDS=3 times the 1- and 2-worker runs three times in turn and judges the median ratio (how
// much two tesseracts slow each other varies from run to run, and with it which side of 1.8x one run lands).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { bodyText, drawPage } from '../helpers/ocrPages.ts';
import { createTestDatabase, postgresAvailable, testClusterUrl } from '../helpers/postgres.ts';
import { startWorker } from '../helpers/folioWorker.ts';
import { repoRoot, startFolio } from '../helpers/processes.ts';
import { startS3rver } from '../helpers/s3rver.ts';
import { cpuDelta, cpuSeconds, machineBusySeconds, parentPid } from '../helpers/processCpu.ts';
import { annotatedDocument, BENCH_ADMIN, lastChange, percentile, sequentialGets, signIn, waitUntilProcessed, type BenchClient } from '../helpers/benchClient.ts';

const PAGES = Number(process.env.BENCH_SCALE_PAGES ?? 40);
const PAGES_PER_PDF = 4;
const GETS = Number(process.env.BENCH_SCALE_GETS ?? 500);
const ANNOTATIONS = 300;
const BASELINE = process.env.BENCH_SCALE_BASELINE !== '0';
const ROUNDS = Math.max(1, Math.floor(Number(process.env.BENCH_SCALE_ROUNDS ?? 1)) || 1);
/** Above this 1-minute load average at the start, the bench says so (the average lags: the CPU table decides). */
const BUSY_LOAD = 1.5;
const RATIO_AIM = 1.8;
/** Other programs' share of the cores during a timed run (machine busy less Folio's parts) above which its figures are disturbed. */
const OTHERS_AIM_CORES = 0.1;
/** How often the timed workload asks the API whether every document is done (the figure does not depend on it). */
const POLL_MS = 2000;
const DETAIL_AIM_MS = 10;

/** Every process: the compiled program (what a team server runs: the sources through tsx cost each process
 * and each worker thread seconds of compiling), the bench administrator, one OCR thread, long sync waits
 * (none are used, but a busy machine is slow). */
const COMMON_ENV = { ...BENCH_ADMIN, FOLIO_RUN: 'compiled', FOLIO_OCR_WORKERS: '1', FOLIO_SYNC_TIMEOUT_S: '1800' };

interface Scan {
  name: string;
  pdf: Uint8Array;
}

/** `pages` 300 dpi grayscale page scans (JPEG, as scanners write them; page n of bodyText(seed + n)) in PDFs of `perPdf` pages. */
async function scans(pages: number, seed: number, perPdf: number): Promise<Scan[]> {
  const out: Scan[] = [];
  for (let first = 0; first < pages; first += perPdf) {
    const pdf = await PDFDocument.create();
    const count = Math.min(perPdf, pages - first);
    for (let i = first; i < first + count; i++) {
      const { png, widthPt, heightPt } = await drawPage(bodyText(seed + i), { dpi: 300 });
      const image = await pdf.embedJpg(await sharp(png).jpeg({ quality: 85 }).toBuffer());
      pdf.addPage([widthPt, heightPt]).drawImage(image, { x: 0, y: 0, width: widthPt, height: heightPt });
    }
    out.push({ name: `scan-${seed}-${first / perPdf + 1}.pdf`, pdf: await pdf.save() });
  }
  return out;
}

/** A project reading English, so that every run OCRs with the same model. */
async function scanProject(c: BenchClient): Promise<number> {
  return (await c.call('POST', '/api/v3/projects/', { name: 'scale bench', ocr_languages: ['eng'] })).id;
}

/**
 * Uploads every PDF at once and waits until all are processed: seconds from the first upload sent to the
 * moment the last document was finished (its updated_at: the server's clock, which is this machine's), so
 * that the poll's step neither adds to the figure nor needs to be short.
 */
async function timedWorkload(c: BenchClient, project: number, pdfs: Scan[]): Promise<number> {
  const start = Date.now();
  const ids = await Promise.all(pdfs.map((p) => c.upload(project, p.name, p.pdf)));
  // Polled every POLL_MS: the bench's questions are not the workload, and on 2 cores they take CPU the
  // workers need (at 500 ms, about 0.03 s a page in the API and this process: the CPU table below).
  await waitUntilProcessed(c, project, ids, { pollMs: POLL_MS });
  return ((await lastChange(c, project, ids)) - start) / 1000;
}

interface Run {
  name: string;
  seconds: number;
  /** Team runs: how many distinct worker processes were seen holding a job during the timed workload. */
  workersSeen?: number;
  /** Team runs on Linux: CPU seconds each part used during the timed workload (see cpuGroups). */
  cpu?: Record<string, number>;
  /** CPU seconds the whole machine was busy during the timed workload (other programs included). */
  machineBusy?: number;
}

/** The PostgreSQL server's main process (the parent of this connection's backend). */
async function postmasterPid(databaseUrl: string): Promise<number | null> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return parentPid((await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0].pid);
  } finally {
    await client.end();
  }
}

const OCR_PART = 'OCR (tesseract processes)';
const WORKER_PART = 'worker processes (Node: rendering, storage, queue)';

/** Where the team run's CPU goes: the workers' tesseract children apart from the rest of the workers. */
function cpuGroups(api: number, workers: number[], s3rver: number, postmaster: number | null) {
  const groups: Record<string, number[]> = { [WORKER_PART]: workers, 'API process': [api], PostgreSQL: postmaster ? [postmaster] : [], s3rver: [s3rver] };
  return () => {
    const perProcess = cpuSeconds(groups, { group: WORKER_PART, part: OCR_PART, comm: 'tesseract' });
    return perProcess && { ...perProcess, 'bench client (this process)': process.cpuUsage().user / 1e6 + process.cpuUsage().system / 1e6 };
  };
}

/**
 * Samples the jobs table every second until stopped: the processes (pid of locked_by, "host:pid:worker")
 * holding a running job, to show that every worker process took part.
 */
function sampleJobHolders(databaseUrl: string): { stop(): Promise<number> } {
  const client = new pg.Client({ connectionString: databaseUrl });
  const seen = new Set<string>();
  let running = true;
  const loop = (async () => {
    await client.connect();
    try {
      while (running) {
        const { rows } = await client.query<{ pid: string }>(`select distinct split_part(locked_by, ':', 2) as pid from jobs where state = 'running' and locked_by is not null`);
        for (const r of rows) seen.add(r.pid);
        await new Promise((res) => setTimeout(res, 1000));
      }
    } finally {
      await client.end();
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return seen.size;
    },
  };
}

/**
 * The team server's shape on a fresh database and bucket: one API process without workers and `workers`
 * worker processes. Warmed with one single-page scan per worker (OCR models load once per process), then
 * the workload is timed.
 */
async function teamRun(dir: string, workers: number, warm: Scan[], workload: Scan[], round: number): Promise<Run> {
  const s3 = await startS3rver(`folio-scale-${round}-${workers}`);
  const databaseUrl = await createTestDatabase(`folio_scale_${workers}`);
  const env = { ...COMMON_ENV, ...s3.env, FOLIO_DATABASE_URL: databaseUrl };
  const processes: { stop(): Promise<unknown> }[] = [];
  try {
    // The API first: it migrates the database and makes the administrator; the workers find both.
    const api = await startFolio({ dataDir: path.join(dir, `team-${round}-${workers}-api`), env, args: ['serve', '--no-workers'] });
    processes.push(api);
    const workerPids: number[] = [];
    for (let i = 0; i < workers; i++) {
      const worker = await startWorker(path.join(dir, `team-${round}-${workers}-worker-${i}`), env);
      processes.push(worker);
      workerPids.push(worker.pid);
    }
    const cpuNow = cpuGroups(api.child.pid!, workerPids, s3.pid, await postmasterPid(databaseUrl));
    const c = await signIn(api.url);
    const project = await scanProject(c);
    await waitUntilProcessed(c, project, await Promise.all(warm.slice(0, workers).map((p) => c.upload(project, p.name, p.pdf))));
    const holders = sampleJobHolders(databaseUrl);
    let seconds: number;
    let workersSeen: number;
    const cpuBefore = cpuNow();
    const busyBefore = machineBusySeconds();
    try {
      seconds = await timedWorkload(c, project, workload);
    } finally {
      workersSeen = await holders.stop();
    }
    const cpuAfter = cpuNow();
    const busyAfter = machineBusySeconds();
    return {
      name: `team: serve --no-workers + ${workers} folio worker${workers > 1 ? 's' : ''}, 1 OCR thread each${ROUNDS > 1 ? ` (round ${round})` : ''}`,
      seconds,
      workersSeen,
      cpu: cpuBefore && cpuAfter ? cpuDelta(cpuBefore, cpuAfter) : undefined,
      machineBusy: busyBefore !== null && busyAfter !== null ? busyAfter - busyBefore : undefined,
    };
  } finally {
    await Promise.all(processes.map((p) => p.stop()));
    await s3.stop();
  }
}

/** The desktop shape for reference: one `folio serve` on SQLite in its data folder, one OCR thread. */
async function desktopRun(dir: string, warm: Scan[], workload: Scan[]): Promise<Run> {
  const server = await startFolio({ dataDir: path.join(dir, 'desktop'), env: COMMON_ENV });
  try {
    const c = await signIn(server.url);
    const project = await scanProject(c);
    await waitUntilProcessed(c, project, [await c.upload(project, warm[0].name, warm[0].pdf)]);
    return { name: 'desktop: folio serve on SQLite, 1 OCR thread', seconds: await timedWorkload(c, project, workload) };
  } finally {
    await server.stop();
  }
}

interface Detail {
  store: string;
  cached: number[];
  rebuilt: number[];
}

/**
 * One `folio serve` (on SQLite, or on PostgreSQL when `databaseUrl` is given): the annotated document, then
 * GETS sequential reads of its detail from the response cache (the same URL) and rebuilt (a distinct query
 * string each time misses the cache), after 20 reads to warm up.
 */
async function detailRun(dir: string, store: string, databaseUrl?: string): Promise<Detail> {
  const env = { ...COMMON_ENV, ...(databaseUrl ? { FOLIO_DATABASE_URL: databaseUrl } : {}) };
  const server = await startFolio({ dataDir: path.join(dir, `detail-${store}`), env });
  try {
    const c = await signIn(server.url);
    const doc = await annotatedDocument(c, ANNOTATIONS);
    await sequentialGets(c, (i) => `/api/v3/documents/${doc}/?warm=${i}`, 20);
    const cached = await sequentialGets(c, () => `/api/v3/documents/${doc}/`, GETS);
    const rebuilt = await sequentialGets(c, (i) => `/api/v3/documents/${doc}/?r=${i}`, GETS);
    return { store, cached, rebuilt };
  } finally {
    await server.stop();
  }
}

async function postgresVersion(): Promise<string> {
  const client = new pg.Client({ connectionString: await testClusterUrl() });
  await client.connect();
  try {
    return (await client.query<{ server_version: string }>('show server_version')).rows[0].server_version;
  } finally {
    await client.end();
  }
}

// The AWS SDK (the s3rver helper's client) warns on every run that its 2027 releases need Node 22.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

const loadAverage = () => os.loadavg().map((l) => l.toFixed(2)).join(', ');
const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
const perMinute = (r: Run) => (PAGES / r.seconds) * 60;

/**
 * Where the cores went in each team run, in CPU seconds per page, and what that allows: with one worker the
 * single OCR thread is the critical path, so the run cannot be shorter than its OCR time; with two workers
 * on `cores` cores it cannot be shorter than all the CPU the work needs over `cores`. So the best ratio the
 * machine allows is the 1-worker wall time over (its CPU seconds / cores).
 */
function printCpu(runs: Run[], cores: number, otherRounds: Run[] = []) {
  if (!runs.every((r) => r.cpu)) return;
  const parts = Object.keys(runs[0].cpu!);
  console.log(`\nCPU seconds per page during the timed workload (Linux /proc: each process tree's own and reaped children's time)`);
  console.log('part'.padEnd(52), ...runs.map((r) => `${r.name.includes('+ 1 ') ? '1 worker' : '2 workers'}`.padStart(10)));
  const total = (r: Run) => Object.values(r.cpu!).reduce((s, v) => s + v, 0);
  for (const p of parts) console.log(p.padEnd(52), ...runs.map((r) => (r.cpu![p] / PAGES).toFixed(3).padStart(10)));
  console.log('all of the above'.padEnd(52), ...runs.map((r) => (total(r) / PAGES).toFixed(3).padStart(10)));
  console.log('machine busy (every program)'.padEnd(52), ...runs.map((r) => (r.machineBusy === undefined ? '-' : (r.machineBusy / PAGES).toFixed(3)).padStart(10)));
  console.log('average busy cores (all of the above / wall time)'.padEnd(52), ...runs.map((r) => (total(r) / r.seconds).toFixed(2).padStart(10)));
  for (const r of [...runs, ...otherRounds]) {
    if (r.machineBusy === undefined || !r.cpu) continue;
    const others = (r.machineBusy - total(r)) / r.seconds;
    if (others > OTHERS_AIM_CORES) console.log(`WARNING: other programs kept ${others.toFixed(2)} cores busy during "${r.name}": its speed figures are disturbed; run again on a quiet machine.`);
  }
  const [one] = runs;
  const ocrShare = one.cpu![OCR_PART] / total(one);
  const bound = one.seconds / (total(one) / cores);
  console.log(`OCR is ${(ocrShare * 100).toFixed(0)} % of the 1-worker run's CPU; the rest (rendering, storage, API, PostgreSQL, s3rver) shares the same ${cores} cores.`);
  console.log(`Best ratio ${cores} cores allow for this work: 1-worker wall ${one.seconds.toFixed(1)} s over its CPU ${total(one).toFixed(1)} s / ${cores} cores = ${bound.toFixed(2)}x.`);
}

async function main() {
  if (!postgresAvailable()) throw new Error('bench:scale needs PostgreSQL (initdb and pg_ctl): apt-get install postgresql');
  const cores = os.availableParallelism();
  const startLoad = os.loadavg()[0];
  const loadAtStart = loadAverage();
  console.log(`Load average (1, 5, 15 min) at the start: ${loadAtStart} on ${cores} cores.`);
  // The processes run dist/main: built now from these sources (a fraction of a second).
  execFileSync(process.execPath, [path.join(repoRoot, 'scripts', 'build-main.mjs')], { stdio: 'inherit' });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-scale-bench-'));
  try {
    console.log(`Generating ${PAGES} pages of 300 dpi scans in PDFs of ${PAGES_PER_PDF} pages...`);
    const workload = await scans(PAGES, 100, PAGES_PER_PDF);
    // Single-page warm-up scans of other text (one per worker process).
    const warm = await scans(2, 900, 1);
    const version = await postgresVersion();

    const runs: Run[] = [];
    if (BASELINE) {
      console.log('Desktop reference: folio serve on SQLite...');
      runs.push(await desktopRun(dir, warm, workload));
    }
    // Each round: 1 worker, then 2 (rounds in turn, so that a slow spell of the machine hits both kinds).
    const rounds: [Run, Run][] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const pair: Run[] = [];
      for (const workers of [1, 2]) {
        console.log(`Team server: 1 API process and ${workers} worker process${workers > 1 ? 'es' : ''} on PostgreSQL ${version} and s3rver${ROUNDS > 1 ? ` (round ${round} of ${ROUNDS})` : ''}...`);
        pair.push(await teamRun(dir, workers, warm, workload, round));
      }
      runs.push(...pair);
      rounds.push([pair[0], pair[1]]);
    }
    console.log(`Document detail: ${ANNOTATIONS} annotations, ${GETS} sequential GETs, SQLite then PostgreSQL...`);
    const details = [await detailRun(dir, 'SQLite'), await detailRun(dir, 'PostgreSQL', await createTestDatabase('folio_scale_detail'))];
    const loadAtEnd = loadAverage();

    console.log(`\nFolio scale benchmark: ${cores} cores, Node ${process.version}, PostgreSQL ${version} (throwaway cluster, fsync off), s3rver on loopback`);
    console.log(`Load average (1, 5, 15 min): ${loadAtStart} at the start, ${loadAtEnd} at the end.`);
    if (startLoad > BUSY_LOAD) {
      console.log(`Note: the 1-minute load average was ${startLoad.toFixed(2)} at the start (over ${BUSY_LOAD}). It lags by minutes: whether other programs ran during the timed runs is in the CPU table ("machine busy" beside Folio's own parts).`);
    }
    if (cores < 2) console.log(`WARNING: ${cores} core: two workers cannot run in parallel here; the ${RATIO_AIM}x aim is for 2 cores.`);

    console.log(`\nScan workload: ${PAGES} pages of 300 dpi scans as ${workload.length} PDFs of up to ${PAGES_PER_PDF} pages, uploaded at once; first upload to the last document finished (its updated_at)`);
    const nameWidth = Math.max(66, ...runs.map((r) => r.name.length));
    console.log('setup'.padEnd(nameWidth), 'seconds'.padStart(8), 'pages/min'.padStart(10), '  reference');
    const desktop = runs.find((r) => r.name.startsWith('desktop'));
    const ratios = rounds.map(([a, b]) => perMinute(b) / perMinute(a));
    // The round whose ratio is the median (the lower middle one of an even count) is the one judged and detailed.
    const median = [...ratios.keys()].sort((a, b) => ratios[a] - ratios[b])[Math.floor((ratios.length - 1) / 2)];
    const [one, two] = rounds[median];
    const reference = (r: Run): string => {
      if (r === desktop) return 'the same work in one desktop process';
      const pair = rounds.find((p) => p.includes(r))!;
      if (r === pair[0]) return desktop ? `desktop ${perMinute(desktop).toFixed(1)} pages/min (team ${(perMinute(r) / perMinute(desktop)).toFixed(2)}x of it)` : '(desktop run skipped)';
      return `aim ${RATIO_AIM}x the 1-worker figure: ${(perMinute(pair[0]) * RATIO_AIM).toFixed(1)} pages/min`;
    };
    for (const r of runs) console.log(r.name.padEnd(nameWidth), r.seconds.toFixed(1).padStart(8), perMinute(r).toFixed(1).padStart(10), ` ${reference(r)}`);
    const ratio = ratios[median];
    console.log(`Worker processes seen holding a job during the timed workload: ${rounds.map(([a, b]) => `${a.workersSeen} of 1, ${b.workersSeen} of 2`).join('; ')}.`);
    // Beside each round's ratio, the cores its 2-worker run kept busy: under 2, a worker waited (the last
    // documents fell to one of them); at 2, the CPU a page rose (the two tesseracts slowed each other).
    const busy = (r: Run) => (r.cpu ? ` (2 workers: ${(Object.values(r.cpu).reduce((a, b) => a + b, 0) / r.seconds).toFixed(2)} cores busy, ${(Object.values(r.cpu).reduce((a, b) => a + b, 0) / PAGES).toFixed(3)} CPU s a page)` : '');
    if (ROUNDS > 1) console.log(`Ratios by round: ${ratios.map((r, i) => `${r.toFixed(2)}x${busy(rounds[i][1])}`).join(', ')}; the median is round ${median + 1}'s.`);
    console.log(`Ratio, 2 workers over 1${ROUNDS > 1 ? ` (median of ${ROUNDS} rounds)` : ''}: ${ratio.toFixed(2)}x (aim at least ${RATIO_AIM}x on 2 cores: ${verdict(ratio >= RATIO_AIM)}).`);
    if (ROUNDS > 1) console.log(`The CPU table below is round ${median + 1}'s.`);
    printCpu([one, two], cores, rounds.flat().filter((r) => r !== one && r !== two));

    console.log(`\nDocument detail: one processed page with ${ANNOTATIONS} annotations, ${GETS} sequential GETs each way, one folio serve per store, same documents and loop`);
    console.log('store'.padEnd(12), 'answer'.padEnd(34), 'p50 ms'.padStart(8), 'p95 ms'.padStart(8), '  reference');
    const [lite] = details;
    for (const kind of ['cached', 'rebuilt'] as const) {
      const how = kind === 'cached' ? 'from the response cache' : 'rebuilt (a new query string each)';
      for (const d of details) {
        const p50 = percentile(d[kind], 50);
        const ref = d === lite
          ? `aim p50 < ${DETAIL_AIM_MS} ms (bench:api): ${verdict(p50 < DETAIL_AIM_MS)}`
          : `SQLite ${percentile(lite[kind], 50).toFixed(1)} ms (PostgreSQL ${(p50 / percentile(lite[kind], 50)).toFixed(2)}x); aim p50 < ${DETAIL_AIM_MS} ms: ${verdict(p50 < DETAIL_AIM_MS)}`;
        console.log(d.store.padEnd(12), how.padEnd(34), p50.toFixed(1).padStart(8), percentile(d[kind], 95).toFixed(1).padStart(8), ` ${ref}`);
      }
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
// The throwaway cluster stops at exit (test/helpers/postgres.ts).
process.exit(0);
