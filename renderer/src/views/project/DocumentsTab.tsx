// The documents tab: upload (picker or drop anywhere; files already in the project are asked about first),
// the uploads under way, and the list. What the list shows (filters, sort, page) lives in the window's
// address, so a reload or a shared link shows the same list. Selected documents get bulk actions; the list
// reads itself again while documents on it are still being processed.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { CategoryOut, MemberOut, ProjectOut } from '../../api/client.ts';
import { navigate, useRoute } from '../../router.ts';
import { IN_PROGRESS_STATUSES, NO_FILTERS, exportQueryFromView, queryFromView, useDocuments, viewFromQuery, type DocumentFilters as Filters, type ListView } from '../../state/documents.ts';
import { useSession, useClient } from '../../state/session.ts';
import { useTaxonomy } from '../../state/taxonomy.ts';
import { DocumentFilters } from './DocumentFilters.tsx';
import { DocumentTable } from './DocumentTable.tsx';
import { BulkBar } from './BulkBar.tsx';
import { DuplicateQuestion, findDuplicates, type Duplicate } from './duplicates.tsx';
import { describeResult, plural, runAction, type DocumentAction } from './documentActions.ts';
import { UploadControls } from './UploadControls.tsx';
import { UploadList } from './UploadList.tsx';
import { useFileDrop } from './useFileDrop.ts';
import './documents.css';

/** How often the list is read again while a document on it is being processed. */
const REFRESH_MS = 3000;
const NO_CATEGORIES: CategoryOut[] = [];

const ACTION_NAMES: Record<DocumentAction['kind'], string> = {
  dataset: 'Dataset status changed',
  category: 'Category changed',
  assignee: 'Assignee changed',
  'read-again': 'Reading again',
  'extract-again': 'Extracting again',
  delete: 'Deleted',
};

/** The category uploads get, remembered per project in this browser. */
function useUploadCategory(projectId: number): [string, (v: string) => void] {
  const key = `folio.uploadCategory.${projectId}`;
  const [value, setValue] = useState(() => {
    try {
      return localStorage.getItem(key) ?? '';
    } catch {
      return ''; // storage disabled: Automatic each time
    }
  });
  const set = useCallback(
    (v: string) => {
      setValue(v);
      try {
        if (v) localStorage.setItem(key, v);
        else localStorage.removeItem(key);
      } catch {
        /* storage disabled */
      }
    },
    [key],
  );
  return [value, set];
}

