// kysely's dialect for the desktop store, split over two connections to the one SQLite file (WAL):
// - reads outside a transaction run on the main thread's connection, synchronously, as kysely's own SQLite
//   driver runs everything (a read takes microseconds and never waits for the disk to take a write);
// - every write and every transaction runs on the writer thread's connection (sqliteWriter.cjs), one at
//   a time in the order asked.
// A disk that stops taking writes (frozen, a stalled network drive) then blocks the writer thread, not the
// main one: lists, documents and pages keep answering, and once the writer has been stuck on one statement
// for stallMs, every write waiting for it (and every new one) fails at once with StorageUnavailableError,
// which the API answers with 503 and Retry-After. Nothing is half-written: a write that fails that way was
// never sent to SQLite; the statement the writer is stuck on finishes (or fails) when the disk answers.
import { Worker } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';
import type BetterSqlite3 from 'better-sqlite3';
import {
  CompiledQuery,
  SelectQueryNode,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
} from 'kysely';
import { StorageUnavailableError } from '../domain/errors.ts';

export const WRITER_SCRIPT = fileURLToPath(new URL('./sqliteWriter.cjs', import.meta.url));

/**
 * How long one statement may hold the writer before the store counts the disk as not answering: twice the
 * busy timeout, so that a lock held by another process ends as SQLITE_BUSY (its own 503) before it counts
 * as a stall. test/frozenDisk.test.ts runs with a shorter limit (FOLIO_DISK_STALL_MS).
 */
const DEFAULT_STALL_MS = 10_000;

export interface SplitSqliteConfig {
  file: string;
  /** The main thread's connection: reads outside transactions, and the pragmas of store/db.ts. */
  reader: { prepare(sql: string): BetterSqlite3.Statement; close(): void };
  busyTimeoutMs: number;
  stallMs?: number;
}

interface Pending {
  resolve(result: WriterReply): void;
  reject(err: Error): void;
}

interface WriterReply {
  id: number;
  rows: Record<string, unknown>[];
  changes?: number;
  lastInsertRowid?: number;
  error?: { name?: string; message?: string; code?: string };
}

/** The writer thread's end of the channel: one statement at a time, answered in order. */
class WriterThread {
  readonly #worker: Worker;
  readonly #pending = new Map<number, Pending>();
  #nextId = 1;
  /** When the statement the writer is on was sent (undefined while it has nothing to do). */
  #busySince: number | undefined;
  #exited: Error | undefined;

  constructor(file: string, busyTimeoutMs: number) {
    this.#worker = new Worker(WRITER_SCRIPT, { workerData: { file, busyTimeoutMs } });
    // Idle, the thread keeps no process alive (a test that forgets to close its store still exits).
    this.#worker.unref();
    this.#worker.on('message', (reply: WriterReply) => this.#settle(reply));
    this.#worker.on('error', (err) => this.#fail(err));
    this.#worker.on('exit', (code) => this.#fail(new Error(`the SQLite writer thread ended (exit code ${code})`)));
  }

  /** How long the writer has been on its current statement, in ms (0 when idle). */
  busyFor(now = Date.now()): number {
    return this.#busySince === undefined ? 0 : now - this.#busySince;
  }

