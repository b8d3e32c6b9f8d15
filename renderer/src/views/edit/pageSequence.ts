// The pages of a document in edit mode as one sequence of pages and split markers, with the pure
// operations on it (turn, move, split, name) and the post-process body it becomes. No React here, so the
// rules can be tested and reasoned about on their own.
import type { PostprocessInput } from '../../api/client.ts';

export type Angle = 0 | 90 | 180 | 270;

export interface EditPage {
  id: number;
  /** The page's number in the document as it is now (1-based): how the reviewer knows it. */
  number: number;
  /** The pending clockwise turn. */
  angle: Angle;
}

/** What the splitting AI said about a part it proposed (status 41). */
export interface PartProposal {
  category: number | null;
  categoryConfidence: number | null;
  /** The AI's probability that a document starts at the part's first page. */
  confidence: number;
}

/** Name and category of one resulting document. `'auto'` leaves the category to categorization. */
export interface PartMeta {
  key: string;
  name: string;
  category: number | 'auto';
  proposal?: PartProposal;
}

/**
 * A split marker carries the meta of the part after it, so that moving pages never mixes up which name
 * and category belong to which part: a part keeps them until its marker is removed.
 */
export type Item = { kind: 'page'; page: EditPage } | { kind: 'split'; meta: PartMeta };

export interface EditState {
  firstPart: PartMeta;
  items: Item[];
}

export interface Part {
  meta: PartMeta;
  pages: EditPage[];
}

let nextKey = 0;
const newMeta = (category: number | 'auto', proposal?: PartProposal): PartMeta => ({ key: `part-${++nextKey}`, name: '', category, proposal });

export interface ProposedPart {
  category: number | null;
  category_confidence: number | null;
  pages: number[];
  confidence: number;
}

/**
 * The document as it is (one part), or, when the splitting AI proposed parts, the pages in the proposed
 * parts with the AI's categories. Pages a proposal leaves out (there should be none) go last, so every
 * page stays in the sequence: the API wants each page in exactly one document.
 */
export function initialState(pages: { id: number; number: number }[], defaultCategory: number | null, proposal?: ProposedPart[] | null): EditState {
  const byId = new Map(pages.map((p) => [p.id, p]));
  const pageItem = (p: { id: number; number: number }): Item => ({ kind: 'page', page: { id: p.id, number: p.number, angle: 0 } });
  const fallback = defaultCategory ?? 'auto';
  const usable = (proposal ?? []).map((part) => ({ ...part, pages: part.pages.filter((id) => byId.has(id)) })).filter((part) => part.pages.length);
  if (usable.length === 0) return { firstPart: newMeta(fallback), items: pages.map(pageItem) };

  const metaOf = (part: ProposedPart) =>
    newMeta(part.category ?? 'auto', { category: part.category, categoryConfidence: part.category_confidence, confidence: part.confidence });
  const placed = new Set<number>();
  const items: Item[] = [];
  usable.forEach((part, i) => {
    if (i > 0) items.push({ kind: 'split', meta: metaOf(part) });
    for (const id of part.pages) {
      if (placed.has(id)) continue;
      placed.add(id);
      items.push(pageItem(byId.get(id)!));
    }
  });
  for (const p of pages) if (!placed.has(p.id)) items.push(pageItem(p));
  return normalize({ firstPart: metaOf(usable[0]), items });
}

/** The resulting documents, in order. */
export function partsOf(state: EditState): Part[] {
  const parts: Part[] = [{ meta: state.firstPart, pages: [] }];
  for (const item of state.items) {
    if (item.kind === 'split') parts.push({ meta: item.meta, pages: [] });
    else parts[parts.length - 1].pages.push(item.page);
  }
  return parts;
}

export const pagesOf = (state: EditState): EditPage[] => state.items.flatMap((i) => (i.kind === 'page' ? [i.page] : []));

/**
 * Removes markers that would leave a part empty (at the start, at the end, or two in a row). A marker at
 * the start hands its meta to the first part: the pages that follow it are that part's.
 */
export function normalize(state: EditState): EditState {
  let firstPart = state.firstPart;
  const items: Item[] = [];
  for (const item of state.items) {
    if (item.kind === 'split') {
      const last = items[items.length - 1];
      if (!last) firstPart = item.meta;
      else if (last.kind === 'split') items[items.length - 1] = item;
      else items.push(item);
    } else items.push(item);
  }
  while (items.length && items[items.length - 1].kind === 'split') items.pop();
  return { firstPart, items };
}

const turned = (angle: Angle, direction: 1 | -1): Angle => ((((angle + direction * 90) % 360) + 360) % 360) as Angle;

