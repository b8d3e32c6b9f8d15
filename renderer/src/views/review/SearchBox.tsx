// Text search in the document (POST /documents/<id>/search/): the hits go to the viewer as highlights,
// Enter / Shift+Enter (or the arrows) step through them, Escape clears the search. Ctrl+Enter in the field
// (N elsewhere, or the Label button) makes the current hit an annotation.
import { useId, useState, type Ref } from 'react';
import type { SpanOut } from '../../api/client.ts';
import { useSession } from '../../state/session.ts';

interface Props {
  documentId: number;
  /** Each occurrence with its spans (one per line it covers). */
  hits: SpanOut[][];
  current: number;
  onHits(hits: SpanOut[][]): void;
  onCurrent(index: number): void;
  /** The view focuses the field on "/". */
  inputRef: Ref<HTMLInputElement>;
  /** The current hit becomes an annotation (the new-annotation dialog, prefilled). */
  onLabelHit?(): void;
}

export function SearchBox({ documentId, hits, current, onHits, onCurrent, inputRef, onLabelHit }: Props) {
  const call = useSession((s) => s.call);
  const [query, setQuery] = useState('');
  const [searched, setSearched] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const id = useId();

  const step = (by: number) => hits.length && onCurrent((current + by + hits.length) % hits.length);

  async function search() {
    const q = query.trim();
    if (!q) return clear();
    if (q === searched) return step(1); // Enter again: the next hit
    try {
      const found = await call((c) => c.searchHits(documentId, q));
      setSearched(q);
      setError(null);
      onHits(found);
      onCurrent(0);
    } catch (err) {
      setError((err as Error).message);
    }
  }

  function clear() {
    setQuery('');
    setSearched(null);
    setError(null);
    onHits([]);
  }

  return (
    <form
      className="search-box"
      role="search"
      onSubmit={(e) => {
        e.preventDefault();
        void search();
      }}
    >
      <label htmlFor={id} className="visually-hidden">
        Search in the document
      </label>
      <input
        ref={inputRef}
        id={id}
        type="search"
        placeholder="Search (/)"
        value={query}
        aria-invalid={error ? true : undefined}
        title={error ?? undefined}
        onChange={(e) => setQuery(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.preventDefault();
            clear();
            e.currentTarget.blur();
          } else if (e.key === 'Enter' && (e.ctrlKey || e.metaKey || e.altKey)) {
            e.preventDefault();
            if (hits.length) onLabelHit?.();
          } else if (e.key === 'Enter' && e.shiftKey) {
            e.preventDefault();
            step(-1);
          }
        }}
      />
      <span className="search-count muted" aria-live="polite">
        {searched !== null && (hits.length ? `${current + 1} of ${hits.length}` : 'No match')}
      </span>
      {/* Only once there is something to step through: the toolbar stays one row. */}
      {searched !== null && (
        <>
          <button type="button" className="icon" aria-label="Previous match" disabled={hits.length < 2} onClick={() => step(-1)}>
            ‹
          </button>
          <button type="button" className="icon" aria-label="Next match" disabled={hits.length < 2} onClick={() => step(1)}>
            ›
          </button>
        </>
      )}
      {onLabelHit && hits.length > 0 && (
        <button type="button" className="small" onClick={onLabelHit} title="Make this match an annotation (N, or Ctrl+Enter in the search field)" aria-keyshortcuts="N Control+Enter">
          Label match
        </button>
      )}
    </form>
  );
}
