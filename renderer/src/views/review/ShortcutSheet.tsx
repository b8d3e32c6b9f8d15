// The keyboard shortcuts of the review view, opened with "?" (useReviewKeys.ts handles the same keys).
import { Modal } from './Modal.tsx';

const SHORTCUTS: [keys: string[], what: string][] = [
  [['↓', '↑'], 'Next / previous annotation or unfilled label (the page scrolls to its box)'],
  [['Enter'], 'Accept the annotation, then go to the next'],
  [['Delete'], 'Decline the annotation (delete your own); on an unfilled label: mark it missing'],
  [['E'], 'Edit the text of the annotation'],
  [['L'], 'Change the label of the annotation'],
  [['D'], 'Draw mode: drag a box around text, or click a word, to label it'],
  [['Esc'], 'Leave draw mode, close a dialog'],
  [['Ctrl', 'Z'], 'Undo'],
  [['Ctrl', 'Shift', 'Z'], 'Redo (also Ctrl+Y)'],
  [['Alt', '→'], 'Next document of the project'],
  [['Alt', '←'], 'Previous document of the project'],
  [['/'], 'Search in the document'],
  [['?'], 'This list'],
];

export function ShortcutSheet({ onClose }: { onClose(): void }) {
  return (
    <Modal title="Keyboard shortcuts" onClose={onClose} className="shortcut-sheet">
      <dl>
        {SHORTCUTS.map(([keys, what]) => (
          <div key={what} className="shortcut">
            <dt>
              {keys.map((k, i) => (
                <span key={k}>
                  {i > 0 && '+'}
                  <kbd>{k}</kbd>
                </span>
              ))}
            </dt>
            <dd>{what}</dd>
          </div>
        ))}
      </dl>
      <p className="muted">On a Mac, ⌘ works where Ctrl is written.</p>
    </Modal>
  );
}
