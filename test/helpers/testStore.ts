// Which store the HTTP and service tests run on: SQLite in the test's data folder (the default), or with
// FOLIO_TEST_DB=postgres a PostgreSQL database of its own on the run's throwaway cluster (test/globalSetup.ts,
// test/helpers/postgres.ts), named to Folio as a team server names it: FOLIO_DATABASE_URL. A server started
// again on the same data folder (restart tests) gets the same database back, as a team server would.
import { createTestDatabase } from './postgres.ts';

export const testsOnPostgres = process.env.FOLIO_TEST_DB === 'postgres';

const databases = new Map<string, string>();

/** `env` with FOLIO_DATABASE_URL added when the tests run on PostgreSQL (unless `env` names a database already). */
export async function withTestStore(dataDir: string, env: NodeJS.ProcessEnv = {}): Promise<NodeJS.ProcessEnv> {
  if (!testsOnPostgres || env.FOLIO_DATABASE_URL) return env;
  let url = databases.get(dataDir);
  if (!url) {
    url = await createTestDatabase('folio_test');
    databases.set(dataDir, url);
  }
  return { ...env, FOLIO_DATABASE_URL: url };
}

/**
 * FOLIO_DATABASE_URL of the test database made for `dataDir`, for a `folio` process started beside a test
 * server on its data folder (test/helpers/processes.ts): the CLI must see the server's database.
 */
export function testDatabaseEnv(dataDir: string): Record<string, string> {
  const url = databases.get(dataDir);
  return url ? { FOLIO_DATABASE_URL: url } : {};
}
