// The desktop store's split driver (main/store/sqliteDriver.ts): reads outside a transaction on the main
// thread, writes and transactions on the writer thread. What callers rely on: read-your-writes, reads that
// do not wait for a transaction in progress (they see what was committed), blobs as Buffers, SQLite's errors
// translated as before, savepoints, and writes refused with StorageUnavailableError while the writer is stuck.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore, type OpenedStore } from '../../main/store/db.ts';
import { StorageUnavailableError, UniqueViolation } from '../../main/domain/errors.ts';

let store: OpenedStore | undefined;
let dir: string | undefined;

async function open(stallMs?: number): Promise<OpenedStore> {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-split-'));
  store = openStore(path.join(dir, 'folio.db'), { stallMs });
  await sql`create table t (id integer primary key, name text unique, data blob)`.execute(store.db);
  return store;
}

afterEach(async () => {
  await store?.close();
  store = undefined;
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const names = async (s: OpenedStore) => (await sql<{ name: string }>`select name from t order by id`.execute(s.db)).rows.map((r) => r.name);

describe('the split SQLite driver', () => {
  it('reads what was written, and a read does not wait for a transaction in progress', async () => {
    const s = await open();
    await sql`insert into t (name) values ('first')`.execute(s.db);
    expect(await names(s)).toEqual(['first']);

    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const order: string[] = [];
    const tx = s.db.transaction().execute(async (trx) => {
      await sql`insert into t (name) values ('in the transaction')`.execute(trx);
      // Inside the transaction its own write is seen.
      expect((await sql<{ n: number }>`select count(*) as n from t`.execute(trx)).rows[0].n).toBe(2);
      await gate;
      order.push('committed');
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    // Outside, the committed state only, at once.
    expect(await names(s)).toEqual(['first']);
    order.push('read');
    release();
    await tx;
    expect(order).toEqual(['read', 'committed']);
    expect(await names(s)).toEqual(['first', 'in the transaction']);
    expect(s.changeStamp()).not.toBe('');
  });

  it('moves the change stamp on every commit of the writer', async () => {
    const s = await open();
    const before = s.changeStamp();
    await sql`insert into t (name) values ('a')`.execute(s.db);
    const afterOne = s.changeStamp();
    expect(afterOne).not.toBe(before);
    await s.db.transaction().execute(async (trx) => {
      await sql`insert into t (name) values ('b')`.execute(trx);
    });
    expect(s.changeStamp()).not.toBe(afterOne);
  });

  it('hands blobs back as Buffers, in and out of transactions', async () => {
    const s = await open();
    const data = Buffer.from([0, 1, 2, 250, 255]);
    const inserted = await s.db.transaction().execute(async (trx) => {
      await sql`insert into t (name, data) values ('blob', ${data})`.execute(trx);
      return (await sql<{ data: Buffer }>`select data from t where name = 'blob'`.execute(trx)).rows[0].data;
    });
    expect(Buffer.isBuffer(inserted)).toBe(true);
    expect(inserted.equals(data)).toBe(true);
    const read = (await sql<{ data: Buffer }>`select data from t where name = 'blob'`.execute(s.db)).rows[0].data;
    expect(Buffer.isBuffer(read) && read.equals(data)).toBe(true);
  });

  it('translates constraint errors from the writer thread, rolls the transaction back, and reports insert ids', async () => {
    const s = await open();
    const first = await s.db.insertInto('t' as never).values({ name: 'same' } as never).executeTakeFirst();
    expect(Number(first.insertId)).toBe(1);
    await expect(sql`insert into t (name) values ('same')`.execute(s.db)).rejects.toBeInstanceOf(UniqueViolation);
    await expect(
      s.db.transaction().execute(async (trx) => {
        await sql`insert into t (name) values ('kept out')`.execute(trx);
        await sql`insert into t (name) values ('same')`.execute(trx);
      }),
    ).rejects.toBeInstanceOf(UniqueViolation);
    expect(await names(s)).toEqual(['same']);
    // The writer is free again.
    await sql`insert into t (name) values ('after')`.execute(s.db);
    expect(await names(s)).toEqual(['same', 'after']);
  });

  it('rolls back to a savepoint inside a controlled transaction', async () => {
    const s = await open();
    const trx = await s.db.startTransaction().execute();
    await sql`insert into t (name) values ('kept')`.execute(trx);
    const sp = await trx.savepoint('attempt').execute();
    await sql`insert into t (name) values ('undone')`.execute(sp);
    await sp.rollbackToSavepoint('attempt').execute();
    await trx.commit().execute();
    expect(await names(s)).toEqual(['kept']);
  });

  it('refuses writes with StorageUnavailableError while the writer is stuck on one statement, and reads go on', async () => {
    const s = await open(300);
    await sql`insert into t (name) values ('before')`.execute(s.db);
    // A statement that keeps the writer thread busy for a few seconds stands in for a disk that does not answer.
    const stuck = s.db.transaction().execute(async (trx) => {
      await sql`with recursive c(x) as (select 1 union all select x + 1 from c where x < 30000000) select count(*) from c`.execute(trx);
    });
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(await names(s)).toEqual(['before']);
    const refused = await sql`insert into t (name) values ('refused')`.execute(s.db).catch((err) => err);
    expect(refused).toBeInstanceOf(StorageUnavailableError);
    expect((refused as StorageUnavailableError).message).toMatch(/has not taken a write/);
    await stuck;
    await sql`insert into t (name) values ('after')`.execute(s.db);
    expect(await names(s)).toEqual(['before', 'after']);
  }, 60_000);
});
