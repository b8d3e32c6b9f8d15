// Post-process (compat.md): split, rotate and re-order the pages of a document, and the document sets a
// split leaves behind. The body is a list with one object per resulting document (a single object is
// taken as a list of one); pages are page ids or objects `{id, number, angle}`.
import { z } from 'zod';
import { Id, Timestamp } from './common.ts';
import { Ref } from './annotations.ts';

const Angle = z
  .number()
  .int()
  .refine((a) => a % 90 === 0 && Math.abs(a) <= 270, 'Rotation is in multiples of 90 degrees, one of -270, -180, -90, 0, 90, 180, 270.')
  .describe('clockwise degrees');

// A page id alone is read as `{id}`: a union would hide the angle's message behind "Invalid input".
export const PostprocessPage = z.preprocess(
  (v) => (typeof v === 'number' ? { id: v } : v),
  z
    .object({
      id: Id,
      number: z.number().int().positive().optional().describe('1-based page number (informative; the id decides)'),
      angle: Angle.optional(),
      rotation: Angle.optional().describe('same as angle'),
    })
    .transform((p) => ({ id: p.id, angle: p.angle ?? p.rotation ?? 0 })),
);

export const PostprocessDocument = z.object({
  name: z.string().trim().min(1).max(255).optional().describe('file name of the resulting document'),
  category: Ref.nullable().optional().describe('category of the resulting document; none: categorized automatically'),
  pages: z.array(PostprocessPage).min(1, 'A document needs at least one page.'),
});

export const PostprocessRequest = z
  .preprocess((v) => (v !== null && typeof v === 'object' && !Array.isArray(v) && 'pages' in v ? [v] : v), z.array(PostprocessDocument).min(1, 'Name at least one resulting document.'))
  .describe('one object per resulting document');
export type PostprocessRequest = z.infer<typeof PostprocessRequest>;

export const DocumentSet = z.object({
  id: Id,
  project: Id,
  original_file_name: z.string(),
  original_file_url: z.string().describe('the file the documents were split from'),
  original_number_of_pages: z.number().int(),
  created_at: Timestamp,
  documents: z.array(z.unknown()).describe('document ids, or the documents with ?expand=documents'),
});
