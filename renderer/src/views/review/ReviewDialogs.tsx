// The dialog open over the review view (state/review.ts `dialog`), fed from the current tree; an
// annotation that is gone meanwhile (undone elsewhere) closes its dialog.
import { useReview } from '../../state/review.ts';
import { changeLabel, createAnnotation, editText, readRegionAgain } from './actions.ts';
import { ChangeLabelDialog } from './ChangeLabelDialog.tsx';
import { CreateAnnotationDialog, labelOptionKey } from './CreateAnnotationDialog.tsx';
import { EditTextDialog } from './EditTextDialog.tsx';
import { ShortcutSheet } from './ShortcutSheet.tsx';
import { annotationKey, onlyUnfilledLabel, reviewItems, type TreeSet } from '../../state/reviewTree.ts';

export function ReviewDialogs({ sets }: { sets: TreeSet[] }) {
  const dialog = useReview((s) => s.dialog);
  const cursor = useReview((s) => s.cursor);
  const setDialog = useReview((s) => s.setDialog);
  const close = () => setDialog(null);
  if (!dialog) return null;

  if (dialog.kind === 'shortcuts') return <ShortcutSheet onClose={close} />;
  if (dialog.kind === 'create' || dialog.kind === 'type-value') {
    const atCursor = reviewItems(sets).find((i) => i.key === cursor);
    const region = dialog.region;
    // The label the reviewer is on (an unfilled one, typically) is the one a typed value is for, and the
    // one a search hit is made into (the reviewer searched for that label's value). Otherwise, when one
    // label alone is still unfilled, the new annotation is most likely its value.
    const only = onlyUnfilledLabel(sets);
    const initialLabelKey =
      (dialog.kind === 'type-value' || dialog.fromSearch) && atCursor
        ? labelOptionKey(atCursor.set.label_set.id, atCursor.label.id)
        : only
          ? labelOptionKey(only.set.label_set.id, only.label.id)
          : null;
    const preread = dialog.kind === 'create' ? dialog.preread : undefined;
    return (
      <CreateAnnotationDialog
        // One dialog after another (read again, nothing found, type it): each starts afresh.
        key={dialog.kind}
        sets={sets}
        spans={dialog.kind === 'create' ? dialog.spans : []}
        region={region}
        typed={dialog.kind === 'type-value'}
        currentSetId={atCursor?.set.id ?? null}
        initialLabelKey={initialLabelKey}
        anchor={dialog.anchor}
        preread={preread}
        onClose={close}
        onCreate={(input) => {
          close();
          void createAnnotation(input);
        }}
        onReadAgain={
          region &&
          ((target) => {
            close();
            void readRegionAgain(region, target);
          })
        }
      />
    );
  }
  const item = reviewItems(sets).find((i) => i.key === annotationKey(dialog.annotationId));
  if (item?.kind !== 'annotation') return null;
  if (dialog.kind === 'edit-text') {
    return (
      <EditTextDialog
        annotation={item.annotation}
        onClose={close}
        onSave={(texts) => {
          close();
          void editText(item, texts);
        }}
      />
    );
  }
  return (
    <ChangeLabelDialog
      set={item.set}
      current={item.label}
      text={item.annotation.offset_string}
      onClose={close}
      onPick={(label) => {
        close();
        void changeLabel(item, label);
      }}
    />
  );
}
