// Runs in vitest's main process. Vitest 5's failure reporter calls Map.groupBy, which Node 20 lacks
// (Node 21+ has it): without this, a failing test crashes the reporter instead of being reported.
// With FOLIO_TEST_DB=postgres it also starts one throwaway PostgreSQL cluster for the whole run and names
// it to the test processes (test/helpers/postgres.ts), which each make databases of their own on it.
import { startPgCluster } from './helpers/postgres.ts';

export default async function setup(): Promise<(() => void) | undefined> {
  polyfillGroupBy();
  if (process.env.FOLIO_TEST_DB !== 'postgres' || process.env.FOLIO_TEST_PG_ADMIN_URL) return undefined;
  const cluster = await startPgCluster();
  process.env.FOLIO_TEST_PG_ADMIN_URL = cluster.adminUrl;
  return () => cluster.stop();
}

function polyfillGroupBy(): void {
  const M = Map as unknown as { groupBy?: unknown };
  if (typeof M.groupBy !== 'function') {
    M.groupBy = <K, V>(items: Iterable<V>, key: (item: V, index: number) => K): Map<K, V[]> => {
      const out = new Map<K, V[]>();
      let i = 0;
      for (const item of items) {
        const k = key(item, i++);
        const list = out.get(k);
        if (list) list.push(item);
        else out.set(k, [item]);
      }
      return out;
    };
  }
}
