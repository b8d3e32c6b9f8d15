// A searchable list of labels (a combobox): type to filter, arrows to move, Enter or a click to pick, and
// 1-9 (before any filter is typed) pick the numbered label. The reviewer reaches any label of a long list
// in a few keys without the mouse; the active label scrolls into view (line-item labels sit far down).
import { useEffect, useId, useMemo, useRef, useState } from 'react';

export interface PickerOption {
  key: string;
  name: string;
  /** A second line, e.g. the label set, also searched. */
  detail?: string;
}

interface Props<T extends PickerOption> {
  options: T[];
  picked: T | null;
  onPick(option: T): void;
  /** Enter on an option that is already picked: the dialog's main action. */
  onConfirm?(): void;
  inputLabel: string;
  /** Whether typing goes here when the dialog opens (default); false where another field comes first. */
  autoFocus?: boolean;
}

export function LabelPicker<T extends PickerOption>({ options, picked, onPick, onConfirm, inputLabel, autoFocus = true }: Props<T>) {
  const [query, setQuery] = useState('');
  // A label chosen already (the dialog's default) is where the arrows start, so Enter there confirms it.
  const [active, setActive] = useState(() => Math.max(0, options.findIndex((o) => o.key === picked?.key)));
  const listId = useId();
  const inputId = useId();

  const shown = useMemo(() => {
    const q = query.trim().toLowerCase();
    return q ? options.filter((o) => o.name.toLowerCase().includes(q) || (o.detail ?? '').toLowerCase().includes(q)) : options;
  }, [options, query]);
  const current = Math.min(active, shown.length - 1);
  const list = useRef<HTMLUListElement>(null);
  useEffect(() => {
    list.current?.querySelector<HTMLElement>(`[id="${listId}-${current}"]`)?.scrollIntoView({ block: 'nearest' });
  }, [current, listId, shown]);

  return (
    <div className="label-picker">
      <label htmlFor={inputId}>{inputLabel}</label>
      <input
        id={inputId}
        type="search"
        role="combobox"
        aria-expanded="true"
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={shown.length ? `${listId}-${current}` : undefined}
        autoComplete="off"
        autoFocus={autoFocus}
        data-autofocus={autoFocus || undefined}
        value={query}
        placeholder="Type to filter"
        onChange={(e) => {
          setQuery(e.target.value);
          setActive(0);
        }}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
            e.preventDefault();
            setActive(Math.max(0, Math.min(shown.length - 1, current + (e.key === 'ArrowDown' ? 1 : -1))));
          } else if (/^[1-9]$/.test(e.key) && query === '' && !e.ctrlKey && !e.metaKey && !e.altKey) {
            // Digits filter nothing yet: they pick the numbered label (a second press of it confirms).
            const n = Number(e.key) - 1;
            const option = shown[n];
            if (!option) return;
            e.preventDefault();
            setActive(n);
            if (picked?.key === option.key) onConfirm?.();
            else onPick(option);
          } else if (e.key === 'Enter') {
            e.preventDefault();
            const option = shown[current];
            if (option && picked?.key === option.key) onConfirm?.();
            else if (option) onPick(option);
          }
        }}
      />
      <ul ref={list} id={listId} role="listbox" aria-label="Matching labels" className="picker-list">
        {shown.map((o, i) => (
          <li
            key={o.key}
            id={`${listId}-${i}`}
            role="option"
            aria-selected={picked?.key === o.key}
            className={i === current ? 'active' : undefined}
            onMouseDown={(e) => e.preventDefault() /* keep the focus in the search field */}
            onClick={() => {
              setActive(i);
              onPick(o);
            }}
          >
            <span className="picker-name">
              {query === '' && i < 9 && <kbd className="picker-key" aria-hidden="true">{i + 1}</kbd>}
              {o.name}
            </span>
            {o.detail && <span className="muted picker-detail">{o.detail}</span>}
          </li>
        ))}
        {!shown.length && <li className="muted picker-empty">No label matches “{query}”.</li>}
      </ul>
    </div>
  );
}
