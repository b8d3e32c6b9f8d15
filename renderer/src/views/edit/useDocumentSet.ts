// A document set (the documents one split made) with its documents' details. While any of them is still
// being processed it is polled, so their statuses move on screen as the pipeline works.
import { useEffect, useState } from 'react';
import { useSession } from '../../state/session.ts';
import type { DocumentItem, DocumentSetOut } from '../../api/client.ts';
import { reasonOf } from '../ai/reason.ts';
import { RESTING_STATUSES } from './useEditDocument.ts';

export type LoadedSet = Omit<DocumentSetOut, 'documents'> & { documents: DocumentItem[] };

const POLL_MS = 1000;

export function useDocumentSet(setId: number | null): { set: LoadedSet | null; error: string | null } {
  const call = useSession((s) => s.call);
  const [set, setSet] = useState<LoadedSet | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (setId === null) return;
    let cancelled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    async function load(): Promise<void> {
      try {
        // `expand=documents` (the client asks for it) answers list items instead of ids.
        const loaded = (await call((c) => c.getDocumentSet(setId!))) as LoadedSet;
        if (cancelled) return;
        setSet(loaded);
        setError(null);
        if (loaded.documents.some((d) => !RESTING_STATUSES.includes(d.status_data))) timer = setTimeout(() => void load(), POLL_MS);
      } catch (err) {
        if (!cancelled) setError(reasonOf(err));
      }
    }
    void load();
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [call, setId]);

  return { set, error };
}
