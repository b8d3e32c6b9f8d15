// Layout segmentation result (spec 2.12, version 2): one list of labelled elements per page, in pixels.
import { z } from 'zod';

export const SEGMENT_LABELS = ['text', 'title', 'list', 'table', 'figure'] as const;

export const SegmentElementOut = z.object({
  label: z.enum(SEGMENT_LABELS),
  x0: z.number().describe('left edge, pixels of the page image from its left'),
  y0: z.number().describe('top edge, pixels of the page image from its top'),
  x1: z.number().describe('right edge'),
  y1: z.number().describe('bottom edge'),
});

export const SegmentationResponse = z
  .array(z.array(SegmentElementOut).describe('the elements of one page, top to bottom'))
  .describe('one entry per page, in page order; a page without recognised content (or not processed yet) has an empty list');
