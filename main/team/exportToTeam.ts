// `folio export-to-team`: a pilot on one desktop becomes the team's project. Moves a desktop data folder
// (SQLite and the files under blobs/) into a team server's PostgreSQL database and object store, ids,
// files and API tokens intact, so links, scripts that stored ids, and tokens keep working.
//
// Order, for the crash rules of the blob store (main/blobs/blobStore.ts): files first (content-addressed,
// so copying one twice changes nothing), then every row in one transaction of the team database, then the
// token secret. A run cut short leaves either no rows (run it again) or all of them. Refused: a team
// database that already holds rows (this is a move into a new team server, not a merge), a desktop with
// processing or training still queued (the team's queue would not know of it), and a desktop Folio that
// is running on the folder (its instance lock).
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import type { Config } from '../config.ts';
import { acquireInstanceLock } from '../instanceLock.ts';
import { DiskBlobStore, type BlobStore } from '../blobs/blobStore.ts';
import { openBlobStore } from '../blobs/openBlobStore.ts';
import { referencedBlobKeys } from '../blobs/referenced.ts';
import { migrateUp, openStore } from '../store/db.ts';
import { openStoreFor } from '../store/open.ts';
import { copyRows, nonEmptyTables, tablesInDependencyOrder } from '../store/copyStore.ts';
import { makeRepos } from '../store/repositories/index.ts';

/** A refusal the user can act on (the CLI prints it and exits 1; nothing was written). */
export class ExportRefused extends Error {}

export interface ExportReport {
  rows: Record<string, number>;
  files: { total: number; copied: number; alreadyThere: number; bytes: number };
  seconds: number;
}

/**
 * Exports the desktop folder `dataDir` into the team store named by `team` (its databaseUrl and s3).
 * `log` receives progress lines.
 */
export async function exportToTeam(dataDir: string, team: Pick<Config, 'dataDir' | 'databaseUrl' | 's3'>, log: (line: string) => void = () => {}): Promise<ExportReport> {
  const started = Date.now();
  if (!team.databaseUrl) throw new ExportRefused('Name the team server\'s database: FOLIO_DATABASE_URL=postgres://... (and its object store: FOLIO_S3_*).');
  if (!team.s3) throw new ExportRefused('Name the team server\'s object store: FOLIO_S3_ENDPOINT, FOLIO_S3_BUCKET, FOLIO_S3_REGION, FOLIO_S3_ACCESS_KEY_ID and FOLIO_S3_SECRET_ACCESS_KEY.');
  const dbFile = path.join(dataDir, 'folio.db');
  if (!fs.existsSync(dbFile)) throw new ExportRefused(`${dataDir} is not a Folio data folder (no folio.db).`);
  const secretFile = path.join(dataDir, 'secret.key');
  const lock = (() => {
    try {
      return acquireInstanceLock(dataDir);
    } catch (err) {
      throw new ExportRefused(`Folio is running on ${dataDir}: quit it first (${(err as Error).message}).`);
    }
  })();
  const source = openStore(dbFile);
  try {
    await migrateUp(source.db);
    const pending = await sql<{ n: number }>`select count(*) as n from jobs where state in ('queued', 'running')`.execute(source.db);
    const unfinished = Number(pending.rows[0].n);
    if (unfinished > 0) {
      throw new ExportRefused(`${unfinished} job(s) (processing or training) are still unfinished on this desktop: start Folio, let them finish, quit it and export again.`);
    }
    const target = await openStoreFor(team);
    try {
      if (target.dialect !== 'postgres') throw new ExportRefused('FOLIO_DATABASE_URL must name a PostgreSQL database.');
      const tables = await tablesInDependencyOrder(source.db);
      const busy = await nonEmptyTables(target.db, tables);
      if (busy.length) {
        throw new ExportRefused(`The team database already holds data (${busy.join(', ')}): export into a new, empty team server (start no Folio process on it before the export).`);
      }

      const teamBlobs = await openBlobStore(team);
      const files = await copyFiles(new DiskBlobStore(path.join(dataDir, 'blobs')), teamBlobs, log);
      log(`files: ${files.copied} copied, ${files.alreadyThere} already there (${(files.bytes / 1e6).toFixed(1)} MB)`);
      const missing = await missingFiles(makeRepos(source.db), teamBlobs);
      if (missing.length) {
        throw new ExportRefused(`${missing.length} file(s) that documents name are missing from this desktop's blobs folder (first: ${missing[0]}); nothing was written to the team database.`);
      }
      // Tokens are keyed by the desktop's secret: the team server takes it over, so they stay valid.
      const secret = fs.existsSync(secretFile) ? fs.readFileSync(secretFile) : undefined;
      const { rows } = await copyRows(source.db, target.db, tables, { secret });
      log(`rows: ${Object.entries(rows).map(([t, n]) => `${t} ${n}`).join(', ')}`);
      await verifyCounts(source.db, target.db, rows);
      return { rows, files, seconds: (Date.now() - started) / 1000 };
    } finally {
      await target.close();
    }
  } finally {
    await source.close();
    lock.release();
  }
}

async function copyFiles(from: DiskBlobStore, to: BlobStore, log: (line: string) => void): Promise<ExportReport['files']> {
  const keys = await from.keys();
  let copied = 0;
  let alreadyThere = 0;
  let bytes = 0;
  for (const [i, key] of keys.entries()) {
    if (await to.exists(key)) {
      alreadyThere++;
      continue;
    }
    const data = await from.read(key);
    const stored = await to.put(data);
    if (stored.key !== key) throw new Error(`The file ${key} changed on its way (${stored.key} arrived): the desktop's blobs folder is damaged.`);
    copied++;
    bytes += data.length;
    if ((i + 1) % 100 === 0) log(`files: ${i + 1} of ${keys.length}`);
  }
  return { total: keys.length, copied, alreadyThere, bytes };
}

/** The files the rows name that the store does not hold. */
async function missingFiles(repos: ReturnType<typeof makeRepos>, blobs: BlobStore): Promise<string[]> {
  const missing: string[] = [];
  for (const key of await referencedBlobKeys(repos)) if (!(await blobs.exists(key))) missing.push(key);
  return missing;
}

/** Every row arrived: the counts of both stores agree with what was copied. */
async function verifyCounts(source: Parameters<typeof makeRepos>[0], target: Parameters<typeof makeRepos>[0], rows: Record<string, number>): Promise<void> {
  for (const [table, n] of Object.entries(rows)) {
    const [a, b] = await Promise.all([source, target].map((db) => sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(db)));
    if (Number(a.rows[0].n) !== n || Number(b.rows[0].n) !== n) throw new Error(`Table ${table}: ${n} rows copied but ${b.rows[0].n} arrived.`);
  }
}
