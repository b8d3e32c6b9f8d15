// A modal dialog on the native <dialog>: the browser traps focus inside, restores it on close, and turns
// Escape into a cancel, which closes through `onClose` so the owner's state stays the truth.
// The field to type into is marked `data-autofocus`: React's autoFocus focuses it before this effect runs
// showModal(), whose own focusing then moved the focus to the first button (the ×), so typing went nowhere.
// With `anchor` (a box on the page the dialog is about) the dialog stands beside it instead of over it.
import { useCallback, useEffect, useId, useLayoutEffect, useRef, type ReactNode } from 'react';
import type { ScreenRect } from '../../viewer/types.ts';
import { placeBeside } from './placeDialog.ts';

interface Props {
  title: string;
  onClose(): void;
  children: ReactNode;
  className?: string;
  anchor?: ScreenRect | null;
}

export function Modal({ title, onClose, children, className, anchor }: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();

  const anchorRef = useRef(anchor);
  anchorRef.current = anchor;
  /** Beside the anchor, by the dialog's size now (it is only measurable once open). */
  const place = useCallback(() => {
    const dialog = ref.current;
    const box = anchorRef.current;
    if (!dialog?.open || !box) return;
    const { width, height } = dialog.getBoundingClientRect();
    const at = placeBeside(box, { width, height }, { width: window.innerWidth, height: window.innerHeight });
    Object.assign(dialog.style, { margin: '0', inset: 'auto', left: `${Math.round(at.left)}px`, top: `${Math.round(at.top)}px` });
  }, []);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (!dialog.open) dialog.showModal();
    place();
    dialog.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    // The dialog grows and shrinks (a label chosen shows the set choice): it stays clear of the box.
    const resized = new ResizeObserver(place);
    resized.observe(dialog);
    return () => {
      resized.disconnect();
      dialog.close();
    };
  }, [place]);

  useLayoutEffect(place);

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
