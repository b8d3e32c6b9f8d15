// Loads what edit mode needs of a document: the document (status, proposed split), its pages and the
// project's categories. While the document is still being processed it is polled, so edit mode opens by
// itself once the document rests.
import { useCallback, useEffect, useState } from 'react';
import { useSession } from '../../state/session.ts';
import type { CategoryOut, DocumentOut, PageSummary } from '../../api/client.ts';
import { reasonOf } from '../ai/reason.ts';

/** Statuses a document rests in (compat.md): done, could not be processed, waiting for splitting confirmation. */
export const RESTING_STATUSES = [2, 111, 41];
/** Statuses in which the API takes a post-process. */
export const EDITABLE_STATUSES = [2, 41];

export interface EditData {
  document: DocumentOut;
  pages: PageSummary[];
  categories: CategoryOut[];
}

const POLL_MS = 1500;

export function useEditDocument(documentId: number): { data: EditData | null; error: string | null; reload(): void } {
  const call = useSession((s) => s.call);
  const [data, setData] = useState<EditData | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let cancelled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    async function load(): Promise<void> {
      try {
        const [document, pages] = await Promise.all([call((c) => c.getDocument(documentId)), call((c) => c.listPages(documentId))]);
        const categories = (await call((c) => c.listCategories(document.project))).results;
        if (cancelled) return;
        setData({ document, pages: [...pages].sort((a, b) => a.number - b.number), categories });
        setError(null);
        if (!RESTING_STATUSES.includes(document.status_data)) timer = setTimeout(() => void load(), POLL_MS);
      } catch (err) {
        if (!cancelled) setError(reasonOf(err));
      }
    }
    setData(null);
    setError(null);
    void load();
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [call, documentId, attempt]);

  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  return { data, error, reload };
}