  run(sql: string, parameters: readonly unknown[]): Promise<WriterReply> {
    if (this.#exited) return Promise.reject(this.#exited);
    const id = this.#nextId++;
    return new Promise<WriterReply>((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      if (this.#pending.size === 1) this.#worker.ref();
      this.#busySince = Date.now();
      this.#worker.postMessage({ id, sql, parameters });
    });
  }

  #settle(reply: WriterReply): void {
    const pending = this.#pending.get(reply.id);
    this.#pending.delete(reply.id);
    this.#busySince = this.#pending.size ? Date.now() : undefined;
    if (!this.#pending.size) this.#worker.unref();
    if (!pending) return;
    if (reply.error) {
      const err = Object.assign(new Error(reply.error.message ?? 'SQLite failed'), { name: reply.error.name ?? 'SqliteError', code: reply.error.code });
      pending.reject(err);
    } else {
      pending.resolve(reply);
    }
  }

  #fail(err: Error): void {
    this.#exited ??= err;
    for (const pending of this.#pending.values()) pending.reject(err);
    this.#pending.clear();
    this.#busySince = undefined;
  }

  async close(): Promise<void> {
    if (this.#exited) return;
    this.#worker.ref();
    const exited = new Promise<void>((resolve) => this.#worker.once('exit', () => resolve()));
    this.#worker.postMessage({ close: true });
    await exited;
  }
}

/** Structured cloning hands Buffers back as Uint8Arrays; the rest of Folio reads blobs as Buffers. */
function withBuffers(rows: Record<string, unknown>[]): Record<string, unknown>[] {
  for (const row of rows) {
    for (const key in row) {
      const value = row[key];
      if (value instanceof Uint8Array && !Buffer.isBuffer(value)) row[key] = Buffer.from(value.buffer, value.byteOffset, value.byteLength);
    }
  }
  return rows;
}

function resultOf<R>(reply: WriterReply): QueryResult<R> {
  if (reply.changes === undefined) return { rows: withBuffers(reply.rows) as R[] };
  return {
    rows: withBuffers(reply.rows) as R[],
    numAffectedRows: BigInt(reply.changes),
    insertId: reply.lastInsertRowid === undefined || reply.lastInsertRowid === null ? undefined : BigInt(reply.lastInsertRowid),
  };
}

/** One turn at the writer at a time (a transaction holds it from begin to commit); a stalled writer refuses waiters. */
class WriterTurns {
  #held = false;
  readonly #waiting: { resolve(): void; reject(err: Error): void }[] = [];
  readonly #timer: NodeJS.Timeout;

  constructor(
    private readonly writer: WriterThread,
    private readonly stallMs: number,
  ) {
    this.#timer = setInterval(() => this.#refuseIfStalled(), Math.max(50, Math.min(1000, stallMs / 4)));
    this.#timer.unref();
  }

  #stalled(): StorageUnavailableError | undefined {
    const busy = this.writer.busyFor();
    if (busy < this.stallMs) return undefined;
    return new StorageUnavailableError('disk', `the disk has not taken a write for ${Math.round(busy / 1000)} s`);
  }

  #refuseIfStalled(): void {
    const stalled = this.#waiting.length ? this.#stalled() : undefined;
    if (!stalled) return;
    for (const waiter of this.#waiting.splice(0)) waiter.reject(stalled);
  }

  async take(): Promise<void> {
    const stalled = this.#stalled();
    if (stalled) throw stalled;
    if (!this.#held) {
      this.#held = true;
      return;
    }
    await new Promise<void>((resolve, reject) => this.#waiting.push({ resolve, reject }));
  }

  give(): void {
    const next = this.#waiting.shift();
    if (next) next.resolve();
    else this.#held = false;
  }

  stop(): void {
    clearInterval(this.#timer);
  }
}

/** A connection kysely acquires: on the reader until a transaction begins on it, then on the writer. */
class SplitConnection implements DatabaseConnection {
  inTransaction = false;

  constructor(
    private readonly driver: SplitSqliteDriver,
  ) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (this.inTransaction) return resultOf<R>(await this.driver.writer.run(query.sql, query.parameters));
    const stmt = this.driver.reader.prepare(query.sql);
    if (stmt.readonly && stmt.reader) return { rows: stmt.all(query.parameters as unknown[]) as R[] };
    await this.driver.turns.take();
    try {
      return resultOf<R>(await this.driver.writer.run(query.sql, query.parameters));
    } finally {
      this.driver.turns.give();
    }
  }

  async *streamQuery<R>(query: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    if (!SelectQueryNode.is(query.query)) throw new Error('The SQLite store streams select queries only');
    if (this.inTransaction) {
      for (const row of (await this.executeQuery<R>(query)).rows) yield { rows: [row] };
      return;
    }
    for (const row of this.driver.reader.prepare(query.sql).iterate(query.parameters as unknown[])) yield { rows: [row as R] };
  }
}

class SplitSqliteDriver implements Driver {
  readonly reader: SplitSqliteConfig['reader'];
  readonly writer: WriterThread;
  readonly turns: WriterTurns;

  constructor(config: SplitSqliteConfig) {
    this.reader = config.reader;
    this.writer = new WriterThread(config.file, config.busyTimeoutMs);
    this.turns = new WriterTurns(this.writer, config.stallMs ?? DEFAULT_STALL_MS);
  }

  async init(): Promise<void> {}

  /** Released connections, handed out again (kysely acquires one for every query outside a transaction). */
  readonly #free: SplitConnection[] = [];

  async acquireConnection(): Promise<DatabaseConnection> {
    return this.#free.pop() ?? new SplitConnection(this);
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    const conn = connection as SplitConnection;
    await this.turns.take();
    try {
      await this.writer.run('begin', []);
    } catch (err) {
      this.turns.give();
      throw err;
    }
    conn.inTransaction = true;
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await this.#end(connection as SplitConnection, 'commit');
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await this.#end(connection as SplitConnection, 'rollback');
  }

  /** A failed commit leaves SQLite's transaction open: kysely then rolls back, so the turn is kept until that ends. */
  async #end(conn: SplitConnection, command: 'commit' | 'rollback'): Promise<void> {
    try {
      await this.writer.run(command, []);
    } catch (err) {
      if (command === 'commit') throw err;
      conn.inTransaction = false;
      this.turns.give();
      throw err;
    }
    conn.inTransaction = false;
    this.turns.give();
  }

  // Savepoints exist only inside a transaction, so they run on the writer like the rest of it.
  async savepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(savepointCommand('savepoint', name));
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(savepointCommand('rollback to', name));
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(savepointCommand('release', name));
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    const conn = connection as SplitConnection;
    if (!conn.inTransaction && this.#free.length < 16) this.#free.push(conn);
  }

  async destroy(): Promise<void> {
    this.turns.stop();
    await this.writer.close();
    this.reader.close();
  }
}

const savepointCommand = (command: string, name: string) => CompiledQuery.raw(`${command} "${name.replace(/"/g, '""')}"`);

/** The desktop store's dialect: kysely's SQLite adapter, compiler and introspector over the split driver. */
export function splitSqliteDialect(config: SplitSqliteConfig): Dialect {
  return {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => new SplitSqliteDriver(config),
    createQueryCompiler: () => new SqliteQueryCompiler(),
    createIntrospector: (db: Kysely<any>) => new SqliteIntrospector(db),
  };
}
