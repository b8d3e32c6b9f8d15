// The setup tab: the project's settings, then its taxonomy in the order one builds it (categories,
// label sets, labels; a label picks the sets it belongs to), then the import folders (their category is
// chosen from the taxonomy).
import { useEffect } from 'react';
import type { ProjectOut } from '../../api/client.ts';
import { useTaxonomy } from '../../state/taxonomy.ts';
import { CategoriesSection } from './CategoriesSection.tsx';
import { ImportFoldersSection } from './ImportFoldersSection.tsx';
import { LabelSetsSection } from './LabelSetsSection.tsx';
import { LabelsSection } from './LabelsSection.tsx';
import { ProjectSettingsForm } from './ProjectSettingsForm.tsx';
import './setup.css';

export function SetupTab({ project, onProjectSaved }: { project: ProjectOut; onProjectSaved(project: ProjectOut): void }) {
  const { load, loading, error } = useTaxonomy();
  const ready = useTaxonomy((s) => s.projectId === project.id && !s.loading);
  // A failed refresh after a change keeps the lists (and the forms' input) on screen under the error.
  const empty = useTaxonomy((s) => !s.categories.length && !s.labels.length && !s.labelSets.length);

  useEffect(() => {
    void load(project.id);
  }, [load, project.id]);

  return (
    <div className="setup">
      <ProjectSettingsForm project={project} onSaved={onProjectSaved} />
      {error && (
        <div className="card" role="alert">
          <p className="error">{error}</p>
          <button type="button" onClick={() => void load(project.id)}>
            Try again
          </button>
        </div>
      )}
      {loading && !error && (
        <p className="muted" aria-busy="true">
          Loading categories and labels…
        </p>
      )}
      {ready && !(error && empty) && (
        <>
          <CategoriesSection />
          <LabelSetsSection />
          <LabelsSection />
          <ImportFoldersSection projectId={project.id} />
        </>
      )}
    </div>
  );
}
