// The user's projects: create one, import one from a project folder, open one.
import { useEffect } from 'react';
import { useProjects } from '../state/projects.ts';
import { CreateProjectForm } from './projects/CreateProjectForm.tsx';
import { ImportProjectFolderForm } from './projects/ImportProjectFolderForm.tsx';
import { ProjectList } from './projects/ProjectList.tsx';

export function ProjectsView() {
  const reload = useProjects((s) => s.reload);
  useEffect(() => {
    void reload();
  }, [reload]);
  return (
    <main className="page">
      <h1>Projects</h1>
      <CreateProjectForm />
      <ImportProjectFolderForm />
      <ProjectList />
    </main>
  );
}
