// Review rules (spec 3.1 and 3.2): the review state of an annotation, the status of a label within an
// annotation set, whether a document may be marked reviewed (with the reasons when not), and whether
// the AI may propose a value again. Pure.

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
  labels: {
    name: string;
    status: LabelStatus;
    /** The label's data type (spec 2.14): Text, Number, Positive Number, Percentage, Date, True/False. */
    dataType?: string;
    /** `unreadable`: the text is not empty and its data type cannot read it (normalized null). */
    annotations: { id: number; state: ReviewState; text?: string; unreadable?: boolean }[];
  }[];
}

/** A value whose label's data type cannot read it, kept as checked: the AI would learn it. */
const keptUnreadable = (dataType: string | undefined, a: { state: ReviewState; unreadable?: boolean }) =>
  dataType !== undefined && dataType !== 'Text' && a.unreadable === true && fillsLabel(a.state);

const MAX_LISTED = 20;

function listed(items: string[]): string {
  const head = items.slice(0, MAX_LISTED).join(', ');
  return items.length > MAX_LISTED ? `${head} and ${items.length - MAX_LISTED} more` : head;
}

/**
 * Why the document may not be marked reviewed (spec 3.1): annotations awaiting feedback and unfilled
 * labels; and (issue 29) an accepted or human value of a Number, Positive Number, Percentage, Date or
 * True/False label that its data type cannot read, which the next AI would learn as checked. Potential sets of repeating label sets do not block: a repeating section (line items, say)
 * may legitimately occur zero times. Every other label, including those of a potential non-repeating
 * set, must be filled or marked missing. An empty list means the document may be marked reviewed.
 */
export function reviewBlockers(sets: ReviewSet[]): string[] {
  const pending: number[] = [];
  const unfilled: string[] = [];
  const unreadable: string[] = [];
  for (const set of sets) {
    for (const label of set.labels) {
      for (const a of label.annotations) {
        if (awaitsFeedback(a.state)) pending.push(a.id);
        if (keptUnreadable(label.dataType, a)) unreadable.push(`${label.name} “${a.text ?? ''}” (annotation ${a.id}, ${label.dataType})`);
      }
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
  if (unreadable.length) {
    reasons.push(`${unreadable.length} value${unreadable.length === 1 ? ' is' : 's are'} not machine-readable (correct the text, or decline or delete the annotation): ${listed(unreadable)}.`);
  }
  return reasons;
}

/** A box on a page, PDF points (a span's place). */
interface Place {
  page_index: number;
  x0: number;
  x1: number;
  y0: number;
  y1: number;
}

/** Two spans share at least half of the smaller one's area: the same words, however each reading drew them. */
function sharePlace(a: Place, b: Place): boolean {
  if (a.page_index !== b.page_index) return false;
  const w = Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0);
  const h = Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0);
  if (w <= 0 || h <= 0) return false;
  const area = (p: Place) => Math.max(0, p.x1 - p.x0) * Math.max(0, p.y1 - p.y0);
  const smaller = Math.min(area(a), area(b));
  return smaller > 0 && w * h >= smaller / 2;
}

const collapsed = (text: string) => text.replace(/\s+/g, ' ').trim();

/** One value of a label: its spans, text and normalized value (null: not machine-readable). */
export interface LabelValue {
  spans: Place[];
  text: string;
  normalized: unknown;
}

/**
 * Whether the AI may propose `proposal` for a label that already has `existing` annotations on the
 * document. Never a value a reviewer declined: not at an overlapping place, and (`byValue`, outside
 * repeating label sets) not the same value anywhere, by normalized value or by text. Nor a value the
 * label already has at that place, whatever its state: the reviewer decided on it already (or will).
 */
export function proposalWanted(proposal: LabelValue, existing: (LabelValue & { state: ReviewState })[], opts: { byValue: boolean }): boolean {
  const samePlace = (a: LabelValue) => proposal.spans.some((p) => a.spans.some((q) => sharePlace(p, q)));
  const sameValue = (a: LabelValue) =>
    (proposal.normalized != null && a.normalized != null && JSON.stringify(proposal.normalized) === JSON.stringify(a.normalized)) ||
    (collapsed(proposal.text) !== '' && collapsed(proposal.text) === collapsed(a.text));
  return !existing.some((a) => samePlace(a) || (opts.byValue && a.state === 'Declined' && sameValue(a)));
}
