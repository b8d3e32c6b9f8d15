// The store speaks of broken constraints in the domain's words (domain/errors.ts), not its driver's:
// above main/store nothing knows SQLite's error codes, and the PostgreSQL store translates its own
// (23505, 23503, ...) into the same errors (translatePgError). Applied where kysely runs queries, so every
// read and write of every repository (and a transaction's commit) is covered without each catching on its own.
import type { CompiledQuery, DatabaseConnection, Dialect, Driver, QueryCompiler, QueryResult, TransactionSettings } from 'kysely';
import { IntegrityViolation, ReferenceViolation, UniqueViolation } from '../domain/errors.ts';

/** better-sqlite3's SqliteError: `code` names the extended result code. */
interface DriverError extends Error {
  code?: unknown;
}

/**
 * SQLite's constraint errors as domain errors; any other error is returned as it is. The message's
 * tail names the columns ("UNIQUE constraint failed: users.email, users.name"); foreign key errors
 * name nothing.
 */
export function translateSqliteError(err: unknown): unknown {
  const e = err as DriverError;
  if (!(e instanceof Error) || typeof e.code !== 'string' || !e.code.startsWith('SQLITE_CONSTRAINT')) return err;
  const named = /constraint failed: (.*)$/.exec(e.message)?.[1] ?? '';
  const columns = named ? named.split(',').map((c) => c.trim()) : [];
  switch (e.code) {
    case 'SQLITE_CONSTRAINT_UNIQUE':
    case 'SQLITE_CONSTRAINT_PRIMARYKEY':
      return new UniqueViolation(columns, { cause: err });
    case 'SQLITE_CONSTRAINT_FOREIGNKEY':
      return new ReferenceViolation({ cause: err });
    case 'SQLITE_CONSTRAINT_CHECK':
      return new IntegrityViolation('check', columns, { cause: err });
    case 'SQLITE_CONSTRAINT_NOTNULL':
      return new IntegrityViolation('not-null', columns, { cause: err });
    default:
      return err;
  }
}

/** node-postgres's DatabaseError: SQLSTATE in `code`, and the table, column and detail it names. */
interface PgDriverError extends Error {
  code?: unknown;
  table?: string;
  column?: string;
  detail?: string;
}

/**
 * PostgreSQL's constraint errors (SQLSTATE class 23) as the same domain errors as SQLite's, their
 * columns named "table.column" as SQLite names them: a unique key's from the detail ("Key (email)=(...)
 * already exists."), a NOT NULL's from the error's column. Any other error is returned as it is.
 */
export function translatePgError(err: unknown): unknown {
  const e = err as PgDriverError;
  if (!(e instanceof Error) || typeof e.code !== 'string' || !e.code.startsWith('23')) return err;
  const qualified = (columns: string[]) => columns.map((c) => (e.table ? `${e.table}.${c}` : c));
  switch (e.code) {
    case '23505': {
      const key = /^Key \((.*?)\)=/.exec(e.detail ?? '')?.[1];
      return new UniqueViolation(key ? qualified(key.split(',').map((c) => c.trim().replace(/^"|"$/g, ''))) : [], { cause: err });
    }
    case '23503':
      return new ReferenceViolation({ cause: err });
    case '23514':
      return new IntegrityViolation('check', [], { cause: err });
    case '23502':
      return new IntegrityViolation('not-null', e.column ? qualified([e.column]) : [], { cause: err });
    default:
      return err;
  }
}

type Translate = (err: unknown) => unknown;

function translatingConnection(inner: DatabaseConnection, translate: Translate): DatabaseConnection {
  return {
    // async, so that a driver throwing synchronously (better-sqlite3 does) rejects translated too.
    async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
      try {
        return await inner.executeQuery<R>(query);
      } catch (err) {
        throw translate(err);
      }
    },
    async *streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
      try {
        yield* inner.streamQuery<R>(query, chunkSize);
      } catch (err) {
        throw translate(err);
      }
    },
  };
}

/**
 * The driver's connections run queries through `translate`; the driver's own methods (transactions,
 * savepoints, release) get the driver's connection back, since a driver may call private methods on it.
 */
class TranslatingDriver implements Driver {
  readonly #wrapped = new WeakMap<DatabaseConnection, DatabaseConnection>();
  readonly #inner = new WeakMap<DatabaseConnection, DatabaseConnection>();

  constructor(
    private readonly driver: Driver,
    private readonly translate: Translate,
  ) {}

  init(): Promise<void> {
    return this.driver.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const conn = await this.driver.acquireConnection();
    let wrapped = this.#wrapped.get(conn);
    if (!wrapped) {
      wrapped = translatingConnection(conn, this.translate);
      this.#wrapped.set(conn, wrapped);
      this.#inner.set(wrapped, conn);
    }
    return wrapped;
  }

  private inner(conn: DatabaseConnection): DatabaseConnection {
    return this.#inner.get(conn) ?? conn;
  }

  private async run(fn: () => Promise<void>): Promise<void> {
    try {
      await fn();
    } catch (err) {
      throw this.translate(err);
    }
  }

  beginTransaction(conn: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return this.run(() => this.driver.beginTransaction(this.inner(conn), settings));
  }

  // A deferred constraint fails at commit.
  commitTransaction(conn: DatabaseConnection): Promise<void> {
    return this.run(() => this.driver.commitTransaction(this.inner(conn)));
  }

  rollbackTransaction(conn: DatabaseConnection): Promise<void> {
    return this.driver.rollbackTransaction(this.inner(conn));
  }

  // SQLite's and PostgreSQL's drivers both have savepoints.
  savepoint(conn: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    return this.driver.savepoint!(this.inner(conn), name, compile);
  }

  rollbackToSavepoint(conn: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    return this.driver.rollbackToSavepoint!(this.inner(conn), name, compile);
  }

  releaseSavepoint(conn: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    return this.driver.releaseSavepoint!(this.inner(conn), name, compile);
  }

  releaseConnection(conn: DatabaseConnection): Promise<void> {
    return this.driver.releaseConnection(this.inner(conn));
  }

  destroy(): Promise<void> {
    return this.driver.destroy();
  }
}

/** `dialect` with its driver's errors passed through `translate` (translateSqliteError, translatePgError). */
export function translatingErrors(dialect: Dialect, translate: Translate): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createDriver: () => new TranslatingDriver(dialect.createDriver(), translate),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createIntrospector: (db) => dialect.createIntrospector(db),
  };
}
