// The team server's shape with real processes (issue 14): one `folio serve --no-workers` and two
// `folio worker` on one PostgreSQL (a throwaway cluster) and one S3 bucket (s3rver), each process with a
// data folder of its own and one OCR thread. 30 uploads at once, born-digital PDFs and scans, a few of them
// sync=true (the API process, which runs no job, answers them once a worker finished: it hears of the end
// through the database); one worker SIGKILLed in the middle of a scan's OCR. Every document must end done
// exactly once: one completion callback each, its pages stored once, its jobs done (the killed one taken up
// by the other worker, its interrupted start given back), and neither jobs nor pg-boss messages left over.
import { setTimeout as sleep } from 'node:timers/promises';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, postgresAvailable } from '../helpers/postgres.ts';
import { killAllFolios, startFolio } from '../helpers/processes.ts';
import { startWorker, type WorkerProcess } from '../helpers/folioWorker.ts';
import { startS3rver, type TestS3 } from '../helpers/s3rver.ts';
import { startReceiver, type CallbackReceiver } from '../helpers/callbackReceiver.ts';
import { Client, tempDir } from '../helpers/testServer.ts';
import { pdfWithText, upload } from '../helpers/documentFixtures.ts';
import { bodyText, drawPage } from '../helpers/ocrPages.ts';
import { scanImage } from '../fixtures/imageSamples.ts';

const ADMIN = { email: 'admin@team.test', password: 'team-admin-password-1' };
/** The status [code, name] of a processed document. */
const DONE = 2;
/** A worker holds a job's message by its heartbeat (pgBossQueue.ts, 30 s) and pg-boss's monitor looks every 10 s. */
const TAKEOVER_MS = 30_000 + 10_000;

interface Upload {
  name: string;
  pages: number;
  data: Uint8Array;
  sync?: boolean;
}

/** A scan of `pages` full A4 pages at 150 dpi, JPEG as scanners write them: a few seconds of OCR a page. */
async function longScan(pages: number, seed: number): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  for (let i = 0; i < pages; i++) {
    const { png, widthPt, heightPt } = await drawPage(bodyText(seed + i, 30), { dpi: 150 });
    const jpg = await pdf.embedJpg(await sharp(png).jpeg({ quality: 85 }).toBuffer());
    pdf.addPage([widthPt, heightPt]).drawImage(jpg, { x: 0, y: 0, width: widthPt, height: heightPt });
  }
  return pdf.save();
}

/** A strip scan of one line per page (small and quick to read). */
async function stripScan(lines: string[]): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  for (const line of lines) {
    const image = await scanImage(line, { dpi: 150, format: 'jpeg' });
    const jpg = await pdf.embedJpg(image.data);
    pdf.addPage([(image.width * 72) / 150, (image.height * 72) / 150]).drawImage(jpg, { x: 0, y: 0, width: (image.width * 72) / 150, height: (image.height * 72) / 150 });
  }
  return pdf.save();
}

/** 30 uploads: 2 long scans (the one to kill a worker in), 10 strip scans, 18 born-digital PDFs, 4 of them sync. */
async function workload(): Promise<Upload[]> {
  const out: Upload[] = [];
  for (let i = 0; i < 2; i++) out.push({ name: `long-scan-${i}.pdf`, pages: 4, data: await longScan(4, 100 * i) });
  for (let i = 0; i < 10; i++) {
    const lines = Array.from({ length: 1 + (i % 2) }, (_, p) => `Scan ${i} page ${p + 1} invoice total ${(i + 1) * 17},${p}0 EUR`);
    out.push({ name: `strip-scan-${i}.pdf`, pages: lines.length, data: await stripScan(lines) });
  }
  for (let i = 0; i < 18; i++) out.push({ name: `digital-${i}.pdf`, pages: 1, data: await pdfWithText(`Delivery note ${i} order ${1000 + i}`), sync: i % 5 === 0 });
  return out;
}

const workers: WorkerProcess[] = [];

let s3: TestS3 | undefined;
let receiver: CallbackReceiver | undefined;
let db: pg.Client | undefined;
afterAll(async () => {
  await Promise.all(workers.map((w) => w.kill()));
  await killAllFolios();
  await db?.end();
  await receiver?.close();
  await s3?.stop();
});

