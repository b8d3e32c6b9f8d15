// The project's import folders (README "Import folders"): folders on the Folio machine whose new files are
// uploaded into the project and then moved to their done or failed subfolder. Administrators set them up;
// owners see them read-only, a member is told who may. The list refreshes while shown, so a scan's last
// import and last problem appear without a reload.
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import type { CategoryOut, ImportFolderOut } from '../../api/client.ts';
import { ApiError } from '../../api/transport.ts';
import { useSession } from '../../state/session.ts';
import { useTaxonomy } from '../../state/taxonomy.ts';
import { reasonOf } from '../ai/reason.ts';
import { ConfirmDelete } from './ConfirmDelete.tsx';
import { FieldError } from './FieldError.tsx';
import { invalid, useSubmit } from './useSubmit.ts';

/** How often the list is read again while the section is on screen. */
const REFRESH_MS = 10_000;

const when = (t: string) => new Date(t).toLocaleString();

export function ImportFoldersSection({ projectId }: { projectId: number }) {
  const call = useSession((s) => s.call);
  const isAdmin = useSession((s) => !!s.user?.is_admin);
  const categories = useTaxonomy((s) => (s.projectId === projectId ? s.categories : []));
  const [folders, setFolders] = useState<ImportFolderOut[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [membersOnly, setMembersOnly] = useState(false);

  const load = useCallback(
    () =>
      call((c) => c.listImportFolders(projectId)).then(
        (list) => {
          setFolders(list);
          setError(null);
        },
        (err) => {
          if (err instanceof ApiError && err.status === 403) setMembersOnly(true);
          else setError(reasonOf(err));
        },
      ),
    [call, projectId],
  );

  useEffect(() => {
    setFolders(null);
    setMembersOnly(false);
    void load();
    const timer = setInterval(() => void load(), REFRESH_MS);
    return () => clearInterval(timer);
  }, [load]);

  async function attempt(fn: () => Promise<unknown>) {
    setError(null);
    try {
      await fn();
    } catch (err) {
      setError(reasonOf(err));
    }
    await load();
  }

  return (
    <section className="card setup-card" aria-labelledby="import-folders-title">
      <h2 id="import-folders-title">Import folders</h2>
      <p className="muted">
        Every new file in a folder is uploaded into this project once it is completely written, then moved to the folder&apos;s{' '}
        <code>done</code> subfolder, or to <code>failed</code> with a <code>.error.txt</code> file saying why. Point a scanner at it and
        documents arrive without anyone touching Folio. The folder is on the machine Folio runs on.
      </p>
      {membersOnly ? (
        <p className="muted">Only an administrator sets up import folders.</p>
      ) : (
        <>
          {error && (
            <p className="error" role="alert">
              {error}
            </p>
          )}
          {!folders && !error && <p className="muted">Loading import folders…</p>}
          {folders && folders.length > 0 && (
            <ul className="setup-list">
              {folders.map((f) => (
                <FolderRow
                  key={f.id}
                  folder={f}
                  editable={isAdmin}
                  categories={categories}
                  update={(changes) => {
                    // At once on screen; the reload after the answer puts back what the API holds.
                    setFolders((list) => list && list.map((x) => (x.id === f.id ? { ...x, ...changes } : x)));
                    return attempt(() => call((c) => c.updateImportFolder(projectId, f.id, changes)));
                  }}
                  remove={async () => {
                    await call((c) => c.deleteImportFolder(projectId, f.id));
                    await load();
                  }}
                />
              ))}
            </ul>
          )}
          {folders && isAdmin && <NewFolderForm projectId={projectId} categories={categories} onAdded={load} />}
          {folders && !isAdmin && <p className="muted">Only an administrator adds, changes or removes import folders: a folder reads files with Folio&apos;s own rights on this machine.</p>}
        </>
      )}
    </section>
  );
}

interface RowProps {
  folder: ImportFolderOut;
  /** An administrator's: its category, watching and removal can be changed. */
  editable: boolean;
  categories: CategoryOut[];
  update(changes: { enabled?: boolean; category?: number | null }): Promise<void>;
  remove(): Promise<void>;
}

function FolderRow({ folder: f, editable, categories, update, remove }: RowProps) {
  const id = `import-folder-${f.id}`;
  // A problem newer than the last complete scan is the folder's state now; an older one is history.
  const current = f.last_error !== null && (f.last_scan_at === null || (f.last_error_at ?? '') >= f.last_scan_at);
  return (
    <li className="setup-item import-folder">
      <div className="setup-item-main">
        <code className="item-name import-path">{f.path}</code>
        {!f.enabled && <span className="tag">not watched</span>}
        <span className="muted item-detail">
          {f.last_import_at ? `Last import: ${f.last_import_file} (${when(f.last_import_at)})` : 'Nothing imported yet'}
          {f.last_scan_at && ` · read ${when(f.last_scan_at)}`}
        </span>
        {f.last_error && (
          <p className={current ? 'error import-error' : 'muted import-error'} role={current ? 'alert' : undefined}>
            {current ? 'Problem' : 'Last problem'}
            {f.last_error_at && ` (${when(f.last_error_at)})`}: {f.last_error}
          </p>
        )}
      </div>
      {editable && <div className="item-actions">
        <label htmlFor={`${id}-category`} className="visually-hidden">
          Category of documents from {f.path}
        </label>
        <select id={`${id}-category`} value={f.category ?? ''} onChange={(e) => void update({ category: e.target.value ? Number(e.target.value) : null })}>
          <option value="">No category</option>
          {categories.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </select>
        <label className="choice" htmlFor={`${id}-enabled`}>
          <input id={`${id}-enabled`} type="checkbox" checked={f.enabled} onChange={(e) => void update({ enabled: e.target.checked })} />
          Watched
        </label>
        <ConfirmDelete
          what={`import folder ${f.path}`}
          question={`Stop watching ${f.path}? Its files and its done and failed folders stay as they are.`}
          onConfirm={remove}
        />
      </div>}
    </li>
  );
}

function NewFolderForm({ projectId, categories, onAdded }: { projectId: number; categories: CategoryOut[]; onAdded(): Promise<void> }) {
  const call = useSession((s) => s.call);
  const [path, setPath] = useState('');
  const [category, setCategory] = useState('');
  const submit = useSubmit(['path', 'category']);
  const chooseFolder = window.folio?.chooseFolder;

  async function add(e: FormEvent) {
    e.preventDefault();
    const ok = await submit.run(() => call((c) => c.createImportFolder(projectId, { path, category: category ? Number(category) : null })));
    if (ok) {
      setPath('');
      await onAdded();
    }
  }

  async function choose() {
    const chosen = await chooseFolder?.();
    if (chosen) setPath(chosen);
  }

  return (
    <form className="add-form" onSubmit={add}>
      <div className="form-row">
        <div className="field">
          <label htmlFor="new-import-folder-path">Folder</label>
          <input
            id="new-import-folder-path"
            placeholder="e.g. /home/ada/Scans or C:\Scans"
            value={path}
            onChange={(e) => setPath(e.target.value)}
            {...invalid('new-import-folder-path', submit.fieldError('path'))}
          />
        </div>
        {chooseFolder && (
          <button type="button" onClick={() => void choose()}>
            Choose…
          </button>
        )}
        <div className="field">
          <label htmlFor="new-import-folder-category">Category</label>
          <select id="new-import-folder-category" value={category} onChange={(e) => setCategory(e.target.value)} {...invalid('new-import-folder-category', submit.fieldError('category'))}>
            <option value="">None (the categorization AI decides)</option>
            {categories.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" disabled={submit.busy || !path.trim()}>
          {submit.busy ? 'Adding…' : 'Add import folder'}
        </button>
      </div>
      <FieldError id="new-import-folder-path" error={submit.fieldError('path')} />
      <FieldError id="new-import-folder-category" error={submit.fieldError('category')} />
      {submit.formError && (
        <p className="error" role="alert">
          {submit.formError}
        </p>
      )}
    </form>
  );
}
