// Opens the SQLite file behind kysely (WAL, foreign keys) and brings its schema up to date. The team
// server's PostgreSQL store is pgStore.ts; open.ts picks one of the two from the configuration.
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, sql } from 'kysely';
import { splitSqliteDialect } from './sqliteDriver.ts';
import type { Database } from './schema.ts';
import { migrations as allMigrations, type Migration } from './migrations/index.ts';
import type { ChangeStamp } from './changeStamp.ts';
import { translateSqliteError, translatingErrors } from './errors.ts';
import { dialectOf, type DialectName } from './dialect.ts';

export type Db = Kysely<Database>;

/** What every store gives the core, whichever database is behind it. */
export interface Store extends ChangeStamp {
  db: Db;
  dialect: DialectName;
  /**
   * Changes whenever any committed or pending write happened since the last call returned the same
   * value, in this process or another one (the CLI, the other processes of a team server): caches of
   * derived data compare it to stay fresh (the contract: changeStamp.ts).
   */
  changeStamp(): string | Promise<string>;
  /** How many queries kysely has run on this store (tests use it to prove there are no per-row queries). */
  queryCount(): number;
  /**
   * The secret that keys API tokens when every process of a team server must share it (kept in the
   * database); undefined when the data folder keeps it (SQLite: core.ts's secret.key).
   */
  sharedSecret(): Promise<Buffer | undefined>;
  close(): Promise<void>;
}

/** The desktop store: one SQLite file in the data folder. */
export interface OpenedStore extends Store {
  dialect: 'sqlite';
  sqlite: BetterSqlite3.Database;
  changeStamp(): string;
}

/**
 * Kysely's SQLite driver prepares every statement anew; reusing prepared statements by SQL text
 * removes that parse cost from every query (the number of distinct query shapes is small).
 */
function withStatementCache(sqlite: BetterSqlite3.Database) {
  const cache = new Map<string, BetterSqlite3.Statement>();
  return {
    prepare(sqlText: string) {
      let stmt = cache.get(sqlText);
      if (!stmt) {
        stmt = sqlite.prepare(sqlText);
        if (cache.size >= 1000) cache.clear();
        cache.set(sqlText, stmt);
      }
      return stmt;
    },
    close() {
      cache.clear();
      sqlite.close();
    },
  };
}

export interface StoreOptions {
  /** How long the writer may be stuck on one statement before writes answer 503 (sqliteDriver.ts; FOLIO_DISK_STALL_MS). */
  stallMs?: number;
}

const BUSY_TIMEOUT_MS = 5000;

export function openStore(file: string, options: StoreOptions = {}): OpenedStore {
  const sqlite = new BetterSqlite3(file);
  // WAL keeps readers off writers' backs; NORMAL sync is crash-consistent in WAL mode (a power cut may
  // lose the last commit, never half of one). Foreign keys are off by default in SQLite.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  let queries = 0;
  const stallMs = options.stallMs ?? (Number(process.env.FOLIO_DISK_STALL_MS) || undefined);
  const db = new Kysely<Database>({
    // Reads on this thread, writes and transactions on the writer thread (sqliteDriver.ts); constraint
    // errors leave the store as domain errors (errors.ts).
    dialect: translatingErrors(
      splitSqliteDialect({ file, reader: withStatementCache(sqlite), busyTimeoutMs: BUSY_TIMEOUT_MS, stallMs }),
      translateSqliteError,
    ),
    // Failed queries surface as errors where they are handled (many are expected constraint checks).
    log: (event) => {
      if (event.level === 'query') queries++;
    },
  });
  // data_version moves on commits by other connections, total_changes() on this connection's writes.
  const dataVersion = sqlite.prepare('pragma data_version').pluck();
  const totalChanges = sqlite.prepare('select total_changes()').pluck();
  return {
    db,
    dialect: 'sqlite',
    sqlite,
    sharedSecret: async () => undefined,
    changeStamp: () => `${dataVersion.get()}:${totalChanges.get()}`,
    queryCount: () => queries,
    async close() {
      await db.destroy();
    },
  };
}

export const now = (): string => new Date().toISOString();

/** The data folder was written by a newer Folio; this one must not touch it. */
export class NewerDatabaseError extends Error {}

async function ensureMigrationTable(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('folio_migrations')
    .ifNotExists()
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('applied_at', 'text', (c) => c.notNull())
    .execute();
}

export async function appliedMigrations(db: Kysely<any>): Promise<string[]> {
  await ensureMigrationTable(db);
  const rows = await db.selectFrom('folio_migrations').select('name').orderBy('name').execute();
  return rows.map((r: { name: string }) => r.name);
}

/**
 * Applies pending migrations in order, each in its own transaction together with its bookkeeping row,
 * so that a crash mid-way leaves the schema at a whole version. `target` stops after that migration.
 */
export async function migrateUp(db: Kysely<any>, target?: string, list: Migration[] = allMigrations): Promise<string[]> {
  const done = new Set(await appliedMigrations(db));
  const unknown = [...done].filter((name) => !list.some((m) => m.name === name));
  if (unknown.length) {
    throw new NewerDatabaseError(`The database was written by a newer Folio (migrations ${unknown.join(', ')} are unknown to this version).`);
  }
  const applied: string[] = [];
  for (const m of list) {
    if (done.has(m.name)) continue;
    await db.transaction().execute(async (trx) => {
      await m.up(trx);
      await trx.insertInto('folio_migrations').values({ name: m.name, applied_at: now() }).execute();
    });
    applied.push(m.name);
    if (m.name === target) break;
  }
  return applied;
}

/** Reverts the newest applied migration (used by the migration tests). */
export async function migrateDownOne(db: Kysely<any>, list: Migration[] = allMigrations): Promise<string | undefined> {
  const done = await appliedMigrations(db);
  const last = done.at(-1);
  if (!last) return undefined;
  const m = list.find((x) => x.name === last);
  if (!m) throw new Error(`Cannot revert unknown migration ${last}`);
  await db.transaction().execute(async (trx) => {
    await m.down(trx);
    await trx.deleteFrom('folio_migrations').where('name', '=', last).execute();
  });
  return last;
}

/**
 * SQLite's own check of its file ('ok' when sound). PostgreSQL has no equivalent a query can run
 * everywhere (amcheck is an extension, data checksums an initdb choice): it refuses rather than answer 'ok'.
 */
export async function integrityCheck(db: Db): Promise<string> {
  if (dialectOf(db) !== 'sqlite') throw new Error('integrity_check is SQLite\'s; on PostgreSQL check the database with its own tools (pg_amcheck).');
  const r = await sql<{ integrity_check: string }>`pragma integrity_check`.execute(db);
  return r.rows.map((x) => x.integrity_check).join('; ');
}
