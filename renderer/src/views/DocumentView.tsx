// One document: the viewer with the review panel (review mode), or edit mode (split, rotate, re-order).
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type RefObject } from 'react';
import type { DocumentOut, SpanOut } from '../api/client.ts';
import { navigate } from '../router.ts';
import { useReview } from '../state/review.ts';
import { Viewer } from '../viewer/Viewer.tsx';
import type { Highlight, RectOnPage, ZoomMode } from '../viewer/types.ts';
import { EditMode } from './edit/EditMode.tsx';
import { neighbourDocument, nextUnreviewed, rememberOrder } from './review/documentNav.ts';
import { listViewOf, queryFromView } from '../state/documents.ts';
import { around, screenRectOf } from './review/placeDialog.ts';
import { chooseZoom, chosenZoom, defaultZoom } from './review/reviewZoom.ts';
import { FinishBar } from './review/FinishBar.tsx';
import { forgetWords, textInBox } from './review/pickText.ts';
import { useSession } from '../state/session.ts';
import { ReviewDialogs } from './review/ReviewDialogs.tsx';
import { ReviewPanel } from './review/ReviewPanel.tsx';
import { ReviewToolbar } from './review/ReviewToolbar.tsx';
import { annotationKey, boxesOf, reviewItems, unreadableValues } from '../state/reviewTree.ts';
import { useReviewKeys, type WorkspaceKeys } from './review/useReviewKeys.ts';
import { DRAWER_QUERY, useMediaQuery, usePanelWidth } from './review/usePanelLayout.ts';
import './review/review.css';

export function DocumentView({ documentId, mode }: { documentId: number; mode: 'review' | 'edit' }) {
  return mode === 'edit' ? <EditMode documentId={documentId} /> : <ReviewView documentId={documentId} />;
}

const DONE = 2;
/** Statuses a document rests in without processing further: polling stops there. */
const RESTING = new Set([DONE, 41, 111]);

/** The project's document list as the reviewer left it (filters, sort, page): where "← Documents" goes. */
export function documentsHref(project: number): string {
  const q = queryFromView(listViewOf(project));
  return `#/projects/${project}${q ? `?${q}` : ''}`;
}

function ReviewView({ documentId }: { documentId: number }) {
  const doc = useReview((s) => s.doc);
  const loading = useReview((s) => s.loading);
  const loadError = useReview((s) => s.loadError);
  const open = useReview((s) => s.open);
  const reload = useReview((s) => s.reload);

  useEffect(() => {
    void open(documentId);
  }, [documentId, open]);

  // A document still being processed is read again until it is ready.
  const status = doc?.id === documentId ? doc.status_data : null;
  useEffect(() => {
    if (status === null || RESTING.has(status)) return;
    const timer = setTimeout(() => void reload(), 1500);
    return () => clearTimeout(timer);
  }, [status, doc, reload]);

  // The keys work from the moment the document is known, also while it is still being processed.
  const say = useReview((s) => s.say);
  const searchField = useRef<HTMLInputElement>(null);
  const project = doc?.project ?? null;
  // Where the document stands in the list as the reviewer left it, read once it opens (documentNav.ts).
  useEffect(() => {
    if (project !== null) rememberOrder(project, listViewOf(project));
  }, [project, documentId]);
  const goToDocument = useCallback(
    async (direction: 1 | -1) => {
      if (project === null) return;
      try {
        const view = listViewOf(project);
        const next = await neighbourDocument(project, documentId, direction, view);
        const which = direction > 0 ? 'last' : 'first';
        const filtered = queryFromView({ ...view, offset: 0 }) !== '';
        if (next) navigate({ view: 'document', documentId: next, mode: 'review' });
        else say({ kind: 'info', text: filtered ? `This is the ${which} document of the list as filtered and sorted.` : `This is the ${which} document of the project.` });
      } catch (err) {
        say({ kind: 'error', text: (err as Error).message });
      }
    },
    [project, documentId, say],
  );
  // What only the workspace knows (its search hits, finishing): it fills these in while it is shown.
  const workspaceKeys = useRef<WorkspaceKeys>({});
  const keyHandlers = useMemo(
    // "/" selects the last query too, so that typing starts a new search instead of adding to the old one.
    () => ({
      onDocument: (d: 1 | -1) => void goToDocument(d),
      onSearch: () => {
        searchField.current?.focus();
        searchField.current?.select();
      },
      workspace: workspaceKeys,
    }),
    [goToDocument],
  );
  useReviewKeys(keyHandlers);

  // The document as it was last ready for review: shown (locked) while it is read again, so the reviewer
  // keeps seeing it instead of a waiting page.
  const lastReady = useRef<DocumentOut | null>(null);
  if (doc?.id === documentId && doc.status_data === DONE) lastReady.current = doc;
  else if (lastReady.current?.id !== documentId) lastReady.current = null;

  const frame = useFillHeight();
  if (loadError) return <Notice title={`Document ${documentId}`} text={loadError} error />;
  if (!doc || doc.id !== documentId) return <Notice title={loading ? 'Opening the document…' : `Document ${documentId}`} busy />;
  const navigation = { goToDocument: (d: 1 | -1) => void goToDocument(d), searchField, workspaceKeys };
  const rereading = doc.status_data !== DONE && !RESTING.has(doc.status_data) && lastReady.current !== null;
  if (doc.status_data !== DONE && !rereading) return <ProcessingNotice doc={doc} {...navigation} />;
  return (
    <main ref={frame.ref} className="review-view" style={{ height: frame.height }}>
      <ReviewWorkspace doc={rereading ? lastReady.current! : doc} rereading={rereading ? doc.status[1] : null} {...navigation} />
    </main>
  );
}

