// The documents tab's data: one page of a project's document list under the chosen filters, and the
// uploads of this window (bytes first, then each processing state until the document is done). Uploads
// live here rather than in a component so that they carry on while the reviewer looks elsewhere.
import { documentStatusName } from '../../../shared/documentStatus.ts';
import { create } from 'zustand';
import type { DocumentItem, FolioClient } from '../api/client.ts';
import { ApiError } from '../api/transport.ts';
import { useSession } from './session.ts';

/** Statuses processing stops in (compat.md): Done, waiting for splitting confirmation, could not be processed. */
export const SETTLED_STATUSES = [2, 41, 111];
/** The queue and work states of OCR, extraction, categorization and splitting. */
export const IN_PROGRESS_STATUSES = [0, 10, 1, 20, 3, 30, 4, 40];
export const DATASET_STATUS_NAMES = ['None', 'Preparation', 'Training', 'Test', 'Excluded'];

export const PAGE_SIZE = 50;
/** How often uploads being processed are asked for their status. */
const POLL_MS = 1000;
/** Uploads sent at once; the others wait, so that the first files finish early. */
const PARALLEL_UPLOADS = 3;

/** The list's filters as the API takes them; '' means any. */
export interface DocumentFilters {
  /** A status code or a comma list of them. */
  status: string;
  /** A category id, or 'null' for documents without one. */
  category: string;
  is_reviewed: '' | 'true' | 'false';
  dataset_status: string;
  /** Words of the text (full-text search) or part of the file name. */
  q: string;
  /** An assignee's email, or 'null' for unassigned documents. */
  assignee: string;
}

export const NO_FILTERS: DocumentFilters = { status: '', category: '', is_reviewed: '', dataset_status: '', q: '', assignee: '' };
/** Newest first, the list's order until a column is chosen. */
export const DEFAULT_ORDERING = '-created_at';

/** What the list shows: the part of the window's address after `?` (router.ts), so it survives a reload. */
export interface ListView {
  filters: DocumentFilters;
  /** The API's `ordering`: a field, '-' first for descending. */
  ordering: string;
  offset: number;
}

export const DEFAULT_VIEW: ListView = { filters: NO_FILTERS, ordering: DEFAULT_ORDERING, offset: 0 };

export function viewFromQuery(query: string | undefined): ListView {
  const p = new URLSearchParams(query ?? '');
  const filters = { ...NO_FILTERS };
  for (const key of Object.keys(NO_FILTERS) as (keyof DocumentFilters)[]) {
    const v = p.get(key);
    if (v !== null) (filters as Record<string, string>)[key] = v;
  }
  if (!['', 'true', 'false'].includes(filters.is_reviewed)) filters.is_reviewed = '';
  const offset = Number(p.get('offset'));
  return { filters, ordering: p.get('ordering') || DEFAULT_ORDERING, offset: Number.isInteger(offset) && offset > 0 ? offset : 0 };
}

/** Only what differs from the defaults, so a plain list has a plain address. */
export function queryFromView(view: ListView): string {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(view.filters)) if (v !== '') p.set(k, v);
  if (view.ordering !== DEFAULT_ORDERING) p.set('ordering', view.ordering);
  if (view.offset > 0) p.set('offset', String(view.offset));
  return p.toString();
}

/**
 * The per-document export's query for what the list shows: its filters and its order (the default one
 * too, which the address leaves out), not its page; `reviewedOnly` keeps only values a person checked.
 */
export function exportQueryFromView(view: ListView, reviewedOnly: boolean): string {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(view.filters)) if (v !== '') p.set(k, v);
  p.set('ordering', view.ordering);
  if (reviewedOnly) p.set('reviewed_only', 'true');
  return p.toString();
}

const sameView = (a: ListView, b: ListView) => queryFromView(a) === queryFromView(b);

/** The list's query as the API takes it (its page aside): the filters set, and its order with ties by id. */
export function listQueryOf(view: ListView): Record<string, string> {
  // Empty filters are left out: '' would mean "unset" to the API's id filters.
  const query: Record<string, string> = Object.fromEntries(Object.entries(view.filters).filter(([, v]) => v !== ''));
  return { ...query, ordering: `${view.ordering},-id` };
}

/**
 * The list view the reviewer last left a project's documents in (its address query), kept for this browser
 * tab: the review's Previous / Next follow it and "← Documents" returns to it.
 */
const viewKey = (projectId: number) => `folio.documentsView.${projectId}`;
export function rememberListView(projectId: number, view: ListView): void {
  try {
    sessionStorage.setItem(viewKey(projectId), queryFromView(view));
  } catch {
    /* storage disabled: the review follows the plain list */
  }
}
export function listViewOf(projectId: number): ListView {
  try {
    return viewFromQuery(sessionStorage.getItem(viewKey(projectId)) ?? '');
  } catch {
    return DEFAULT_VIEW;
  }
}

