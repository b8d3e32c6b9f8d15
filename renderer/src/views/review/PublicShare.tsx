// The review toolbar's sharing control: whether anyone with the link may read the document (is_public,
// spec 5.1), and its public link to copy once it is public. The public page is read-only (views/public).
import { useState } from 'react';
import type { DocumentOut } from '../../api/client.ts';
import { useReview } from '../../state/review.ts';
import { useSession } from '../../state/session.ts';
import { CopyButton } from '../settings/CopyButton.tsx';
import { publicLink } from '../public/PublicDocumentView.tsx';

export function PublicShare({ doc }: { doc: DocumentOut }) {
  // What the reviewer chose, shown at once while it is being saved; the document's own value after that.
  const [saving, setSaving] = useState<boolean | null>(null);

  async function setPublic(value: boolean) {
    const { say, reload } = useReview.getState();
    setSaving(value);
    try {
      await useSession.getState().call((c) => c.updateDocument(doc.id, { is_public: value }));
      say({ kind: 'info', text: value ? 'The document is public: anyone with its link can read it.' : 'The document is private again.' });
      await reload();
    } catch (err) {
      say({ kind: 'error', text: (err as Error).message });
    } finally {
      setSaving(null);
    }
  }

  return (
    <span className="public-share">
      <label title="Anyone with the public link can read the document and its values, without logging in">
        <input type="checkbox" checked={saving ?? doc.is_public} disabled={saving !== null} onChange={(e) => void setPublic(e.target.checked)} /> Public
      </label>
      {doc.is_public && (
        <>
          <a href={publicLink(doc.id)} target="_blank" rel="noreferrer" title="The document's public page">
            Public page
          </a>
          <CopyButton text={publicLink(doc.id)} what="public link" />
        </>
      )}
    </span>
  );
}
