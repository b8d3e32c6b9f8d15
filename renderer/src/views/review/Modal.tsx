// A modal dialog on the native <dialog>: the browser traps focus inside, restores it on close, and turns
// Escape into a cancel, which closes through `onClose` so the owner's state stays the truth.
// The field to type into is marked `data-autofocus`: React's autoFocus focuses it before this effect runs
// showModal(), whose own focusing then moved the focus to the first button (the ×), so typing went nowhere.
import { useEffect, useId, useRef, type ReactNode } from 'react';

export function Modal({ title, onClose, children, className }: { title: string; onClose(): void; children: ReactNode; className?: string }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (!dialog.open) dialog.showModal();
    dialog.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    return () => dialog.close();
  }, []);

  return (
    <dialog
      ref={ref}
      className={`modal ${className ?? ''}`}
      aria-labelledby={titleId}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      <header className="modal-head">
        <h2 id={titleId}>{title}</h2>
        <button type="button" className="icon" aria-label="Close" onClick={onClose}>
          ×
        </button>
      </header>
      {children}
    </dialog>
  );
}
