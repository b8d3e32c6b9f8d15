// Review rules (spec 3.1 and 3.2): the review state of an annotation, the status of a label within an
// annotation set, and whether a document may be marked reviewed (with the reasons when not). Pure.

export type ReviewState = 'Feedback required' | 'Accepted' | 'Declined' | 'Created by human';
export type LabelStatus = 'Feedback required' | 'Accepted' | 'Created by human' | 'Not found' | 'Unfilled';
export type Origin = 'human' | 'machine';

export interface ReviewFacts {
  origin: Origin;
  revised: boolean;
  isCorrect: boolean;
}

/**
 * Spec 3.2, checked in this order: revised false and is_correct false awaits feedback (whoever made
 * it); a reviewed correct annotation, or a machine-made one already marked correct, is accepted; a
 * reviewed incorrect one is declined; what is left is a human-made annotation nobody reviewed yet.
 */
export function reviewState(a: ReviewFacts): ReviewState {
  if (!a.revised && !a.isCorrect) return 'Feedback required';
  if (a.isCorrect && (a.revised || a.origin === 'machine')) return 'Accepted';
  if (a.revised && !a.isCorrect) return 'Declined';
  return 'Created by human';
}

/** States that fill a label: the information is confirmed present. */
export function fillsLabel(state: ReviewState): boolean {
  return state === 'Accepted' || state === 'Created by human';
}

export function awaitsFeedback(state: ReviewState): boolean {
  return state === 'Feedback required';
}

/**
 * The status of one label in one annotation set. Pending feedback wins because it is the thing a
 * reviewer must act on; a declined annotation alone leaves the label Unfilled (spec 3.2); a missing
 * record makes it Not found unless an annotation fills it (the service drops the record then).
 */
export function labelStatus(states: ReviewState[], hasMissingRecord: boolean): LabelStatus {
  if (states.some(awaitsFeedback)) return 'Feedback required';
  if (states.includes('Accepted')) return 'Accepted';
  if (states.includes('Created by human')) return 'Created by human';
  if (hasMissingRecord) return 'Not found';
  return 'Unfilled';
}

/** The slice of the document's annotation tree that review needs. */
export interface ReviewSet {
  /** null for a potential set (a label set of the category with no annotation set on the document). */
  annotationSetId: number | null;
  labelSetName: string;
  hasMultipleSections: boolean;
  labels: { name: string; status: LabelStatus; annotations: { id: number; state: ReviewState }[] }[];
}

const MAX_LISTED = 20;

function listed(items: string[]): string {
  const head = items.slice(0, MAX_LISTED).join(', ');
  return items.length > MAX_LISTED ? `${head} and ${items.length - MAX_LISTED} more` : head;
}

/**
 * Why the document may not be marked reviewed (spec 3.1): annotations awaiting feedback and unfilled
 * labels. Potential sets of repeating label sets do not block: a repeating section (line items, say)
 * may legitimately occur zero times. Every other label, including those of a potential non-repeating
 * set, must be filled or marked missing. An empty list means the document may be marked reviewed.
 */
export function reviewBlockers(sets: ReviewSet[]): string[] {
  const pending: number[] = [];
  const unfilled: string[] = [];
  for (const set of sets) {
    for (const label of set.labels) {
      for (const a of label.annotations) if (awaitsFeedback(a.state)) pending.push(a.id);
      if (label.status !== 'Unfilled') continue;
      if (set.annotationSetId === null && set.hasMultipleSections) continue;
      const where = set.annotationSetId === null ? 'no annotation set yet' : `annotation set ${set.annotationSetId}`;
      unfilled.push(`${set.labelSetName} > ${label.name} (${where})`);
    }
  }
  const reasons: string[] = [];
  if (pending.length) {
    pending.sort((a, b) => a - b);
    reasons.push(`${pending.length} annotation${pending.length === 1 ? ' awaits' : 's await'} feedback (accept or decline first): ${listed(pending.map(String))}.`);
  }
  if (unfilled.length) {
    reasons.push(`${unfilled.length} label${unfilled.length === 1 ? ' is' : 's are'} unfilled (add an annotation or mark missing): ${listed(unfilled)}.`);
  }
  return reasons;
}