/** Turns the named pages by 90 degrees clockwise (1) or counter-clockwise (-1). */
export function rotate(state: EditState, ids: ReadonlySet<number>, direction: 1 | -1): EditState {
  return {
    ...state,
    items: state.items.map((item) =>
      item.kind === 'page' && ids.has(item.page.id) ? { kind: 'page', page: { ...item.page, angle: turned(item.page.angle, direction) } } : item,
    ),
  };
}

/**
 * Moves the named pages one step left (-1) or right (1). A step past a split marker moves the page into
 * the neighbouring part (the marker stays where it is), so a reviewer can place a page exactly with the
 * keyboard; a block of selected pages moves together.
 */
export function moveStep(state: EditState, ids: ReadonlySet<number>, direction: 1 | -1): EditState {
  const items = [...state.items];
  const selected = (i: number) => items[i]?.kind === 'page' && ids.has((items[i] as { page: EditPage }).page.id);
  const order = direction === -1 ? items.map((_, i) => i) : items.map((_, i) => items.length - 1 - i);
  for (const i of order) {
    const j = i + direction;
    if (!selected(i) || j < 0 || j >= items.length || selected(j)) continue;
    [items[i], items[j]] = [items[j], items[i]];
  }
  return normalize({ ...state, items });
}

/** Moves the named pages (in their order) before or after the target page: a drop in drag and drop. */
export function moveTo(state: EditState, ids: ReadonlySet<number>, targetId: number, after: boolean): EditState {
  if (ids.has(targetId)) return state;
  const moving = state.items.filter((i) => i.kind === 'page' && ids.has(i.page.id));
  if (!moving.length) return state;
  const rest = state.items.filter((i) => !(i.kind === 'page' && ids.has(i.page.id)));
  const at = rest.findIndex((i) => i.kind === 'page' && i.page.id === targetId);
  if (at < 0) return state;
  rest.splice(after ? at + 1 : at, 0, ...moving);
  return normalize({ ...state, items: rest });
}

/** Whether a split marker follows the page (the gap after it is a boundary between documents). */
export function splitsAfter(state: EditState, pageId: number): boolean {
  const at = state.items.findIndex((i) => i.kind === 'page' && i.page.id === pageId);
  return at >= 0 && state.items[at + 1]?.kind === 'split';
}

/**
 * Splits the document after the page, or joins the two parts there when it is split already. A new
 * part starts with the category of the part it came from; a joined part's name and category go.
 */
export function toggleSplit(state: EditState, pageId: number): EditState {
  const at = state.items.findIndex((i) => i.kind === 'page' && i.page.id === pageId);
  if (at < 0 || at === state.items.length - 1) return state;
  const items = [...state.items];
  if (items[at + 1].kind === 'split') items.splice(at + 1, 1);
  else {
    const owner = partsOf(state).find((p) => p.pages.some((pg) => pg.id === pageId))!;
    items.splice(at + 1, 0, { kind: 'split', meta: newMeta(owner.meta.category) });
  }
  return normalize({ ...state, items });
}

export function updateMeta(state: EditState, key: string, changes: Partial<Pick<PartMeta, 'name' | 'category'>>): EditState {
  if (state.firstPart.key === key) return { ...state, firstPart: { ...state.firstPart, ...changes } };
  return { ...state, items: state.items.map((i) => (i.kind === 'split' && i.meta.key === key ? { kind: 'split', meta: { ...i.meta, ...changes } } : i)) };
}

/** The body of POST documents/<id>/postprocess/: one object per part, pages with their turn. */
export function toPostprocess(state: EditState): PostprocessInput[] {
  return partsOf(state).map(({ meta, pages }) => ({
    ...(meta.name.trim() ? { name: meta.name.trim() } : {}),
    ...(meta.category === 'auto' ? {} : { category: meta.category }),
    pages: pages.map((p) => ({ id: p.id, number: p.number, angle: p.angle })),
  }));
}

/** "Reject proposal": one document with every page as it was (the API then goes on without splitting). */
export function keepWhole(pages: { id: number; number: number }[]): PostprocessInput[] {
  return [{ pages: [...pages].sort((a, b) => a.number - b.number).map((p) => ({ id: p.id, number: p.number, angle: 0 })) }];
}

/** Whether the sequence still is the document as it was: one part, pages in order, none turned. */
export function isUnchanged(state: EditState): boolean {
  const pages = pagesOf(state);
  return state.items.every((i) => i.kind === 'page') && pages.every((p, i) => p.angle === 0 && (i === 0 || pages[i - 1].number < p.number));
}

/** The pages from the anchor to the target in sequence order (shift-click). */
export function rangeBetween(state: EditState, anchorId: number, targetId: number): number[] {
  const ids = pagesOf(state).map((p) => p.id);
  const a = ids.indexOf(anchorId);
  const b = ids.indexOf(targetId);
  if (a < 0 || b < 0) return [targetId];
  return ids.slice(Math.min(a, b), Math.max(a, b) + 1);
}
