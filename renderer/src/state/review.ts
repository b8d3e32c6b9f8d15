// The review of one document: its annotation tree, the keyboard cursor, and the reviewer's actions. Each
// action is a command that knows the API call undoing it, so undo and redo replay calls against the API
// (the server stays the truth: after every step the tree is read again).
import { create } from 'zustand';
import type { DocumentOut, FolioClient, PageSummary, SpanOut } from '../api/client.ts';
import { useSession } from './session.ts';
import { reviewItems } from './reviewTree.ts';
import { SETTLED_STATUSES } from './documents.ts';
import type { ScreenRect } from '../viewer/types.ts';

export interface Command {
  /** Names the action in the status line and on the undo/redo buttons ("Accept “12,50”"). */
  title: string;
  perform(c: FolioClient): Promise<void>;
  revert(c: FolioClient): Promise<void>;
}

/**
 * An annotation or missing-annotation record across undo and redo: re-creating a deleted record gives it
 * a new id, and every command naming the record must follow it there.
 */
export interface IdRef {
  id: number;
}

export class IdRefs {
  private byId = new Map<number, IdRef>();
  of(id: number): IdRef {
    let ref = this.byId.get(id);
    if (!ref) this.byId.set(id, (ref = { id }));
    return ref;
  }
  move(ref: IdRef, id: number): void {
    this.byId.delete(ref.id);
    ref.id = id;
    this.byId.set(id, ref);
  }
}

/** The dialog open over the review view; annotations go by id so the dialog reads them fresh. */
export type ReviewDialog =
  /**
   * `region`: the box the reviewer drew (not a clicked word), which can be read again closer up.
   * `preread`: the text a closer reading of `region` found (read-region's dry run, nothing written yet):
   * creating reads it again for real and labels it; cancelling leaves the document as it was.
   * `anchor`: where the box or hit is on screen, which the dialog keeps clear of.
   */
  | { kind: 'create'; spans: SpanOut[]; region?: Region; fromSearch?: boolean; preread?: string; anchor?: ScreenRect | null }
  /** A box where nothing could be read, even closer up: the reviewer types its value. */
  | { kind: 'type-value'; region: Region; anchor?: ScreenRect | null }
  | { kind: 'edit-text'; annotationId: number }
  | { kind: 'change-label'; annotationId: number }
  | { kind: 'shortcuts' };

/** A rectangle on a page, PDF points, origin bottom left (the viewer's RectOnPage). */
export interface Region {
  pageIndex: number;
  x0: number;
  x1: number;
  y0: number;
  y1: number;
}

export interface StatusMessage {
  kind: 'info' | 'error';
  text: string;
}

interface ReviewState {
  documentId: number | null;
  doc: DocumentOut | null;
  pages: PageSummary[];
  /** The first load of the document is running (later reloads keep the old tree on screen). */
  loading: boolean;
  loadError: string | null;
  /** Actions waiting or running; the panel stays usable, the status line says "Saving…". */
  pending: number;
  message: StatusMessage | null;
  /** The key of the review item the keyboard is on (reviewTree.ts reviewItems). */
  cursor: string | null;
  undoStack: Command[];
  redoStack: Command[];
  /** Ids of annotations and missing annotations, followed across undo/redo; new for each document. */
  annotationRefs: IdRefs;
  missingRefs: IdRefs;
  dialog: ReviewDialog | null;
  /** Drawing mode: a drag (or a click on a word) on a page makes a new annotation. */
  drawing: boolean;

  open(documentId: number): Promise<void>;
  reload(): Promise<void>;
  setCursor(key: string | null): void;
  /** Moves the cursor by `step` items (keyboard up/down). */
  moveCursor(step: number): void;
  run(command: Command, after?: () => void): Promise<boolean>;
  undo(): Promise<void>;
  redo(): Promise<void>;
  say(message: StatusMessage | null): void;
  setDialog(dialog: ReviewDialog | null): void;
  setDrawing(drawing: boolean): void;
  /** PATCH is_reviewed; resolves true when the API accepted it, else says why in the status line. */
  setReviewed(value: boolean): Promise<boolean>;
}

const call = <T>(fn: (c: FolioClient) => Promise<T>) => useSession.getState().call(fn);

/** Actions run one after another in the order given: a fast typist's keys must not race. */
let queue: Promise<unknown> = Promise.resolve();
function enqueue<T>(fn: () => Promise<T>): Promise<T> {
  const next = queue.then(fn, fn);
  queue = next.catch(() => undefined);
  return next;
}

