// One project: its documents, its setup (categories, labels, label sets) and its AIs, as tabs.
import { useEffect, useState } from 'react';
import { useSession } from '../state/session.ts';
import type { ProjectOut } from '../api/client.ts';

export function ProjectView({ projectId, tab }: { projectId: number; tab: 'documents' | 'setup' | 'ai' }) {
  const call = useSession((s) => s.call);
  const [project, setProject] = useState<ProjectOut | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    setProject(null);
    call((c) => c.getProject(projectId)).then(setProject, (err: Error) => setError(err.message));
  }, [call, projectId]);

  if (error) return <main className="page"><p className="error" role="alert">{error}</p></main>;
  if (!project) return <main className="page" aria-busy="true"><p className="muted">Loading…</p></main>;
  return (
    <main className="page">
      <h1>{project.name}</h1>
      <nav className="tabs" aria-label="Project">
        <a href={`#/projects/${projectId}`} aria-current={tab === 'documents' ? 'page' : undefined}>Documents</a>
        <a href={`#/projects/${projectId}/setup`} aria-current={tab === 'setup' ? 'page' : undefined}>Setup</a>
        <a href={`#/projects/${projectId}/ai`} aria-current={tab === 'ai' ? 'page' : undefined}>AI</a>
      </nav>
      <p className="muted">This part of the workstation is being built.</p>
    </main>
  );
}
