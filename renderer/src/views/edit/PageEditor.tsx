// Edit mode proper: the toolbar, the page strip and the resulting documents, and Confirm / Reject
// proposal, which send the post-process. Nothing reaches the API before Confirm; errors stay in place.
import { useMemo, useState } from 'react';
import { useSession, useClient } from '../../state/session.ts';
import type { DocumentOut, PostprocessInput } from '../../api/client.ts';
import { reasonOf } from '../ai/reason.ts';
import { initialState, isUnchanged, keepWhole, toPostprocess } from './pageSequence.ts';
import { usePageEditor } from './usePageEditor.ts';
import { PageStrip } from './PageStrip.tsx';
import { PartsPanel } from './PartsPanel.tsx';
import type { EditData } from './useEditDocument.ts';

export function PageEditor({ data, onDone }: { data: EditData; onDone(results: DocumentOut[]): void }) {
  const { document, pages, categories } = data;
  const call = useSession((s) => s.call);
  const client = useClient();
  const proposal = document.status_data === 41 ? document.proposed_split : null;
  const editor = usePageEditor(() => initialState(pages, document.category, proposal));
  const [busy, setBusy] = useState<'confirm' | 'reject' | null>(null);
  const [error, setError] = useState<string | null>(null);

  const all = useMemo(() => new Set(pages.map((p) => p.id)), [pages]);
  const { selected, parts } = editor;
  const none = selected.size === 0;

  async function send(kind: 'confirm' | 'reject', body: PostprocessInput[]): Promise<void> {
    setBusy(kind);
    setError(null);
    try {
      onDone(await call((c) => c.postprocess(document.id, body)));
    } catch (err) {
      setError(reasonOf(err));
      setBusy(null);
    }
  }

  const confirmLabel = parts.length > 1 ? `Confirm: ${parts.length} documents` : isUnchanged(editor.seq) ? 'Confirm: keep as it is' : 'Confirm';
  return (
    <div className="edit-layout">
      <section className="edit-pages" aria-label="Pages">
        <div className="edit-toolbar" role="toolbar" aria-label="Page actions">
          <span className="toolbar-group">
            <button type="button" disabled={none} onClick={() => editor.turn(selected, -1)}>
              ↺ Turn selected left
            </button>
            <button type="button" disabled={none} onClick={() => editor.turn(selected, 1)}>
              ↻ Turn selected right
            </button>
          </span>
          <span className="toolbar-group">
            <button type="button" onClick={() => editor.turn(all, -1)}>
              ↺ Turn all left
            </button>
            <button type="button" onClick={() => editor.turn(all, 1)}>
              ↻ Turn all right
            </button>
          </span>
          <span className="toolbar-group">
            <button type="button" disabled={none} onClick={() => editor.move(selected, -1)}>
              ← Move left
            </button>
            <button type="button" disabled={none} onClick={() => editor.move(selected, 1)}>
              Move right →
            </button>
          </span>
          <span className="toolbar-group">
            <button type="button" onClick={editor.selectAll}>
              Select all
            </button>
            <button type="button" disabled={none} onClick={editor.clearSelection}>
              Clear selection
            </button>
            <button type="button" onClick={editor.reset}>
              Start over
            </button>
          </span>
        </div>
        <p className="muted edit-hint">
          {selected.size ? `${selected.size} of ${pages.length} pages selected. ` : `${pages.length} ${pages.length === 1 ? 'page' : 'pages'}. `}
          Shift- or Ctrl-click to select more; drag to re-order; ✂ between pages splits. Keys on a page: arrows, Ctrl+Space select, Alt+arrows move, R / Shift+R turn, S split.
        </p>
        <PageStrip editor={editor} thumbnailUrl={client.thumbnailUrl} />
      </section>
      <aside className="edit-parts" aria-labelledby="edit-parts-title">
        <h2 id="edit-parts-title">{parts.length === 1 ? 'One document' : `${parts.length} documents`}</h2>
        {proposal && <p className="notice">The splitting AI proposes {proposal.length === 1 ? 'one document' : `${proposal.length} documents`}: check the splits, then confirm or reject.</p>}
        <PartsPanel parts={parts} categories={categories} fileName={document.data_file_name} disabled={busy !== null} onChange={editor.setMeta} />
        <div className="edit-actions">
          <button type="button" className="primary" disabled={busy !== null} onClick={() => void send('confirm', toPostprocess(editor.seq))}>
            {busy === 'confirm' ? 'Sending…' : confirmLabel}
          </button>
          {proposal && (
            <button type="button" disabled={busy !== null} onClick={() => void send('reject', keepWhole(pages))}>
              {busy === 'reject' ? 'Sending…' : 'Reject proposal'}
            </button>
          )}
        </div>
        <div className="status" aria-live="polite">
          {error && (
            <p className="error" role="alert">
              {error}
            </p>
          )}
        </div>
      </aside>
    </div>
  );
}
