// npm run test:chaos: kill -9 at random moments while a real Folio takes uploads (born-digital and scanned,
// so OCR runs), annotation writes and an AI training (workload.ts), restarting what was killed; then lets it
// finish and checks what a user would check. Two Folios, one after the other (CHAOS_TARGET=desktop|team|both,
// default both):
// - desktop: one `folio serve` on a data folder (SQLite), SIGKILLed and restarted CHAOS_KILLS times (default 25);
// - team: a team server (PostgreSQL cluster of its own, an S3 bucket in s3rver, `folio serve --no-workers`
//   and one `folio worker`) through CHAOS_TEAM_ROUNDS rounds (default 9) that in turn SIGKILL the worker,
//   SIGKILL the API process, and stop PostgreSQL as a crash does (pg_ctl -m immediate) for CHAOS_OUTAGE_MS
//   (default 4000) while probes ask the API, before starting it again. It prints the probes' answers during
//   the outages by status (all must be 503, none 500) and how long the API took to answer again.
// Each prints lost, doubled, failed-by-interruption and stuck, and the run exits non-zero unless all are 0:
// - lost: an upload or an annotation whose 201 reached the client but that is gone afterwards;
// - doubled: a file uploaded once that is there twice, a page or an annotation stored twice;
// - failed-by-interruption: a valid document or the training that ended failed (status 111, a failed AI);
// - stuck: a document still queued or in progress, or a job still queued or running, once Folio has had
//   time to finish.
// Not part of npm test (it takes minutes). CHAOS_SEED sets the seed of the moments and the mix (default: a
// fixed one, so a run can be replayed). Nothing leaves loopback.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { startFolio, type FolioProcess } from '../helpers/processes.ts';
import { startWorker, type WorkerProcess } from '../helpers/folioWorker.ts';
import { startPgCluster } from '../helpers/postgres.ts';
import { startS3rver } from '../helpers/s3rver.ts';
import { tempDir } from '../helpers/testServer.ts';
import { ADMIN, allZero, call, check, login, openJobs, seeded, sleep, Workload, type Api, type Query, type Report } from './workload.ts';

const TARGET = process.env.CHAOS_TARGET ?? 'both';
const KILLS = Number(process.env.CHAOS_KILLS ?? 25);
const TEAM_ROUNDS = Number(process.env.CHAOS_TEAM_ROUNDS ?? 9);
const OUTAGE_MS = Number(process.env.CHAOS_OUTAGE_MS ?? 4_000);
const SEED = Number(process.env.CHAOS_SEED ?? 20261124);
const SETTLE_MS = 5 * 60_000;
const adminEnv = { FOLIO_ADMIN_EMAIL: ADMIN.email, FOLIO_ADMIN_PASSWORD: ADMIN.password, FOLIO_OCR_WORKERS: '1' };

/** Waits until no job is queued or running (bounded by SETTLE_MS). */
async function settle(query: Query): Promise<void> {
  const deadline = Date.now() + SETTLE_MS;
  while ((await openJobs(query)) > 0 && Date.now() < deadline) await sleep(1_000);
}

async function desktop(): Promise<Report> {
  const { between, rnd } = seeded(SEED);
  const dataDir = tempDir('folio-chaos-');
  console.log(`Chaos (desktop): ${KILLS} kills, seed ${SEED}, data folder ${dataDir}`);
  const start = () => startFolio({ dataDir, env: adminEnv, startTimeoutMs: 90_000 });
  const w = new Workload(rnd);
  let folio: FolioProcess = await start();
  let api = await login(folio.url);
  const t = await w.setup(api);
  let kills = 0;
  for (let round = 0; round < KILLS; round++) {
    const killAt = sleep(between(800, 5_000));
    await Promise.race([w.traffic(api, t, killAt), killAt]);
    await folio.kill();
    kills++;
    folio = await start();
    api = await login(folio.url);
    process.stdout.write(`\rkill ${kills}/${KILLS}: ${w.acknowledged.uploads.size} uploads, ${w.acknowledged.annotations.size} annotations acknowledged`);
  }
  console.log('\nLetting the last start finish its work...');
  const db = new Database(path.join(dataDir, 'folio.db'), { readonly: true });
  const query: Query = async (sql) => db.prepare(sql).all() as Record<string, any>[];
  await settle(query);
  const report = await check(query, w);
  db.close();
  await folio.stop();
  report.lines.unshift(`kills ${kills}`);
  if (allZero(report)) fs.rmSync(dataDir, { recursive: true, force: true });
  return report;
}

/** Asks the API again and again for `ms` while the database is down; the answers by status ("error": no answer). */
async function probe(api: Api, w: Workload, t: { project: number; category: number; label: number }, ms: number, answers: Map<string, number>): Promise<void> {
  const end = Date.now() + ms;
  const note = (status: number | string) => answers.set(String(status), (answers.get(String(status)) ?? 0) + 1);
  const asks = [
    () => call(api, 'GET', '/api/v3/projects/'),
    () => call(api, 'GET', `/api/v3/documents/?project=${t.project}`),
    () => call(api, 'POST', '/api/v3/projects/', { name: 'During the outage' }),
    async () => ({ status: await w.uploadOne(api, t) }),
  ];
  for (let i = 0; Date.now() < end; i++) {
    try {
      note((await asks[i % asks.length]()).status);
    } catch {
      note('error');
    }
    await sleep(50);
  }
}

