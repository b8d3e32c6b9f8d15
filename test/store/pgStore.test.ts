// The PostgreSQL store (main/store/pgStore.ts) on a real throwaway cluster: the migrations up from an empty
// database, each down and up again to the same schema; native booleans and JSON through the same codecs as
// SQLite's; the change stamp seen from another connection (a write committed there, even one pending when
// the stamp was read); the token secret shared by two processes' stores; PostgreSQL's constraint errors as
// the domain's; processes starting together migrating once.
import { afterAll, describe, expect, it } from 'vitest';
import { sql, type Kysely } from 'kysely';
import { appliedMigrations, integrityCheck, migrateDownOne, migrateUp } from '../../main/store/db.ts';
import { migrations } from '../../main/store/migrations/index.ts';
import { migratePgStore, openPgStore, type PgStore } from '../../main/store/pgStore.ts';
import { makeRepos, unitOfWork } from '../../main/store/repositories/index.ts';
import { IntegrityViolation, ReferenceViolation, UniqueViolation } from '../../main/domain/errors.ts';
import { tsQuery } from '../../main/store/textSearch.ts';
import { createTestDatabase, postgresAvailable } from '../helpers/postgres.ts';
import { ConfigError, loadConfig } from '../../main/config.ts';

const stores: PgStore[] = [];
afterAll(async () => {
  for (const s of stores) await s.close();
});

const urls = new WeakMap<PgStore, string>();

async function freshStore(migrate = true): Promise<PgStore> {
  const url = await createTestDatabase('pgstore');
  const store = openPgStore(url);
  urls.set(store, url);
  stores.push(store);
  if (migrate) await migratePgStore(store);
  return store;
}

/** The schema as data: columns (type, null, default), constraints and indexes of every table. */
async function schemaOf(db: Kysely<any>) {
  const columns = await sql<Record<string, unknown>>`
    select table_name, column_name, data_type, is_nullable, column_default, is_identity
    from information_schema.columns where table_schema = current_schema() order by table_name, column_name`.execute(db);
  const constraints = await sql<Record<string, unknown>>`
    select conrelid::regclass::text as t, conname, pg_get_constraintdef(oid) as def
    from pg_constraint where connamespace = current_schema()::regnamespace order by 1, 2`.execute(db);
  const indexes = await sql<Record<string, unknown>>`
    select tablename, indexname, indexdef from pg_indexes where schemaname = current_schema() order by 1, 2`.execute(db);
  const functions = await sql<Record<string, unknown>>`
    select proname from pg_proc where pronamespace = current_schema()::regnamespace and proname like 'folio%' order by 1`.execute(db);
  return { columns: columns.rows, constraints: constraints.rows, indexes: indexes.rows, functions: functions.rows };
}

