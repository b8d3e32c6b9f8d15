// Which database a kysely instance speaks to. One schema and one set of repositories serve both stores
// (SQLite in the data folder, PostgreSQL for a team server); the few places where their SQL differs
// (column types in the migrations, full-text search, case-insensitive ordering) ask here.
import { PostgresAdapter, type Kysely } from 'kysely';

export type DialectName = 'sqlite' | 'postgres';

/** The dialect behind `db` (also inside a transaction: it shares its executor's adapter). */
export function dialectOf(db: Kysely<any>): DialectName {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

export const isPostgres = (db: Kysely<any>): boolean => dialectOf(db) === 'postgres';
