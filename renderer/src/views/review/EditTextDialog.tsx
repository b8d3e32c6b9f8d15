// Correcting an annotation's text where the page was read wrongly (a custom offset string, spec 2.10): one
// field per line the annotation covers, since the API keeps the text per span.
import { useId, useState } from 'react';
import type { AnnotationOut } from '../../api/client.ts';
import { Modal } from './Modal.tsx';

export function EditTextDialog({ annotation, onSave, onClose }: { annotation: AnnotationOut; onSave(texts: string[]): void; onClose(): void }) {
  const [texts, setTexts] = useState(() => annotation.span.map((s) => s.offset_string));
  const id = useId();
  const empty = texts.some((t) => !t.trim());
  const unchanged = texts.every((t, i) => t === annotation.span[i].offset_string);

  return (
    <Modal title={`Edit text of ${annotation.label.name}`} onClose={onClose}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (!empty && !unchanged) onSave(texts);
        }}
      >
        {annotation.span.map((s, i) => (
          <div key={i} className="field">
            <label htmlFor={`${id}-${i}`}>{annotation.span.length === 1 ? 'Text' : `Line ${i + 1}`}</label>
            <input
              id={`${id}-${i}`}
              value={texts[i]}
              autoFocus={i === 0}
              data-autofocus={i === 0 || undefined}
              aria-invalid={!texts[i].trim()}
              onChange={(e) => setTexts(texts.map((t, j) => (j === i ? e.target.value : t)))}
            />
            <span className="muted hint">Read from the page: “{s.offset_string_original}”</span>
          </div>
        ))}
        {empty && <p className="error">A line cannot be empty. To remove the annotation, decline or delete it.</p>}
        <div className="modal-actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={empty || unchanged}>
            Save text
          </button>
        </div>
      </form>
    </Modal>
  );
}
