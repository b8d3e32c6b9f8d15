// Label sets beyond the categories' own: a group of labels used by some categories, and whether a
// document can hold it several times ("repeats", e.g. one set per line item or per employee).
import { useState, type FormEvent } from 'react';
import type { LabelSetOut } from '../../api/client.ts';
import { useTaxonomy } from '../../state/taxonomy.ts';
import { CheckboxGroup } from './CheckboxGroup.tsx';
import { ConfirmDelete } from './ConfirmDelete.tsx';
import { FieldError } from './FieldError.tsx';
import { invalid, useSubmit } from './useSubmit.ts';

export function LabelSetsSection() {
  const { labelSets, categories, labels } = useTaxonomy();
  const [editing, setEditing] = useState<number | null>(null);
  // The row last edited: its Edit button takes focus back when the form closes.
  const [returnTo, setReturnTo] = useState<number | null>(null);
  const stopEditing = () => {
    setReturnTo(editing);
    setEditing(null);
  };
  // A category's own label set is edited through the category and its labels, not here.
  const sets = labelSets.filter((s) => !s.is_default);
  const categoryNames = new Map(categories.map((c) => [c.id, c.name]));
  const labelNames = new Map(labels.map((l) => [l.id, l.name]));
  const namesOf = (ids: number[], names: Map<number, string>) => ids.map((id) => names.get(id) ?? `#${id}`).join(', ');

  return (
    <section className="card setup-card" aria-labelledby="label-sets-title">
      <h2 id="label-sets-title">Label sets</h2>
      <p className="muted">Groups of labels shared by categories. A repeating set can occur several times in one document.</p>
      {sets.length > 0 && (
        <ul className="setup-list">
          {sets.map((s) =>
            editing === s.id ? (
              <li key={s.id} className="setup-item editing">
                <LabelSetForm labelSet={s} onDone={stopEditing} />
              </li>
            ) : (
              <li key={s.id} className="setup-item">
                <div className="setup-item-main">
                  <span className="item-name">{s.name}</span>
                  {s.has_multiple_sections && <span className="tag">Repeats</span>}
                  <span className="muted item-detail">
                    {s.categories.length ? `For ${namesOf(s.categories, categoryNames)}` : 'For no category'}
                    {' · '}
                    {s.labels.length ? `Labels: ${namesOf(s.labels, labelNames)}` : 'No labels'}
                  </span>
                </div>
                <div className="item-actions">
                  <button type="button" autoFocus={returnTo === s.id} aria-label={`Edit label set ${s.name}`} onClick={() => setEditing(s.id)}>
                    Edit
                  </button>
                  <ConfirmDelete what={`label set ${s.name}`} question={`Delete the label set “${s.name}”? Its labels stay.`} onConfirm={() => useTaxonomy.getState().deleteLabelSet(s.id)} />
                </div>
              </li>
            ),
          )}
        </ul>
      )}
      <h3>New label set</h3>
      <LabelSetForm labelSet={null} onDone={() => undefined} />
    </section>
  );
}

const FIELDS = ['name', 'categories', 'labels', 'has_multiple_sections'] as const;

function LabelSetForm({ labelSet, onDone }: { labelSet: LabelSetOut | null; onDone(): void }) {
  const { categories, labels, createLabelSet, updateLabelSet } = useTaxonomy();
  const [name, setName] = useState(labelSet?.name ?? '');
  const [repeats, setRepeats] = useState(labelSet?.has_multiple_sections ?? false);
  const [chosenCategories, setChosenCategories] = useState<number[]>(labelSet?.categories ?? []);
  const [chosenLabels, setChosenLabels] = useState<number[]>(labelSet?.labels ?? []);
  const submit = useSubmit(FIELDS);
  const prefix = labelSet ? `label-set-${labelSet.id}` : 'new-label-set';

  async function save(e: FormEvent) {
    e.preventDefault();
    const body = { name, has_multiple_sections: repeats, categories: chosenCategories, labels: chosenLabels };
    const ok = await submit.run(() => (labelSet ? updateLabelSet(labelSet.id, body) : createLabelSet(body)));
    if (!ok) return;
    if (!labelSet) {
      setName('');
      setRepeats(false);
      setChosenCategories([]);
      setChosenLabels([]);
    }
    onDone();
  }

  return (
    <form className="setup-form" onSubmit={save} onKeyDown={(e) => labelSet && e.key === 'Escape' && onDone()} aria-label={labelSet ? `Edit label set ${labelSet.name}` : 'New label set'}>
      <div className="form-row">
        <div className="field">
          <label htmlFor={`${prefix}-name`}>Label set name</label>
          <input id={`${prefix}-name`} autoFocus={!!labelSet} value={name} onChange={(e) => setName(e.target.value)} {...invalid(`${prefix}-name`, submit.fieldError('name'))} />
          <FieldError id={`${prefix}-name`} error={submit.fieldError('name')} />
        </div>
        <label className="choice repeats" htmlFor={`${prefix}-repeats`}>
          <input id={`${prefix}-repeats`} type="checkbox" checked={repeats} onChange={(e) => setRepeats(e.target.checked)} />
          Repeats (several per document)
        </label>
      </div>
      <CheckboxGroup
        id={`${prefix}-categories`}
        legend="Used by categories"
        choices={categories.map((c) => ({ id: c.id, name: c.name }))}
        value={chosenCategories}
        onChange={setChosenCategories}
        empty="No categories yet."
        error={submit.fieldError('categories')}
      />
      <CheckboxGroup
        id={`${prefix}-labels`}
        legend="Labels in this set"
        choices={labels.map((l) => ({ id: l.id, name: l.name }))}
        value={chosenLabels}
        onChange={setChosenLabels}
        empty="No labels yet: add labels below, then tick them here (or pick this set in the label)."
        error={submit.fieldError('labels')}
      />
      {submit.formError && (
        <p className="error" role="alert">
          {submit.formError}
        </p>
      )}
      <div className="actions">
        <button type="submit" className={labelSet ? 'primary' : undefined} disabled={submit.busy}>
          {labelSet ? 'Save label set' : 'Add label set'}
        </button>
        {labelSet && (
          <button type="button" onClick={onDone}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}
