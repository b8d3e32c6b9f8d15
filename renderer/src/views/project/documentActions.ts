// What the documents list does to one or many documents: dataset status, category, assignee, delete, read
// again, extract again. One API request per document (the same ones a script makes), a few at a time, and
// every refusal kept with its reason, so a bulk action on 50 documents says which ones did not change and why.
import type { FolioClient } from '../../api/client.ts';
import { useSession } from '../../state/session.ts';
import { reasonOf } from '../ai/reason.ts';

export type DocumentAction =
  | { kind: 'dataset'; value: number }
  | { kind: 'category'; value: number | null }
  | { kind: 'assignee'; value: string | null }
  | { kind: 'read-again' }
  | { kind: 'extract-again' }
  | { kind: 'delete' };

export interface ActionResult {
  done: number[];
  failed: { id: number; reason: string }[];
}

/** Requests at once: enough to be quick, few enough to leave the server to the reviewers' other work. */
const PARALLEL = 4;

function request(c: FolioClient, id: number, action: DocumentAction): Promise<unknown> {
  switch (action.kind) {
    case 'dataset':
      return c.updateDocument(id, { dataset_status: action.value });
    case 'category':
      return c.updateDocument(id, { category: action.value });
    case 'assignee':
      return c.updateDocument(id, { assignee: action.value });
    case 'read-again':
      return c.readAgain(id);
    case 'extract-again':
      return c.extractAgain(id);
    case 'delete':
      return c.deleteDocument(id);
  }
}

export async function runAction(ids: number[], action: DocumentAction): Promise<ActionResult> {
  const call = useSession.getState().call;
  const result: ActionResult = { done: [], failed: [] };
  const queue = [...ids];
  async function worker(): Promise<void> {
    for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
      try {
        await call((c) => request(c, id!, action));
        result.done.push(id);
      } catch (err) {
        result.failed.push({ id, reason: reasonOf(err) });
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(PARALLEL, ids.length) }, worker));
  return result;
}

export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** What happened, in a sentence: "Set to Training: 3 documents." / "... 2 of 3 documents; 1 refused: <reason>". */
export function describeResult(what: string, r: ActionResult, names: Map<number, string>): string {
  const total = r.done.length + r.failed.length;
  if (!r.failed.length) return `${what}: ${plural(total, 'document')}.`;
  const reasons = r.failed.map((f) => `${names.get(f.id) ?? `#${f.id}`}: ${f.reason}`).join(' ');
  return `${what}: ${r.done.length} of ${plural(total, 'document')}. Not changed: ${reasons}`;
}
