// Creates a project by name; the API's field errors appear under the field.
import { useState, type FormEvent } from 'react';
import { ApiError } from '../../api/transport.ts';
import { useProjects } from '../../state/projects.ts';

export function CreateProjectForm() {
  const create = useProjects((s) => s.create);
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState('');
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const project = await create(name);
      setName('');
      setStatus(`Created project “${project.name}”.`);
    } catch (err) {
      const fieldErrors = err instanceof ApiError ? err.fieldErrors('name') : [];
      setError(fieldErrors.length ? fieldErrors.join(' ') : (err as Error).message);
      setStatus('');
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="card create-project" onSubmit={submit}>
      <label htmlFor="project-name">New project</label>
      <div className="row">
        <input
          id="project-name"
          placeholder="Project name"
          value={name}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'project-name-error' : undefined}
          onChange={(e) => setName(e.target.value)}
        />
        <button type="submit" className="primary" disabled={busy}>
          Create project
        </button>
      </div>
      {error && (
        <p id="project-name-error" className="error" role="alert">
          {error}
        </p>
      )}
      <p className="muted status" aria-live="polite">
        {status}
      </p>
    </form>
  );
}
