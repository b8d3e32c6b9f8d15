// The read-only page of a public document (#/public/<token>), as the hosted service's public dashboard: its
// pages with the annotation boxes, and the extracted values grouped by label set. It reads the document
// the way anyone with the link does, without credentials, by the link's random token (GET /api/v3/public/
// <token>/, its page images by the same token), whoever is logged in to this window; no editing controls.
import { useEffect, useMemo, useState } from 'react';
import type { DocumentOut } from '../../api/client.ts';
import { ApiError } from '../../api/transport.ts';
import { clientFor, useSession } from '../../state/session.ts';
import { Viewer } from '../../viewer/Viewer.tsx';
import type { ZoomMode } from '../../viewer/types.ts';
import { boxesOf, setKey, setTitle, type TreeSet } from '../../state/reviewTree.ts';
import './public.css';

const DONE = 2;

type Load = { state: 'loading' } | { state: 'hidden' } | { state: 'expired' } | { state: 'failed'; reason: string } | { state: 'ready'; doc: DocumentOut };

/** The address anyone can open a public document at: this page's own, with the public route and the link's token. */
export const publicLink = (token: string) => `${location.origin}${location.pathname}#/public/${token}`;

/**
 * What the public sees of the annotation tree: the values, without the ones the reviewer declined, and
 * only the sets that hold any (empty proposals of the category are review business).
 */
function shownSets(sets: TreeSet[]): TreeSet[] {
  return sets
    .map((set) => ({ ...set, labels: set.labels.map((l) => ({ ...l, annotations: l.annotations.filter((a) => a.review_state !== 'Declined') })) }))
    .filter((set) => set.labels.some((l) => l.annotations.length));
}

export function PublicDocumentView({ token }: { token: string }) {
  const [load, setLoad] = useState<Load>({ state: 'loading' });

  useEffect(() => {
    if (!token) {
      setLoad({ state: 'hidden' });
      return;
    }
    let gone = false;
    setLoad({ state: 'loading' });
    clientFor(null)
      .getPublicDocument(token)
      .then(
        (doc) => !gone && setLoad({ state: 'ready', doc }),
        (err: unknown) => {
          if (gone) return;
          // An unknown link (never made, the document private again or shared anew) is a 404; an expired one a 410.
          if (err instanceof ApiError && err.status === 410) setLoad({ state: 'expired' });
          else if (err instanceof ApiError && (err.status === 401 || err.status === 403 || err.status === 404)) setLoad({ state: 'hidden' });
          else setLoad({ state: 'failed', reason: (err as Error).message });
        },
      );
    return () => {
      gone = true;
    };
  }, [token]);

  if (load.state === 'ready') return <PublicDocument doc={load.doc} />;
  return (
    <div className="public-view">
      <PublicBar />
      <main className="page" aria-busy={load.state === 'loading' || undefined}>
        {load.state === 'loading' && <p className="muted">Opening the document…</p>}
        {load.state === 'hidden' && (
          <>
            <h1>This document is not public or does not exist</h1>
            <p className="muted">
              The link may be an old one: a document shared again gets a new link. Ask whoever shared it for the current link, or log in to Folio to open it
              in its project.
            </p>
          </>
        )}
        {load.state === 'expired' && (
          <>
            <h1>This public link has expired</h1>
            <p className="muted">Ask whoever shared it for a new link.</p>
          </>
        )}
        {load.state === 'failed' && (
          <p className="error" role="alert">
            {load.reason}
          </p>
        )}
      </main>
    </div>
  );
}

function PublicBar({ title }: { title?: string }) {
  const signedIn = useSession((s) => s.status === 'signed-in');
  return (
    <header className="topbar public-bar">
      <span className="brand">Folio</span>
      {title && (
        <h1 className="public-title" title={title}>
          {title}
        </h1>
      )}
      {title && <span className="public-badge">Public · read-only</span>}
      <span className="spacer" />
      <a href="#/projects">{signedIn ? 'Open Folio' : 'Log in'}</a>
    </header>
  );
}

function PublicDocument({ doc }: { doc: DocumentOut }) {
  const [zoom, setZoom] = useState<ZoomMode>({ kind: 'fit-width' });
  const [selected, setSelected] = useState<number | null>(null);
  const sets = useMemo(() => shownSets(doc.annotation_sets), [doc.annotation_sets]);
  const boxes = useMemo(() => boxesOf(sets), [sets]);

  return (
    <div className="public-view">
      <PublicBar title={doc.data_file_name} />
      <div className="public-body">
        <div className="public-viewer">
          {doc.status_data === DONE ? (
            <Viewer
              documentId={doc.id}
              pages={doc.pages}
              boxes={boxes}
              selectedAnnotationId={selected}
              zoom={zoom}
              onZoomChange={setZoom}
              onSelectAnnotation={setSelected}
              source="images"
              imagesFromPageUrls
            />
          ) : (
            <p className="page muted" role="status">
              This document is still being processed ({doc.status[1]}). Its pages show here once it is ready.
            </p>
          )}
        </div>
        <aside className="public-side" aria-label="Extracted values">
          <h2>Extracted values</h2>
          {sets.length === 0 && <p className="muted">No values have been extracted from this document.</p>}
          {sets.map((set) => (
            <ValueSet key={setKey(set)} title={setTitle(sets, set)} set={set} selected={selected} onSelect={setSelected} />
          ))}
        </aside>
      </div>
    </div>
  );
}

function ValueSet({ title, set, selected, onSelect }: { title: string; set: TreeSet; selected: number | null; onSelect(id: number): void }) {
  const headingId = `public-set-${setKey(set)}`;
  return (
    <section className="public-set" aria-labelledby={headingId}>
      <h3 id={headingId}>{title}</h3>
      <table>
        <tbody>
          {set.labels.map((label) => (
            <tr key={label.id}>
              <th scope="row">{label.name}</th>
              <td>
                {label.annotations.length === 0 && <span className="muted">–</span>}
                {label.annotations.map((a) => (
                  // Shows the value on the page; reading, not editing.
                  <button
                    key={a.id}
                    type="button"
                    className="public-value"
                    aria-pressed={a.id === selected}
                    title={a.normalized !== null && String(a.normalized) !== a.offset_string ? `Read as ${String(a.normalized)}` : 'Show on the page'}
                    onClick={() => onSelect(a.id)}
                  >
                    {a.offset_string}
                  </button>
                ))}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