describe.skipIf(!postgresAvailable() && !process.env.CI)('PostgreSQL store', () => {
  it('migrations apply one at a time from an empty database, and each reverts and applies again cleanly', async () => {
    const store = await freshStore(false);
    expect(await appliedMigrations(store.db)).toEqual([]);
    const before = [await schemaOf(store.db)];
    for (const [i, m] of migrations.entries()) {
      expect(await migrateUp(store.db, m.name), `up ${m.name}`).toEqual([m.name]);
      const after = await schemaOf(store.db);
      expect(after, `${m.name} changes the schema`).not.toEqual(before[i]);
      expect(await migrateDownOne(store.db), `down ${m.name}`).toBe(m.name);
      expect(await schemaOf(store.db), `${m.name} down restores the schema before it`).toEqual(before[i]);
      expect(await migrateUp(store.db, m.name)).toEqual([m.name]);
      expect(await schemaOf(store.db), `${m.name} up again`).toEqual(after);
      before.push(after);
    }
    // The whole chain down to an empty database and up again.
    for (const m of [...migrations].reverse()) expect(await migrateDownOne(store.db)).toBe(m.name);
    expect(await schemaOf(store.db)).toEqual(before[0]);
    expect(await migrateUp(store.db)).toEqual(migrations.map((m) => m.name));
    expect(await schemaOf(store.db)).toEqual(before.at(-1));
  });

  it('has native types where SQLite stores 0/1 and JSON text, and the repositories return the same rows', async () => {
    const store = await freshStore();
    const types = await sql<{ table_name: string; column_name: string; data_type: string }>`
      select table_name, column_name, data_type from information_schema.columns
      where table_schema = current_schema() and column_name in ('is_admin', 'spans', 'threshold', 'email', 'id') and table_name in ('users', 'annotations', 'labels')
      order by 1, 2`.execute(store.db);
    expect(types.rows.map((r) => `${r.table_name}.${r.column_name} ${r.data_type}`)).toEqual([
      'annotations.id integer', 'annotations.spans jsonb', 'labels.id integer', 'labels.threshold double precision',
      'users.email USER-DEFINED', 'users.id integer', 'users.is_admin boolean',
    ]);
    const repos = makeRepos(store.db);
    const user = await repos.users.create({ email: 'Mixed@Case.test', passwordHash: 'x', name: 'M', isAdmin: true });
    expect(user.is_admin).toBe(true);
    // citext: emails compare without case, as SQLite's collate nocase does.
    expect((await repos.users.findByEmail('mixed@case.TEST'))?.id).toBe(user.id);
    const project = await repos.projects.create('P', user.id);
    expect(project.ocr_languages).toEqual(['deu', 'eng']);
    expect(project.splitting_enabled).toBe(false);
    const [{ n }] = (await sql<{ n: number }>`select count(*) as n from users`.execute(store.db)).rows;
    expect(n).toBe(1);
  });

  it('a change stamp read on one connection moves with a write committed on another, even one pending when it was read', async () => {
    const reader = await freshStore();
    const writer = openPgStore(urls.get(reader)!);
    stores.push(writer);
    const first = await reader.changeStamp();
    await makeRepos(writer.db).users.create({ email: 'one@stamp.test', passwordHash: 'x', name: '' });
    const second = await reader.changeStamp();
    expect(second).not.toBe(first);

    // A sequence bumped by a trigger would move here, before the commit, and not again at it.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let written!: () => void;
    const wrote = new Promise<void>((r) => (written = r));
    const tx = unitOfWork(writer.db)(async (repos) => {
      await repos.users.create({ email: 'two@stamp.test', passwordHash: 'x', name: '' });
      written();
      await held;
    });
    await wrote;
    const pending = await reader.changeStamp();
    expect(await makeRepos(reader.db).users.findByEmail('two@stamp.test')).toBeUndefined();
    release();
    await tx;
    const committed = await reader.changeStamp();
    expect(committed, 'the commit moves the stamp').not.toBe(pending);
    expect((await makeRepos(reader.db).users.findByEmail('two@stamp.test'))?.email).toBe('two@stamp.test');
  });

  it('gives every store on one database the same token secret, made once', async () => {
    const a = await freshStore();
    const b = openPgStore(urls.get(a)!);
    stores.push(b);
    const [sa, sb] = await Promise.all([a.sharedSecret(), b.sharedSecret()]);
    expect(sa).toBeInstanceOf(Buffer);
    expect(sa!.length).toBe(32);
    expect(sb!.equals(sa!)).toBe(true);
    expect((await a.sharedSecret())!.equals(sa!)).toBe(true);
  });

  it('processes starting together migrate once', async () => {
    const first = await freshStore(false);
    const url = urls.get(first)!;
    const others = [openPgStore(url), openPgStore(url)];
    stores.push(...others);
    const applied = await Promise.all([first, ...others].map((s) => migratePgStore(s)));
    expect(applied.map((a) => a.length).sort((x, y) => x - y)).toEqual([0, 0, migrations.length]);
    expect(await appliedMigrations(first.db)).toEqual(migrations.map((m) => m.name));
  });

  it("translates PostgreSQL's constraint errors into the domain's, and a failed transaction lands nothing", async () => {
    const store = await freshStore();
    const repos = makeRepos(store.db);
    await repos.users.create({ email: 'a@b.c', passwordHash: 'x', name: 'A' });
    const unique = await repos.users.create({ email: 'A@B.C', passwordHash: 'x', name: 'B' }).catch((e: unknown) => e);
    expect(unique).toBeInstanceOf(UniqueViolation);
    expect((unique as UniqueViolation).columns).toEqual(['users.email']);
    expect((unique as Error).cause).toMatchObject({ code: '23505' });

    const reference = await unitOfWork(store.db)(async (r) => {
      await r.users.create({ email: 'c@d.e', passwordHash: 'x', name: 'C' });
      await r.projects.create('P', 999);
    }).catch((e: unknown) => e);
    expect(reference).toBeInstanceOf(ReferenceViolation);
    expect((reference as Error).cause).toMatchObject({ code: '23503' });
    expect(await repos.users.findByEmail('c@d.e')).toBeUndefined();

    const notNull = await store.db.insertInto('users').values({ email: null } as never).execute().catch((e: unknown) => e);
    expect(notNull).toBeInstanceOf(IntegrityViolation);
    expect(notNull).toMatchObject({ constraint: 'not-null', columns: ['users.email'] });
    const check = await sql`insert into jobs (kind, state, run_after, created_at, updated_at) values ('k', 'lost', '', '', '')`.execute(store.db).catch((e: unknown) => e);
    expect(check).toBeInstanceOf(IntegrityViolation);
    expect(check).toMatchObject({ constraint: 'check' });
    const other = await store.db.selectFrom('no_such_table' as never).selectAll().execute().catch((e: unknown) => e);
    expect(other).toMatchObject({ code: '42P01' });
    expect(other).not.toBeInstanceOf(IntegrityViolation);
    // SQLite's file check has no PostgreSQL equivalent a query can run: it refuses rather than answer 'ok'.
    await expect(integrityCheck(store.db)).rejects.toThrow(/pg_amcheck/);
  });

  it('searches document text by word prefixes without case or diacritics, and user input is never tsquery syntax', async () => {
    expect(tsQuery('Invo MÜLLER')).toBe('(invo:*) & (muller:*)');
    expect(tsQuery("a-b x@y.com it's")).toBe('(a <-> b:*) & (x <-> y <-> com:*) & (it <-> s:*)');
    expect(tsQuery("' & | ! ( ) :*")).toBeNull();
    expect(tsQuery('Straße')).toBe('(strasse:*)');
  });
});

