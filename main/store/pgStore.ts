// The team server's store: PostgreSQL behind kysely (PostgresDialect over a node-postgres pool), the same
// schema (the migrations describe both: migrations/columns.ts) and the same repositories as SQLite. Any
// number of processes on any machines open it at once; what SQLite gets from being one file in one
// folder is done here in the database:
// - migrations run under an advisory lock, so processes starting together migrate once (migratePgStore);
// - values come back in the shapes the repositories know from SQLite: bigint counts and numeric sums as
//   numbers, json/jsonb as their text (the codecs of schema.ts parse it, as they parse SQLite's text);
//   booleans come back as booleans, which the codecs take as well;
// - the change stamp (changeStamp.ts) is the database's transaction snapshot, see pgChangeStamp;
// - the secret that keys API tokens lives in the database (folio_secret), so a token or session made by
//   one API process is valid in every other.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { Kysely, PostgresDialect, sql } from 'kysely';
import type { Database } from './schema.ts';
import { migrateUp, type Db, type Store } from './db.ts';
import { translatePgError, translatingErrors } from './errors.ts';

export interface PgStore extends Store {
  dialect: 'postgres';
  pool: pg.Pool;
}

// Type OIDs of PostgreSQL's catalogue (pg_type).
const INT8 = 20;
const NUMERIC = 1700;
const JSON_OID = 114;
const JSONB = 3802;

/** node-postgres' parsers, but for the types the repositories expect to see as SQLite gives them. */
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8 || oid === NUMERIC) return (v: string) => Number(v);
    if (oid === JSON_OID || oid === JSONB) return (v: string) => v;
    return pg.types.getTypeParser(oid, format);
  },
} as pg.CustomTypesConfig;

/** How long a request waits for a connection of the pool before it answers that the database is unavailable. */
const CONNECT_TIMEOUT_MS = 5_000;

/** Any constant: the key of the advisory lock that lets one process at a time migrate. */
const MIGRATION_LOCK = 0x466f6c696f; // "Folio"

/**
 * The change stamp on PostgreSQL: the current transaction snapshot (`xmin:xmax:in-progress xids`). Every
 * transaction that writes gets an id, is in progress in every snapshot taken before it ends, and below
 * xmax and out of the in-progress list in every snapshot after: so a commit anywhere always changes the
 * text, and two equal stamps mean nothing committed between them (the contract). It costs one round trip
 * and reads no table. It also moves on writes that change nothing Folio shows (the job queue's
 * bookkeeping, other databases of the cluster), which only costs a cache rebuild.
 *
 * A counter bumped by triggers does not keep the contract: a sequence moves before its transaction
 * commits (a stamp read in between is then equal to the one after the commit, over a change), and a
 * counter row would serialize every writing transaction on one row lock.
 */
async function pgChangeStamp(pool: pg.Pool): Promise<string> {
  // On the pool itself, not through kysely: its errors are translated here (an outage answers 503).
  try {
    const r = await pool.query<{ s: string }>('select pg_current_snapshot()::text as s');
    return r.rows[0].s;
  } catch (err) {
    throw translatePgError(err);
  }
}

/** The shared secret: made by the first process to ask, read by every later one. */
async function loadSharedSecret(db: Db): Promise<Buffer> {
  await sql`insert into folio_secret (id, value) values (1, ${randomBytes(32)}) on conflict (id) do nothing`.execute(db);
  const r = await sql<{ value: Buffer }>`select value from folio_secret where id = 1`.execute(db);
  return r.rows[0].value;
}

/** Opens (lazily: the first query connects) the database at `url` (postgres://...); migratePgStore updates it. */
export function openPgStore(url: string): PgStore {
  // A connection that cannot be made within CONNECT_TIMEOUT_MS (the server unreachable, or every connection
  // busy) fails the request with 503 (store/errors.ts) instead of holding it open without end.
  const pool = new pg.Pool({ connectionString: url, types, max: 10, idleTimeoutMillis: 10_000, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  // An idle connection that fails (the server restarted) must not end the process; the next query reconnects.
  pool.on('error', () => {});
  // Nor one that fails while a request holds it between two queries (the pool listens only to idle ones):
  // the request's next query fails (503), and the pool drops the connection when it is given back.
  pool.on('connect', (client) => client.on('error', () => {}));
  let queries = 0;
  const db = new Kysely<Database>({
    dialect: translatingErrors(new PostgresDialect({ pool }), translatePgError),
    log: (event) => {
      if (event.level === 'query') queries++;
    },
  });
  return {
    db,
    dialect: 'postgres',
    pool,
    changeStamp: () => pgChangeStamp(pool),
    queryCount: () => queries,
    sharedSecret: () => loadSharedSecret(db),
    async close() {
      await db.destroy();
    },
  };
}

/**
 * Brings the schema up to date (migrateUp) while holding an advisory lock, so that processes starting
 * together migrate once; also makes the secret's table, which is the store's own like folio_migrations.
 */
export async function migratePgStore(store: PgStore): Promise<string[]> {
  // One connection holds the session lock while the migrations run on it.
  return store.db.connection().execute(async (conn) => {
    await sql`select pg_advisory_lock(${MIGRATION_LOCK})`.execute(conn);
    try {
      await sql`create table if not exists folio_secret (id integer primary key check (id = 1), value bytea not null)`.execute(conn);
      return await migrateUp(conn);
    } finally {
      await sql`select pg_advisory_unlock(${MIGRATION_LOCK})`.execute(conn);
    }
  });
}
