// Which document comes next in a project, for the previous/next keys and for "finish review": documents in
// id order (the order they were uploaded), read as bare ids so that a large project costs little.
import type { ListQuery } from '../../api/client.ts';
import { useSession } from '../../state/session.ts';

const PAGE = 1000;

async function documentIds(query: ListQuery): Promise<number[]> {
  const ids: number[] = [];
  for (let offset = 0; ; offset += PAGE) {
    const page = await useSession.getState().call((c) => c.listDocuments({ ...query, ordering: 'id', fields: 'id', limit: PAGE, offset }));
    ids.push(...page.results.map((d) => d.id));
    if (ids.length >= page.count || !page.results.length) return ids;
  }
}

/** The document before or after `current` in the project, or null at either end. */
export async function neighbourDocument(project: number, current: number, direction: 1 | -1): Promise<number | null> {
  const ids = await documentIds({ project });
  const after = direction > 0 ? ids.filter((id) => id > current) : ids.filter((id) => id < current).reverse();
  return after[0] ?? null;
}

/** The next processed document nobody has reviewed yet, after `current` first and then from the start. */
export async function nextUnreviewed(project: number, current: number): Promise<number | null> {
  const ids = (await documentIds({ project, is_reviewed: false, status: 2 })).filter((id) => id !== current);
  return ids.find((id) => id > current) ?? ids[0] ?? null;
}
