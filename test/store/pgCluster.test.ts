// The throwaway PostgreSQL cluster the team-server tests run on (test/helpers/postgres.ts): it starts,
// hands out fresh databases that are really separate, and drops them.
import { afterAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createTestDatabase, dropTestDatabase, postgresAvailable } from '../helpers/postgres.ts';

describe.skipIf(!postgresAvailable() && !process.env.CI)('test PostgreSQL cluster', () => {
  const made: string[] = [];
  afterAll(async () => {
    for (const url of made) await dropTestDatabase(url);
  });

  it('gives each caller a database of its own on a loopback server', async () => {
    const a = await createTestDatabase('cluster_a');
    const b = await createTestDatabase('cluster_b');
    made.push(a, b);
    expect(new URL(a).hostname).toBe('127.0.0.1');
    expect(a).not.toBe(b);
    const ca = new pg.Client({ connectionString: a });
    const cb = new pg.Client({ connectionString: b });
    await ca.connect();
    await cb.connect();
    try {
      await ca.query('create table t (x int)');
      await ca.query('insert into t values (42)');
      expect((await ca.query('select x from t')).rows).toEqual([{ x: 42 }]);
      const seen = await cb.query(`select count(*)::int as n from information_schema.tables where table_name = 't'`);
      expect(seen.rows[0].n).toBe(0);
      const version = await ca.query('show server_version_num');
      expect(Number(version.rows[0].server_version_num)).toBeGreaterThanOrEqual(150000);
    } finally {
      await ca.end();
      await cb.end();
    }
  });
});
