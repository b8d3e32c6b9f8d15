// The documents tab: upload (picker or drop anywhere), the uploads under way, and the filtered list,
// which reads itself again while documents on it are still being processed.
import { useEffect, useMemo, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { CategoryOut, ProjectOut } from '../../api/client.ts';
import { IN_PROGRESS_STATUSES, NO_FILTERS, useDocuments } from '../../state/documents.ts';
import { clientFor, useSession } from '../../state/session.ts';
import { useTaxonomy } from '../../state/taxonomy.ts';
import { DocumentFilters } from './DocumentFilters.tsx';
import { DocumentTable } from './DocumentTable.tsx';
import { UploadControls } from './UploadControls.tsx';
import { UploadList } from './UploadList.tsx';
import { useFileDrop } from './useFileDrop.ts';
import './documents.css';

/** How often the list is read again while a document on it is being processed. */
const REFRESH_MS = 3000;
const NO_CATEGORIES: CategoryOut[] = [];

export function DocumentsTab({ project }: { project: ProjectOut }) {
  const { open, reload, setFilters, setOffset, upload } = useDocuments.getState();
  // Only the list's fields: upload progress changes the store many times a second, and this tab need
  // not render again for it (UploadList does).
  const { items, count, offset, filters, loading, loaded, error, shown } = useDocuments(
    useShallow((s) => ({ items: s.items, count: s.count, offset: s.offset, filters: s.filters, loading: s.loading, loaded: s.loaded, error: s.error, shown: s.projectId === project.id })),
  );
  const categories = useTaxonomy((s) => (s.projectId === project.id ? s.categories : NO_CATEGORIES));
  const loadTaxonomy = useTaxonomy((s) => s.load);
  const token = useSession((s) => s.token);
  const [uploadCategory, setUploadCategory] = useState('');

  useEffect(() => {
    open(project.id);
    void loadTaxonomy(project.id);
  }, [open, loadTaxonomy, project.id]);

  const processing = shown && items.some((d) => IN_PROGRESS_STATUSES.includes(d.status_data));
  useEffect(() => {
    if (!processing) return;
    const timer = setInterval(() => void reload(), REFRESH_MS);
    return () => clearInterval(timer);
  }, [processing, reload]);

  const startUpload = (files: File[]) => upload(project.id, files, uploadCategory ? Number(uploadCategory) : null);
  const dragging = useFileDrop(startUpload);
  const exportUrl = useMemo(() => clientFor(token).exportCsvUrl(project.id), [token, project.id]);
  const filtered = Object.entries(filters).some(([k, v]) => v !== NO_FILTERS[k as keyof typeof NO_FILTERS]);

  return (
    <div className="documents-tab">
      <UploadControls categories={categories} category={uploadCategory} onCategory={setUploadCategory} onFiles={startUpload} exportUrl={exportUrl} />
      <UploadList projectId={project.id} />
      <DocumentFilters filters={filters} categories={categories} onChange={setFilters} />
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
      {shown && count > 0 && <DocumentTable items={items} count={count} offset={offset} loading={loading} categories={categories} onOffset={setOffset} />}
      {dragging && (
        <div className="drop-overlay" aria-hidden="true">
          <p>
            Drop to upload to {project.name}
            <span>{uploadCategory ? `as ${categories.find((c) => String(c.id) === uploadCategory)?.name ?? 'the chosen category'}` : 'The category is found automatically.'}</span>
          </p>
        </div>
      )}
    </div>
  );
}
