// Categories, labels and label sets (spec 2.2-2.4) as the API shows them; the document detail embeds
// the same shapes. Why mappers live in main/mappers: dto.ts.
import type { LabelDataType } from '../../shared/schemas/taxonomy.ts';
import type { CategoryView } from '../store/repositories/categoryRepository.ts';
import type { LabelView } from '../store/repositories/labelRepository.ts';
import type { LabelSetView } from '../store/repositories/labelSetRepository.ts';
import { isoOut } from './dto.ts';

/**
 * The name a client uses as an attribute (the service's SDK reads `category.<api_name>`): the name with
 * every run of other characters than letters, digits and "_" made one "_", and "_" before a leading digit.
 */
export function apiName(name: string): string {
  const cleaned = name.normalize('NFC').replace(/[^\p{L}\p{N}_]+/gu, '_').replace(/^_+|_+$/g, '');
  return /^\p{N}/u.test(cleaned) ? `_${cleaned}` : cleaned || '_';
}

export const categoryOut = (c: CategoryView) => ({
  id: c.id,
  name: c.name,
  project: c.project_id,
  label_sets: c.label_set_ids,
  labels: c.label_ids,
  schema: c.schema.map((s) => ({
    id: s.id,
    name: s.name,
    api_name: apiName(s.name),
    has_multiple_annotation_sets: s.has_multiple_sections,
    has_multiple_sections: s.has_multiple_sections,
    labels: s.labels.map((l) => ({
      id: l.id,
      name: l.name,
      api_name: apiName(l.name),
      data_type: l.data_type as LabelDataType,
      // The SDK's Label reads its data type and description from these two (compat.md). Never `text`,
      // `project` or `label_sets` here: the SDK passes this dict as keywords beside those parameters.
      get_data_type_display: l.data_type as LabelDataType,
      description: l.description,
      // Folio's AI keeps one value per label and annotation set: never several top candidates.
      has_multiple_top_candidates: false,
      threshold: l.threshold,
    })),
  })),
  created_at: isoOut(c.created_at),
  updated_at: isoOut(c.updated_at),
});

export const labelOut = (l: LabelView) => ({
  id: l.id,
  name: l.name,
  text: l.name,
  project: l.project_id,
  data_type: l.data_type,
  get_data_type_display: l.data_type,
  categories: l.category_ids,
  label_sets: l.label_set_ids,
  templates: l.label_set_ids,
  description: l.description,
  threshold: l.threshold,
  created_at: isoOut(l.created_at),
  updated_at: isoOut(l.updated_at),
});

export const labelSetOut = (s: LabelSetView) => ({
  id: s.id,
  name: s.name,
  project: s.project_id,
  categories: s.category_ids,
  labels: s.label_ids,
  has_multiple_sections: s.has_multiple_sections,
  has_multiple_annotation_sets: s.has_multiple_sections,
  is_default: s.is_default,
  created_at: isoOut(s.created_at),
  updated_at: isoOut(s.updated_at),
});
