// After a box is drawn or a word clicked: the text found there, the label to give it, and the annotation
// set it goes into, chosen by spec 2.8 (a label set that does not repeat keeps its one set; a repeating
// one offers its sets on the document or a new one).
import { useMemo, useState } from 'react';
import type { SpanOut } from '../../api/client.ts';
import { LabelPicker, type PickerOption } from './LabelPicker.tsx';
import { Modal } from './Modal.tsx';
import { labelChoices, setsOfLabelSet, setTitle, type LabelChoice, type TreeSet } from './tree.ts';
import type { NewAnnotation } from './commands.ts';

type Option = PickerOption & { choice: LabelChoice };

interface Props {
  sets: TreeSet[];
  spans: SpanOut[];
  /** The set the reviewer is working in (the cursor's): the default for a repeating label set. */
  currentSetId: number | null;
  onCreate(input: NewAnnotation): void;
  onClose(): void;
}

export function CreateAnnotationDialog({ sets, spans, currentSetId, onCreate, onClose }: Props) {
  const options = useMemo<Option[]>(
    () => labelChoices(sets).map((choice) => ({ key: `${choice.labelSetId}:${choice.labelId}`, name: choice.labelName, detail: choice.labelSetName, choice })),
    [sets],
  );
  const [picked, setPicked] = useState<Option | null>(null);
  const [setChoice, setSetChoice] = useState<number | 'new' | null>(null);
  const text = spans.map((s) => s.offset_string).join(' ');

  const choice = picked?.choice ?? null;
  const existing = choice ? setsOfLabelSet(sets, choice.labelSetId) : [];
  // A repeating label set: the reviewer's choice, else the set they are working in, else a new one.
  const chosenSet = !choice ? null : !choice.repeats ? (existing[0]?.id ?? 'new') : (setChoice ?? (existing.some((s) => s.id === currentSetId) ? currentSetId! : 'new'));

  function submit() {
    if (!choice || chosenSet === null) return;
    const targetSet = chosenSet === 'new' ? undefined : sets.find((s) => s.id === chosenSet);
    const label = targetSet?.labels.find((l) => l.id === choice.labelId);
    onCreate({
      labelId: choice.labelId,
      labelName: choice.labelName,
      target: chosenSet === 'new' ? { labelSet: choice.labelSetId } : { annotationSet: chosenSet },
      spans,
      text,
      existing: targetSet && label ? { set: targetSet, label } : undefined,
    });
  }

  return (
    <Modal title="New annotation" onClose={onClose} className="create-dialog">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <p className="found-text">
          <span className="muted">Text: </span>
          <q>{text}</q>
          {spans.length > 1 && <span className="muted"> ({spans.length} lines)</span>}
        </p>
        <LabelPicker inputLabel="Label" options={options} picked={picked} onPick={(o) => { setPicked(o); setSetChoice(null); }} onConfirm={submit} />
        {choice && (
          <fieldset className="set-choice">
            <legend>Annotation set</legend>
            {!choice.repeats ? (
              <p className="muted">{existing.length ? `Goes into ${choice.labelSetName}.` : `Opens ${choice.labelSetName} on this document.`}</p>
            ) : (
              <>
                {existing.map((s) => (
                  <label key={s.id} className="radio">
                    <input type="radio" name="set" checked={chosenSet === s.id} onChange={() => setSetChoice(s.id)} />
                    {setTitle(sets, s)}
                  </label>
                ))}
                <label className="radio">
                  <input type="radio" name="set" checked={chosenSet === 'new'} onChange={() => setSetChoice('new')} />
                  New {choice.labelSetName}
                </label>
              </>
            )}
          </fieldset>
        )}
        <div className="modal-actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={!choice}>
            Create annotation
          </button>
        </div>
      </form>
    </Modal>
  );
}
