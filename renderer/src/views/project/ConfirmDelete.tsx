// A delete button that asks first, in place (no modal): the question names what goes and what stays,
// focus moves to the confirming button, and Cancel or Escape puts it back.
import { useEffect, useRef, useState } from 'react';

interface Props {
  /** What is deleted, for the button's accessible name ("Delete category Invoice"). */
  what: string;
  /** The consequence, said before the reviewer confirms. */
  question: string;
  onConfirm(): Promise<unknown>;
}

export function ConfirmDelete({ what, question, onConfirm }: Props) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const openRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (asking) confirmRef.current?.focus();
  }, [asking]);

  function cancel() {
    setAsking(false);
    setError(null);
    // The open button is rendered again on the next frame; give focus back to it then.
    requestAnimationFrame(() => openRef.current?.focus());
  }

  async function confirm() {
    setBusy(true);
    setError(null);
    try {
      await onConfirm();
      // The item usually leaves the list, and this component with it; if it stays, ask afresh next time.
      setAsking(false);
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  }

  if (!asking) {
    return (
      <button ref={openRef} type="button" className="danger-quiet" aria-label={`Delete ${what}`} onClick={() => setAsking(true)}>
        Delete
      </button>
    );
  }
  return (
    <div className="confirm" role="group" aria-label={`Delete ${what}?`} onKeyDown={(e) => e.key === 'Escape' && cancel()}>
      <span>{question}</span>
      <button ref={confirmRef} type="button" className="danger" disabled={busy} onClick={() => void confirm()}>
        {busy ? 'Deleting…' : 'Delete'}
      </button>
      <button type="button" disabled={busy} onClick={cancel}>
        Cancel
      </button>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