export type UploadPhase = 'queued' | 'uploading' | 'processing' | 'done' | 'waiting' | 'failed' | 'rejected' | 'cancelled';

export interface UploadItem {
  key: number;
  projectId: number;
  fileName: string;
  size: number;
  phase: UploadPhase;
  /** Bytes sent so far. */
  sent: number;
  documentId: number | null;
  /** The document's status once the API has it: [code, name]. */
  status: [number, string] | null;
  /** Why it failed: the API's refusal of the upload, or the document's status_reason (111). */
  message: string | null;
}

interface Pending {
  file: File;
  category: number | null;
  abort: AbortController;
}

interface DocumentsState {
  projectId: number | null;
  filters: DocumentFilters;
  ordering: string;
  offset: number;
  items: DocumentItem[];
  count: number;
  /** True while a page is being read; the rows shown stay until the answer replaces them. */
  loading: boolean;
  /** False until the first answer for the project. */
  loaded: boolean;
  error: string | null;
  uploads: UploadItem[];
  /** Shows a project's list as `view` says (the address); asks the API only when something changed. */
  show(projectId: number, view: ListView, force?: boolean): void;
  reload(): Promise<void>;
  /** Queues files for upload; `category` null leaves categorization to the AI. */
  upload(projectId: number, files: File[], category: number | null): void;
  cancelUpload(key: number): void;
  /** Forgets the project's uploads that have ended. */
  clearFinished(projectId: number): void;
  /** Forgets everything (another account is signing in). */
  forget(): void;
}

const call = <T>(fn: (c: FolioClient) => Promise<T>) => useSession.getState().call(fn);

