// Per-document pipelining through the real server (issue 27), on SQLite's queue and, under `npm run test:pg`,
// on pg-boss: each step of a document runs on its own worker lane (main/jobs/registry.ts), so a document's
// analysis never waits for other documents' OCR; batches of one project take turns with other projects'
// uploads, and a sync upload goes ahead of them (fair queues, jobRepository.placeInQueue); a callback
// receiver that stalls holds up no processing; a delivery retried after a receiver's Retry-After survives a
// restart with its attempt count. Every assertion is on the order in which jobs ended, never on durations.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { startTestServer, type TestServer } from '../helpers/testServer.ts';
import { startReceiver } from '../helpers/callbackReceiver.ts';
import { created, pdfWithText, upload } from '../helpers/documentFixtures.ts';
import { scannedPdf } from '../fixtures/pdfSamples.ts';
import { ANALYZE_DOCUMENT, PROCESS_DOCUMENT } from '../../main/jobs/kinds.ts';
import type { JobRow } from '../../main/store/schema.ts';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s?.close());

const project = async (name: string) => (await created(s.admin.post('/api/v3/projects/', { name }))).id as number;

/** A scanned page: its OCR keeps the document worker busy while the test queues what comes after it. */
const blocker = async (projectId: number) =>
  (await created(upload(s.admin, { project: projectId }, { name: 'scan.pdf', data: await scannedPdf('Blocker page for the queue test 1234 5678', 300) }))).id as number;

async function uploadText(projectId: number, text: string, fields: Record<string, string | number> = {}): Promise<number> {
  return (await created(upload(s.admin, { project: projectId, ...fields }, { name: `${text}.pdf`, data: await pdfWithText(text) }))).id;
}

