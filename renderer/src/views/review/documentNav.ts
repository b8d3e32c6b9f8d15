// Which document comes next, for Previous / Next (Alt+← / Alt+→) and for "finish review": the documents of
// the project's list as the reviewer last left it (its filters and its sort, state/documents.ts
// listViewOf), read as bare ids so that a large project costs little. The order read last is kept, so that
// a document that has just left the list (finished while the list shows unreviewed ones) still has its place.
import type { ListQuery } from '../../api/client.ts';
import { useSession } from '../../state/session.ts';
import { listQueryOf, type ListView } from '../../state/documents.ts';

const PAGE = 1000;

interface Row {
  id: number;
  is_reviewed: boolean;
  status_data: number;
}

async function listRows(query: ListQuery): Promise<Row[]> {
  const rows: Row[] = [];
  for (let offset = 0; ; offset += PAGE) {
    const page = await useSession.getState().call((c) => c.listDocuments({ ...query, fields: 'id,is_reviewed,status_data', limit: PAGE, offset }));
    rows.push(...page.results.map((d) => ({ id: d.id, is_reviewed: d.is_reviewed, status_data: d.status_data })));
    if (rows.length >= page.count || !page.results.length) return rows;
  }
}

/**
 * The ids after `current` in `order` going `direction` (1: down the list, -1: up it). A document no longer
 * in `order` takes its place from `previous` (the order read before): the list goes on from the first
 * document after it there that is still listed. A document in neither starts from the list's end.
 */
export function idsAfter(order: readonly number[], current: number, direction: 1 | -1, previous: readonly number[] = []): number[] {
  const walk = direction > 0 ? [...order] : [...order].reverse();
  const at = walk.indexOf(current);
  if (at >= 0) return walk.slice(at + 1);
  const before = direction > 0 ? [...previous] : [...previous].reverse();
  const was = before.indexOf(current);
  if (was < 0) return walk;
  const listed = new Set(walk);
  const nextListed = before.slice(was + 1).find((id) => listed.has(id));
  return nextListed === undefined ? [] : walk.slice(walk.indexOf(nextListed));
}

/** The next document to review after `current`: processed, not reviewed, after it in the list, else from the top. */
export function nextToReview(rows: readonly Row[], current: number, previous: readonly number[] = []): number | null {
  const open = (r: Row | undefined) => !!r && r.id !== current && !r.is_reviewed && r.status_data === 2;
  const byId = new Map(rows.map((r) => [r.id, r]));
  const after = idsAfter(rows.map((r) => r.id), current, 1, previous);
  return after.find((id) => open(byId.get(id))) ?? rows.find(open)?.id ?? null;
}

/** The order of the list last read, per project and list view. */
let lastOrder: { key: string; ids: number[] } | null = null;

async function rowsOf(project: number, view: ListView): Promise<{ rows: Row[]; previous: number[] }> {
  const key = `${project}?${JSON.stringify(listQueryOf(view))}`;
  const rows = await listRows({ project, ...listQueryOf(view) });
  const previous = lastOrder?.key === key ? lastOrder.ids : [];
  lastOrder = { key, ids: rows.map((r) => r.id) };
  return { rows, previous };
}

/** Reads the list's order now (the review opened a document), so that later steps know where it stood. */
export function rememberOrder(project: number, view: ListView): void {
  void rowsOf(project, view).catch(() => {});
}

/** The document before or after `current` in the list as the reviewer left it, or null at either end. */
export async function neighbourDocument(project: number, current: number, direction: 1 | -1, view: ListView): Promise<number | null> {
  const { rows, previous } = await rowsOf(project, view);
  return idsAfter(rows.map((r) => r.id), current, direction, previous)[0] ?? null;
}

/** The next processed document nobody has reviewed yet, in the list's filters and order; else in the whole project. */
export async function nextUnreviewed(project: number, current: number, view: ListView): Promise<number | null> {
  const { rows, previous } = await rowsOf(project, view);
  const inList = nextToReview(rows, current, previous);
  if (inList !== null) return inList;
  const all = await listRows({ project, is_reviewed: false, status: 2, ordering: 'id' });
  return nextToReview(all, current);
}