export const useDocuments = create<DocumentsState>()((set, get) => {
  let requestSeq = 0;
  let nextKey = 1;
  const pending = new Map<number, Pending>();
  let active = 0;
  let pollTimer: ReturnType<typeof setTimeout> | null = null;

  const patchUpload = (key: number, changes: Partial<UploadItem>) =>
    set((s) => ({ uploads: s.uploads.map((u) => (u.key === key ? { ...u, ...changes } : u)) }));

  async function fetchPage(): Promise<void> {
    const { projectId, filters, offset, ordering } = get();
    if (projectId === null) return;
    const seq = ++requestSeq;
    set({ loading: true });
    try {
      const page = await call((c) => c.listDocuments({ project: projectId, ...listQueryOf({ filters, ordering, offset }), limit: PAGE_SIZE, offset }));
      // A newer request (other filters, another page) has been sent since: its answer is the one to show.
      if (seq !== requestSeq) return;
      // The page is past the end (documents were deleted or split meanwhile): show the first one.
      if (!page.results.length && offset > 0) {
        set({ offset: 0 });
        return fetchPage();
      }
      set({ items: page.results, count: page.count, loading: false, loaded: true, error: null });
    } catch (err) {
      if (seq === requestSeq) set({ loading: false, loaded: true, error: (err as Error).message });
    }
  }

  /** The list shows new documents and settled statuses as they happen, when it is this project's. */
  const refreshListOf = (projectId: number) => {
    if (get().projectId === projectId) void fetchPage();
  };

  function startNext(): void {
    while (active < PARALLEL_UPLOADS) {
      const item = get().uploads.find((u) => u.phase === 'queued');
      if (!item) return;
      active += 1;
      void send(item).finally(() => {
        active -= 1;
        startNext();
      });
    }
  }

  async function send(item: UploadItem): Promise<void> {
    const job = pending.get(item.key);
    if (!job) return;
    patchUpload(item.key, { phase: 'uploading' });
    try {
      const doc = await call((c) =>
        c.uploadDocument({
          project: item.projectId,
          category: job.category,
          file: job.file,
          fileName: job.file.name,
          signal: job.abort.signal,
          onProgress: (sent) => patchUpload(item.key, { sent: Math.min(sent, item.size) }),
        }),
      );
      patchUpload(item.key, { sent: item.size, documentId: doc.id, ...settledOrProcessing(doc.status_data, doc.status_reason) });
      refreshListOf(item.projectId);
      schedulePoll();
    } catch (err) {
      const cancelled = (err as Error).name === 'AbortError';
      // A refused file (415, 413, empty, encrypted) is said under data_file: that message alone reads best.
      const fileErrors = err instanceof ApiError ? err.fieldErrors('data_file') : [];
      const message = cancelled ? null : fileErrors.length ? fileErrors.join(' ') : (err as Error).message;
      patchUpload(item.key, { phase: cancelled ? 'cancelled' : 'rejected', message });
    } finally {
      pending.delete(item.key);
    }
  }

  function schedulePoll(): void {
    if (pollTimer !== null) return;
    pollTimer = setTimeout(() => {
      pollTimer = null;
      void poll();
    }, POLL_MS);
  }

  /** Asks for the status of every upload being processed, one list request per project. */
  async function poll(): Promise<void> {
    const processing = get().uploads.filter((u) => u.phase === 'processing' && u.documentId !== null);
    if (!processing.length) return;
    const byProject = new Map<number, UploadItem[]>();
    for (const u of processing) byProject.set(u.projectId, [...(byProject.get(u.projectId) ?? []), u]);
    await Promise.all(
      [...byProject].map(async ([projectId, uploads]) => {
        const ids = uploads.map((u) => u.documentId!);
        try {
          const page = await call((c) =>
            c.listDocuments({ project: projectId, id: ids.join(','), fields: 'id,status_data,status_reason', limit: ids.length }),
          );
          const found = new Map(page.results.map((d) => [d.id, d]));
          let settled = false;
          for (const u of uploads) {
            const d = found.get(u.documentId!);
            // Gone from the list: deleted (or split) meanwhile; nothing more will happen to it here.
            const next: Partial<UploadItem> = d
              ? settledOrProcessing(d.status_data, d.status_reason)
              : { phase: 'failed', status: null, documentId: null, message: 'The document was deleted meanwhile.' };
            if (next.phase !== 'processing') settled = true;
            patchUpload(u.key, next);
          }
          if (settled) refreshListOf(projectId);
        } catch {
          /* the server may be busy or restarting: the next round asks again */
        }
      }),
    );
    if (get().uploads.some((u) => u.phase === 'processing')) schedulePoll();
  }

  return {
    projectId: null,
    filters: NO_FILTERS,
    ordering: DEFAULT_ORDERING,
    offset: 0,
    items: [],
    count: 0,
    loading: false,
    loaded: false,
    error: null,
    uploads: [],

    show(projectId, view, force = false) {
      const s = get();
      if (!force && s.projectId === projectId && s.loaded && sameView(s, view)) return;
      if (s.projectId !== projectId) set({ items: [], count: 0, loaded: false, error: null });
      set({ projectId, filters: view.filters, ordering: view.ordering, offset: view.offset });
      rememberListView(projectId, view);
      void fetchPage();
    },
    reload: fetchPage,

    upload(projectId, files, category) {
      const items = files.map((file): UploadItem => {
        const key = nextKey++;
        pending.set(key, { file, category, abort: new AbortController() });
        return { key, projectId, fileName: file.name, size: file.size, phase: 'queued', sent: 0, documentId: null, status: null, message: null };
      });
      set((s) => ({ uploads: [...s.uploads, ...items] }));
      startNext();
    },
    cancelUpload(key) {
      const job = pending.get(key);
      if (!job) return;
      const item = get().uploads.find((u) => u.key === key);
      // A queued file has no request yet: drop it here; a file on its way is aborted (send() records it).
      if (item?.phase === 'queued') {
        pending.delete(key);
        patchUpload(key, { phase: 'cancelled' });
      } else job.abort.abort();
    },
    forget() {
      for (const job of pending.values()) job.abort.abort();
      pending.clear();
      requestSeq += 1; // answers still on their way are dropped
      set({ projectId: null, filters: NO_FILTERS, ordering: DEFAULT_ORDERING, offset: 0, items: [], count: 0, loading: false, loaded: false, error: null, uploads: [] });
    },
    clearFinished(projectId) {
      set((s) => ({ uploads: s.uploads.filter((u) => u.projectId !== projectId || isActive(u.phase)) }));
    },
  };
});

// Another account may log in next in this window: it must not see this one's list or uploads. The
// uploads still queued are dropped; those on their way finish on the server but are no longer shown.
useSession.subscribe((s, prev) => {
  if (s.user?.id === prev.user?.id) return;
  useDocuments.getState().forget();
});

export const isActive = (phase: UploadPhase) => phase === 'queued' || phase === 'uploading' || phase === 'processing';

/** List items carry the bare code (`status_data`); the upload list shows its name beside it. */
function settledOrProcessing(code: number, reason: string | null): Pick<UploadItem, 'phase' | 'status' | 'message'> {
  const status: [number, string] = [code, documentStatusName(code)];
  if (code === 2) return { phase: 'done', status, message: null };
  if (code === 41) return { phase: 'waiting', status, message: null };
  if (code === 111) return { phase: 'failed', status, message: reason ?? 'The document could not be processed.' };
  return { phase: 'processing', status, message: null };
}