/** Asks until the API answers 200 again; the time it took. */
async function untilBack(api: Api, timeoutMs = 60_000): Promise<number> {
  const t0 = Date.now();
  while (Date.now() - t0 < timeoutMs) {
    if ((await call(api, 'GET', '/api/v3/projects/').catch(() => ({ status: 0 }))).status === 200) return Date.now() - t0;
    await sleep(100);
  }
  throw new Error(`The API did not answer again within ${timeoutMs} ms after PostgreSQL came back.`);
}

async function team(): Promise<Report> {
  const { between, rnd } = seeded(SEED + 1);
  // Durable: PostgreSQL is crashed here, and what it acknowledged before must be kept.
  const cluster = await startPgCluster({ durable: true });
  const admin = new pg.Client({ connectionString: cluster.adminUrl });
  await admin.connect();
  await admin.query('create database folio_chaos');
  await admin.end();
  const databaseUrl = cluster.adminUrl.replace(/\/postgres$/, '/folio_chaos');
  const s3 = await startS3rver('folio-chaos');
  const env = { ...s3.env, ...adminEnv, FOLIO_DATABASE_URL: databaseUrl };
  const apiDir = tempDir('folio-chaos-api-');
  const workerDir = tempDir('folio-chaos-worker-');
  console.log(`Chaos (team): ${TEAM_ROUNDS} rounds (worker, API, PostgreSQL in turn), outages of ${OUTAGE_MS} ms, seed ${SEED}`);
  // Generous: on 2 busy cores a start beside a worker's OCR can take longer than the helpers' default.
  const startApi = () => startFolio({ dataDir: apiDir, env, args: ['serve', '--no-workers'], startTimeoutMs: 90_000 });
  const w = new Workload(rnd);
  let apiProcess: FolioProcess = await startApi();
  let worker: WorkerProcess = await startWorker(workerDir, env);
  let api = await login(apiProcess.url);
  const t = await w.setup(api);
  const outage = new Map<string, number>();
  const recoveries: number[] = [];
  const actions = { worker: 0, api: 0, postgres: 0, unplannedWorkerExits: 0 };
  for (let round = 0; round < TEAM_ROUNDS; round++) {
    const killAt = sleep(between(800, 5_000));
    await Promise.race([w.traffic(api, t, killAt), killAt]);
    const target = (['worker', 'api', 'postgres'] as const)[round % 3];
    if (target === 'worker') {
      await worker.kill();
      worker = await startWorker(workerDir, env);
    } else if (target === 'api') {
      await apiProcess.kill();
      apiProcess = await startApi();
      api = await login(apiProcess.url);
    } else {
      cluster.halt();
      await probe(api, w, t, OUTAGE_MS, outage);
      cluster.resume();
      recoveries.push(await untilBack(api));
    }
    actions[target]++;
    // A worker must live through an outage of its database; one that did not is started again and counted.
    if (!worker.alive()) {
      actions.unplannedWorkerExits++;
      console.log(`\nThe worker exited on its own:\n${worker.output().slice(-2000)}`);
      worker = await startWorker(workerDir, env);
    }
    process.stdout.write(`\rround ${round + 1}/${TEAM_ROUNDS} (${target}): ${w.acknowledged.uploads.size} uploads, ${w.acknowledged.annotations.size} annotations acknowledged`);
  }
  console.log('\nLetting the worker finish its work...');
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  const query: Query = async (sql) => (await db.query(sql)).rows;
  await settle(query);
  const report = await check(query, w);
  await db.end();
  await worker.stop();
  await apiProcess.stop();
  await s3.stop();
  cluster.stop();
  const answers = [...outage].sort().map(([status, n]) => `${status}: ${n}`).join(', ');
  const bad = [...outage].filter(([status]) => status !== '503').reduce((n, [, c]) => n + c, 0);
  report.lines.unshift(
    `worker kills ${actions.worker}, API kills ${actions.api}, PostgreSQL outages ${actions.postgres}, worker exits on its own ${actions.unplannedWorkerExits}`,
    `answers during the outages: ${answers || 'none'} (not 503: ${bad}); the API answered again ${recoveries.map((ms) => `${(ms / 1000).toFixed(1)} s`).join(', ')} after PostgreSQL was back`,
  );
  // Answers other than 503 while the database is down, and a worker that died of an outage, fail the run too.
  report.outageNot503 = bad;
  report.unplannedExits = actions.unplannedWorkerExits;
  return report;
}

async function main(): Promise<void> {
  const reports: [string, Report][] = [];
  if (TARGET === 'desktop' || TARGET === 'both') reports.push(['desktop', await desktop()]);
  if (TARGET === 'team' || TARGET === 'both') reports.push(['team', await team()]);
  let ok = true;
  for (const [name, r] of reports) {
    console.log(`\n${name}:`);
    for (const line of r.lines) console.log(`  ${line}`);
    ok &&= allZero(r);
  }
  console.log(ok ? 'Chaos: all 0.' : 'Chaos: FAILED.');
  process.exit(ok ? 0 : 1);
}

main().catch((err) => {
  console.error(err);
  process.exit(2);
});
