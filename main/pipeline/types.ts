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

// A PDF's text layer as pdf.js gives it (pdfTextGeometry.ts, in the PDF workers; extractPdfText in pdfText.ts).
/** One glyph (or one character of a multi-character glyph) in PDF points, origin bottom left. */
export interface PdfChar {
  text: string;
  x0: number;
  x1: number;
  y0: number;
  y1: number;
  /** Writing direction in degrees, counter-clockwise, in page space: 0 = left to right, 180 = upside down. */
  dir: number;
  /** Where the glyph's baseline (without text rise) crosses the page, measured across the writing axis
   * (for dir 0 and 180 it is the baseline's y). Glyphs on one printed line share it exactly. */
  baseline: number;
}

export interface PdfPageText {
  number: number;
  width: number;
  height: number;
  rotation: number;
  hasTextLayer: boolean;
  /** In content-stream order; whitespace glyphs are kept (text ' ') as word-break evidence. */
  chars: PdfChar[];
}
