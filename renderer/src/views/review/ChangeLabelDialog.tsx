// Giving an annotation another label: the labels of its own annotation set (the API keeps it in that set).
import { useMemo, useState } from 'react';
import { LabelPicker, type PickerOption } from './LabelPicker.tsx';
import { Modal } from './Modal.tsx';
import type { TreeLabel, TreeSet } from '../../state/reviewTree.ts';

type Option = PickerOption & { label: TreeLabel };

export function ChangeLabelDialog({ set, current, text, onPick, onClose }: { set: TreeSet; current: TreeLabel; text: string; onPick(label: TreeLabel): void; onClose(): void }) {
  const options = useMemo<Option[]>(() => set.labels.filter((l) => l.id !== current.id).map((l) => ({ key: String(l.id), name: l.name, detail: l.status, label: l })), [set, current]);
  const [picked, setPicked] = useState<Option | null>(null);
  return (
    <Modal title={`Change the label of “${text}”`} onClose={onClose}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (picked) onPick(picked.label);
        }}
      >
        <p className="muted">Now {current.name}. The labels of {set.label_set.name}:</p>
        <LabelPicker<Option> inputLabel="New label" options={options} picked={picked} onPick={setPicked} onConfirm={() => picked && onPick(picked.label)} />
        <div className="modal-actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={!picked}>
            Change label
          </button>
        </div>
      </form>
    </Modal>
  );
}
