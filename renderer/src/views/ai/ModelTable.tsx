// Every model of a scope, newest first: its status (the active one badged), its score, and buttons to show
// its evaluation, make it the active model, and download its file.
import type { AiOut } from '../../api/client.ts';
import { percent } from './evaluation.ts';

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

interface ModelTableProps {
  models: AiOut[];
  shownId: number | null;
  busy: 'train' | number | null;
  fileUrl(path: string): string;
  onShow(id: number): void;
  onActivate(id: number): void;
}

export const modelName = (m: AiOut) => (m.name ? `AI #${m.id} (${m.name})` : `AI #${m.id}`);

function Status({ model }: { model: AiOut }) {
  if (model.active) return <span className="badge badge-active">Active</span>;
  if (model.status === 'done') return <span className="badge">Done</span>;
  if (model.status === 'failed') return <span className="badge badge-failed">Failed</span>;
  return <span className="badge">{model.status === 'queued' ? 'Queued' : `Training ${model.progress} %`}</span>;
}

export function ModelTable({ models, shownId, busy, fileUrl, onShow, onActivate }: ModelTableProps) {
  return (
    <table className="ai-models">
      <thead>
        <tr>
          <th scope="col">AI</th>
          <th scope="col">Started</th>
          <th scope="col">Status</th>
          <th scope="col" className="num">Score</th>
          <th scope="col">
            <span className="visually-hidden">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {models.map((m) => (
          <tr key={m.id} aria-current={m.id === shownId ? 'true' : undefined}>
            <th scope="row">
              {modelName(m)}
              {m.origin === 'uploaded' && <span className="muted"> · uploaded</span>}
            </th>
            <td>
              <time dateTime={m.created_at}>{dateFormat.format(new Date(m.created_at))}</time>
            </td>
            <td>
              <Status model={m} />
            </td>
            <td className="num">{m.evaluation ? percent(m.evaluation.score) : '–'}</td>
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
