// Schema migrations on a real SQLite file: each one applied alone, reverted and applied again, with the
// store's WAL mode and foreign keys in force; and a database from a newer Folio refused at start-up.
import BetterSqlite3 from 'better-sqlite3';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { appliedMigrations, integrityCheck, migrateDownOne, migrateUp, openStore, type OpenedStore } from '../../main/store/db.ts';
import { migrations } from '../../main/store/migrations/index.ts';
import { loadConfig } from '../../main/config.ts';
import { openCore } from '../../main/core.ts';
import { tempDir } from '../helpers/testServer.ts';
import { runFolio } from '../helpers/processes.ts';

/** The schema as data (columns, keys, indexes per table), comparable whatever text ALTER TABLE left in sqlite_master. */
function schemaOf(sqlite: BetterSqlite3.Database) {
  const tables = sqlite
    .prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name")
    .pluck()
    .all() as string[];
  return Object.fromEntries(
    tables.map((t) => [
      t,
      {
        columns: sqlite.pragma(`table_info("${t}")`),
        foreignKeys: sqlite.pragma(`foreign_key_list("${t}")`),
        indexes: (sqlite.pragma(`index_list("${t}")`) as { name: string; unique: number }[])
          .map((ix) => ({ name: ix.name, unique: ix.unique, columns: sqlite.pragma(`index_info("${ix.name}")`) }))
          .sort((a, b) => a.name.localeCompare(b.name)),
      },
    ]),
  );
}

function expectHealthy(store: OpenedStore) {
  expect(store.sqlite.pragma('foreign_keys', { simple: true })).toBe(1);
  expect(store.sqlite.pragma('journal_mode', { simple: true })).toBe('wal');
  expect(store.sqlite.pragma('foreign_key_check')).toEqual([]);
}

let store: OpenedStore | undefined;
afterEach(async () => {
  await store?.close();
  store = undefined;
});

describe('migrations', () => {
  it('have unique names in ascending order', () => {
    const names = migrations.map((m) => m.name);
    expect(names.length).toBeGreaterThan(0);
    expect(new Set(names).size).toBe(names.length);
    expect([...names].sort()).toEqual(names);
    for (const name of names) expect(name).toMatch(/^\d{4}_[a-z0-9_]+$/);
  });

  it('apply one at a time on a fresh file, and each reverts and applies again cleanly', async () => {
    const file = path.join(tempDir(), 'folio.db');
    store = openStore(file);
    expect(await appliedMigrations(store.db)).toEqual([]);
    const before = [schemaOf(store.sqlite)];

    for (const [i, m] of migrations.entries()) {
      expect(await migrateUp(store.db, m.name), `up ${m.name}`).toEqual([m.name]);
      const after = schemaOf(store.sqlite);
      expect(after, `${m.name} changes the schema`).not.toEqual(before[i]);
      expect(await appliedMigrations(store.db)).toEqual(migrations.slice(0, i + 1).map((x) => x.name));
      expectHealthy(store);
      expect(await integrityCheck(store.db)).toBe('ok');

      expect(await migrateDownOne(store.db), `down ${m.name}`).toBe(m.name);
      expect(schemaOf(store.sqlite), `${m.name} down restores the schema before it`).toEqual(before[i]);
      expect(await migrateUp(store.db, m.name)).toEqual([m.name]);
      expect(schemaOf(store.sqlite), `${m.name} up again`).toEqual(after);
      before.push(after);
    }
    expect(await migrateUp(store.db), 'nothing left to apply').toEqual([]);

    // The whole chain down to an empty database, then up again to the same schema.
    for (const m of [...migrations].reverse()) expect(await migrateDownOne(store.db)).toBe(m.name);
    expect(await migrateDownOne(store.db)).toBeUndefined();
    expect(schemaOf(store.sqlite)).toEqual(before[0]);
    expect(await migrateUp(store.db)).toEqual(migrations.map((m) => m.name));
    expect(schemaOf(store.sqlite)).toEqual(before.at(-1));
    expectHealthy(store);
  });

  it('leave a schema whose foreign keys all point at existing tables and columns', async () => {
    store = openStore(path.join(tempDir(), 'folio.db'));
    await migrateUp(store.db);
    const schema = schemaOf(store.sqlite);
    // The tables of the first issue, which every later migration keeps.
    for (const t of ['users', 'auth_tokens', 'projects', 'project_members', 'label_sets', 'categories', 'labels', 'documents', 'annotation_sets', 'annotations', 'missing_annotations']) {
      expect(schema, t).toHaveProperty(t);
    }
    for (const [table, { foreignKeys }] of Object.entries(schema)) {
      for (const fk of foreignKeys as { table: string; to: string }[]) {
        const target = schema[fk.table];
        expect(target, `${table} references ${fk.table}`).toBeDefined();
        expect((target.columns as { name: string }[]).map((c) => c.name), `${table} -> ${fk.table}.${fk.to}`).toContain(fk.to);
      }
    }
  });

  it('keep WAL mode in the file and records across a reopen, with nothing to apply the second time', async () => {
    const dataDir = tempDir();
    const config = loadConfig({}, { dataDir, port: 0 });
    const core = await openCore(config);
    const user = await core.services.users.create('keeper@test.local', 'keeper-password');
    await core.services.projects.create(user, { name: 'Kept' });
    await core.close();

    const raw = new BetterSqlite3(path.join(dataDir, 'folio.db'));
    expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    raw.close();

    store = openStore(path.join(dataDir, 'folio.db'));
    expect(await migrateUp(store.db)).toEqual([]);
    expect(store.sqlite.prepare('select name from projects').pluck().all()).toEqual(['Kept']);
  });
});

describe('a database written by a newer Folio', () => {
  const future = '9999_from_a_newer_folio';

  async function dataDirFromTheFuture(): Promise<string> {
    const dataDir = tempDir();
    const core = await openCore(loadConfig({}, { dataDir, port: 0 }));
    await core.close();
    const raw = new BetterSqlite3(path.join(dataDir, 'folio.db'));
    raw.prepare('insert into folio_migrations (name, applied_at) values (?, ?)').run(future, new Date().toISOString());
    raw.close();
    return dataDir;
  }

  it('makes openCore fail with a message naming the unknown migration, and changes nothing', async () => {
    const dataDir = await dataDirFromTheFuture();
    const config = loadConfig({}, { dataDir, port: 0 });
    await expect(openCore(config)).rejects.toThrow(`The database was written by a newer Folio (migrations ${future} are unknown to this version).`);

    store = openStore(path.join(dataDir, 'folio.db'));
    expect(await appliedMigrations(store.db)).toEqual([...migrations.map((m) => m.name), future].sort());
    await store.close();
    store = undefined;
    // The failed start released the one-instance lock: an older copy can be started once the row is gone.
    const raw = new BetterSqlite3(path.join(dataDir, 'folio.db'));
    raw.prepare('delete from folio_migrations where name = ?').run(future);
    raw.close();
    const core = await openCore(config);
    await core.close();
  });

  it('makes `folio serve` exit non-zero with that message', async () => {
    const dataDir = await dataDirFromTheFuture();
    const r = await runFolio(['serve'], { dataDir });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('The database was written by a newer Folio');
    expect(r.stderr).toContain(future);
    expect(r.stdout).not.toContain('Folio is running');
  });
});
