// The contract between the document viewer (viewer/Viewer.tsx) and what embeds it (the review view,
// edit mode): what it shows and what it reports. Coordinates are PDF points with the origin at the
// bottom left of the page (the API's), whatever the zoom.
import type { PageSummary } from '../api/client.ts';

export type ReviewStateName = 'Feedback required' | 'Accepted' | 'Declined' | 'Created by human';

/** One rectangle of an annotation (an annotation has one per line it covers). */
export interface BoxOnPage {
  annotationId: number;
  pageIndex: number;
  x0: number;
  x1: number;
  y0: number;
  y1: number;
  state: ReviewStateName;
  /** Shown on hover: the label name and the text. */
  title: string;
}

/** A highlighted span (search results). */
export interface Highlight {
  /** The occurrence it belongs to, when one occurrence has several highlights (a hit over several lines
   * has one per line): `focusHighlight` then names the occurrence. Without it, each highlight is one. */
  hit?: number;
  pageIndex: number;
  x0: number;
  x1: number;
  y0: number;
  y1: number;
}

/** A rectangle on screen, viewport pixels (getBoundingClientRect's). */
export interface ScreenRect {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

export interface RectOnPage {
  pageIndex: number;
  x0: number;
  x1: number;
  y0: number;
  y1: number;
}

export type ZoomMode = { kind: 'fit-width' } | { kind: 'fit-page' } | { kind: 'percent'; value: number };

export interface ViewerProps {
  documentId: number;
  /** The document's pages (GET /api/v3/documents/<id>/pages/): sizes in points, image ids for images. */
  pages: PageSummary[];
  boxes: BoxOnPage[];
  highlights?: Highlight[];
  /** The annotation the reviewer is on: drawn emphasised, and scrolled into view when it changes. */
  selectedAnnotationId?: number | null;
  /** The highlight to emphasise and scroll into view (the current search hit): its `hit`, or its index
   * in `highlights` when highlights carry no `hit`. */
  focusHighlight?: number | null;
  zoom: ZoomMode;
  onZoomChange?(zoom: ZoomMode): void;
  /** Drawing mode: a drag on a page reports the rectangle instead of scrolling/selecting; a click reports
   * a rectangle of no size at the point clicked (the review view labels the word there). */
  drawing?: boolean;
  onDrawRect?(rect: RectOnPage): void;
  onSelectAnnotation?(annotationId: number): void;
  /** The page in view changed (1-based), for the page counter. */
  onPageChange?(pageNumber: number): void;
  /** What the pages are drawn from: the searchable PDF (default), or the page images alone, for a reader
   * who may not download the file (the public viewer: public documents show their pages, not their file). */
  source?: 'pdf' | 'images';
  /** The page images from the URLs the pages carry (a public document's: by its link) instead of by page id. */
  imagesFromPageUrls?: boolean;
}
