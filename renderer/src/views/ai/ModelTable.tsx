// Every model of a scope, newest first: its name (changed in place), its status (the active one badged),
// its score beside the active AI's on the same test documents and why it was or was not made active
// (the record's `activation`; continuous learning's candidates say so), and buttons to show its evaluation, make it the active model, and download its file.
import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import type { AiOut } from '../../api/client.ts';
import { modelName, percent } from './evaluation.ts';

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

interface ModelTableProps {
  models: AiOut[];
  shownId: number | null;
  busy: 'train' | number | null;
  fileUrl(path: string): string;
  onShow(id: number): void;
  onActivate(id: number): void;
  /** Saves a new name (empty: none); resolves true when it was saved. */
  onRename(id: number, name: string): Promise<boolean>;
}

/** The API's longest name (AiPatch). */
const NAME_MAX = 255;

function Status({ model }: { model: AiOut }) {
  if (model.active) return <span className="badge badge-active">Active</span>;
  if (model.status === 'done') return <span className="badge">Done</span>;
  if (model.status === 'failed') return <span className="badge badge-failed">Failed</span>;
  return <span className="badge">{model.status === 'queued' ? 'Queued' : `Training ${model.progress} %`}</span>;
}

/** The model's name with a Rename button; the button turns the cell into a field (Enter saves, Escape leaves it as it was). */
function NameCell({ model, busy, onRename }: { model: AiOut; busy: boolean; onRename: ModelTableProps['onRename'] }) {
  const [draft, setDraft] = useState<string | null>(null);
  const field = useRef<HTMLInputElement>(null);
  const editing = draft !== null;
  useEffect(() => {
    if (editing) field.current?.select();
  }, [editing]);

  async function save(e: FormEvent) {
    e.preventDefault();
    const name = (draft ?? '').trim();
    if (name === model.name) return setDraft(null);
    if (await onRename(model.id, name)) setDraft(null);
  }
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key !== 'Escape') return;
    e.stopPropagation();
    setDraft(null);
  };

  if (editing) {
    return (
      <form className="ai-rename" onSubmit={(e) => void save(e)}>
        <input
          ref={field}
          value={draft}
          maxLength={NAME_MAX}
          placeholder="No name"
          aria-label={`Name of AI #${model.id}`}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={onKeyDown}
        />
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Saving…' : 'Save'}
        </button>
        <button type="button" onClick={() => setDraft(null)}>
          Cancel
        </button>
      </form>
    );
  }
  return (
    <>
      {modelName(model)}
      {model.origin === 'uploaded' && <span className="muted"> · uploaded</span>}
      {model.trigger === 'continuous-learning' && <span className="muted"> · continuous learning</span>}{' '}
      <button type="button" className="link-button" onClick={() => setDraft(model.name)} aria-label={`Rename AI #${model.id}`} title="Give this AI a name">
        Rename
      </button>
    </>
  );
}

export function ModelTable({ models, shownId, busy, fileUrl, onShow, onActivate, onRename }: ModelTableProps) {
  return (
    <table className="ai-models">
      <thead>
        <tr>
          <th scope="col">AI</th>
          <th scope="col">Started</th>
          <th scope="col">Status</th>
          <th scope="col" className="num">Score</th>
          <th scope="col" className="num">Active AI then</th>
          <th scope="col">Why (not) active</th>
          <th scope="col">
            <span className="visually-hidden">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {models.map((m) => (
          <tr key={m.id} aria-current={m.id === shownId ? 'true' : undefined}>
            <th scope="row">
              <NameCell model={m} busy={busy === m.id} onRename={onRename} />
            </th>
            <td>
              <time dateTime={m.created_at}>{dateFormat.format(new Date(m.created_at))}</time>
            </td>
            <td>
              <Status model={m} />
            </td>
            <td className="num">{m.evaluation ? percent(m.evaluation.score) : '–'}</td>
            <td className="num" data-testid={`ai-${m.id}-active-score`}>
              {m.activation?.active_score != null ? `${percent(m.activation.active_score)} (AI #${m.activation.active_ai})` : '–'}
            </td>
            <td className="ai-activation" data-testid={`ai-${m.id}-reason`}>
              {m.activation?.reason ?? (m.status === 'queued' || m.status === 'training' ? m.stage ?? '' : '–')}
            </td>
            <td>
              <div className="ai-actions">
                {m.status === 'done' && (
                  <button type="button" aria-pressed={m.id === shownId} onClick={() => onShow(m.id)} aria-label={`Show evaluation of AI #${m.id}`}>
                    Evaluation
                  </button>
                )}
                {m.status === 'done' && !m.active && (
                  <button type="button" disabled={busy !== null} onClick={() => onActivate(m.id)} aria-label={`Make AI #${m.id} active`}>
                    {busy === m.id ? 'Switching…' : 'Make active'}
                  </button>
                )}
                {m.file_url && (
                  <a href={fileUrl(m.file_url)} download={`folio-${m.kind}-ai-${m.id}.json`} aria-label={`Download the model file of AI #${m.id}`}>
                    Download
                  </a>
                )}
              </div>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
