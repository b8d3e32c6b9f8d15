// The review state of an annotation or the status of a label, by its name (spec 3.2), with a color that
// matches the boxes in the viewer; the name is always written out, so color is never the only signal.
export function StateBadge({ state }: { state: string }) {
  return <span className={`state-badge badge-${state.toLowerCase().replace(/\s+/g, '-')}`}>{state}</span>;
}