export function DocumentsTab({ project }: { project: ProjectOut }) {
  const { show, reload, upload } = useDocuments.getState();
  // Only the list's fields: upload progress changes the store many times a second, and this tab need
  // not render again for it (UploadList does).
  const { items, count, offset, loading, loaded, error, shown } = useDocuments(
    useShallow((s) => ({ items: s.items, count: s.count, offset: s.offset, loading: s.loading, loaded: s.loaded, error: s.error, shown: s.projectId === project.id })),
  );
  const route = useRoute((s) => s.route);
  const query = route.view === 'project' ? route.query : undefined;
  const view = useMemo(() => viewFromQuery(query), [query]);
  const categories = useTaxonomy((s) => (s.projectId === project.id ? s.categories : NO_CATEGORIES));
  const loadTaxonomy = useTaxonomy((s) => s.load);
  const me = useSession((s) => s.user?.email ?? '');
  const call = useSession((s) => s.call);
  const client = useClient();
  const [uploadCategory, setUploadCategory] = useUploadCategory(project.id);
  const [members, setMembers] = useState<MemberOut[]>([]);
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const [confirmDelete, setConfirmDelete] = useState<number[] | null>(null);
  const [outcome, setOutcome] = useState<{ text: string; bad: boolean } | null>(null);
  const [busy, setBusy] = useState(false);
  const [asking, setAsking] = useState<{ files: File[]; duplicates: Duplicate[] } | null>(null);
  const [reviewedOnly, setReviewedOnly] = useState(false);

  useEffect(() => {
    void loadTaxonomy(project.id);
    call((c) => c.listMembers(project.id)).then((r) => setMembers(r.results), () => setMembers([]));
  }, [loadTaxonomy, call, project.id]);

  // Coming back to the tab reads the list afresh (first run); after that, when the address changed.
  const fresh = useRef(true);
  useEffect(() => {
    show(project.id, view, fresh.current);
    fresh.current = false;
  }, [show, project.id, view]);
  // A selection is of the documents in view: another filter, sort or page starts anew.
  useEffect(() => setSelected(new Set()), [project.id, query]);

  const processing = shown && items.some((d) => IN_PROGRESS_STATUSES.includes(d.status_data));
  useEffect(() => {
    if (!processing) return;
    const timer = setInterval(() => void reload(), REFRESH_MS);
    return () => clearInterval(timer);
  }, [processing, reload]);

  const go = useCallback(
    (next: ListView) => {
      const q = queryFromView(next);
      navigate({ view: 'project', projectId: project.id, tab: 'documents', ...(q ? { query: q } : {}) });
    },
    [project.id],
  );
  const setFilters = useCallback((changes: Partial<Filters>) => go({ ...view, filters: { ...view.filters, ...changes }, offset: 0 }), [go, view]);

  const category = uploadCategory && categories.some((c) => String(c.id) === uploadCategory) ? uploadCategory : '';
  const send = (files: File[]) => upload(project.id, files, category ? Number(category) : null);
  const startUpload = async (files: File[]) => {
    const duplicates = await findDuplicates(client, project.id, files);
    if (duplicates.length) setAsking({ files, duplicates });
    else send(files);
  };
  const dragging = useFileDrop((files) => void startUpload(files));
  // The per-document exports hold what the list shows: its filters and order, and reviewed values only if asked.
  const exportUrls = useMemo(() => {
    const q = exportQueryFromView(view, reviewedOnly);
    return { annotations: client.exportCsvUrl(project.id), documentsCsv: client.exportDocumentsUrl(project.id, 'csv', q), documentsXlsx: client.exportDocumentsUrl(project.id, 'xlsx', q) };
  }, [client, project.id, view, reviewedOnly]);
  const filtered = Object.entries(view.filters).some(([k, v]) => v !== NO_FILTERS[k as keyof Filters]);

  async function act(ids: number[], action: DocumentAction) {
    if (action.kind === 'delete' && confirmDelete === null) return setConfirmDelete(ids);
    setConfirmDelete(null);
    setBusy(true);
    const names = new Map(items.map((d) => [d.id, d.data_file_name]));
    const result = await runAction(ids, action);
    setBusy(false);
    setOutcome({ text: describeResult(ACTION_NAMES[action.kind], result, names), bad: result.failed.length > 0 });
    if (action.kind === 'delete') setSelected((s) => new Set([...s].filter((id) => !result.done.includes(id))));
    await reload();
  }

  const selectedIds = items.filter((d) => selected.has(d.id)).map((d) => d.id);
  return (
    <div className="documents-tab">
      <UploadControls
        categories={categories}
        category={category}
        onCategory={setUploadCategory}
        onFiles={(f) => void startUpload(f)}
        exportUrls={exportUrls}
        filtered={filtered}
        reviewedOnly={reviewedOnly}
        onReviewedOnly={setReviewedOnly}
      />
      {asking && (
        <DuplicateQuestion
          duplicates={asking.duplicates}
          onAnyway={() => {
            send(asking.files);
            setAsking(null);
          }}
          onSkip={() => {
            const skip = new Set(asking.duplicates.map((d) => d.file));
            const rest = asking.files.filter((f) => !skip.has(f));
            if (rest.length) send(rest);
            setAsking(null);
          }}
        />
      )}
      <UploadList projectId={project.id} />
      <DocumentFilters filters={view.filters} categories={categories} members={members} me={me} onChange={setFilters} />
      {outcome && (
        <p className={outcome.bad ? 'card outcome error' : 'card outcome'} role="status">
          {outcome.text}{' '}
          <button type="button" className="link" onClick={() => setOutcome(null)}>
            Dismiss
          </button>
        </p>
      )}
      {confirmDelete && (
        <div className="card confirm-delete" role="alertdialog" aria-label="Confirm deletion" onKeyDown={(e) => e.key === 'Escape' && setConfirmDelete(null)}>
          <p>
            Delete {confirmDelete.length === 1 ? `“${items.find((d) => d.id === confirmDelete[0])?.data_file_name ?? 'this document'}”` : plural(confirmDelete.length, 'document')}? Its
            annotations go with it. This cannot be undone.
          </p>
          <button type="button" className="danger" autoFocus disabled={busy} onClick={() => void act(confirmDelete, { kind: 'delete' })}>
            Delete
          </button>
          <button type="button" onClick={() => setConfirmDelete(null)}>
            Cancel
          </button>
        </div>
      )}
      {selectedIds.length > 0 && (
        <BulkBar count={selectedIds.length} categories={categories} members={members} busy={busy} onAction={(a) => void act(selectedIds, a)} onClear={() => setSelected(new Set())} />
      )}
      {error && (
        <div className="card" role="alert">
          <p className="error">{error}</p>
          <button type="button" onClick={() => void reload()}>
            Try again
          </button>
        </div>
      )}
      {shown && loaded && !error && count === 0 && (
        <p className="muted empty">{filtered ? 'No documents match these filters.' : 'No documents yet. Upload files, or drop them anywhere on this page.'}</p>
      )}
      {shown && !loaded && <p className="muted empty" aria-busy="true">Loading documents…</p>}
      {shown && count > 0 && (
        <DocumentTable
          items={items}
          count={count}
          offset={offset}
          loading={loading}
          categories={categories}
          members={members}
          ordering={view.ordering}
          selected={selected}
          fileUrl={client.fileUrl}
          onSelect={(ids, on) =>
            setSelected((s) => {
              const next = new Set(s);
              for (const id of ids) if (on) next.add(id); else next.delete(id);
              return next;
            })
          }
          onOrdering={(ordering) => go({ ...view, ordering, offset: 0 })}
          onOffset={(o) => go({ ...view, offset: Math.max(0, o) })}
          onAction={(ids, a) => void act(ids, a)}
        />
      )}
      {dragging && (
        <div className="drop-overlay" aria-hidden="true">
          <p>
            Drop to upload to {project.name}
            <span>{category ? `as ${categories.find((c) => String(c.id) === category)?.name ?? 'the chosen category'}` : 'The category is found automatically.'}</span>
          </p>
        </div>
      )}
    </div>
  );
}
