// The project's labels: what a reviewer annotates, each with a data type (how its text is read as a
// value) and the label sets it is in (a category's own labels, or those of a label set such as line items).
import { useState, type FormEvent } from 'react';
import type { LabelOut, LabelSetOut } from '../../api/client.ts';
import { useTaxonomy } from '../../state/taxonomy.ts';
import { CheckboxGroup, type Choice } from './CheckboxGroup.tsx';
import { ConfirmDelete } from './ConfirmDelete.tsx';
import { FieldError } from './FieldError.tsx';
import { invalid, useSubmit } from './useSubmit.ts';

export function LabelsSection() {
  const { labels, labelSets } = useTaxonomy();
  const [editing, setEditing] = useState<number | null>(null);
  // The row last edited: its Edit button takes focus back when the form closes.
  const [returnTo, setReturnTo] = useState<number | null>(null);
  const stopEditing = () => {
    setReturnTo(editing);
    setEditing(null);
  };
  const names = new Map(labelSets.map((s) => [s.id, s.name]));

  return (
    <section className="card setup-card" aria-labelledby="labels-title">
      <h2 id="labels-title">Labels</h2>
      <p className="muted">A label names one piece of information to extract, such as a date or a total.</p>
      {labels.length > 0 && (
        <ul className="setup-list">
          {labels.map((l) =>
            editing === l.id ? (
              <li key={l.id} className="setup-item editing">
                <LabelForm label={l} onDone={stopEditing} />
              </li>
            ) : (
              <LabelRow key={l.id} label={l} setNames={l.label_sets.map((id) => names.get(id) ?? `#${id}`)} focus={returnTo === l.id} onEdit={() => setEditing(l.id)} />
            ),
          )}
        </ul>
      )}
      <h3>New label</h3>
      <LabelForm label={null} onDone={() => undefined} />
    </section>
  );
}

function LabelRow({ label, setNames, focus, onEdit }: { label: LabelOut; setNames: string[]; focus: boolean; onEdit(): void }) {
  const deleteLabel = useTaxonomy((s) => s.deleteLabel);
  return (
    <li className="setup-item">
      <div className="setup-item-main">
        <span className="item-name">{label.name}</span>
        <span className="tag">{label.data_type}</span>
        <span className="muted item-detail">{setNames.length ? `In ${setNames.join(', ')}` : 'In no label set'}</span>
      </div>
      <div className="item-actions">
        <button type="button" autoFocus={focus} aria-label={`Edit label ${label.name}`} onClick={onEdit}>
          Edit
        </button>
        <ConfirmDelete what={`label ${label.name}`} question={`Delete “${label.name}” and its annotations?`} onConfirm={() => deleteLabel(label.id)} />
      </div>
    </li>
  );
}

/** The label sets a label can be in: the categories' own first, then the others. */
export function labelSetChoices(labelSets: LabelSetOut[]): Choice[] {
  const own = labelSets.filter((s) => s.is_default).map((s) => ({ id: s.id, name: s.name, note: 'category' }));
  const others = labelSets.filter((s) => !s.is_default).map((s) => ({ id: s.id, name: s.name, note: s.has_multiple_sections ? 'repeats' : undefined }));
  return [...own, ...others];
}

// The API's data types (compat.md). Spelled out here rather than imported from shared/schemas, which
// would pull zod into the page; the Record's type makes a missing or extra one a compile error.
const DATA_TYPE_KEYS: Record<LabelOut['data_type'], true> = { Text: true, Number: true, 'Positive Number': true, Percentage: true, Date: true, 'True/False': true };
const DATA_TYPES = Object.keys(DATA_TYPE_KEYS) as LabelOut['data_type'][];

const FIELDS = ['name', 'text', 'data_type', 'label_sets'] as const;

/** Creates a label (label null) or changes one; the new-label form empties itself after each. */
function LabelForm({ label, onDone }: { label: LabelOut | null; onDone(): void }) {
  const { labelSets, createLabel, updateLabel } = useTaxonomy();
  const [name, setName] = useState(label?.name ?? '');
  const [dataType, setDataType] = useState<string>(label?.data_type ?? 'Text');
  const [sets, setSets] = useState<number[]>(label?.label_sets ?? []);
  const submit = useSubmit(FIELDS);
  const prefix = label ? `label-${label.id}` : 'new-label';

  async function save(e: FormEvent) {
    e.preventDefault();
    const body = { name, data_type: dataType, label_sets: sets };
    const ok = await submit.run(() => (label ? updateLabel(label.id, body) : createLabel(body)));
    if (!ok) return;
    if (!label) {
      setName('');
      setSets([]);
    }
    onDone();
  }

  const nameError = submit.fieldError('name') ?? submit.fieldError('text');
  return (
    <form className="setup-form" onSubmit={save} onKeyDown={(e) => label && e.key === 'Escape' && onDone()} aria-label={label ? `Edit label ${label.name}` : 'New label'}>
      <div className="form-row">
        <div className="field">
          <label htmlFor={`${prefix}-name`}>Label name</label>
          <input id={`${prefix}-name`} autoFocus={!!label} value={name} onChange={(e) => setName(e.target.value)} {...invalid(`${prefix}-name`, nameError)} />
          <FieldError id={`${prefix}-name`} error={nameError} />
        </div>
        <div className="field">
          <label htmlFor={`${prefix}-type`}>Data type</label>
          <select id={`${prefix}-type`} value={dataType} onChange={(e) => setDataType(e.target.value)} {...invalid(`${prefix}-type`, submit.fieldError('data_type'))}>
            {DATA_TYPES.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
          <FieldError id={`${prefix}-type`} error={submit.fieldError('data_type')} />
        </div>
      </div>
      <CheckboxGroup
        id={`${prefix}-sets`}
        legend="In label sets"
        choices={labelSetChoices(labelSets)}
        value={sets}
        onChange={setSets}
        empty="Add a category or a label set first."
        error={submit.fieldError('label_sets')}
      />
      {submit.formError && (
        <p className="error" role="alert">
          {submit.formError}
        </p>
      )}
      <div className="actions">
        <button type="submit" className={label ? 'primary' : undefined} disabled={submit.busy}>
          {label ? 'Save label' : 'Add label'}
        </button>
        {label && (
          <button type="button" onClick={onDone}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}
