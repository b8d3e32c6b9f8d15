// The signed-in view: a header with the account and logout, the project form and the project list.
import { useEffect } from 'react';
import { useSession } from '../state/session.ts';
import { useProjects } from '../state/projects.ts';
import { CreateProjectForm } from './CreateProjectForm.tsx';
import { ProjectList } from './ProjectList.tsx';

export function Workspace() {
  const user = useSession((s) => s.user);
  const logout = useSession((s) => s.logout);
  const reload = useProjects((s) => s.reload);
  const clear = useProjects((s) => s.clear);

  useEffect(() => {
    void reload();
    // Another account may log in next in this window: do not show it this one's projects.
    return clear;
  }, [reload, clear]);

  return (
    <>
      <header className="topbar">
        <span className="brand">Folio</span>
        <span className="spacer" />
        <span className="muted" title="Signed in as">
          {user?.email}
        </span>
        <button type="button" onClick={() => logout()}>
          Log out
        </button>
      </header>
      <main className="page">
        <h1>Projects</h1>
        <CreateProjectForm />
        <ProjectList />
      </main>
    </>
  );
}
