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
});
export const ProjectPatch = ProjectCreate.partial();

export const OcrLanguage = z.object({
  name: z.string().describe('the name of spec 2.16, or the code of an extra model'),
  code: z.string().nullable().describe('tesseract traineddata code; null when no model exists'),
  installed: z.boolean(),
  source: z.enum(['bundled', 'data']).nullable().describe('bundled with Folio, or found in <data>/tessdata'),
});

export const Project = z.object({
  id: Id,
  name: z.string(),
  created_by: Id.nullable(),
  ocr_languages: z.array(z.string()).describe('tesseract codes OCR reads pages of this project with'),
  splitting_enabled: z.boolean(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Project = z.infer<typeof Project>;
