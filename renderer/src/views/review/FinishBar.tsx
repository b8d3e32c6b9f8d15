// The foot of the review panel: finish review (enabled only when spec 3.1 allows it, with what still
// blocks it written out), or reopen a reviewed document; below it the outcome of the last action. Finish
// with a checked value its data type cannot read ("Not machine-readable") warns instead, listing each
// with the way to fix it; a review the AI opened again (new proposals after a reading) says so.
import { useReview } from '../../state/review.ts';
import { reviewBlockers, unreadableValues, annotationKey, type TreeSet } from '../../state/reviewTree.ts';

export function FinishBar({ sets, reviewed, rereading = false, note, warnUnreadable, onFinish }: {
  sets: TreeSet[];
  reviewed: boolean;
  /** The document is being read again: nothing can be finished or reopened until it is done. */
  rereading?: boolean;
  /** Why the document is where it is (its status_reason), e.g. the review opened again by new proposals. */
  note: string | null;
  /** Finish was asked for while values are not machine-readable: show them. */
  warnUnreadable: boolean;
  onFinish(): void;
}) {
  const pending = useReview((s) => s.pending);
  const message = useReview((s) => s.message);
  const setReviewed = useReview((s) => s.setReviewed);
  const setDialog = useReview((s) => s.setDialog);
  const setCursor = useReview((s) => s.setCursor);
  const blockers = reviewBlockers(sets);
  const unreadable = warnUnreadable && !reviewed ? unreadableValues(sets) : [];

  return (
    <footer className="finish-bar">
      {note && !reviewed && (
        <p className="reopened-note" role="note">
          {note}
        </p>
      )}
      {unreadable.length > 0 && (
        <div className="finish-warning" role="alert" aria-label="Values that are not machine-readable">
          <p>
            {unreadable.length === 1 ? 'This value is' : `These ${unreadable.length} values are`} not machine-readable: the AI would learn{' '}
            {unreadable.length === 1 ? 'it' : 'them'} as checked. Correct the text (or decline or delete the annotation), then finish.
          </p>
          <ul>
            {unreadable.map((i) => (
              <li key={i.key}>
                <button type="button" className="link" onClick={() => setCursor(annotationKey(i.annotation.id))}>
                  {i.label.name} “{i.annotation.offset_string}”
                </button>{' '}
                <span className="muted">({i.label.data_type})</span>{' '}
                <button type="button" aria-label={`Fix ${i.label.name} “${i.annotation.offset_string}”`} onClick={() => setDialog({ kind: 'edit-text', annotationId: i.annotation.id })}>
                  Edit text
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
      {reviewed ? (
        <div className="finish-row">
          <p className="reviewed-note">Reviewed: the annotations are locked.</p>
          <button type="button" disabled={rereading} onClick={() => void setReviewed(false)}>
            Reopen review
          </button>
        </div>
      ) : (
        <div className="finish-row">
          <p className="muted" id="finish-blockers">
            {blockers.length ? `Still to do: ${blockers.join(', ')}.` : 'Nothing left to review.'}
          </p>
          <button type="button" className="primary" disabled={blockers.length > 0 || rereading} aria-describedby="finish-blockers" onClick={onFinish}>
            Finish review
          </button>
        </div>
      )}
      <p className={`status-line${message?.kind === 'error' ? ' error' : ''}`} role="status">
        {pending > 0 ? 'Saving…' : message?.text}
      </p>
    </footer>
  );
}
