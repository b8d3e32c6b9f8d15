// Reads one region of a page again, closer than whole-page OCR does: the page is rendered at a high
// resolution, the region cut out (with a white margin, which tesseract needs to find text touching the
// cut) and read on its own. Photographed receipts lose whole blocks in whole-page OCR (page segmentation
// takes them for pictures); alone and enlarged, the same block is usually read.
import sharp from 'sharp';
import { renderPages } from './render.ts';
import type { OcrPool } from './ocr/ocrPool.ts';
import type { LayoutInputChar } from './textLayout.ts';

export interface RegionRequest {
  /** The PDF the page is drawn from (the searchable PDF: its invisible text layer does not show). */
  pdf: Uint8Array;
  /** 1-based. */
  pageNumber: number;
  /** PDF points of the page as displayed, origin bottom left. */
  region: { x0: number; x1: number; y0: number; y1: number };
  langs: readonly string[];
  ocr: OcrPool;
}

export interface RegionReading {
  /** The characters read, in page points, clipped to the region, in reading order (spaces included). */
  chars: LayoutInputChar[];
  /** The resolution the region was read at. */
  dpi: number;
}

/** 600 dpi puts 10 pt text at about 80 px, well above the 20-30 px tesseract reads best from; small
 * print on receipts (6-7 pt) still gets 50 px. */
const REGION_DPI = 600;
/** The whole page is painted before the cut: this bounds its pixels (A3 and larger get a lower dpi). */
const MAX_PAGE_PIXELS = 40_000_000;
const MARGIN_PX = 24;

export async function readRegion(req: RegionRequest): Promise<RegionReading> {
  let page;
  for await (const p of renderPages(req.pdf, { pages: [req.pageNumber], image: false, thumbnail: false, ocr: true, ocrDpi: REGION_DPI, maxOcrPixels: MAX_PAGE_PIXELS })) page = p;
  const image = page?.ocr;
  if (!page || !image) throw new Error(`page ${req.pageNumber} could not be rendered`);
  const sx = image.widthPx / page.widthPt;
  const sy = image.heightPx / page.heightPt;
  const r = req.region;
  const left = Math.max(0, Math.floor(Math.min(r.x0, r.x1) * sx));
  const right = Math.min(image.widthPx, Math.ceil(Math.max(r.x0, r.x1) * sx));
  const top = Math.max(0, Math.floor((page.heightPt - Math.max(r.y0, r.y1)) * sy));
  const bottom = Math.min(image.heightPx, Math.ceil((page.heightPt - Math.min(r.y0, r.y1)) * sy));
  if (right - left < 2 || bottom - top < 2) return { chars: [], dpi: image.dpi };

  const crop = await sharp(image.png)
    .extract({ left, top, width: right - left, height: bottom - top })
    .extend({ top: MARGIN_PX, bottom: MARGIN_PX, left: MARGIN_PX, right: MARGIN_PX, background: { r: 255, g: 255, b: 255 } })
    .png({ compressionLevel: 1 })
    .toBuffer();
  const widthPx = right - left + 2 * MARGIN_PX;
  const heightPx = bottom - top + 2 * MARGIN_PX;
  const text = await req.ocr.recognize(new Uint8Array(crop.buffer, crop.byteOffset, crop.byteLength), {
    langs: req.langs,
    dpi: image.dpi,
    pageWidthPt: widthPx / sx,
    pageHeightPt: heightPx / sy,
  });
  // From the cut-out's points (origin at its bottom left, margin included) to the page's.
  const dx = (left - MARGIN_PX) / sx;
  const dy = page.heightPt - (bottom + MARGIN_PX) / sy;
  const [x0, x1, y0, y1] = [Math.min(r.x0, r.x1), Math.max(r.x0, r.x1), Math.min(r.y0, r.y1), Math.max(r.y0, r.y1)];
  const clipX = (v: number) => Math.min(x1, Math.max(x0, v));
  const clipY = (v: number) => Math.min(y1, Math.max(y0, v));
  // Clipped to the region: a character belongs to the region it was read in (the annotation made of it
  // covers exactly the region's characters), and its box may have reached into the white margin.
  const chars = text.chars.map((c) => ({
    text: c.text,
    x0: clipX(c.x0 + dx),
    x1: clipX(c.x1 + dx),
    y0: clipY(c.y0 + dy),
    y1: clipY(c.y1 + dy),
    baseline: 'baseline' in c && typeof c.baseline === 'number' ? c.baseline + dy : undefined,
  }));
  return { chars: chars.filter((c) => c.x1 > c.x0 && c.y1 > c.y0), dpi: image.dpi };
}