export const useReview = create<ReviewState>()((set, get) => {
  /** Runs one step of the stack and moves the command to the other stack when it succeeded. */
  async function step(from: 'undoStack' | 'redoStack'): Promise<void> {
    const command = get()[from].at(-1);
    if (!command) return;
    const undoing = from === 'undoStack';
    set((s) => ({ pending: s.pending + 1 }));
    try {
      await call((c) => (undoing ? command.revert(c) : command.perform(c)));
      set((s) => {
        const source = s[from].slice(0, -1);
        const target = [...s[undoing ? 'redoStack' : 'undoStack'], command];
        return undoing ? { undoStack: source, redoStack: target } : { redoStack: source, undoStack: target };
      });
      set({ message: { kind: 'info', text: `${undoing ? 'Undone' : 'Redone'}: ${command.title}` } });
    } catch (err) {
      set({ message: { kind: 'error', text: `Could not ${undoing ? 'undo' : 'redo'} “${command.title}”: ${(err as Error).message}` } });
    } finally {
      set((s) => ({ pending: s.pending - 1 }));
      await get().reload();
    }
  }

  return {
    documentId: null,
    doc: null,
    pages: [],
    loading: false,
    loadError: null,
    pending: 0,
    message: null,
    cursor: null,
    undoStack: [],
    redoStack: [],
    annotationRefs: new IdRefs(),
    missingRefs: new IdRefs(),
    dialog: null,
    drawing: false,

    async open(documentId) {
      if (get().documentId !== documentId) {
        // Another document: its own history; commands of the last one must not apply here.
        set({
          documentId, doc: null, pages: [], loadError: null, message: null, cursor: null,
          undoStack: [], redoStack: [], annotationRefs: new IdRefs(), missingRefs: new IdRefs(), dialog: null,
        });
      }
      set({ loading: true });
      try {
        const [doc, pages] = await Promise.all([call((c) => c.getDocument(documentId)), call((c) => c.listPages(documentId))]);
        if (get().documentId !== documentId) return; // the reviewer moved on meanwhile
        set({ doc, pages, loading: false, loadError: null });
        // Opened before it is ready: the reviewer waits for this one, so it goes ahead of the batches.
        if (!SETTLED_STATUSES.includes(doc.status_data)) void call((c) => c.prioritize(documentId)).catch(() => {});
      } catch (err) {
        if (get().documentId === documentId) set({ loading: false, loadError: (err as Error).message });
      }
    },

    async reload() {
      const id = get().documentId;
      if (id === null) return;
      try {
        const doc = await call((c) => c.getDocument(id));
        if (get().documentId !== id) return;
        // Pages appear once processing has made them.
        const pages = get().pages.length === doc.number_of_pages ? get().pages : await call((c) => c.listPages(id));
        if (get().documentId === id) set({ doc, pages });
      } catch (err) {
        if (get().documentId === id) set({ message: { kind: 'error', text: (err as Error).message } });
      }
    },

    setCursor: (key) => set({ cursor: key }),

    moveCursor(stepBy) {
      const doc = get().doc;
      if (!doc) return;
      const items = reviewItems(doc.annotation_sets);
      if (!items.length) return;
      const at = items.findIndex((i) => i.key === get().cursor);
      const next = at < 0 ? (stepBy > 0 ? 0 : items.length - 1) : Math.min(items.length - 1, Math.max(0, at + stepBy));
      set({ cursor: items[next].key });
    },

    run(command, after) {
      set((s) => ({ pending: s.pending + 1 }));
      return enqueue(async () => {
        let ok = false;
        try {
          await call((c) => command.perform(c));
          ok = true;
          set((s) => ({ undoStack: [...s.undoStack, command], redoStack: [], message: { kind: 'info', text: `${command.title}. Ctrl+Z undoes it.` } }));
          after?.();
        } catch (err) {
          set({ message: { kind: 'error', text: `${command.title}: ${(err as Error).message}` } });
        } finally {
          set((s) => ({ pending: s.pending - 1 }));
        }
        await get().reload();
        return ok;
      });
    },

    undo: () => enqueue(() => step('undoStack')),
    redo: () => enqueue(() => step('redoStack')),
    say: (message) => set({ message }),
    setDialog: (dialog) => set({ dialog }),
    setDrawing: (drawing) => set({ drawing }),

    setReviewed(value) {
      const id = get().documentId;
      if (id === null) return Promise.resolve(false);
      set((s) => ({ pending: s.pending + 1 }));
      return enqueue(async () => {
        try {
          await call((c) => c.updateDocument(id, { is_reviewed: value }));
          // A reviewed document is locked: what was done on it can no longer be undone from here.
          set({ undoStack: [], redoStack: [], message: { kind: 'info', text: value ? 'Review finished.' : 'Review reopened.' } });
          return true;
        } catch (err) {
          set({ message: { kind: 'error', text: (err as Error).message } });
          return false;
        } finally {
          set((s) => ({ pending: s.pending - 1 }));
          await get().reload();
        }
      });
    },
  };
});
