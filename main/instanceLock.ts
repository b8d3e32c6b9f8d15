// One Folio per data folder. The lock is an exclusive SQLite lock on <data>/folio.lock, held by the
// operating system for as long as the process lives, so a killed process never leaves a stale lock.
import BetterSqlite3 from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';

export class InstanceLockedError extends Error {}

export interface InstanceLock {
  /** Records where this instance listens, for the message a second instance prints. */
  describe(info: { url: string }): void;
  release(): void;
}

export function acquireInstanceLock(dataDir: string): InstanceLock {
  const file = path.join(dataDir, 'folio.lock');
  const infoFile = path.join(dataDir, 'folio.instance.json');
  const db = new BetterSqlite3(file, { timeout: 0 });
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('create table if not exists holder (pid integer)');
    // A write takes the exclusive lock; with locking_mode EXCLUSIVE it is kept until close.
    db.exec('begin exclusive; delete from holder; insert into holder values (' + process.pid + '); commit;');
  } catch (err) {
    db.close();
    let holder = '';
    try {
      const info = JSON.parse(fs.readFileSync(infoFile, 'utf8')) as { pid?: number; url?: string };
      holder = ` (process ${info.pid}${info.url ? `, serving ${info.url}` : ''})`;
    } catch {
      /* no description written yet */
    }
    const reason = (err as { code?: string }).code === 'SQLITE_BUSY' ? '' : ` [${(err as Error).message}]`;
    throw new InstanceLockedError(
      `Another Folio is already using the data folder ${dataDir}${holder}. Stop it first, or start this one with another FOLIO_DATA_DIR.${reason}`,
    );
  }
  fs.writeFileSync(infoFile, JSON.stringify({ pid: process.pid, startedAt: new Date().toISOString() }));
  return {
    describe(info) {
      fs.writeFileSync(infoFile, JSON.stringify({ pid: process.pid, url: info.url, startedAt: new Date().toISOString() }));
    },
    release() {
      try {
        fs.rmSync(infoFile, { force: true });
      } finally {
        db.close();
      }
    },
  };
}