interface Navigation {
  goToDocument(direction: 1 | -1): void;
  searchField: RefObject<HTMLInputElement | null>;
  workspaceKeys: RefObject<WorkspaceKeys>;
}

/**
 * `rereading`: the document is being read again (the status name it is in): `doc` is how it was before,
 * shown locked with a notice until the reading is done.
 */
function ReviewWorkspace({ doc, rereading, goToDocument, searchField, workspaceKeys }: { doc: DocumentOut; rereading: string | null } & Navigation) {
  const pages = useReview((s) => s.pages);
  const cursor = useReview((s) => s.cursor);
  const drawing = useReview((s) => s.drawing);
  const { setCursor, setDialog, say, setReviewed } = useReview.getState();
  // The reviewer's zoom holds for every document; until they choose one, each opens at its page's fit.
  const [chosen, setChosen] = useState<ZoomMode | null>(chosenZoom);
  const zoom = chosen ?? defaultZoom(pages);
  const setZoom = useCallback((z: ZoomMode) => {
    setChosen(z);
    chooseZoom(z);
  }, []);
  const locked = doc.is_reviewed || rereading !== null;
  const [confirmReadAgain, setConfirmReadAgain] = useState(false);
  useEffect(() => setConfirmReadAgain(false), [doc.id]);
  // One entry per occurrence, each with its spans (a hit over several lines has one per line).
  const [hits, setHits] = useState<SpanOut[][]>([]);
  const [hit, setHit] = useState(0);
  // A box drawn where OCR found no text: offered to be read again closer; where that reads nothing
  // either (`nothingRead`), offered to type the value.
  const [emptyBox, setEmptyBox] = useState<{ rect: RectOnPage; nothingRead: boolean } | null>(null);
  const [readingRegion, setReadingRegion] = useState(false);
  // The offer takes the focus, so that Enter does it (the review keys leave a focused button's Enter alone).
  const offer = useRef<HTMLButtonElement>(null);
  useEffect(() => offer.current?.focus(), [emptyBox]);
  const reload = useReview((s) => s.reload);
  const panel = usePanelWidth();
  const drawer = useMediaQuery(DRAWER_QUERY);
  const [drawerOpen, setDrawerOpen] = useState(false);
  // "Finish review" was asked for while values are not machine-readable (FinishBar lists them).
  const [warnUnreadable, setWarnUnreadable] = useState(false);
  useEffect(() => setWarnUnreadable(false), [doc.id]);

  const sets = doc.annotation_sets;
  const boxes = useMemo(() => boxesOf(sets), [sets]);
  const highlights = useMemo<Highlight[]>(() => hits.flatMap((spans, hit) => spans.map((h) => ({ hit, pageIndex: h.page_index, x0: h.x0, x1: h.x1, y0: h.y0, y1: h.y1 }))), [hits]);
  /** Where spans are on screen (the dialog about them stands beside them). */
  const anchorOf = useCallback(
    (rects: { page_index: number; x0: number; x1: number; y0: number; y1: number }[]) =>
      around(rects.flatMap((r) => screenRectOf({ pageIndex: r.page_index, x0: r.x0, x1: r.x1, y0: r.y0, y1: r.y1 }, pages[r.page_index]?.original_size) ?? [])),
    [pages],
  );
  const selected = useMemo(() => {
    const item = reviewItems(sets).find((i) => i.key === cursor);
    return item?.kind === 'annotation' ? item.annotation.id : null;
  }, [sets, cursor]);

  useEffect(() => {
    setHits([]); // search hits belong to the document they were found in
  }, [doc.id]);

  const onDrawRect = useCallback(
    async (rect: RectOnPage) => {
      try {
        const spans = await textInBox(doc.id, rect);
        setEmptyBox(spans.length ? null : { rect, nothingRead: false });
        // The dialog keeps clear of the box drawn (a click: of the words it took).
        const anchor = anchorOf(rect.x1 - rect.x0 > 1 ? [{ page_index: rect.pageIndex, ...rect }] : spans);
        if (spans.length) setDialog({ kind: 'create', spans, region: rect, anchor });
      } catch (err) {
        say({ kind: 'error', text: (err as Error).message });
      }
    },
    [doc.id, setDialog, say, anchorOf],
  );

  /**
   * Reads the empty box again at a higher resolution, writing nothing yet (a dry run): the dialog shows
   * what was read, and only creating the annotation stores it (read again for real, and labelled).
   */
  async function readRegionAgain(rect: RectOnPage) {
    setReadingRegion(true);
    try {
      const r = await useSession.getState().call((c) => c.readRegion(doc.id, { page_index: rect.pageIndex, x0: rect.x0, x1: rect.x1, y0: rect.y0, y1: rect.y1, dry_run: true }));
      if (!r.found) {
        setEmptyBox({ rect, nothingRead: true });
        return;
      }
      setEmptyBox(null);
      setDialog({ kind: 'create', spans: [], region: rect, preread: r.text, anchor: anchorOf([{ page_index: rect.pageIndex, ...rect }]) });
    } catch (err) {
      say({ kind: 'error', text: (err as Error).message });
    } finally {
      setReadingRegion(false);
    }
  }

  async function readDocumentAgain() {
    setConfirmReadAgain(false);
    try {
      await useSession.getState().call((c) => c.readAgain(doc.id));
      forgetWords();
      await reload();
    } catch (err) {
      say({ kind: 'error', text: (err as Error).message });
    }
  }

  /** A search hit becomes an annotation: the new-annotation dialog with the hit's text, the cursor's label chosen. */
  function labelHit() {
    const h = hits[hit];
    if (!h || locked) return;
    setDialog({ kind: 'create', spans: h, fromSearch: true, anchor: anchorOf(h) });
  }

  async function finish() {
    if (locked) return;
    // A checked value the AI cannot read would be learnt as it is: the warning lists each with its fix.
    if (unreadableValues(sets).length) {
      setWarnUnreadable(true);
      return;
    }
    setWarnUnreadable(false);
    if (!(await setReviewed(true))) return;
    try {
      const next = await nextUnreviewed(doc.project, doc.id, listViewOf(doc.project));
      if (next) navigate({ view: 'document', documentId: next, mode: 'review' });
      else say({ kind: 'info', text: 'Review finished. Every processed document of this project is reviewed.' });
    } catch (err) {
      say({ kind: 'error', text: (err as Error).message });
    }
  }

  workspaceKeys.current = { finish: () => void finish(), labelHit };

  return (
    <>
      <ReviewToolbar
        doc={doc}
        locked={locked}
        backHref={documentsHref(doc.project)}
        onDocument={goToDocument}
        onReadAgain={() => setConfirmReadAgain(true)}
        search={{ hits, current: hit, onHits: setHits, onCurrent: setHit, inputRef: searchField, onLabelHit: labelHit }}
        drawer={drawer ? { open: drawerOpen, toggle: () => setDrawerOpen(!drawerOpen) } : null}
      />
      {(rereading || confirmReadAgain || emptyBox) && (
      <div className="row read-again-bar">
        {rereading && (
          <span role="status" aria-busy="true" className="row rereading">
            <span className="spinner" aria-hidden="true" />
            <strong>Being read again</strong> ({rereading}). You see the document as it was; the review opens again when the reading is done.
          </span>
        )}
        {confirmReadAgain && !rereading && (
          <span role="alertdialog" aria-label="Read the document again?" className="row" onKeyDown={(e) => e.key === 'Escape' && setConfirmReadAgain(false)}>
            Read the whole document again? OCR replaces its text; annotations keep their boxes and take the new text in them, and the AI's
            unchecked proposals are extracted anew. This cannot be undone.
            <button type="button" className="primary" autoFocus onClick={() => void readDocumentAgain()}>
              Read again
            </button>
            <button type="button" onClick={() => setConfirmReadAgain(false)}>Cancel</button>
          </span>
        )}
        {emptyBox && !emptyBox.nothingRead && (
          <span role="alert" className="row">
            There is no text in that box.
            <button ref={offer} type="button" onClick={() => void readRegionAgain(emptyBox.rect)} disabled={readingRegion} aria-busy={readingRegion || undefined}>
              {readingRegion ? 'Reading…' : 'Read this region again'}
            </button>
            <button type="button" onClick={() => setEmptyBox(null)}>Dismiss</button>
          </span>
        )}
        {emptyBox?.nothingRead && (
          <span role="alert" className="row">
            Nothing could be read in that box, even closer up.
            <button
              ref={offer}
              type="button"
              className="primary"
              onClick={() => {
                setDialog({ kind: 'type-value', region: emptyBox.rect });
                setEmptyBox(null);
              }}
            >
              Type the value
            </button>
            <button type="button" onClick={() => setEmptyBox(null)}>Dismiss</button>
          </span>
        )}
      </div>
      )}
      <div className={`review-body${drawer ? ' with-drawer' : ''}`}>
        <div className="review-viewer">
          <Viewer
            documentId={doc.id}
            pages={pages}
            boxes={boxes}
            highlights={highlights}
            focusHighlight={hits.length ? hit : null}
            selectedAnnotationId={selected}
            zoom={zoom}
            onZoomChange={setZoom}
            drawing={drawing && !locked}
            onDrawRect={(r) => void onDrawRect(r)}
            onSelectAnnotation={(id) => setCursor(annotationKey(id))}
          />
        </div>
        {!drawer && (
          <div
            className="panel-handle"
            role="separator"
            aria-orientation="vertical"
            aria-label="Width of the review panel"
            aria-valuenow={panel.width}
            aria-valuemin={panel.min}
            aria-valuemax={panel.max}
            tabIndex={0}
            title="Drag to resize the review panel (or ← / → here)"
            onPointerDown={panel.onPointerDown}
            onKeyDown={panel.onKeyDown}
          />
        )}
        <aside
          id="review-panel"
          className={`review-side${drawer ? ' drawer' : ''}`}
          aria-label="Review"
          hidden={drawer && !drawerOpen}
          style={drawer ? undefined : { width: panel.width }}
          data-width={drawer ? undefined : panel.width}
        >
          <div className="review-scroll">
            <ReviewPanel sets={sets} locked={locked} />
          </div>
          <FinishBar sets={sets} reviewed={doc.is_reviewed} rereading={rereading !== null} note={doc.status_reason} warnUnreadable={warnUnreadable} onFinish={() => void finish()} />
        </aside>
      </div>
      <ReviewDialogs sets={sets} />
    </>
  );
}

