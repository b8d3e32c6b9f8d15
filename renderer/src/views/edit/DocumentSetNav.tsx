// Moving between the documents one split made: "Document 2 of 3 from scan.pdf", previous and next.
// Edit mode shows it for documents of a set; the review view may show it too.
import { useDocumentSet } from './useDocumentSet.ts';

export function DocumentSetNav({ setId, currentId, mode = 'review' }: { setId: number; currentId: number; mode?: 'review' | 'edit' }) {
  const { set } = useDocumentSet(setId);
  if (!set) return null;
  const ids = set.documents.map((d) => d.id);
  const at = ids.indexOf(currentId);
  if (at < 0 || ids.length < 2) return null;
  const previous = ids[at - 1];
  const next = ids[at + 1];
  const href = (id: number) => `#/documents/${id}${mode === 'edit' ? '/edit' : ''}`;
  return (
    <nav className="set-nav" aria-label="Documents from the same file">
      <span>
        Document {at + 1} of {ids.length} from <strong>{set.original_file_name}</strong>
      </span>
      {previous ? <a href={href(previous)}>← Previous</a> : <span className="muted">← Previous</span>}
      {next ? <a href={href(next)}>Next →</a> : <span className="muted">Next →</span>}
    </nav>
  );
}
