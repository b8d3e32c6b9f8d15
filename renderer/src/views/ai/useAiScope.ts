// The AI models of one scope (the extraction AIs of a category, or the project's categorization or
// splitting AIs), newest first: train a new one, make one active, name one, and follow running trainings by
// polling each of them every second until it has ended.
import { useCallback, useEffect, useState } from 'react';
import { useSession } from '../../state/session.ts';
import type { AiKind, AiOut } from '../../api/client.ts';
import { reasonOf } from './reason.ts';

export interface AiScopeRef {
  kind: AiKind;
  projectId: number;
  /** Extraction AIs only: the category they learn. */
  categoryId?: number;
}

export const isRunning = (m: AiOut) => m.status === 'queued' || m.status === 'training';

const POLL_MS = 1000;

export function useAiScope({ kind, projectId, categoryId }: AiScopeRef) {
  const call = useSession((s) => s.call);
  const [models, setModels] = useState<AiOut[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [busy, setBusy] = useState<'train' | number | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      const page = await call((c) => c.listAis(kind, projectId));
      setModels(page.results.filter((m) => kind !== 'extraction' || m.category === categoryId));
      setLoadError(null);
    } catch (err) {
      setLoadError(reasonOf(err));
    }
  }, [call, kind, projectId, categoryId]);

  useEffect(() => {
    setModels(null);
    void load();
  }, [load]);

  // Follow running trainings. When one ends the whole list is loaded again: it may have become the
  // active model, which makes the one active before inactive.
  useEffect(() => {
    const running = (models ?? []).filter(isRunning);
    if (!running.length) return;
    let cancelled = false;
    const timer = setTimeout(async () => {
      try {
        const fresh = await Promise.all(running.map((m) => call((c) => c.getAi(kind, m.id))));
        if (cancelled) return;
        if (fresh.some((m) => !isRunning(m))) await load();
        else setModels((list) => (list ?? []).map((m) => fresh.find((f) => f.id === m.id) ?? m));
      } catch (err) {
        if (!cancelled) setLoadError(reasonOf(err));
      }
    }, POLL_MS);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [models, call, kind, load]);

  async function act(which: 'train' | number, fn: () => Promise<void>): Promise<void> {
    setBusy(which);
    setActionError(null);
    try {
      await fn();
    } catch (err) {
      setActionError(reasonOf(err));
    } finally {
      setBusy(null);
    }
  }

  const train = () =>
    act('train', async () => {
      const started = await call((c) => c.trainAi(kind, kind === 'extraction' ? { category: categoryId } : { project: projectId }));
      setModels((list) => [started, ...(list ?? [])]);
    });

  const activate = (id: number) =>
    act(id, async () => {
      await call((c) => c.updateAi(kind, id, { active: true }));
      await load();
    });

  /** Names a model (empty: no name); resolves true when the API took it, else actionError says why. */
  async function rename(id: number, name: string): Promise<boolean> {
    let ok = false;
    await act(id, async () => {
      const renamed = await call((c) => c.updateAi(kind, id, { name }));
      setModels((list) => (list ?? []).map((m) => (m.id === id ? renamed : m)));
      ok = true;
    });
    return ok;
  }

  return { models, loadError, busy, actionError, train, activate, rename };
}
