// The review toolbar's sharing control: whether anyone with the link may read the document (is_public,
// spec 5.1), its public link to copy once it is public (a random token, never the id), when the link ends,
// and a new link on demand (the old one stops working). The public page is read-only (views/public).
import { useState } from 'react';
import type { DocumentOut } from '../../api/client.ts';
import { useReview } from '../../state/review.ts';
import { useSession } from '../../state/session.ts';
import { CopyButton } from '../settings/CopyButton.tsx';
import { publicLink } from '../public/PublicDocumentView.tsx';

/** `<input type="datetime-local">` speaks local time without an offset; the API wants an instant. */
const toInstant = (local: string) => (local ? new Date(local).toISOString() : null);
const toLocalInput = (iso: string | null | undefined) => {
  if (!iso) return '';
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
};

export function PublicShare({ doc }: { doc: DocumentOut }) {
  // What the reviewer chose, shown at once while it is being saved; the document's own value after that.
  const [saving, setSaving] = useState<boolean | null>(null);
  const link = doc.public_link ?? null;

  async function run(action: () => Promise<unknown>, done: string) {
    const { say, reload } = useReview.getState();
    try {
      await action();
      say({ kind: 'info', text: done });
      await reload();
    } catch (err) {
      say({ kind: 'error', text: (err as Error).message });
    }
  }

  async function setPublic(value: boolean) {
    setSaving(value);
    await run(
      () => useSession.getState().call((c) => c.updateDocument(doc.id, { is_public: value })),
      value ? 'The document is public: anyone with its link can read it.' : 'The document is private again: its link no longer works.',
    );
    setSaving(null);
  }

  const setExpiry = (local: string) =>
    run(
      () => useSession.getState().call((c) => c.updateDocument(doc.id, { public_expires_at: toInstant(local) })),
      local ? `The public link works until ${new Date(local).toLocaleString()}.` : 'The public link no longer expires.',
    );

  const newLink = () =>
    run(() => useSession.getState().call((c) => c.newPublicLink(doc.id, link?.expires_at ?? null)), 'A new public link: the old one no longer works.');

  return (
    <span className="public-share">
      <label title="Anyone with the public link can read the document and its values, without logging in">
        <input type="checkbox" checked={saving ?? doc.is_public} disabled={saving !== null} onChange={(e) => void setPublic(e.target.checked)} /> Public
      </label>
      {doc.is_public && link && (
        <>
          <a href={publicLink(link.token)} target="_blank" rel="noreferrer" title="The document's public page">
            {link.expired ? 'Public page (link expired)' : 'Public page'}
          </a>
          <CopyButton text={publicLink(link.token)} what="public link" />
          <label className="public-expiry" title="When the link stops working; empty: never">
            until{' '}
            <input
              type="datetime-local"
              aria-label="Public link expires"
              defaultValue={toLocalInput(link.expires_at)}
              key={link.expires_at ?? 'never'}
              onBlur={(e) => e.target.value !== toLocalInput(link.expires_at) && void setExpiry(e.target.value)}
            />
          </label>
          <button type="button" className="link" onClick={() => void newLink()} title="Make a new link; the current one stops working">
            New link
          </button>
        </>
      )}
    </span>
  );
}
