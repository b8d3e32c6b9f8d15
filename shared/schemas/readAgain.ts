// Reading again (issue 10): a whole document on request, and one region a reviewer drew where OCR found
// nothing, read at a higher resolution.
import { z } from 'zod';
import { Annotation, Ref } from './annotations.ts';
import { SpanOut } from './geometry.ts';

const Languages = z
  .array(z.string().trim().min(1))
  .min(1, 'Name at least one OCR language.')
  .max(20)
  .describe('languages to read with this time, as spec 2.16 names ("German") or tesseract codes ("deu"); left out, the project\'s');

export const ReadAgainRequest = z.object({ ocr_languages: Languages.optional() });
export type ReadAgainRequest = z.infer<typeof ReadAgainRequest>;

const Coord = z.number({ error: 'A number is required.' }).finite();

export const ReadRegionRequest = z
  .object({
    page_index: z.number().int().min(0),
    x0: Coord,
    x1: Coord,
    y0: Coord,
    y1: Coord,
    label: Ref.nullable().optional().describe('make an annotation of this label from the text read (none: only read)'),
    label_set: Ref.nullable().optional().describe('as on annotation create'),
    annotation_set: Ref.nullable().optional().describe('as on annotation create'),
    ocr_languages: Languages.optional(),
    dry_run: z
      .boolean({ error: 'dry_run is true or false.' })
      .optional()
      .describe('true: only read, change nothing (found and text as the reading would have them, span empty, no annotation); the review window shows what was read before the reviewer labels it'),
  })
  .superRefine((s, ctx) => {
    if (s.dry_run && s.label != null) ctx.addIssue({ code: 'custom', path: ['label'], message: 'A dry run makes no annotation: leave out label, or dry_run.' });
    if (s.x1 <= s.x0) ctx.addIssue({ code: 'custom', path: ['x1'], message: 'x1 must be greater than x0.' });
    if (s.y1 <= s.y0) ctx.addIssue({ code: 'custom', path: ['y1'], message: 'y1 must be greater than y0.' });
  });
export type ReadRegionRequest = z.infer<typeof ReadRegionRequest>;

export const ReadRegionResponse = z.object({
  found: z.boolean().describe('whether any text was read in the region; false: the reviewer may type the value (an annotation with is_typed)'),
  text: z.string().describe('the text read, lines joined by spaces'),
  span: z.array(SpanOut).describe('where the text read now stands in the document text, one span per line'),
  annotation: Annotation.nullable().describe('the annotation made of the text read, when a label was given and text was found'),
  dpi: z.number().describe('the resolution the region was read at'),
});
