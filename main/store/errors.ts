// The store speaks of broken constraints in the domain's words (domain/errors.ts), not its driver's:
// above main/store nothing knows SQLite's error codes, and the PostgreSQL store translates its own
// (23505, 23503, ...) into the same errors (translatePgError). Applied where kysely runs queries, so every
// read and write of every repository (and a transaction's commit) is covered without each catching on its own.
// An outage (PostgreSQL down or restarting, a full or read-only disk, a lock held past the busy timeout)
// leaves it as one StorageUnavailableError, which the API answers with 503 and Retry-After (storageFault).
import type { CompiledQuery, DatabaseConnection, Dialect, Driver, QueryCompiler, QueryResult, TransactionSettings } from 'kysely';
import { IntegrityViolation, ReferenceViolation, StorageUnavailableError, UniqueViolation } from '../domain/errors.ts';

/** Node's codes of a file system that cannot take a write now: the blob store's, multer's, SQLite's files. */
const DISK_CODES: Record<string, string> = {
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  EROFS: 'the file system is read-only',
  EIO: 'the disk reported an input/output error',
};

/** Node's codes of a network connection to the database that failed or was never made. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN']);

/** node-postgres's words for a connection it lost or could not make (these errors carry no code). */
const PG_CONNECTION_MESSAGE = /Connection terminated|Connection ended unexpectedly|timeout exceeded when trying to connect|connection error and is not queryable|Client was closed and is not queryable|the database system is (starting up|shutting down|in recovery mode)|terminating connection due to/i;

const codeOf = (err: unknown): string | undefined => {
  const code = (err as { code?: unknown })?.code;
  return typeof code === 'string' ? code : undefined;
};

/** A file system error of a disk that is full, read-only or failing, as a StorageUnavailableError. */
export function diskFault(err: unknown): StorageUnavailableError | undefined {
  if (err instanceof StorageUnavailableError) return err;
  const reason = DISK_CODES[codeOf(err) ?? ''];
  return reason ? new StorageUnavailableError('disk', reason, { cause: err }) : undefined;
}

/**
 * Any error of the storage (SQLite, PostgreSQL, the file system) that says it is unavailable rather than
 * that the request was wrong, as a StorageUnavailableError; undefined for every other error.
 * - SQLite: SQLITE_FULL, SQLITE_IOERR*, SQLITE_READONLY*, SQLITE_CANTOPEN (the disk), SQLITE_BUSY* (a lock
 *   held past busy_timeout: the database);
 * - PostgreSQL: SQLSTATE class 08 (connection), 57P01-57P03 (shut down, restarting), 53300 (too many
 *   connections), 53100 (its disk is full), 58xxx (its system), 25006 (a read-only standby), and the
 *   network's and node-postgres's own words for a connection lost or refused, a pool that timed out;
 * - the file system: ENOSPC, EDQUOT, EROFS, EIO.
 */
export function storageFault(err: unknown): StorageUnavailableError | undefined {
  const disk = diskFault(err);
  if (disk) return disk;
  if (!(err instanceof Error)) return undefined;
  const code = codeOf(err) ?? '';
  const unavailable = (what: 'database' | 'disk', reason: string) => new StorageUnavailableError(what, reason, { cause: err });
  if (code.startsWith('SQLITE_')) {
    if (code === 'SQLITE_FULL') return unavailable('disk', 'the disk is full');
    if (code.startsWith('SQLITE_IOERR')) return unavailable('disk', 'the disk reported an input/output error');
    if (code.startsWith('SQLITE_READONLY')) return unavailable('disk', 'the database file cannot be written');
    if (code.startsWith('SQLITE_CANTOPEN')) return unavailable('disk', 'the database file cannot be opened');
    if (code.startsWith('SQLITE_BUSY')) return unavailable('database', 'another process holds the database locked');
    return undefined;
  }
  if (NETWORK_CODES.has(code)) return unavailable('database', `the connection failed: ${code}`);
  if (/^[0-9A-Z]{5}$/.test(code)) {
    if (code.startsWith('08')) return unavailable('database', 'the connection failed');
    if (code === '57P01' || code === '57P02' || code === '57P03') return unavailable('database', 'the database server is shutting down or starting up');
    if (code === '53300') return unavailable('database', 'the database server has no free connection');
    if (code === '53100') return unavailable('disk', "the database server's disk is full");
    if (code.startsWith('58')) return unavailable('database', 'the database server reported a system error');
    if (code === '25006') return unavailable('database', 'the database server is read-only');
    return undefined;
  }
  if (PG_CONNECTION_MESSAGE.test(err.message)) return unavailable('database', 'the connection was lost or could not be made');
  return undefined;
}

/** SQLite's message when a failed statement already rolled its transaction back (SQLITE_FULL does, and some IOERRs). */
const NO_TRANSACTION = /no transaction is active/;

/** better-sqlite3's SqliteError: `code` names the extended result code. */
interface DriverError extends Error {
  code?: unknown;
}

/**
 * SQLite's constraint errors as domain errors, an outage as StorageUnavailableError (storageFault); any
 * other error is returned as it is. The message's
 * tail names the columns ("UNIQUE constraint failed: users.email, users.name"); foreign key errors
 * name nothing.
 */
export function translateSqliteError(err: unknown): unknown {
  const e = err as DriverError;
  if (!(e instanceof Error) || typeof e.code !== 'string' || !e.code.startsWith('SQLITE_CONSTRAINT')) return storageFault(err) ?? err;
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
 * already exists."), a NOT NULL's from the error's column; an outage as StorageUnavailableError
 * (storageFault). Any other error is returned as it is.
 */
export function translatePgError(err: unknown): unknown {
  const e = err as PgDriverError;
  if (!(e instanceof Error) || typeof e.code !== 'string' || !e.code.startsWith('23')) return storageFault(err) ?? err;
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
    // A pool that cannot connect (the server is down) or waited too long for a free connection.
    let conn: DatabaseConnection;
    try {
      conn = await this.driver.acquireConnection();
    } catch (err) {
      throw this.translate(err);
    }
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

  /**
   * kysely rolls back after the transaction's callback or commit threw, and a rollback that throws would
   * replace that error: when SQLite already rolled back by itself (a full disk does), the error the log
   * must show is the first one, not "cannot rollback - no transaction is active". A rollback that fails
   * otherwise still throws.
   */
  async rollbackTransaction(conn: DatabaseConnection): Promise<void> {
    try {
      await this.driver.rollbackTransaction(this.inner(conn));
    } catch (err) {
      if (err instanceof Error && NO_TRANSACTION.test(err.message)) return;
      throw this.translate(err);
    }
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
