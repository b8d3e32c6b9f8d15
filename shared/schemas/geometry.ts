// Character boxes, rectangles, spans, pages and search (spec 2.6, 2.10; compat.md paths).
import { z } from 'zod';
import { Id } from './common.ts';

const Coord = z.number().finite();

export const Rect = z.object({
  page_index: z.number().int().min(0),
  x0: Coord,
  x1: Coord,
  y0: Coord,
  y1: Coord,
});

/** A box on a page as served: PDF points, origin bottom left; top/bottom measured from the page top. */
const PlacedBox = z.object({
  x0: z.number(),
  x1: z.number(),
  y0: z.number(),
  y1: z.number(),
  top: z.number(),
  bottom: z.number(),
  page_index: z.number().int(),
  line_index: z.number().int(),
});

export const CharBoxOut = PlacedBox.extend({ text: z.string() });

export const SpanOut = PlacedBox.extend({
  start_offset: z.number().int(),
  end_offset: z.number().int(),
  offset_string: z.string(),
  offset_string_original: z.string(),
});

export const BboxResponse = z.object({ bbox: z.record(z.string(), CharBoxOut) });
export const RectsRequest = z.object({ span: z.array(Rect).min(1, 'Give at least one rectangle.').max(1000) });
export const SpansResponse = z.object({ span: z.array(SpanOut) });
export const SearchResponse = SpansResponse.extend({
  hits: z.array(z.array(SpanOut)).describe('the same spans by occurrence: each hit\'s spans, one per line it covers'),
});
export const SearchRequest = z.object({ q: z.string().trim().min(1, 'This field may not be blank.').max(1000) });

export const PageOut = z.object({
  id: Id,
  document: Id,
  number: z.number().int().describe('1-based'),
  original_size: z.tuple([z.number(), z.number()]).describe('width and height in PDF points'),
  size: z.tuple([z.number(), z.number()]).nullable().describe('width and height of the page image in pixels'),
  rotation: z.number().int(),
  ocr: z.boolean().describe('the text was read by OCR'),
  image_url: z.string().nullable(),
  page_image: z.string().nullable(),
  thumbnail_url: z.string().nullable(),
  ocr_engine: z.string().nullable().describe('the OCR engine that read the page ("native", "wasm"); null for a page read from its text layer'),
  ocr_engine_version: z.string().nullable().describe('its program and version, e.g. "tesseract 5.3.0"'),
  orientation: z
    .object({
      turned: z.number().int().describe('clockwise degrees OCR turned the page to read it upright (already in rotation)'),
      confidence: z.number().nullable().describe("orientation detection's confidence (tesseract OSD: 0 a guess, clean pages 10 and more); null when it could not tell"),
    })
    .nullable()
    .describe('what orientation detection applied; null for a page read from its text layer'),
});
export const PageDetail = PageOut.extend({ entities: z.array(SpanOut).describe('the words of the page with their boxes') });
