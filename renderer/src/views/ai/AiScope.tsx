// One AI scope on the AI tab (a category's extraction, the project's categorization or splitting): train,
// follow the training, read the evaluation against the active model, switch, name and download models.
import { useState, type ReactNode } from 'react';
import { useAiScope, isRunning, type AiScopeRef } from './useAiScope.ts';
import { TrainingProgress } from './TrainingProgress.tsx';
import { EvaluationView } from './EvaluationView.tsx';
import { ModelTable } from './ModelTable.tsx';
import { modelName, percent, referenceFor } from './evaluation.ts';

interface AiScopeProps {
  scope: AiScopeRef;
  /** What the AI is for, e.g. "Extraction AI for Invoice". */
  title: string;
  /** A note above the controls (e.g. splitting is off). */
  notice?: ReactNode;
  fileUrl(path: string): string;
}

export function AiScope({ scope, title, notice, fileUrl }: AiScopeProps) {
  const { models, loadError, busy, actionError, train, activate, rename } = useAiScope(scope);
  const [chosenId, setChosenId] = useState<number | null>(null);
  const headingId = `ai-${scope.kind}-${scope.categoryId ?? 'project'}`;

  const list = models ?? [];
  const active = list.find((m) => m.active) ?? null;
  const running = list.filter(isRunning);
  const latest = list[0] ?? null;
  // The model whose evaluation is shown: the one chosen, else the newest that finished.
  const shown = list.find((m) => m.id === chosenId && m.status === 'done') ?? list.find((m) => m.status === 'done') ?? null;

  return (
    <section className="ai-scope card" aria-labelledby={headingId} aria-busy={models === null}>
      <header className="ai-scope-header">
        <h2 id={headingId}>{title}</h2>
        <button type="button" className="primary" disabled={busy !== null || running.length > 0 || models === null} onClick={() => void train()}>
          {busy === 'train' ? 'Starting…' : 'Train a new AI'}
        </button>
      </header>
      {notice}
      <p className="ai-in-use">
        {active ? (
          <>
            In use: <strong>{modelName(active)}</strong> <span className="badge badge-active">Active</span>
            {active.evaluation && <span className="muted"> · {percent(active.evaluation.score)} {active.evaluation.metric === 'accuracy' ? 'accuracy' : 'F1'}</span>}
          </>
        ) : (
          <span className="muted">{models === null ? 'Loading…' : 'No AI in use yet.'}</span>
        )}
      </p>
      <div aria-live="polite">
        {actionError && (
          <p className="error" role="alert">
            {/* The API's own field names are for scripts; the reviewer gets the way to the documents instead. */}
            {actionError.replace(/\s*\(API:[^)]*\)/, '')}
            {/no (categorized )?training document/.test(actionError) && (
              <>
                {' '}
                <a href={`#/projects/${scope.projectId}?status=2${scope.categoryId ? `&category=${scope.categoryId}` : ''}`}>Mark documents as training data</a>
              </>
            )}
          </p>
        )}
        {loadError && (
          <p className="error" role="alert">
            {loadError}
          </p>
        )}
        {running.map((m) => (
          <TrainingProgress key={m.id} model={m} />
        ))}
        {latest?.status === 'failed' && (
          <p className="error">
            Training of {modelName(latest)} failed: {latest.error ?? 'no reason given'}
          </p>
        )}
      </div>
      {shown && (
        <div className="ai-evaluation">
          <h3>
            Evaluation of {modelName(shown)} {shown.active && <span className="badge badge-active">Active</span>}
          </h3>
          <EvaluationView model={shown} reference={referenceFor(shown, active)} />
        </div>
      )}
      {list.length > 0 && (
        <ModelTable models={list} shownId={shown?.id ?? null} busy={busy} fileUrl={fileUrl} onShow={setChosenId} onActivate={(id) => void activate(id)} onRename={rename} />
      )}
      {models !== null && list.length === 0 && <p className="muted">No AI trained yet.</p>}
    </section>
  );
}
