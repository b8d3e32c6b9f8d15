// The document's category in the review header (issue 12): the reviewer sees it and changes it where they
// work. PATCH category extracts again with the new category's active AI (the server queues the analysis),
// so the view shows the extraction running and comes back with the new proposals; human annotations stay.
import { useEffect, useState } from 'react';
import type { CategoryOut, DocumentOut } from '../../api/client.ts';
import { useReview } from '../../state/review.ts';
import { useSession } from '../../state/session.ts';

export function CategorySelect({ doc }: { doc: DocumentOut }) {
  const [categories, setCategories] = useState<CategoryOut[] | null>(null);
  const [saving, setSaving] = useState(false);
  const { say, reload } = useReview.getState();

  useEffect(() => {
    let live = true;
    useSession
      .getState()
      .call((c) => c.listCategories(doc.project))
      .then((r) => live && setCategories(r.results))
      .catch((err: Error) => live && say({ kind: 'error', text: `The categories could not be loaded: ${err.message}` }));
    return () => {
      live = false;
    };
  }, [doc.project, say]);

  async function change(value: string) {
    const category = value === '' ? null : Number(value);
    if (category === doc.category) return;
    setSaving(true);
    try {
      const changed = await useSession.getState().call((c) => c.updateDocument(doc.id, { category }));
      const name = categories?.find((c) => c.id === category)?.name ?? 'none';
      say({ kind: 'info', text: changed.status_data === 2 ? `Category: ${name}.` : `Category: ${name}. Extracting again with its AI…` });
      await reload();
    } catch (err) {
      say({ kind: 'error', text: (err as Error).message });
    } finally {
      setSaving(false);
    }
  }

  return (
    <label className="category-select" title="The document's category: changing it extracts again with that category's AI">
      <span className="visually-hidden">Category</span>
      <select value={doc.category ?? ''} disabled={!categories || saving || doc.is_reviewed} aria-busy={saving || undefined} onChange={(e) => void change(e.target.value)}>
        <option value="">(none)</option>
        {(categories ?? []).map((c) => (
          <option key={c.id} value={c.id}>
            {c.name}
          </option>
        ))}
        {categories && doc.category !== null && !categories.some((c) => c.id === doc.category) && <option value={doc.category}>Category {doc.category}</option>}
      </select>
    </label>
  );
}
