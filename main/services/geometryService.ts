// Reads over processed documents' text geometry: all character boxes, characters inside rectangles,
// search hits, pages with their words, and page images. Every result is ready to be an annotation span.
import type { Repos } from '../store/repositories/index.ts';
import type { UserRow } from '../store/schema.ts';
import type { PageSummary } from '../store/repositories/pageRepository.ts';
import type { BlobStore } from '../blobs/blobStore.ts';
import { charsInRects, pageWords, searchSpans, spansFromChars, type Rect, type Span } from '../domain/geometry.ts';
import type { CharBox } from '../domain/geometry.ts';
import { NotFoundError, ValidationError } from '../domain/errors.ts';
import { publicDocument, readableDocument, readablePage } from './access.ts';

export class GeometryService {
  constructor(
    private readonly repos: Repos,
    private readonly blobs: BlobStore,
  ) {}

  private async geometry(user: UserRow | undefined, documentId: number) {
    const doc = await readableDocument(this.repos, user, documentId);
    const { chars, heights } = await this.repos.pages.charsForDocument(doc.id);
    return { doc, text: doc.text ?? '', chars, heights };
  }

  /** Every character of the document keyed by its offset (compat.md `bbox`). */
  async bbox(user: UserRow, documentId: number): Promise<Record<string, Omit<CharBox, 'offset'>>> {
    const { chars } = await this.geometry(user, documentId);
    const out: Record<string, Omit<CharBox, 'offset'>> = {};
    for (const { offset, ...rest } of chars) out[offset] = rest;
    return out;
  }

  /** The characters fully inside the rectangles, as spans (one per line). */
  async charsIn(user: UserRow, documentId: number, rects: Rect[]): Promise<Span[]> {
    const { doc, text, chars, heights } = await this.geometry(user, documentId);
    const tooFar = rects.findIndex((r) => r.page_index >= Math.max(heights.length, doc.number_of_pages));
    if (tooFar >= 0) {
      throw ValidationError.of(`span.${tooFar}.page_index`, `The document has ${Math.max(heights.length, doc.number_of_pages)} page(s); page_index counts from 0.`);
    }
    return spansFromChars(text, charsInRects(chars, rects), heights);
  }

  /**
   * Every occurrence of `q` (case-insensitive; any white space matches any, line breaks too), each as its
   * spans (one per line it covers).
   */
  async searchHits(user: UserRow, documentId: number, q: string): Promise<Span[][]> {
    const { text, chars, heights } = await this.geometry(user, documentId);
    return searchSpans(text, chars, q, heights);
  }

  /** The spans of every occurrence of `q`, in one list. */
  async search(user: UserRow, documentId: number, q: string): Promise<Span[]> {
    return (await this.searchHits(user, documentId, q)).flat();
  }

  async pages(user: UserRow, documentId: number): Promise<PageSummary[]> {
    const doc = await readableDocument(this.repos, user, documentId);
    return this.repos.pages.listForDocument(doc.id);
  }

  /** A page by its 1-based number, with its words (members; anyone else 401 or 404, readableDocument). */
  async page(user: UserRow | undefined, documentId: number, number: number): Promise<{ page: PageSummary; words: Span[] }> {
    const doc = await readableDocument(this.repos, user, documentId);
    return this.pageOf(doc, number);
  }

  /** A page of a public document by its link's token (access.ts publicDocument: 404, 410), with its words. */
  async publicPage(token: string, number: number): Promise<{ page: PageSummary; words: Span[] }> {
    const doc = await publicDocument(this.repos, token);
    return this.pageOf(doc, number);
  }

  /** The blob key of a public document's page image or thumbnail, by the link's token and the page number. */
  async publicPageImage(token: string, number: number, kind: 'image' | 'thumbnail'): Promise<string> {
    const doc = await publicDocument(this.repos, token);
    const page = await this.repos.pages.findByNumber(doc.id, number);
    const key = page ? (kind === 'image' ? page.image_blob : page.thumbnail_blob) : null;
    if (!key || !(await this.blobs.exists(key))) throw new NotFoundError(page ? `This page has no ${kind} yet.` : `The document has no page ${number}.`);
    return key;
  }

  private async pageOf(doc: { id: number; text: string | null; number_of_pages: number }, number: number): Promise<{ page: PageSummary; words: Span[] }> {
    const { chars, heights } = await this.repos.pages.charsForDocument(doc.id);
    const page = await this.repos.pages.findByNumber(doc.id, number);
    if (!page) throw new NotFoundError(`The document has no page ${number}${doc.number_of_pages ? ` (pages 1 to ${doc.number_of_pages})` : ' yet'}.`);
    const { chars: _omit, ...summary } = page;
    return { page: summary, words: pageWords(doc.text ?? '', chars.filter((c) => c.page_index === number - 1), heights) };
  }

  /**
   * The blob key of a page image or thumbnail, after the same access check as its document (members; public
   * documents' pages are read through their link, publicPageImage). An anonymous caller gets the same 401 for a page
   * that does not exist as for one of a private document, as the document detail does: which ids exist is
   * not theirs to learn.
   */
  async pageImage(user: UserRow | undefined, pageId: number, kind: 'image' | 'thumbnail'): Promise<string> {
    const page = await readablePage(this.repos, user, pageId);
    const key = kind === 'image' ? page.image_blob : page.thumbnail_blob;
    if (!key || !(await this.blobs.exists(key))) throw new NotFoundError(`This page has no ${kind} yet.`);
    return key;
  }
}
