// Runs in vitest's main process. Vitest 5's failure reporter calls Map.groupBy, which Node 20 lacks
// (Node 21+ has it): without this, a failing test crashes the reporter instead of being reported.
export default function setup(): void {
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
