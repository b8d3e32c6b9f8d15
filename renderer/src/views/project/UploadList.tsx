// This window's uploads to the project, one row each: a bar that fills while the bytes go and then
// step by step while Folio processes the document, the state by name, and where it ended.
import { isActive, useDocuments, type UploadItem } from '../../state/documents.ts';

/** How far along a processing status is: the bar's second half, one step per stage. */
const STAGE: Record<number, number> = { 0: 0.55, 10: 0.65, 4: 0.72, 40: 0.76, 3: 0.8, 30: 0.84, 1: 0.88, 20: 0.94 };

function fraction(u: UploadItem): number {
  switch (u.phase) {
    case 'queued':
      return 0;
    case 'uploading':
      return u.size ? (0.5 * u.sent) / u.size : 0;
    case 'processing':
      return STAGE[u.status?.[0] ?? 0] ?? 0.6;
    case 'cancelled':
      return 0;
    default:
      return 1;
  }
}

function describe(u: UploadItem): string {
  switch (u.phase) {
    case 'queued':
      return 'Waiting to upload';
    case 'uploading':
      return `Uploading ${Math.floor((100 * u.sent) / (u.size || 1))} %`;
    case 'processing':
      return u.status?.[1] ?? 'Processing';
    case 'done':
      return 'Done';
    case 'waiting':
      return u.status?.[1] ?? 'Waiting for splitting confirmation';
    case 'failed':
      return u.status ? `${u.status[1]}: ${u.message}` : (u.message ?? 'Failed');
    case 'rejected':
      return `Not uploaded: ${u.message}`;
    case 'cancelled':
      return 'Cancelled';
  }
}

const sizeFormat = new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 });
function fileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${sizeFormat.format(bytes / 1024)} KB`;
  return `${sizeFormat.format(bytes / 1024 / 1024)} MB`;
}

export function UploadList({ projectId }: { projectId: number }) {
  const uploads = useDocuments((s) => s.uploads).filter((u) => u.projectId === projectId);
  const { cancelUpload, clearFinished } = useDocuments.getState();
  if (!uploads.length) return null;

  const running = uploads.filter((u) => isActive(u.phase)).length;
  return (
    <section className="card uploads" aria-labelledby="uploads-title">
      <div className="uploads-head">
        <h2 id="uploads-title">Uploads</h2>
        <span className="muted" aria-live="polite">
          {running ? `${running} of ${uploads.length} still running` : `All ${uploads.length} finished`}
        </span>
        <span className="spacer" />
        {running < uploads.length && (
          <button type="button" onClick={() => clearFinished(projectId)}>
            Clear finished
          </button>
        )}
      </div>
      <ul className="upload-list">
        {uploads.map((u) => (
          <UploadRow key={u.key} upload={u} onCancel={() => cancelUpload(u.key)} />
        ))}
      </ul>
    </section>
  );
}

function UploadRow({ upload: u, onCancel }: { upload: UploadItem; onCancel(): void }) {
  const text = describe(u);
  const percent = Math.round(100 * fraction(u));
  const bad = u.phase === 'failed' || u.phase === 'rejected';
  return (
    <li className={`upload-row phase-${u.phase}`} data-testid="upload">
      <span className="upload-name" title={u.fileName}>
        {u.fileName}
      </span>
      <span className="muted upload-size">{fileSize(u.size)}</span>
      <div className="bar" role="progressbar" aria-label={`Progress of ${u.fileName}`} aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent} aria-valuetext={text}>
        {/* scaleX, not width: the bar moves without the row's layout being computed again */}
        <div className="bar-fill" style={{ transform: `scaleX(${percent / 100})` }} />
      </div>
      <span className={bad ? 'upload-state error' : 'upload-state'}>{text}</span>
      <span className="upload-action">
        {(u.phase === 'queued' || u.phase === 'uploading') && (
          <button type="button" aria-label={`Cancel upload of ${u.fileName}`} onClick={onCancel}>
            Cancel
          </button>
        )}
        {u.documentId !== null && !isActive(u.phase) && u.phase !== 'cancelled' && (
          <a href={u.phase === 'waiting' ? `#/documents/${u.documentId}/edit` : `#/documents/${u.documentId}`} aria-label={`Open ${u.fileName}`}>
            {u.phase === 'waiting' ? 'Check the split' : 'Open'}
          </a>
        )}
      </span>
    </li>
  );
}
