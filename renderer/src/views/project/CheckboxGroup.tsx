// Picks several of a few named things (label sets of a label, categories and labels of a label set):
// a fieldset of checkboxes, which a keyboard reaches with Tab and toggles with Space.
import { FieldError } from './FieldError.tsx';

export interface Choice {
  id: number;
  name: string;
  /** A short note after the name, e.g. "category". */
  note?: string;
}

interface Props {
  /** Unique in the page: the checkboxes' ids derive from it. */
  id: string;
  legend: string;
  choices: Choice[];
  value: number[];
  onChange(value: number[]): void;
  /** Shown instead of the checkboxes when there is nothing to choose. */
  empty: string;
  error?: string | null;
}

export function CheckboxGroup({ id, legend, choices, value, onChange, empty, error = null }: Props) {
  const toggle = (choice: number, on: boolean) => onChange(on ? [...value, choice] : value.filter((v) => v !== choice));
  return (
    <fieldset className="choices" aria-invalid={error ? true : undefined} aria-describedby={error ? `${id}-error` : undefined}>
      <legend>{legend}</legend>
      {choices.length === 0 && <p className="muted">{empty}</p>}
      {choices.map((c) => (
        <label key={c.id} className="choice" htmlFor={`${id}-${c.id}`}>
          <input id={`${id}-${c.id}`} type="checkbox" checked={value.includes(c.id)} onChange={(e) => toggle(c.id, e.target.checked)} />
          {c.name}
          {c.note && <span className="muted"> ({c.note})</span>}
        </label>
      ))}
      <FieldError id={id} error={error} />
    </fieldset>
  );
}
