// Imports a project folder in the hosted service's SDK layout, zipped (docs/project-folders.md), as a new
// project: the report's counts, or the API's words for what is wrong with the folder.
import { useState, type ChangeEvent } from 'react';
import { useProjects } from '../../state/projects.ts';
import { useSession } from '../../state/session.ts';

export function ImportProjectFolderForm() {
  const reload = useProjects((s) => s.reload);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState('');
  const [busy, setBusy] = useState(false);

  async function chosen(e: ChangeEvent<HTMLInputElement>) {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    setBusy(true);
    setError(null);
    setStatus(`Importing ${file.name}…`);
    try {
      const r = await useSession.getState().call((c) => c.importProjectFolder({ file, fileName: file.name }));
      const n = r.counts;
      setStatus(`Imported “${r.project.name}”: ${n.documents} documents, ${n.annotations} annotations, ${n.labels} labels in ${n.categories} categories.`);
      await reload();
    } catch (err) {
      setError((err as Error).message);
      setStatus('');
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="card import-project-folder">
      <label htmlFor="project-folder-zip">Import a project folder (ZIP of the SDK's project folder)</label>
      <input id="project-folder-zip" type="file" accept=".zip,application/zip" disabled={busy} onChange={(e) => void chosen(e)} />
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <p className="muted status" aria-live="polite">
        {status}
      </p>
    </div>
  );
}
