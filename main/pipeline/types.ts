// Data shapes the pipeline modules share: a page's text as characters with boxes in PDF points.

/** One character with its box in PDF points, origin bottom left (y0 < y1). */
export interface CharBox {
  text: string;
  x0: number;
  x1: number;
  y0: number;
  y1: number;
}

/** What the pipeline knows of one page once it has text. */
export interface PageText {
  number: number; // 1-based
  width: number; // points (the page's original_size)
  height: number;
  rotation: number; // 0, 90, 180, 270
  hasTextLayer: boolean;
  chars: CharBox[]; // reading order within the page
}
