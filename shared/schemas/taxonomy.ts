// Categories, labels and label sets (spec 2.2-2.4, compat.md "Field names"): request bodies with the
// aliases older clients send, and the responses, which carry both spellings.
import { z } from 'zod';
import { Id, Name, Timestamp } from './common.ts';

/** Display names of the label data types (compat.md); these are what the store and the API hold. */
export const LABEL_DATA_TYPES = ['Text', 'Number', 'Positive Number', 'Percentage', 'Date', 'True/False'] as const;
export type LabelDataType = (typeof LABEL_DATA_TYPES)[number];

// The spec's lowercase names (2.14) and the older absolute/boolean spellings, keyed in lower case.
const DATA_TYPE_ALIASES: Record<string, LabelDataType> = {
  text: 'Text',
  number: 'Number',
  'positive number': 'Positive Number',
  positive_number: 'Positive Number',
  absolute: 'Positive Number',
  percentage: 'Percentage',
  date: 'Date',
  'true/false': 'True/False',
  true_false: 'True/False',
  boolean: 'True/False',
};

/** The display name for any accepted spelling of a data type, or undefined when it is not one. */
export function labelDataType(raw: string): LabelDataType | undefined {
  return DATA_TYPE_ALIASES[raw.trim().toLowerCase()];
}

const DataTypeInput = z
  .string()
  .refine((v) => labelDataType(v) !== undefined, {
    error: (iss) => `"${String(iss.input)}" is not a valid choice. Allowed: ${LABEL_DATA_TYPES.join(', ')} (or text, number, positive_number, percentage, date, boolean).`,
  })
  .describe(`One of ${LABEL_DATA_TYPES.join(', ')}; the lowercase names of spec 2.14 are accepted too`);

const IdList = z.array(Id);

// ---- categories ----

export const CategoryCreate = z.object({ project: Id, name: Name });
export const CategoryPatch = CategoryCreate.partial();
export type CategoryInput = z.infer<typeof CategoryPatch>;

export const Category = z.object({
  id: Id.describe('also the id of the category\'s default label set'),
  name: z.string(),
  project: Id,
  label_sets: IdList.describe('label sets linked to the category, its default label set included'),
  labels: IdList.describe('labels of the default label set'),
  schema: z
    .array(
      z.object({
        id: Id,
        name: z.string(),
        api_name: z.string().describe('the name as an identifier: other characters than letters, digits and _ become _'),
        has_multiple_annotation_sets: z.boolean(),
        has_multiple_sections: z.boolean().describe('same as has_multiple_annotation_sets'),
        labels: z.array(z.object({
          id: Id,
          name: z.string(),
          api_name: z.string(),
          data_type: z.enum(LABEL_DATA_TYPES),
          get_data_type_display: z.enum(LABEL_DATA_TYPES).describe('same as data_type (the SDK reads this one)'),
          description: z.string(),
          has_multiple_top_candidates: z.boolean().describe('always false: Folio keeps one value per label and annotation set'),
          threshold: z.number(),
        })),
      }),
    )
    .describe("the category's label sets (its default label set first) with their labels: the taxonomy clients read"),
  created_at: Timestamp,
  updated_at: Timestamp,
});

// ---- labels ----

const LabelFields = z.object({
  project: Id,
  name: Name.optional(),
  text: Name.optional().describe('legacy spelling of name'),
  data_type: DataTypeInput.optional(),
  get_data_type_display: DataTypeInput.optional().describe('legacy spelling of data_type (data_type wins when both are sent)'),
  description: z.string().max(10_000).nullable().optional(),
  threshold: z.number().min(0).max(1).optional(),
  categories: IdList.optional().describe('puts the label into the default label set of each category not covered by label_sets'),
  label_sets: IdList.optional().describe('label sets (or category ids, i.e. default label sets) holding the label'),
  templates: IdList.optional().describe('legacy spelling of label_sets'),
});

export const LabelCreate = LabelFields.refine((b) => b.name !== undefined || b.text !== undefined, {
  message: 'This field is required.',
  path: ['name'],
});
export const LabelPatch = LabelFields.partial();
export type LabelInput = z.infer<typeof LabelPatch>;

export const Label = z.object({
  id: Id,
  name: z.string(),
  text: z.string().describe('same as name'),
  project: Id,
  data_type: z.enum(LABEL_DATA_TYPES),
  get_data_type_display: z.enum(LABEL_DATA_TYPES).describe('same as data_type'),
  categories: IdList.describe('categories of every label set holding the label'),
  label_sets: IdList,
  templates: IdList.describe('same as label_sets'),
  description: z.string(),
  threshold: z.number(),
  created_at: Timestamp,
  updated_at: Timestamp,
});

// ---- label sets ----

export const LabelSetCreate = z.object({
  project: Id,
  name: Name,
  categories: IdList.optional(),
  labels: IdList.optional(),
  has_multiple_sections: z.boolean().optional(),
  has_multiple_annotation_sets: z.boolean().optional().describe('client spelling of has_multiple_sections'),
});
export const LabelSetPatch = LabelSetCreate.partial();
export type LabelSetInput = z.infer<typeof LabelSetPatch>;

export const LabelSet = z.object({
  id: Id,
  name: z.string(),
  project: Id,
  categories: IdList,
  labels: IdList,
  has_multiple_sections: z.boolean(),
  has_multiple_annotation_sets: z.boolean().describe('same as has_multiple_sections'),
  is_default: z.boolean().describe('true for the label set that stands for a category (same id)'),
  created_at: Timestamp,
  updated_at: Timestamp,
});
