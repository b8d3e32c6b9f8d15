// The SQLite writer thread (store/sqliteDriver.ts starts it): every write and every transaction of the
// desktop store runs here, on a connection of its own, so that a disk that stops answering (frozen, a
// stalled network drive, a dying USB stick) blocks this thread and never the main one: the API keeps
// answering reads, and writes waiting for this thread answer 503 (sqliteDriver.ts's stall watchdog).
// Plain CommonJS without imports of ours, like tesseractWorker.cjs: it starts in a few milliseconds
// from the sources and compiled alike (scripts/build-main.mjs copies it beside the bundles).
'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const Database = require('better-sqlite3');

const db = new Database(workerData.file);
// The same settings as the main thread's connection (store/db.ts); WAL mode is the file's, already set.
db.pragma('synchronous = NORMAL');
db.pragma('foreign_keys = ON');
db.pragma(`busy_timeout = ${Number(workerData.busyTimeoutMs) || 5000}`);

/** Prepared statements by SQL text, as store/db.ts keeps them on the main thread. */
const statements = new Map();
function prepare(sqlText) {
  let stmt = statements.get(sqlText);
  if (!stmt) {
    stmt = db.prepare(sqlText);
    if (statements.size >= 1000) statements.clear();
    statements.set(sqlText, stmt);
  }
  return stmt;
}

/** Structured cloning turns Buffers into Uint8Arrays; better-sqlite3 binds Buffers as blobs. */
const asBuffer = (value) => (value instanceof Uint8Array && !Buffer.isBuffer(value) ? Buffer.from(value.buffer, value.byteOffset, value.byteLength) : value);

/**
 * After a commit, a read here takes one of the WAL index's reader slots at the new snapshot. The main
 * thread's reads then share that slot and write nothing to the -shm file; without it the first read
 * after a commit writes its own slot there, and a frozen disk blocks even that memory write (the kernel
 * write-protects a frozen file system's mapped pages).
 */
const snapshot = db.prepare('select 1 from sqlite_schema limit 1');
function markSnapshot() {
  snapshot.get();
}

parentPort.on('message', (message) => {
  if (message.close) {
    statements.clear();
    db.close();
    parentPort.close();
    return;
  }
  const { id, sql, parameters } = message;
  try {
    const stmt = prepare(sql);
    const params = parameters.map(asBuffer);
    if (stmt.reader) {
      parentPort.postMessage({ id, rows: stmt.all(params) });
    } else {
      const { changes, lastInsertRowid } = stmt.run(params);
      if (!db.inTransaction) markSnapshot();
      parentPort.postMessage({ id, changes, lastInsertRowid: typeof lastInsertRowid === 'bigint' ? Number(lastInsertRowid) : lastInsertRowid, rows: [] });
    }
  } catch (err) {
    // SqliteError's code (SQLITE_CONSTRAINT_UNIQUE, SQLITE_FULL, ...) is what store/errors.ts translates.
    parentPort.postMessage({ id, error: { name: err && err.name, message: err && err.message, code: err && err.code } });
  }
});
