// The AI tab of a project: the extraction AI of each category, the categorization AI and the splitting
// AI. Each trains from the documents marked "training" and is scored on those marked "test".
import { useEffect, useState } from 'react';
import { useSession, useClient } from '../../state/session.ts';
import type { CategoryOut, ProjectOut } from '../../api/client.ts';
import { AiScope } from './AiScope.tsx';
import { reasonOf } from './reason.ts';
import './ai.css';

export function AiPanel({ projectId }: { projectId: number }) {
  const call = useSession((s) => s.call);
  const client = useClient();
  const [project, setProject] = useState<ProjectOut | null>(null);
  const [categories, setCategories] = useState<CategoryOut[] | null>(null);
  const [categoryId, setCategoryId] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let cancelled = false;
    setProject(null);
    setCategories(null);
    Promise.all([call((c) => c.getProject(projectId)), call((c) => c.listCategories(projectId))]).then(
      ([p, cats]) => {
        if (cancelled) return;
        setProject(p);
        setCategories(cats.results);
        setCategoryId((current) => (cats.results.some((c) => c.id === current) ? current : (cats.results[0]?.id ?? null)));
      },
      (err) => !cancelled && setError(reasonOf(err)),
    );
    return () => {
      cancelled = true;
    };
  }, [call, projectId]);

  if (error) return <p className="error" role="alert">{error}</p>;
  if (!project || !categories) return <p className="muted" aria-busy="true">Loading AIs…</p>;

  const category = categories.find((c) => c.id === categoryId) ?? null;
  return (
    <div className="ai-panel">
      <p className="muted">
        AIs learn from documents whose dataset status is “training” and are scored on those marked “test”. A new AI replaces the active one only
        when it scores higher; you can switch by hand.
      </p>
      <div className="ai-category-picker">
        <label htmlFor="ai-category">Extraction AI of the category</label>
        <select id="ai-category" value={categoryId ?? ''} disabled={!categories.length} onChange={(e) => setCategoryId(Number(e.target.value))}>
          {categories.length === 0 && <option value="">No categories yet</option>}
          {categories.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </select>
      </div>
      {category ? (
        <AiScope key={category.id} scope={{ kind: 'extraction', projectId, categoryId: category.id }} title={`Extraction AI for ${category.name}`} fileUrl={client.fileUrl} />
      ) : (
        <p className="notice">
          Extraction AIs learn per category. <a href={`#/projects/${projectId}/setup`}>Add a category and its labels</a> first.
        </p>
      )}
      <AiScope scope={{ kind: 'categorization', projectId }} title="Categorization AI" fileUrl={client.fileUrl} />
      <AiScope
        scope={{ kind: 'splitting', projectId }}
        title="Splitting AI"
        fileUrl={client.fileUrl}
        notice={
          !project.splitting_enabled && (
            <p className="notice">
              Splitting is off for this project: multi-page uploads are not checked for several documents, and a splitting AI cannot be trained. Turn it on in
              the <a href={`#/projects/${projectId}/setup`}>project’s setup</a>.
            </p>
          )
        }
      />
    </div>
  );
}