describe('FOLIO_DATABASE_URL', () => {
  const config = (url: string) => loadConfig({ FOLIO_DATABASE_URL: url }, { dataDir: '/tmp/folio-config-test' });

  it('is optional: without it the store stays SQLite in the data folder', () => {
    expect(loadConfig({}, { dataDir: '/tmp/folio-config-test' }).databaseUrl).toBeUndefined();
    expect(config('  ').databaseUrl).toBeUndefined();
  });

  it('takes postgres:// and postgresql:// URLs, also with a socket folder for the host', () => {
    expect(config('postgres://folio:secret@db.internal:5432/folio').databaseUrl).toBe('postgres://folio:secret@db.internal:5432/folio');
    expect(config('postgresql://db/folio').databaseUrl).toBe('postgresql://db/folio');
    expect(config('postgres:///folio?host=/var/run/postgresql').databaseUrl).toBe('postgres:///folio?host=/var/run/postgresql');
  });

  it('refuses anything else with a ConfigError that says what is wanted, without echoing a password', () => {
    expect(() => config('mysql://root:hunter2@db/folio')).toThrow(ConfigError);
    expect(() => config('mysql://root:hunter2@db/folio')).toThrow(/must start with postgres:\/\/ or postgresql:\/\//);
    expect(() => config('mysql://root:hunter2@db/folio')).not.toThrow(/hunter2/);
    expect(() => config('/var/lib/folio/folio.db')).toThrow(/must be a PostgreSQL URL/);
    expect(() => config('postgres://db.internal')).toThrow(/names no database/);
    expect(() => config('postgres:///folio')).toThrow(/names no host/);
  });
});
