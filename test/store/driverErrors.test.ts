// The store answers a refused constraint with the domain's error (store/errors.ts), on a real SQLite
// file through the repositories, inside and outside a transaction; other errors pass unchanged.
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { migrateUp, openStore, type OpenedStore } from '../../main/store/db.ts';
import { makeRepos, unitOfWork } from '../../main/store/repositories/index.ts';
import { IntegrityViolation, ReferenceViolation, UniqueViolation } from '../../main/domain/errors.ts';
import { tempDir } from '../helpers/testServer.ts';

let store: OpenedStore | undefined;
afterEach(async () => {
  await store?.close();
  store = undefined;
});

async function opened(): Promise<OpenedStore> {
  store = openStore(path.join(tempDir(), 'folio.db'));
  await migrateUp(store.db);
  return store;
}

describe('driver errors', () => {
  it('a repeated unique value is a UniqueViolation naming the column', async () => {
    const s = await opened();
    const repos = makeRepos(s.db);
    await repos.users.create({ email: 'a@b.c', passwordHash: 'x', name: 'A' });
    const err = await repos.users.create({ email: 'a@b.c', passwordHash: 'x', name: 'B' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UniqueViolation);
    expect((err as UniqueViolation).columns).toEqual(['users.email']);
    expect((err as Error).cause).toMatchObject({ code: 'SQLITE_CONSTRAINT_UNIQUE' });
  });

  it('a reference to a missing record is a ReferenceViolation, and the transaction lands nothing', async () => {
    const s = await opened();
    const uow = unitOfWork(s.db);
    const err = await uow(async (repos) => {
      await repos.users.create({ email: 'a@b.c', passwordHash: 'x', name: 'A' });
      await repos.projects.create('P', 999);
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ReferenceViolation);
    expect(s.sqlite.prepare('select count(*) as n from users').get()).toEqual({ n: 0 });
  });

  it('a NOT NULL or CHECK failure is an IntegrityViolation; other errors pass unchanged', async () => {
    const s = await opened();
    const notNull = await s.db.insertInto('users').values({ email: null } as never).execute().catch((e: unknown) => e);
    expect(notNull).toBeInstanceOf(IntegrityViolation);
    expect(notNull).toMatchObject({ constraint: 'not-null' });
    s.sqlite.exec('create table checked (n integer check (n > 0))');
    const check = await s.db.insertInto('checked' as never).values({ n: 0 } as never).execute().catch((e: unknown) => e);
    expect(check).toBeInstanceOf(IntegrityViolation);
    expect(check).toMatchObject({ constraint: 'check' });
    const other = await s.db.selectFrom('no_such_table' as never).selectAll().execute().catch((e: unknown) => e);
    expect(other).toMatchObject({ code: 'SQLITE_ERROR' });
    expect(other).not.toBeInstanceOf(IntegrityViolation);
  });
});
