// The user's projects: create one, open one.
import { useEffect } from 'react';
import { useProjects } from '../state/projects.ts';
import { CreateProjectForm } from './projects/CreateProjectForm.tsx';
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
      <ProjectList />
    </main>
  );
}