async function until<T>(what: string, check: () => Promise<T | undefined | false>, timeoutMs = 120_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The job of `kind` of a document once it ended, else undefined. */
async function ended(documentId: number, kind: string): Promise<JobRow | undefined> {
  const job = (await s.core.repos.jobs.listByDocument(documentId)).find((j) => j.kind === kind);
  return job && (job.state === 'done' || job.state === 'failed') ? job : undefined;
}

/** The document ids in the order their jobs of `kind` ended (jobs end one at a time on a lane). */
async function endOrder(ids: number[], kind: string): Promise<number[]> {
  const jobs = await Promise.all(ids.map((id) => until(`${kind} of document ${id}`, () => ended(id, kind))));
  return jobs.sort((a, b) => a.finished_at!.localeCompare(b.finished_at!) || a.id - b.id).map((j) => j.document_id!);
}

const statusOf = async (id: number) => (await s.admin.get(`/api/v3/documents/${id}/`)).body.status_data as number;

describe('per-document pipelining', () => {
  it("makes each document ready for review once it is read: the first one's analysis ends before the batch's last OCR", async () => {
    const p = await project('Pipelining');
    const first = await blocker(p);
    const batch: number[] = [];
    for (let i = 0; i < 5; i++) batch.push(await uploadText(p, `Batch receipt ${i} total ${i}.50`));
    const firstReady = await until('the first document analysed', () => ended(first, ANALYZE_DOCUMENT));
    const lastRead = await until('the batch read', () => ended(batch.at(-1)!, PROCESS_DOCUMENT));
    // On one lane the first analysis would have queued behind every upload's processing.
    expect(firstReady.state).toBe('done');
    expect(firstReady.finished_at! < lastRead.finished_at!).toBe(true);
    for (const id of [first, ...batch]) await until(`document ${id} done`, async () => (await statusOf(id)) === 2);
  });

  it("lets another project's upload and a sync upload take their turn ahead of a backlog, keeping the backlog's own order", async () => {
    const backlogProject = await project('Backlog');
    const otherProject = await project('Other project');
    const first = await blocker(backlogProject);
    const backlog: number[] = [];
    for (let i = 0; i < 6; i++) backlog.push(await uploadText(backlogProject, `Backlog page ${i}`));
    const other = await uploadText(otherProject, 'Another project, one page');
    // A sync upload waits for its answer: it goes ahead of every batch, its own project's included.
    const syncAnswer = upload(s.admin, { project: backlogProject, sync: 'true' }, { name: 'sync.pdf', data: await pdfWithText('Sync upload') });
    const synced = await created(syncAnswer);
    expect(synced.status_data).toBe(2);

    const order = await endOrder([first, ...backlog, other, synced.id], PROCESS_DOCUMENT);
    expect(order[0]).toBe(first);
    // The backlog keeps its upload order.
    expect(order.filter((id) => backlog.includes(id))).toEqual(backlog);
    // The other project waits for at most the backlog's head, not for all of it.
    expect(order.indexOf(other)).toBeLessThan(order.indexOf(backlog[2]));
    // The sync upload was sent after the other project's: it still ends before most of the backlog.
    expect(order.indexOf(synced.id)).toBeLessThan(order.indexOf(backlog[3]));
  });

  it('moves a waiting document ahead of a backlog when a reviewer opens it (POST documents/<id>/prioritize/)', async () => {
    const p = await project('Opened');
    const first = await blocker(p);
    const backlog: number[] = [];
    for (let i = 0; i < 5; i++) backlog.push(await uploadText(p, `Waiting page ${i}`));
    const opened = backlog.at(-1)!;
    const r = await s.admin.post(`/api/v3/documents/${opened}/prioritize/`, {});
    expect(r.status, r.text).toBe(200);
    expect(r.body.id).toBe(opened);
    const order = await endOrder([first, ...backlog], PROCESS_DOCUMENT);
    expect(order.indexOf(opened)).toBeLessThan(order.indexOf(backlog[2]));
    // Someone else's document is not theirs to move.
    const stranger = await s.userClient(`stranger-${Date.now()}@test.local`);
    expect((await stranger.post(`/api/v3/documents/${opened}/prioritize/`, {})).status).toBe(404);
  });
});

describe('outbound delivery on its own lane', () => {
  it('a callback receiver that never answers holds up no other document: the next upload is done before the attempt ends', async () => {
    const receiver = await startReceiver([{ status: 0, hang: true }]);
    try {
      const p = await project('Stalled receiver');
      const waiting = await uploadText(p, 'Has a callback', { callback_url: `${receiver.origin}/stalls` });
      await until('the callback attempt under way', async () => receiver.received.length > 0);
      const next = await created(upload(s.admin, { project: p, sync: 'true' }, { name: 'next.pdf', data: await pdfWithText('The next upload') }));
      expect(next.status_data).toBe(2);
      // The first attempt is still waiting for its answer (10 s time-out): nothing recorded yet.
      const attempts = await sql<{ n: number }>`select count(*) as n from callback_attempts where document_id = ${waiting}`.execute(s.core.store.db);
      expect(Number(attempts.rows[0].n)).toBe(0);
    } finally {
      await receiver.close();
    }
  });

  it("resumes a delivery waiting out a receiver's Retry-After after a restart, with its attempt count", async () => {
    const receiver = await startReceiver([{ status: 503, body: 'busy', headers: { 'Retry-After': '2' } }, { status: 200 }]);
    const dataDir = s.dataDir;
    try {
      const p = await project('Restarted delivery');
      const doc = await uploadText(p, 'Delivered after a restart', { callback_url: `${receiver.origin}/hook` });
      const attemptsOf = async () =>
        (await sql<{ attempt: number; status_code: number | null; created_at: string }>`
          select attempt, status_code, created_at from callback_attempts where document_id = ${doc} order by id`.execute(s.core.store.db)).rows;
      await until('the first attempt', async () => (await attemptsOf()).length === 1);
      const job = await until('the delivery queued again', async () => (await s.core.repos.jobs.listByDocument(doc)).find((j) => j.kind === 'send-callback' && j.state === 'queued'));
      expect(job.attempts).toBe(1);
      expect(Date.parse(job.run_after) - Date.parse((await attemptsOf())[0].created_at)).toBeGreaterThanOrEqual(1_900);

      await s.close();
      s = await startTestServer({ dataDir });
      const rows = await until('the second attempt', async () => ((await attemptsOf()).length === 2 ? attemptsOf() : undefined));
      expect(rows.map((r) => [r.attempt, r.status_code])).toEqual([[1, 503], [2, 200]]);
      expect(Date.parse(rows[1].created_at) - Date.parse(rows[0].created_at)).toBeGreaterThanOrEqual(1_900);
      const done = await until('the delivery done', () => ended(doc, 'send-callback'));
      expect(done).toMatchObject({ state: 'done', attempts: 2 });
      expect(receiver.received).toHaveLength(2);
    } finally {
      await receiver.close();
    }
  });
});
