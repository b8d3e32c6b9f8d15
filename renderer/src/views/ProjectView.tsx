// One project: its documents, its setup (categories, labels, label sets), its AIs and its members, as tabs.
import { useEffect, useState } from 'react';
import { useSession } from '../state/session.ts';
import type { ProjectOut } from '../api/client.ts';
import { DocumentsTab } from './project/DocumentsTab.tsx';
import { SetupTab } from './project/SetupTab.tsx';
import './project/project.css';
import { AiPanel } from './ai/AiPanel.tsx';
import { MembersTab } from './admin/MembersTab.tsx';
import type { ProjectTab } from '../router.ts';

type Tab = ProjectTab;

const TABS: [Tab, string][] = [
  ['documents', 'Documents'],
  ['setup', 'Setup'],
  ['ai', 'AI'],
  ['members', 'Members'],
];

export function ProjectView({ projectId, tab }: { projectId: number; tab: Tab }) {
  const call = useSession((s) => s.call);
  const [project, setProject] = useState<ProjectOut | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    setProject(null);
    setError(null);
    call((c) => c.getProject(projectId)).then(setProject, (err: Error) => setError(err.message));
  }, [call, projectId]);

  if (error) return <main className="page"><p className="error" role="alert">{error}</p></main>;
  if (!project) return <main className="page" aria-busy="true"><p className="muted">Loading…</p></main>;
  return (
    <main className="page project-page">
      <div className="project-head">
        <p className="crumbs">
          <a href="#/projects">Projects</a>
        </p>
        <h1>{project.name}</h1>
      </div>
      <nav className="tabs" aria-label="Project">
        {TABS.map(([id, name]) => (
          <a key={id} href={`#/projects/${projectId}${id === 'documents' ? '' : `/${id}`}`} aria-current={tab === id ? 'page' : undefined}>
            {name}
          </a>
        ))}
      </nav>
      {tab === 'documents' && <DocumentsTab project={project} />}
      {tab === 'setup' && <SetupTab project={project} onProjectSaved={setProject} />}
      {tab === 'ai' && <AiPanel projectId={projectId} />}
      {tab === 'members' && <MembersTab project={project} />}
    </main>
  );
}