describe.skipIf(!postgresAvailable())('team server: one API process and two workers on PostgreSQL and S3', () => {
  it('30 uploads, one worker SIGKILLed in the middle of OCR: every document done exactly once, nothing left in the queue', async () => {
    const databaseUrl = await createTestDatabase('folio_team');
    s3 = await startS3rver('folio-team');
    receiver = await startReceiver([{ status: 200 }]);
    const env = { ...s3.env, FOLIO_DATABASE_URL: databaseUrl, FOLIO_OCR_WORKERS: '1', FOLIO_ADMIN_EMAIL: ADMIN.email, FOLIO_ADMIN_PASSWORD: ADMIN.password, FOLIO_SYNC_TIMEOUT_S: '240' };
    const files = await workload();

    // The API first: it migrates the database and makes the administrator; then the workers.
    const api = await startFolio({ dataDir: tempDir('folio-team-api-'), env, args: ['serve', '--no-workers'] });
    expect(api.stdout()).toContain('API only');
    const [first, second] = await Promise.all([startWorker(tempDir('folio-team-w1-'), env), startWorker(tempDir('folio-team-w2-'), env)]);
    workers.push(first, second);
    db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();

    const admin = new Client(api.url);
    await admin.login(ADMIN.email, ADMIN.password);
    const project = (await admin.request('POST', '/api/v3/projects/', { body: { name: 'Team', ocr_languages: ['eng'] } })).body.id as number;

    const responses = files.map((f, i) =>
      upload(admin, { project, callback_url: `${receiver!.origin}/done/${i}`, ...(f.sync ? { sync: 'true' } : {}) }, { name: f.name, data: f.data }),
    );

    // The victim: whichever worker is reading a long scan, past its first page (a safe point) and not done.
    const victim = await (async () => {
      const deadline = Date.now() + 120_000;
      for (;;) {
        const { rows } = await db!.query<{ locked_by: string; document_id: number }>(
          `select j.locked_by, j.document_id from jobs j join documents d on d.id = j.document_id
           where j.kind = 'process-document' and j.state = 'running' and j.progress >= 1 and d.data_file_name like 'long-scan-%' limit 1`,
        );
        if (rows.length) return rows[0];
        if (Date.now() > deadline) throw new Error(`No worker started reading a long scan within 120 s.\n${first.output()}\n${second.output()}`);
        await sleep(50);
      }
    })();
    const pid = Number(victim.locked_by.split(':').at(-2));
    const killed = [first, second].find((w) => w.pid === pid);
    expect(killed, `the holder ${victim.locked_by} is one of the two workers`).toBeDefined();
    await killed!.kill();
    const survivor = killed === first ? second : first;

    const answered = await Promise.all(responses);
    for (const [i, r] of answered.entries()) expect(r.status, `${files[i].name}: ${r.text}`).toBe(201);
    const ids = answered.map((r) => r.body.id as number);
    // sync=true: answered by the API process once a worker finished, heard through the database.
    for (const [i, r] of answered.entries()) if (files[i].sync) expect(r.body.status[0], files[i].name).toBe(DONE);

    // Everything ends, the victim's document after its lease lapsed and the survivor took it up.
    const deadline = Date.now() + 120_000 + TAKEOVER_MS;
    for (;;) {
      const { rows } = await db.query<{ n: number }>(`select count(*)::int as n from jobs where state in ('queued', 'running')`);
      const docs = await Promise.all(ids.map((id) => admin.request('GET', `/api/v3/documents/${id}/`)));
      if (rows[0].n === 0 && docs.every((d) => d.body.status[0] === DONE)) break;
      if (Date.now() > deadline) throw new Error(`Not everything ended: ${rows[0].n} jobs open.\nsurvivor:\n${survivor.output()}`);
      await sleep(500);
    }

    // Exactly once: one callback per document, its pages once, every job done; the victim's by the survivor.
    await sleep(1_000); // the last callbacks' requests may still be on their way
    const callbacks = receiver.received.map((r) => Number(r.url.split('/').at(-1)));
    expect(callbacks.sort((a, b) => a - b)).toEqual(files.map((_, i) => i));
    const pages = await db.query<{ document_id: number; n: number }>(`select document_id, count(*)::int as n from pages group by document_id`);
    expect(Object.fromEntries(pages.rows.map((r) => [r.document_id, r.n]))).toEqual(Object.fromEntries(ids.map((id, i) => [id, files[i].pages])));
    const jobs = await db.query<{ kind: string; document_id: number; state: string; attempts: number; interruptions: number }>(
      `select kind, document_id, state, attempts, interruptions from jobs order by id`,
    );
    expect(jobs.rows.filter((j) => j.state !== 'done')).toEqual([]);
    const processing = jobs.rows.filter((j) => j.kind === 'process-document');
    expect(processing.map((j) => j.document_id).sort((a, b) => a - b)).toEqual([...ids].sort((a, b) => a - b));
    expect(processing.filter((j) => j.interruptions > 0).map((j) => j.document_id)).toEqual([victim.document_id]);
    expect(processing.every((j) => j.attempts === 1)).toBe(true);
    // pg-boss holds nothing more to do.
    const messages = await db.query<{ state: string; n: number }>(`select state, count(*)::int as n from pgboss.job group by state`);
    expect(messages.rows.filter((m) => m.state !== 'completed')).toEqual([]);
    expect(survivor.alive()).toBe(true);
  }, 360_000);
});
