// `folio export-to-team` (main/team/exportToTeam.ts) on real parts: a desktop Folio (SQLite, files on
// disk) processes and annotates documents through its API; the export moves the folder into a fresh
// PostgreSQL database and an s3rver bucket; a team-server Folio on them then answers the same documents,
// annotations, files and the desktop's API token, and goes on making new rows without id collisions.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../main/config.ts';
import { exportToTeam, ExportRefused } from '../../main/team/exportToTeam.ts';
import { Client, startTestServer, tempDir, type TestServer } from '../helpers/testServer.ts';
import { created, makeTaxonomy, pdfWithLettersAtSpans, span, upload } from '../helpers/documentFixtures.ts';
import { createTestDatabase, postgresAvailable } from '../helpers/postgres.ts';
import { startS3rver, type TestS3 } from '../helpers/s3rver.ts';
import { runFolio } from '../helpers/processes.ts';

/** A file's bytes from the API (the test client reads bodies as text). */
async function download(baseUrl: string, url: string, token: string): Promise<{ status: number; bytes: Buffer }> {
  const res = await fetch(`${baseUrl}${url}`, { headers: { Authorization: `Token ${token}` } });
  return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()) };
}

describe.skipIf(!postgresAvailable() && !process.env.CI)('export a desktop data folder to a team server', () => {
  let desktop: TestServer;
  let s3: TestS3;
  let databaseUrl: string;
  const before: { docs: any[]; originals: Buffer[]; token: string; taxonomy: any } = { docs: [], originals: [], token: '', taxonomy: null };

  beforeAll(async () => {
    s3 = await startS3rver('folio-export');
    databaseUrl = await createTestDatabase('export');
    desktop = await startTestServer();
    const api = desktop.admin;
    const t = await makeTaxonomy(api, 'Pilot');
    const pdf = await pdfWithLettersAtSpans();
    for (let i = 0; i < 3; i++) {
      const doc = await created(upload(api, { project: t.project, category: t.category, sync: 'true', dataset_status: i === 0 ? 2 : 0 }, { name: `pilot-${i}.pdf`, data: pdf }));
      await created(api.post(`/api/v3/documents/${doc.id}/annotations/`, { label: t.labels.date, label_set: t.category, span: [span(1 + i)] }));
      await created(api.post(`/api/v3/documents/${doc.id}/annotations/`, { label: t.labels.item, label_set: t.items, span: [span(5 + i)] }));
    }
    const list = (await api.get(`/api/v3/documents/?project=${t.project}&limit=100`)).body.results as { id: number }[];
    for (const { id } of list.sort((a, b) => a.id - b.id)) {
      before.docs.push((await api.get(`/api/v3/documents/${id}/`)).body);
      before.originals.push((await download(desktop.url, `/doc/show-original/${id}/`, api.token!)).bytes);
    }
    before.token = api.token!;
    before.taxonomy = t;
    await desktop.close();
  }, 120_000);

  afterAll(async () => {
    await s3?.stop();
    if (desktop) fs.rmSync(desktop.dataDir, { recursive: true, force: true });
  });

  const team = () => loadConfig({ FOLIO_DATABASE_URL: databaseUrl, ...s3.env }, { dataDir: tempDir('folio-team-') });

  it('refuses without a team database, and refuses a folder that is not Folio\'s', async () => {
    await expect(exportToTeam(desktop.dataDir, loadConfig({}, { dataDir: tempDir() }))).rejects.toThrow(ExportRefused);
    await expect(exportToTeam(desktop.dataDir, loadConfig({ FOLIO_DATABASE_URL: databaseUrl }, { dataDir: tempDir() }))).rejects.toThrow(/object store/);
    await expect(exportToTeam(tempDir('folio-empty-'), team())).rejects.toThrow(/not a Folio data folder/);
  });

  it('moves every row and file, ids intact; the team server answers the same documents and the same token', async () => {
    const lines: string[] = [];
    const report = await exportToTeam(desktop.dataDir, team(), (l) => lines.push(l));
    expect(report.rows.documents).toBe(3);
    expect(report.rows.annotations).toBe(6);
    expect(report.files.total).toBeGreaterThanOrEqual(1);
    expect(report.files.copied).toBe(report.files.total);
    // Every file of the desktop is an object of the bucket, under the same content key.
    const desktopKeys = fs.readdirSync(path.join(desktop.dataDir, 'blobs')).filter((d) => /^[0-9a-f]{2}$/.test(d))
      .flatMap((d) => fs.readdirSync(path.join(desktop.dataDir, 'blobs', d)));
    const objects = (await s3.objects()).map((o) => o.split('/').pop());
    for (const key of desktopKeys) expect(objects).toContain(key);

    const server = await startTestServer({ env: { FOLIO_DATABASE_URL: databaseUrl, ...s3.env } });
    try {
      // The desktop's token works on the team server: the secret that keys it moved along.
      const api = new Client(server.url, before.token);
      for (const [i, doc] of before.docs.entries()) {
        const now = (await api.get(`/api/v3/documents/${doc.id}/`)).body;
        expect(now).toEqual(doc);
        const original = await download(server.url, `/doc/show-original/${doc.id}/`, before.token);
        expect(original.status).toBe(200);
        expect(original.bytes.equals(before.originals[i])).toBe(true);
      }
      // New rows continue after the copied ids.
      const t = before.taxonomy;
      const fresh = await created(api.post('/api/v3/labels/', { project: t.project, name: 'After the move', data_type: 'Text', label_sets: [t.category] }));
      expect(fresh.id).toBeGreaterThan(Math.max(...Object.values(t.labels as Record<string, number>)));
    } finally {
      await server.close();
    }
  }, 120_000);

  it('refuses a team database that already holds data, writing nothing', async () => {
    await expect(exportToTeam(desktop.dataDir, team())).rejects.toThrow(/already holds data/);
  });

  it('runs as `folio export-to-team`; `folio backup` refuses on a team server', async () => {
    const second = await createTestDatabase('export_cli');
    const env = { FOLIO_DATABASE_URL: second, ...s3.env };
    const r = await runFolio(['export-to-team'], { dataDir: desktop.dataDir, env, timeoutMs: 120_000 });
    expect(r.code, r.stderr).toBe(0);
    // The bucket already holds every file from the first export: none is sent again.
    expect(r.stdout).toMatch(/Exported .*: \d+ rows in \d+ tables, \d+ files \(0 copied\)/);
    const backup = await runFolio(['backup', path.join(tempDir(), 'b.tar')], { dataDir: tempDir(), env, timeoutMs: 60_000 });
    expect(backup.code).toBe(1);
    expect(backup.stderr).toMatch(/team server .*pg_dump/);
  }, 180_000);
});
