// The viewer alone on a page (viewer-harness.html?document=<id>), embedded the way the review view embeds
// it: for the viewer's end-to-end test and the UI benchmark. Not shipped. It uses the session's token
// (sessionStorage `folio.token`, as after logging in to Folio in the same tab). `#document=<id>` opens
// another document in the same window, as going to the next document in the review view does.
import { StrictMode, useCallback, useEffect, useMemo, useState, type FormEvent } from 'react';
import { createRoot } from 'react-dom/client';
import type { DocumentOut, PageSummary, SpanOut } from '../src/api/client.ts';
import { useSession } from '../src/state/session.ts';
import { boxesOf } from '../src/state/reviewTree.ts';
import type { Highlight, RectOnPage, ZoomMode } from '../src/viewer/types.ts';
import { Viewer } from '../src/viewer/Viewer.tsx';
import { preloadPdfjs } from '../src/viewer/pdfDocument.ts';
import '../src/styles.css';

const params = new URLSearchParams(location.search);
const hashDocument = () => Number(new URLSearchParams(location.hash.slice(1)).get('document')) || null;

const toHighlight = (s: SpanOut): Highlight => ({ pageIndex: s.page_index, x0: s.x0, x1: s.x1, y0: s.y0, y1: s.y1 });

function Harness() {
  const call = useSession((s) => s.call);
  const [documentId, setDocumentId] = useState(() => hashDocument() ?? Number(params.get('document')));
  const [doc, setDoc] = useState<{ detail: DocumentOut; pages: PageSummary[] } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [zoom, setZoom] = useState<ZoomMode>({ kind: 'fit-width' });
  const [showBoxes, setShowBoxes] = useState(params.get('boxes') !== 'off');
  const [drawing, setDrawing] = useState(false);
  const [selected, setSelected] = useState<number | null>(null);
  const [page, setPage] = useState(1);
  const [drawn, setDrawn] = useState<string>('');
  const [query, setQuery] = useState('');
  const [hits, setHits] = useState<Highlight[]>([]);
  const [focus, setFocus] = useState<number | null>(null);

  useEffect(() => {
    const onHash = () => setDocumentId((id) => hashDocument() ?? id);
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);

  useEffect(() => {
    setDoc(null);
    setHits([]);
    setFocus(null);
    setSelected(null);
    performance.mark('harness-open', { detail: { documentId } });
    // As the review view should: pdf.js starts loading while the document's data is on its way.
    void preloadPdfjs();
    let gone = false;
    Promise.all([call((c) => c.getDocument(documentId)), call((c) => c.listPages(documentId))])
      .then(([detail, pages]) => !gone && setDoc({ detail, pages }))
      .catch((err: Error) => !gone && setError(err.message));
    return () => {
      gone = true;
    };
  }, [call, documentId]);

  // What the review view does with a drawn rectangle: ask the API for the text inside it.
  const onDrawRect = useCallback(
    (rect: RectOnPage) => {
      const { pageIndex, ...r } = rect;
      call((c) => c.spansIn(documentId, [{ page_index: pageIndex, ...r }]))
        .then((spans) => setDrawn(spans.map((s) => s.offset_string).join(' ') || '(no text)'))
        .catch((err: Error) => setDrawn(err.message));
    },
    [call, documentId],
  );

  const search = (e: FormEvent) => {
    e.preventDefault();
    call((c) => c.search(documentId, query))
      .then((spans) => {
        setHits(spans.map(toHighlight));
        setFocus(spans.length ? 0 : null);
      })
      .catch((err: Error) => setError(err.message));
  };

  // Built once per document load, as the review view must: a new array re-renders every page's boxes.
  const boxes = useMemo(() => (doc && showBoxes ? boxesOf(doc.detail.annotation_sets) : []), [doc, showBoxes]);

  if (error) return <p className="error">{error}</p>;
  if (!doc) return <p className="muted">Loading document {documentId}…</p>;
  const annotations = doc.detail.annotation_sets.flatMap((s) => s.labels.flatMap((l) => l.annotations));
  return (
    <div style={{ height: '100vh', display: 'flex', flexDirection: 'column' }}>
      <div className="row" style={{ padding: '0.4rem 0.75rem', alignItems: 'center', flexWrap: 'wrap' }}>
        <strong>{doc.detail.data_file_name}</strong>
        <label>
          <input type="checkbox" checked={showBoxes} onChange={(e) => setShowBoxes(e.target.checked)} /> Show boxes
        </label>
        <button type="button" aria-pressed={drawing} onClick={() => setDrawing((d) => !d)}>
          Draw
        </button>
        <label htmlFor="harness-annotation">Annotation</label>
        <select id="harness-annotation" value={selected ?? ''} onChange={(e) => setSelected(e.target.value ? Number(e.target.value) : null)}>
          <option value="">(none)</option>
          {annotations.map((a) => (
            <option key={a.id} value={a.id}>
              {a.id}: {a.offset_string}
            </option>
          ))}
        </select>
        <form onSubmit={search} className="row">
          <label htmlFor="harness-search">Search</label>
          <input id="harness-search" value={query} onChange={(e) => setQuery(e.target.value)} />
          <button type="submit">Find</button>
          <button type="button" disabled={!hits.length} onClick={() => setFocus((f) => ((f ?? -1) + 1) % hits.length)}>
            Next hit
          </button>
        </form>
        <output aria-label="Current page">{page}</output>
        <output aria-label="Drawn text">{drawn}</output>
      </div>
      <div style={{ flex: 1, minHeight: 0 }}>
        <Viewer
          documentId={documentId}
          pages={doc.pages}
          boxes={boxes}
          highlights={hits}
          focusHighlight={focus}
          selectedAnnotationId={selected}
          zoom={zoom}
          onZoomChange={setZoom}
          drawing={drawing}
          onDrawRect={onDrawRect}
          onSelectAnnotation={setSelected}
          onPageChange={setPage}
        />
      </div>
    </div>
  );
}

// The session's restore also fetches the file key the page images and the PDF are loaded with.
void useSession
  .getState()
  .restore()
  .then(() =>
    createRoot(document.getElementById('root')!).render(
      <StrictMode>
        <Harness />
      </StrictMode>,
    ),
  );
