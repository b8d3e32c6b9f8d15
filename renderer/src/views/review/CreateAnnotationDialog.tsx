// After a box is drawn or a word clicked: the text found there, the label to give it, and the annotation
// set it goes into, chosen by spec 2.8 (a label set that does not repeat keeps its one set; a repeating
// one offers its sets on the document or a new one). A drawn box can instead be read again closer up,
// with the chosen label (the page was misread there). Where nothing can be read at all, the same dialog
// takes the value typed by the reviewer (`typed`): its field comes first and has the focus, and the label
// under the panel's cursor is chosen already, so "type, Enter" makes the annotation.
import { useId, useMemo, useRef, useState } from 'react';
import type { SpanOut } from '../../api/client.ts';
import type { Region } from '../../state/review.ts';
import type { ScreenRect } from '../../viewer/types.ts';
import { LabelPicker, type PickerOption } from './LabelPicker.tsx';
import { Modal } from './Modal.tsx';
import { labelChoices, setsOfLabelSet, setTitle, type LabelChoice, type TreeSet } from '../../state/reviewTree.ts';
import type { NewAnnotation } from './commands.ts';

type Option = PickerOption & { choice: LabelChoice };

/** Where the new annotation goes: the label and the annotation set (or the label set to open one of). */
export type AnnotationTarget = Pick<NewAnnotation, 'labelId' | 'labelName' | 'target' | 'existing'>;

interface Props {
  sets: TreeSet[];
  /** The text found (one span per line); none for a typed value. */
  spans: SpanOut[];
  /** The box drawn, when it was drawn (not a clicked word). */
  region?: Region;
  /** Nothing could be read in `region`: the reviewer types the value. */
  typed?: boolean;
  /** The set the reviewer is working in (the cursor's): the default for a repeating label set. */
  currentSetId: number | null;
  /** The label to start with (the cursor's, or the only unfilled one), as `labelSetId:labelId`. */
  initialLabelKey?: string | null;
  /** Where the box or hit is on screen: the dialog stands beside it. */
  anchor?: ScreenRect | null;
  /** The text a closer reading of `region` found, nothing written yet: creating reads it for real (`onReadAgain`). */
  preread?: string;
  onCreate(input: NewAnnotation): void;
  /** Offered for a drawn `region`: read it again closer up and label what is read there. */
  onReadAgain?(target: AnnotationTarget): void;
  onClose(): void;
}

export const labelOptionKey = (labelSetId: number, labelId: number) => `${labelSetId}:${labelId}`;

export function CreateAnnotationDialog({ sets, spans, region, typed, currentSetId, initialLabelKey, anchor, preread, onCreate, onReadAgain, onClose }: Props) {
  const options = useMemo<Option[]>(
    () => labelChoices(sets).map((choice) => ({ key: labelOptionKey(choice.labelSetId, choice.labelId), name: choice.labelName, detail: choice.labelSetName, choice })),
    [sets],
  );
  const [picked, setPicked] = useState<Option | null>(() => options.find((o) => o.key === initialLabelKey) ?? (typed && options.length === 1 ? options[0] : null));
  const [setChoice, setSetChoice] = useState<number | 'new' | null>(null);
  const [value, setValue] = useState('');
  const valueId = useId();
  const form = useRef<HTMLFormElement>(null);
  const text = typed ? value.trim() : preread !== undefined ? preread : spans.map((s) => s.offset_string).join(' ');

  const choice = picked?.choice ?? null;
  const existing = choice ? setsOfLabelSet(sets, choice.labelSetId) : [];
  // A repeating label set: the reviewer's choice, else the set they are working in, else a new one.
  const chosenSet = !choice ? null : !choice.repeats ? (existing[0]?.id ?? 'new') : (setChoice ?? (existing.some((s) => s.id === currentSetId) ? currentSetId! : 'new'));

  function target(): AnnotationTarget | null {
    if (!choice || chosenSet === null) return null;
    const targetSet = chosenSet === 'new' ? undefined : sets.find((s) => s.id === chosenSet);
    const label = targetSet?.labels.find((l) => l.id === choice.labelId);
    return {
      labelId: choice.labelId,
      labelName: choice.labelName,
      target: chosenSet === 'new' ? { labelSet: choice.labelSetId } : { annotationSet: chosenSet },
      existing: targetSet && label ? { set: targetSet, label } : undefined,
    };
  }

  const focus = (selector: string) => form.current?.querySelector<HTMLElement>(selector)?.focus();

  function submit() {
    const t = target();
    // Enter before the dialog is complete goes on to what is missing instead of doing nothing.
    if (!t) return focus('[role="combobox"]');
    if (typed && !text) return focus(`[id="${valueId}"]`);
    // Read closer up, not yet written: the region is read again for real and labelled in one request.
    if (preread !== undefined) return onReadAgain?.(t);
    if (!typed) return onCreate({ ...t, spans, text });
    if (region) onCreate({ ...t, spans: [{ page_index: region.pageIndex, x0: region.x0, x1: region.x1, y0: region.y0, y1: region.y1 }], text, typed: true });
  }

  return (
    <Modal title={typed ? 'Type the value' : 'New annotation'} onClose={onClose} className="create-dialog" anchor={anchor}>
      <form
        ref={form}
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        {typed ? (
          <div className="field">
            <label htmlFor={valueId}>Value</label>
            <input
              id={valueId}
              value={value}
              autoFocus
              data-autofocus
              autoComplete="off"
              placeholder="As it stands on the page"
              onChange={(e) => setValue(e.target.value)}
              onKeyDown={(e) => {
                if (e.key !== 'Enter') return;
                e.preventDefault();
                submit();
              }}
            />
            <span className="muted hint">Nothing could be read in the box: the annotation keeps the box and this text, marked as typed.</span>
          </div>
        ) : (
          <p className="found-text">
            <span className="muted">Text: </span>
            <q>{text}</q>
            {spans.length > 1 && <span className="muted"> ({spans.length} lines)</span>}
            {preread !== undefined && <span className="muted"> (read closer up; stored only when you create the annotation)</span>}
          </p>
        )}
        <LabelPicker inputLabel="Label" options={options} picked={picked} autoFocus={!typed} onPick={(o) => { setPicked(o); setSetChoice(null); }} onConfirm={submit} />
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
          {onReadAgain && region && !typed && preread === undefined && (
            <button
              type="button"
              disabled={!choice}
              title="The text looks misread: read the box again closer up (600 dpi) and label what is read there"
              onClick={() => {
                const t = target();
                if (t) onReadAgain(t);
              }}
            >
              Read this region again
            </button>
          )}
          <button type="submit" className="primary" disabled={!choice || (typed && !text)}>
            {typed ? 'Save typed value' : 'Create annotation'}
          </button>
        </div>
      </form>
    </Modal>
  );
}
