// One annotation in the review panel: its text and normalized value, state, confidence, and the actions
// that fit its state. The row's main button puts the keyboard cursor on it (Enter/Delete then act).
import { useEffect, useRef } from 'react';
import { useReview } from '../../state/review.ts';
import { accept, decline, remove } from './actions.ts';
import type { AnnotationAt } from './commands.ts';
import { StateBadge } from './StateBadge.tsx';
import { annotationKey, notMachineReadable } from '../../state/reviewTree.ts';

const percent = new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 0 });

export function AnnotationRow({ at, locked }: { at: AnnotationAt; locked: boolean }) {
  const a = at.annotation;
  const key = annotationKey(a.id);
  const current = useReview((s) => s.cursor === key);
  const setCursor = useReview((s) => s.setCursor);
  const setDialog = useReview((s) => s.setDialog);
  const row = useRef<HTMLLIElement>(null);

  useEffect(() => {
    if (current) row.current?.scrollIntoView({ block: 'nearest' });
  }, [current]);

  const state = a.review_state;
  const what = `${at.label.name} “${a.offset_string}”`;
  const unreadable = notMachineReadable(a);
  const value = a.normalized === null ? null : String(a.normalized);
  // A person's own annotation is deleted rather than declined, once it no longer awaits feedback.
  const canDecline = state === 'Feedback required' || (a.origin === 'machine' && state !== 'Declined');

  return (
    <li ref={row} className={`annotation${current ? ' current' : ''}`} data-state={state} aria-label={`${what}, ${state}`}>
      <button type="button" className="item-select" data-review-item aria-current={current || undefined} aria-keyshortcuts="Enter Delete" onClick={() => setCursor(key)}>
        <span className="ann-text">{a.offset_string || <span className="muted">(no text)</span>}</span>
        {value !== null && value !== a.offset_string && <span className="ann-value" title="Normalized value">→ {value}</span>}
      </button>
      <div className="ann-meta">
        <StateBadge state={state} />
        {a.confidence !== null && <span className="muted" title="Confidence of the AI">{percent.format(a.confidence)}</span>}
        {unreadable && <span className="flag" title={`The ${at.label.data_type} value of this text cannot be read`}>Not machine-readable</span>}
        {a.is_typed && (
          <span className="typed-badge" title="Typed by the reviewer: nothing could be read in its box">
            typed
          </span>
        )}
        {a.custom_offset_string && <span className="muted" title={`Read from the page: “${a.offset_string_original}”`}>edited</span>}
      </div>
      {!locked && (
        <div className="ann-actions">
          {(state === 'Feedback required' || state === 'Declined') && (
            <button type="button" aria-label={`Accept ${what}`} onClick={() => void accept(at)}>
              Accept
            </button>
          )}
          {canDecline && (
            <button type="button" aria-label={`Decline ${what}`} onClick={() => void decline(at)}>
              Decline
            </button>
          )}
          <button type="button" aria-label={`Edit text of ${what}`} onClick={() => setDialog({ kind: 'edit-text', annotationId: a.id })}>
            Edit text
          </button>
          <button type="button" aria-label={`Change label of ${what}`} onClick={() => setDialog({ kind: 'change-label', annotationId: a.id })}>
            Change label
          </button>
          {a.origin === 'human' && state !== 'Feedback required' && (
            <button type="button" aria-label={`Delete ${what}`} onClick={() => void remove(at)}>
              Delete
            </button>
          )}
        </div>
      )}
    </li>
  );
}
