// Layout segmentation of a document's pages (spec 2.12, version 2): each page's character boxes and
// image turned into labelled elements. Computed on request from what processing stored.
import type { Repos } from '../store/repositories/index.ts';
import type { UserRow } from '../store/schema.ts';
import type { PageSummary } from '../store/repositories/pageRepository.ts';
import type { BlobStore } from '../blobs/blobStore.ts';
import type { CharBox } from '../domain/geometry.ts';
import { segmentPage, textBoxes, type PageFrame, type SegmentElement } from '../domain/layoutSegmentation.ts';
import { findFigures } from '../pipeline/figures.ts';
import { NotFoundError } from '../domain/errors.ts';
import { projectForMember, readableDocument } from './access.ts';

/** Pages segmented at once: image decoding runs on sharp's threads, so a few pages overlap usefully. */
const PAGES_AT_ONCE = 4;

export class SegmentationService {
  constructor(
    private readonly repos: Repos,
    private readonly blobs: BlobStore,
  ) {}

  /**
   * One list of elements per page, in page order. The caller must be a member of the project and the
   * document must belong to it, else 404. A document not processed yet (or whose processing failed)
   * has no stored pages: an empty list for each page it is known to have, often none at all.
   */
  async document(user: UserRow, projectId: number, documentId: number): Promise<SegmentElement[][]> {
    const project = await projectForMember(this.repos, user, projectId);
    const doc = await readableDocument(this.repos, user, documentId);
    if (doc.project_id !== project.id) throw new NotFoundError('Document not found.');
    const pages = await this.repos.pages.listForDocument(doc.id);
    if (!pages.length) return Array.from({ length: doc.number_of_pages ?? 0 }, () => []);
    const { chars } = await this.repos.pages.charsForDocument(doc.id);
    const byPage = new Map<number, CharBox[]>();
    for (const c of chars) {
      const list = byPage.get(c.page_index);
      if (list) list.push(c);
      else byPage.set(c.page_index, [c]);
    }
    const out: SegmentElement[][] = new Array(pages.length);
    for (let i = 0; i < pages.length; i += PAGES_AT_ONCE) {
      const batch = pages.slice(i, i + PAGES_AT_ONCE);
      const results = await Promise.all(batch.map((p) => this.page(p, byPage.get(p.number - 1) ?? [])));
      results.forEach((r, k) => (out[i + k] = r));
    }
    return out;
  }

  private async page(page: PageSummary, chars: readonly CharBox[]): Promise<SegmentElement[]> {
    const { image_width: width, image_height: height, image_blob: blob } = page;
    const frame: PageFrame = { widthPt: page.width_pt, heightPt: page.height_pt, imageWidth: width, imageHeight: height };
    // Without its image (not rendered, blob gone) a page still has its text elements.
    const figures = blob && width && height && (await this.blobs.exists(blob))
      ? await findFigures(await this.blobs.pathOf(blob), textBoxes(chars, frame), width, height)
      : [];
    return segmentPage(chars, frame, figures);
  }
}
