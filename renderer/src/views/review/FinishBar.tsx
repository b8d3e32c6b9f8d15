// The foot of the review panel: finish review (enabled only when spec 3.1 allows it, with what still
// blocks it written out), or reopen a reviewed document; below it the outcome of the last action.
import { useReview } from '../../state/review.ts';
import { reviewBlockers, type TreeSet } from '../../state/reviewTree.ts';

export function FinishBar({ sets, reviewed, onFinish }: { sets: TreeSet[]; reviewed: boolean; onFinish(): void }) {
  const pending = useReview((s) => s.pending);
  const message = useReview((s) => s.message);
  const setReviewed = useReview((s) => s.setReviewed);
  const blockers = reviewBlockers(sets);

  return (
    <footer className="finish-bar">
      {reviewed ? (
        <div className="finish-row">
          <p className="reviewed-note">Reviewed: the annotations are locked.</p>
          <button type="button" onClick={() => void setReviewed(false)}>
            Reopen review
          </button>
        </div>
      ) : (
        <div className="finish-row">
          <p className="muted" id="finish-blockers">
            {blockers.length ? `Still to do: ${blockers.join(', ')}.` : 'Nothing left to review.'}
          </p>
          <button type="button" className="primary" disabled={blockers.length > 0} aria-describedby="finish-blockers" onClick={onFinish}>
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
