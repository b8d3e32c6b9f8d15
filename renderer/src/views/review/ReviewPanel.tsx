// The review panel (spec 3.2): the document's annotation sets, potential ones included, each with its
// labels, their status, and the annotations under them; set-wide and label-wide actions live here.
import { useEffect, useRef } from 'react';
import { useReview } from '../../state/review.ts';
import { acceptAll, markMissing, restore } from './actions.ts';
import { AnnotationRow } from './AnnotationRow.tsx';
import { StateBadge } from './StateBadge.tsx';
import { labelKey, setKey, setTitle, type TreeLabel, type TreeSet } from '../../state/reviewTree.ts';

export function ReviewPanel({ sets, locked }: { sets: TreeSet[]; locked: boolean }) {
  if (!sets.length) {
    return <p className="muted panel-empty">This document has no category, so there are no labels to review. Choose its category above (Category).</p>;
  }
  return (
    <div className="review-sets">
      {sets.map((set) => (
        <SetSection key={setKey(set)} set={set} title={setTitle(sets, set)} locked={locked} />
      ))}
    </div>
  );
}

function SetSection({ set, title, locked }: { set: TreeSet; title: string; locked: boolean }) {
  const pending = set.labels.reduce((n, l) => n + l.annotations.filter((a) => a.review_state === 'Feedback required').length, 0);
  const headingId = `heading-${setKey(set)}`;
  return (
    <section className="review-set" aria-labelledby={headingId}>
      <header className="set-head">
        <h3 id={headingId}>{title}</h3>
        {set.id === null && <span className="muted">not on this document yet</span>}
        <span className="spacer" />
        {!locked && pending > 0 && (
          <button type="button" className="small" onClick={() => void acceptAll(set, title)}>
            Accept all ({pending})
          </button>
        )}
      </header>
      <ul className="labels">
        {set.labels.map((label) => (
          <LabelBlock key={label.id} set={set} label={label} locked={locked} />
        ))}
      </ul>
    </section>
  );
}

function LabelBlock({ set, label, locked }: { set: TreeSet; label: TreeLabel; locked: boolean }) {
  const key = labelKey(set, label.id);
  const isItem = label.annotations.length === 0;
  const current = useReview((s) => isItem && s.cursor === key);
  const setCursor = useReview((s) => s.setCursor);
  const head = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (current) head.current?.scrollIntoView({ block: 'nearest' });
  }, [current]);

  const name = <span className="label-name">{label.name}</span>;
  // The label's status is worth a badge of its own only where its annotations do not already say it.
  const showStatus = isItem || label.annotations.some((a) => a.review_state !== label.status);
  return (
    <li className={`label-block${current ? ' current' : ''}`} aria-label={`${label.name}, ${label.status}`}>
      <div ref={head} className="label-head">
        {isItem ? (
          <button type="button" className="item-select" data-review-item aria-current={current || undefined} aria-keyshortcuts="Delete" onClick={() => setCursor(key)}>
            {name}
          </button>
        ) : (
          name
        )}
        {showStatus && <StateBadge state={label.status} />}
        {!locked && label.status === 'Unfilled' && (
          <button type="button" className="small" aria-label={`Mark ${label.name} missing`} onClick={() => void markMissing(set, label)}>
            Mark missing
          </button>
        )}
        {!locked && label.status === 'Not found' && label.missing_annotation !== null && (
          <button type="button" className="small" aria-label={`Restore ${label.name}`} onClick={() => void restore(set, label)}>
            Restore
          </button>
        )}
      </div>
      {label.annotations.length > 0 && (
        <ul className="annotations">
          {label.annotations.map((annotation) => (
            <AnnotationRow key={annotation.id} at={{ set, label, annotation }} locked={locked} />
          ))}
        </ul>
      )}
    </li>
  );
}
