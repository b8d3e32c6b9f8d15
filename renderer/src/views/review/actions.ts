// What the panel's buttons and the keyboard do: build the command for the document under review and run
// it on the review store. Enter and Delete pick the action that fits the item under the cursor.
import { useReview, type Command, type Region } from '../../state/review.ts';
import { useSession } from '../../state/session.ts';
import type { AnnotationTarget } from './CreateAnnotationDialog.tsx';
import { forgetWords } from './pickText.ts';
import {
  acceptAllCommand, changeLabelCommand, commandContext, createCommand, deleteCommand, editTextCommand,
  markMissingCommand, restoreCommand, reviewCommand, type AnnotationAt, type NewAnnotation,
} from './commands.ts';
import { annotationKey, type ReviewItem, type TreeLabel, type TreeSet } from '../../state/reviewTree.ts';

const run = (command: Command | null, after?: () => void) =>
  command ? useReview.getState().run(command, after) : Promise.resolve(false);

export const accept = (at: AnnotationAt) => run(reviewCommand(commandContext(), at, 'accept'));
export const decline = (at: AnnotationAt) => run(reviewCommand(commandContext(), at, 'decline'));
export const remove = (at: AnnotationAt) => run(deleteCommand(commandContext(), at));
export const editText = (at: AnnotationAt, texts: string[]) => run(editTextCommand(commandContext(), at, texts));
export const changeLabel = (at: AnnotationAt, target: TreeLabel) => run(changeLabelCommand(commandContext(), at, target));
export const acceptAll = (set: TreeSet, setName: string) => run(acceptAllCommand(commandContext(), set, setName));
/** Every annotation of the document awaiting feedback, whatever its set: the A key. */
export function acceptEverything(): Promise<boolean> {
  const { doc, say } = useReview.getState();
  if (!doc) return Promise.resolve(false);
  const command = acceptAllCommand(commandContext(), doc.annotation_sets, 'the document');
  if (!command) say({ kind: 'info', text: 'Nothing awaits review: every annotation is accepted or declined.' });
  return run(command);
}
export const markMissing = (set: TreeSet, label: TreeLabel) => run(markMissingCommand(commandContext(), set, label));
export const restore = (set: TreeSet, label: TreeLabel) => run(restoreCommand(commandContext(), set, label));

/** Creates the annotation and puts the cursor on it. */
export function createAnnotation(input: NewAnnotation): Promise<boolean> {
  let created: number | null = null;
  return run(
    createCommand(commandContext(), input, (id) => (created = id)),
    () => created !== null && useReview.getState().setCursor(annotationKey(created)),
  );
}

/**
 * Reads a drawn box again closer up (600 dpi) and labels what is read there, in one request. Not a
 * command: the document's text changes, which undo cannot take back (the annotation can be deleted).
 * When nothing is read even so, the reviewer is offered to type the value. Resolves whether text was read.
 */
export async function readRegionAgain(region: Region, t: AnnotationTarget): Promise<boolean> {
  const { documentId, say, reload, setCursor, setDialog } = useReview.getState();
  if (documentId === null) return false;
  say({ kind: 'info', text: 'Reading the box again closer up…' });
  try {
    const where = 'annotationSet' in t.target ? { annotation_set: t.target.annotationSet } : { label_set: t.target.labelSet };
    const r = await useSession.getState().call((c) =>
      c.readRegion(documentId, { page_index: region.pageIndex, x0: region.x0, x1: region.x1, y0: region.y0, y1: region.y1, label: t.labelId, ...where }),
    );
    if (!r.found) {
      say({ kind: 'error', text: 'Nothing could be read in that box, even closer up: type the value.' });
      setDialog({ kind: 'type-value', region });
      return false;
    }
    forgetWords(); // the page's words changed where the box was read
    await reload();
    if (r.annotation) setCursor(annotationKey(r.annotation.id));
    say({ kind: 'info', text: `Read again: “${r.text}”${r.annotation ? ` is ${t.labelName}` : ''}.` });
    return true;
  } catch (err) {
    say({ kind: 'error', text: (err as Error).message });
    return false;
  }
}

/** Enter: accept an annotation that is not yet accepted (a declined one too: the reviewer changed their mind). */
export function primaryAction(item: ReviewItem): Promise<boolean> | null {
  if (item.kind !== 'annotation') return null;
  const state = item.annotation.review_state;
  return state === 'Feedback required' || state === 'Declined' ? accept(item) : null;
}

/**
 * Delete: decline an annotation (a person's own is deleted instead); on a declined one, or on a label
 * without annotations, mark the label missing while it is unfilled.
 */
export function deleteAction(item: ReviewItem): Promise<boolean> | null {
  if (item.kind === 'annotation') {
    const state = item.annotation.review_state;
    if (state === 'Created by human') return remove(item);
    if (state !== 'Declined') return decline(item);
  }
  return item.label.status === 'Unfilled' ? markMissing(item.set, item.label) : null;
}
