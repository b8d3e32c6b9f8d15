// Where the core's store comes from: SQLite in the data folder (the default, one machine), or the team
// server's PostgreSQL when the configuration names a database (FOLIO_DATABASE_URL). Either way the schema
// is brought up to date before anything reads it.
import path from 'node:path';
import type { Config } from '../config.ts';
import { ensurePrivateFile } from '../dataPermissions.ts';
import { migrateUp, openStore, type Store } from './db.ts';
import { migratePgStore, openPgStore } from './pgStore.ts';

export async function openStoreFor(config: Pick<Config, 'dataDir' | 'databaseUrl'>): Promise<Store> {
  const store = config.databaseUrl ? openPgStore(config.databaseUrl) : openSqliteFile(config.dataDir);
  try {
    if (store.dialect === 'postgres') await migratePgStore(store);
    else await migrateUp(store.db);
    return store;
  } catch (err) {
    await store.close();
    throw err;
  }
}

function openSqliteFile(dataDir: string) {
  const file = path.join(dataDir, 'folio.db');
  // Other users of this machine read nothing of it, from its first byte.
  ensurePrivateFile(file);
  return openStore(file);
}
