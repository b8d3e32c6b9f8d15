// The dialog open over the review view (state/review.ts `dialog`), fed from the current tree; an
// annotation that is gone meanwhile (undone elsewhere) closes its dialog.
import { useReview } from '../../state/review.ts';
import { changeLabel, createAnnotation, editText } from './actions.ts';
import { ChangeLabelDialog } from './ChangeLabelDialog.tsx';
import { CreateAnnotationDialog } from './CreateAnnotationDialog.tsx';
import { EditTextDialog } from './EditTextDialog.tsx';
import { ShortcutSheet } from './ShortcutSheet.tsx';
import { annotationKey, reviewItems, type TreeSet } from './tree.ts';

export function ReviewDialogs({ sets }: { sets: TreeSet[] }) {
  const dialog = useReview((s) => s.dialog);
  const cursor = useReview((s) => s.cursor);
  const setDialog = useReview((s) => s.setDialog);
  const close = () => setDialog(null);
  if (!dialog) return null;

  if (dialog.kind === 'shortcuts') return <ShortcutSheet onClose={close} />;
  if (dialog.kind === 'create') {
    const currentSet = reviewItems(sets).find((i) => i.key === cursor)?.set.id ?? null;
    return (
      <CreateAnnotationDialog
        sets={sets}
        spans={dialog.spans}
        currentSetId={currentSet}
        onClose={close}
        onCreate={(input) => {
          close();
          void createAnnotation(input);
        }}
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
