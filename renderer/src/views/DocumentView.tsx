// One document: the viewer with the review panel, or edit mode (split, rotate, re-order).
export function DocumentView({ documentId, mode }: { documentId: number; mode: 'review' | 'edit' }) {
  return (
    <main className="page">
      <h1>Document {documentId}</h1>
      <p className="muted">{mode === 'edit' ? 'Edit mode' : 'Review'} is being built.</p>
    </main>
  );
}
