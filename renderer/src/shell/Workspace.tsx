// The signed-in window: a top bar (projects, settings, the account) and the view the route names.
import { useEffect } from 'react';
import { useSession } from '../state/session.ts';
import { useProjects } from '../state/projects.ts';
import { navigate, useRoute } from '../router.ts';
import { ProjectsView } from '../views/ProjectsView.tsx';
import { ProjectView } from '../views/ProjectView.tsx';
import { DocumentView } from '../views/DocumentView.tsx';
import { SettingsView } from '../views/SettingsView.tsx';
import { UsersView } from '../views/admin/UsersView.tsx';

export function Workspace() {
  const user = useSession((s) => s.user);
  const logout = useSession((s) => s.logout);
  const clear = useProjects((s) => s.clear);
  const route = useRoute((s) => s.route);

  // Another account may log in next in this window: do not show it this one's projects.
  useEffect(() => clear, [clear]);

  return (
    <>
      <header className="topbar">
        <a className="brand" href="#/projects">
          Folio
        </a>
        <nav aria-label="Main">
          <a href="#/projects" aria-current={route.view === 'projects' || route.view === 'project' ? 'page' : undefined}>
            Projects
          </a>
          {user?.is_admin && (
            <a href="#/users" aria-current={route.view === 'users' ? 'page' : undefined}>
              Users
            </a>
          )}
          <a href="#/settings" aria-current={route.view === 'settings' ? 'page' : undefined}>
            Settings
          </a>
        </nav>
        <span className="spacer" />
        <span className="muted" title="Signed in as">
          {user?.email}
        </span>
        <button type="button" onClick={() => { logout(); navigate({ view: 'projects' }); }}>
          Log out
        </button>
      </header>
      {route.view === 'projects' && <ProjectsView />}
      {route.view === 'project' && <ProjectView projectId={route.projectId} tab={route.tab} />}
      {route.view === 'document' && <DocumentView documentId={route.documentId} mode={route.mode} />}
      {route.view === 'settings' && <SettingsView />}
      {route.view === 'users' && <UsersView />}
    </>
  );
}
