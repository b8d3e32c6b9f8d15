// What to do with the selected documents: dataset status (what AIs learn from and are tested on), category,
// assignee, read again, extract again, delete. Each choice applies at once to every selected document.
import type { CategoryOut, MemberOut } from '../../api/client.ts';
import { DATASET_STATUS_NAMES } from '../../state/documents.ts';
import { plural, type DocumentAction } from './documentActions.ts';

interface Props {
  count: number;
  categories: CategoryOut[];
  members: MemberOut[];
  busy: boolean;
  onAction(action: DocumentAction): void;
  onClear(): void;
}

export function BulkBar({ count, categories, members, busy, onAction, onClear }: Props) {
  return (
    <div className="bulk-bar card" role="toolbar" aria-label="Actions for the selected documents" aria-busy={busy}>
      <strong>{plural(count, 'document')} selected</strong>
      <Choice
        id="bulk-dataset"
        label="Dataset status"
        disabled={busy}
        choices={DATASET_STATUS_NAMES.map((n, i): [string, string] => [String(i), n])}
        onPick={(v) => onAction({ kind: 'dataset', value: Number(v) })}
      />
      <Choice
        id="bulk-category"
        label="Category"
        disabled={busy}
        choices={[['none', 'None'], ...categories.map((c): [string, string] => [String(c.id), c.name])]}
        onPick={(v) => onAction({ kind: 'category', value: v === 'none' ? null : Number(v) })}
      />
      <Choice
        id="bulk-assignee"
        label="Assignee"
        disabled={busy}
        choices={[['none', 'Nobody'], ...members.map((m): [string, string] => [m.email, m.email])]}
        onPick={(v) => onAction({ kind: 'assignee', value: v === 'none' ? null : v })}
      />
      <button type="button" disabled={busy} onClick={() => onAction({ kind: 'read-again' })}>
        Read again
      </button>
      <button type="button" disabled={busy} onClick={() => onAction({ kind: 'extract-again' })}>
        Extract again
      </button>
      <button type="button" className="danger-quiet" disabled={busy} onClick={() => onAction({ kind: 'delete' })}>
        Delete…
      </button>
      <button type="button" className="link" onClick={onClear}>
        Clear selection
      </button>
    </div>
  );
}

/** A select that acts when a value is picked and then shows its label again ("Set dataset status…"). */
function Choice({ id, label, choices, disabled, onPick }: { id: string; label: string; choices: [string, string][]; disabled: boolean; onPick(v: string): void }) {
  return (
    <>
      <label htmlFor={id} className="visually-hidden">
        Set {label.toLowerCase()} of the selected documents
      </label>
      <select id={id} value="" disabled={disabled} onChange={(e) => e.target.value && onPick(e.target.value)}>
        <option value="">Set {label.toLowerCase()}…</option>
        {choices.map(([v, name]) => (
          <option key={v} value={v}>
            {name}
          </option>
        ))}
      </select>
    </>
  );
}
