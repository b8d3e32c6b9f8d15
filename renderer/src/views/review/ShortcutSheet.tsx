// The keyboard shortcuts of the review view, opened with "?" (useReviewKeys.ts handles the same keys),
// and the page viewer's own keys (Viewer.tsx, useVirtualPages.ts).
import { Modal } from './Modal.tsx';

const SHORTCUTS: [keys: string[], what: string][] = [
  [['↓', '↑'], 'Next / previous annotation or unfilled label (the page scrolls to its box)'],
  [['Enter'], 'Accept the annotation, then go to the next'],
  [['Delete'], 'Decline the annotation (delete your own); on an unfilled label: mark it missing'],
  [['A'], 'Accept all: every annotation of the document awaiting review'],
  [['F'], 'Finish the review and open the next unreviewed document (also Ctrl+Enter)'],
  [['E'], 'Edit the text of the annotation'],
  [['L'], 'Change the label of the annotation'],
  [['1', '9'], 'In a label list: choose the numbered label (again: confirm)'],
  [['D'], 'Draw mode: drag a box around text, or click a word, to label it'],
  [['/'], 'Search in the document; Enter / Shift+Enter next / previous match'],
  [['N'], 'Label the current match (Ctrl+Enter in the search field): the new-annotation dialog, the current label chosen'],
  [['Esc'], 'Leave draw mode, close a dialog'],
  [['Ctrl', 'Z'], 'Undo'],
  [['Ctrl', 'Shift', 'Z'], 'Redo (also Ctrl+Y)'],
  [['Alt', '→'], 'Next document of the project'],
  [['Alt', '←'], 'Previous document of the project'],
  [['?'], 'This list'],
];

/** The page viewer's own keys (the focus in the pages or their toolbar). */
const VIEWER: [keys: string[], what: string][] = [
  [['PageDown', 'PageUp'], 'Next / previous page'],
  [['Home', 'End'], 'First / last page'],
  [['Ctrl', '+'], 'Zoom in (also Ctrl + wheel)'],
  [['Ctrl', '−'], 'Zoom out'],
  [['Ctrl', '0'], 'Fit the page width'],
];

/** How keys join: a range (1–9), alternatives (↓ / ↑), or a chord (Ctrl+Z). */
function joiner(keys: string[]): string {
  if (keys[0] === '1') return '–';
  return ['Ctrl', 'Alt', 'Shift'].includes(keys[0]) ? '+' : ' / ';
}

function KeyList({ items }: { items: [string[], string][] }) {
  return (
    <dl>
      {items.map(([keys, what]) => (
        <div key={what} className="shortcut">
          <dt>
            {keys.map((k, i) => (
              <span key={k}>
                {i > 0 && joiner(keys)}
                <kbd>{k}</kbd>
              </span>
            ))}
          </dt>
          <dd>{what}</dd>
        </div>
      ))}
    </dl>
  );
}

export function ShortcutSheet({ onClose }: { onClose(): void }) {
  return (
    <Modal title="Keyboard shortcuts" onClose={onClose} className="shortcut-sheet">
      <h3>Review</h3>
      <KeyList items={SHORTCUTS} />
      <h3>Viewer</h3>
      <KeyList items={VIEWER} />
      <p className="muted">On a Mac, ⌘ works where Ctrl is written.</p>
    </Modal>
  );
}