/** The view fills the window below the top bar, so that the viewer and the panel scroll on their own. */
function useFillHeight() {
  const ref = useRef<HTMLElement>(null);
  const [top, setTop] = useState(0);
  useLayoutEffect(() => {
    const measure = () => ref.current && setTop(ref.current.getBoundingClientRect().top + window.scrollY);
    measure();
    window.addEventListener('resize', measure);
    return () => window.removeEventListener('resize', measure);
  });
  return { ref, height: `calc(100vh - ${top}px)` };
}

function Notice({ title, text, error, busy }: { title: string; text?: string; error?: boolean; busy?: boolean }) {
  return (
    <main className="page" aria-busy={busy || undefined}>
      <h1>{title}</h1>
      {text && <p className={error ? 'error' : 'muted'} role={error ? 'alert' : undefined}>{text}</p>}
    </main>
  );
}

/** A document not ready for review: what it is waiting for, its reason when processing failed. */
function ProcessingNotice({ doc, goToDocument }: { doc: DocumentOut } & Navigation) {
  const [code, name] = doc.status;
  const message = useReview((s) => s.message);
  const reload = useReview((s) => s.reload);
  const say = useReview((s) => s.say);
  const [retrying, setRetrying] = useState(false);
  async function retry() {
    setRetrying(true);
    try {
      await useSession.getState().call((c) => c.retryProcessing(doc.id));
      await reload();
    } catch (err) {
      say({ kind: 'error', text: (err as Error).message });
    } finally {
      setRetrying(false);
    }
  }
  return (
    <main className="page">
      <nav className="row" aria-label="Documents of the project">
        <a href={documentsHref(doc.project)}>← Documents</a>
        <span className="spacer" />
        <button type="button" onClick={() => goToDocument(-1)} title="Previous document (Alt+←)">
          ‹ Previous
        </button>
        <button type="button" onClick={() => goToDocument(1)} title="Next document (Alt+→)">
          Next ›
        </button>
      </nav>
      <h1>{doc.data_file_name}</h1>
      {code === 111 ? (
        <>
          <p className="error" role="alert">
            This document could not be processed{doc.status_reason ? `: ${doc.status_reason}` : '.'}
          </p>
          <p>
            <button type="button" onClick={() => void retry()} disabled={retrying} aria-busy={retrying || undefined} title="Process the uploaded file again from the start">
              {retrying ? 'Retrying…' : 'Retry processing'}
            </button>
          </p>
        </>
      ) : code === 41 ? (
        <p>
          The splitting AI proposes to split this document. <a href={`#/documents/${doc.id}/edit`}>Review the split in edit mode</a>.
        </p>
      ) : (
        <p className="muted" role="status" aria-busy="true">
          {name}… The review opens as soon as the document is ready.
        </p>
      )}
      <p className="muted" role="status">
        {message?.text}
      </p>
    </main>
  );
}
