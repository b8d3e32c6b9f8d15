// The project's own settings: its name, the languages OCR reads its scans in (only installed ones can
// be chosen), whether multi-page uploads go through the splitting AI, and whether finished reviews train
// the AI by themselves (continuous learning, docs/continuous-learning.md).
import { useEffect, useState, type FormEvent } from 'react';
import type { OcrLanguageOut, ProjectOut } from '../../api/client.ts';
import { useSession } from '../../state/session.ts';
import { FieldError } from './FieldError.tsx';
import { invalid, useSubmit } from './useSubmit.ts';

const FIELDS = ['name', 'ocr_languages', 'splitting_enabled', 'continuous_learning'] as const;

export function ProjectSettingsForm({ project, onSaved }: { project: ProjectOut; onSaved(project: ProjectOut): void }) {
  const call = useSession((s) => s.call);
  const [name, setName] = useState(project.name);
  const [languages, setLanguages] = useState<string[]>(project.ocr_languages);
  const [splitting, setSplitting] = useState(project.splitting_enabled);
  const [learning, setLearning] = useState(project.continuous_learning);
  const [available, setAvailable] = useState<OcrLanguageOut[] | null>(null);
  const [languagesError, setLanguagesError] = useState<string | null>(null);
  const [saved, setSaved] = useState('');
  const submit = useSubmit(FIELDS);

  useEffect(() => {
    call((c) => c.ocrLanguages()).then(setAvailable, (err: Error) => setLanguagesError(err.message));
  }, [call]);

  // The installed languages, plus any the project names that are not (installed elsewhere, or removed
  // since): those stay visible so that unticking them is possible.
  const choices = (available ?? []).filter((l) => l.code && (l.installed || languages.includes(l.code)));
  const unknown = languages.filter((code) => available && !available.some((l) => l.code === code));
  const changed = name !== project.name || splitting !== project.splitting_enabled || learning !== project.continuous_learning || languages.join() !== project.ocr_languages.join();

  async function save(e: FormEvent) {
    e.preventDefault();
    setSaved('');
    await submit.run(async () => {
      const updated = await call((c) => c.updateProject(project.id, { name, ocr_languages: languages, splitting_enabled: splitting, continuous_learning: learning }));
      onSaved(updated);
      setSaved('Saved.');
    });
  }

  const toggle = (code: string, on: boolean) => setLanguages(on ? [...languages, code] : languages.filter((l) => l !== code));

  return (
    <form className="card setup-card" onSubmit={save} aria-labelledby="project-settings-title">
      <h2 id="project-settings-title">Project</h2>
      <div className="field">
        <label htmlFor="project-setting-name">Name</label>
        <input id="project-setting-name" value={name} onChange={(e) => setName(e.target.value)} {...invalid('project-setting-name', submit.fieldError('name'))} />
        <FieldError id="project-setting-name" error={submit.fieldError('name')} />
      </div>
      <fieldset className="choices" {...invalid('project-setting-ocr', submit.fieldError('ocr_languages'))}>
        <legend>OCR languages</legend>
        {!available && !languagesError && <p className="muted">Loading languages…</p>}
        {languagesError && <p className="error">{languagesError}</p>}
        {choices.map((l) => (
          <label key={l.code} className="choice" htmlFor={`ocr-${l.code}`}>
            <input id={`ocr-${l.code}`} type="checkbox" checked={languages.includes(l.code!)} onChange={(e) => toggle(l.code!, e.target.checked)} />
            {l.name}
            {!l.installed && <span className="muted"> (not installed)</span>}
          </label>
        ))}
        {unknown.map((code) => (
          <label key={code} className="choice" htmlFor={`ocr-${code}`}>
            <input id={`ocr-${code}`} type="checkbox" checked onChange={() => toggle(code, false)} />
            {code}
          </label>
        ))}
        <p className="hint muted">
          Scans are read in these languages. To add one, copy its <code>.traineddata</code> file into the <code>tessdata</code> folder of
          Folio&apos;s data folder.
        </p>
        <FieldError id="project-setting-ocr" error={submit.fieldError('ocr_languages')} />
      </fieldset>
      <label className="choice" htmlFor="project-setting-splitting">
        <input id="project-setting-splitting" type="checkbox" checked={splitting} onChange={(e) => setSplitting(e.target.checked)} />
        Check multi-page uploads for several documents (splitting AI)
      </label>
      <FieldError id="project-setting-splitting" error={submit.fieldError('splitting_enabled')} />
      <label className="choice" htmlFor="project-setting-learning">
        <input id="project-setting-learning" type="checkbox" checked={learning} onChange={(e) => setLearning(e.target.checked)} />
        Learn from every finished review (continuous learning)
      </label>
      <p className="hint muted">
        A reviewed document joins the training data (one in five the test data) unless you set its dataset status, and a new extraction AI
        of its category is trained in the background; it becomes active only when it scores better on the test documents.
      </p>
      <FieldError id="project-setting-learning" error={submit.fieldError('continuous_learning')} />
      {submit.formError && (
        <p className="error" role="alert">
          {submit.formError}
        </p>
      )}
      <div className="actions">
        <button type="submit" className="primary" disabled={submit.busy || !changed}>
          {submit.busy ? 'Saving…' : 'Save project'}
        </button>
        <span className="muted" aria-live="polite">
          {saved && !changed ? saved : ''}
        </span>
      </div>
    </form>
  );
}
