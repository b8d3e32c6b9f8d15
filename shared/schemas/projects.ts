// Projects (spec 2.1).
import { z } from 'zod';
import { Id, Name, Timestamp } from './common.ts';
import { FormBool } from './annotations.ts';

const OcrLanguages = z
  .array(z.string().trim().min(1))
  .min(1, 'Name at least one OCR language.')
  .max(20)
  .describe('languages OCR reads, as spec 2.16 names ("German") or tesseract codes ("deu"); default German and English');

export const ProjectCreate = z.object({
  name: Name,
  ocr_languages: OcrLanguages.optional(),
  splitting_enabled: FormBool.optional().describe('multi-page uploads are checked by the splitting AI (spec 2.11); default false'),
  continuous_learning: FormBool.optional().describe(
    'every finished review counts: the document joins the training data (1 in 5, by a hash of project and document id, the test data) when its dataset status is None, and a new extraction AI of its category is trained in the background (docs/continuous-learning.md); default true for a new project; PUT without it keeps the current value',
  ),
});
export const ProjectPatch = ProjectCreate.partial();

export const OcrLanguage = z.object({
  name: z.string().describe('the name of spec 2.16, or the code of an extra model'),
  code: z.string().nullable().describe('tesseract traineddata code; null when no model exists'),
  installed: z.boolean(),
  source: z.enum(['bundled', 'system', 'data']).nullable().describe("bundled with Folio, the machine's own tesseract models (FOLIO_SYSTEM_TESSDATA), or <data>/tessdata (added by an administrator)"),
});

/** An administrator adds a tesseract model (multipart, the file in `file`). */
export const OcrModelUpload = z.object({
  code: z.string().trim().max(40).optional().describe('the tesseract language code; default the file name without .traineddata'),
});

export const OcrModelInstalled = OcrLanguage.extend({
  version: z.string().nullable().describe("the model's own version string (tesseract's, e.g. 4.00.00alpha:fra:...)"),
  size: z.number().int().describe('bytes'),
  replaced: z.boolean().describe('a model of this code in the data folder was replaced'),
});

export const Project = z.object({
  id: Id,
  name: z.string(),
  created_by: Id.nullable(),
  ocr_languages: z.array(z.string()).describe('tesseract codes OCR reads pages of this project with'),
  splitting_enabled: z.boolean(),
  continuous_learning: z.boolean().describe('finished reviews join the training/test data and train the category\'s extraction AI (docs/continuous-learning.md)'),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Project = z.infer<typeof Project>;
