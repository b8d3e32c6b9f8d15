// The project's data as CSV (spec 4, export/all.csv): one row per annotation with its document,
// category, label set, annotation set, label, text, normalized value in the CSV form of spec 2.14,
// confidence, review state, page and box.
import type { Repos } from '../store/repositories/index.ts';
import type { UserRow } from '../store/schema.ts';
import type { ProjectService } from './projectService.ts';
import { csvRecord } from '../domain/csv.ts';
import { csvForm, type Normalized } from '../domain/normalization.ts';
import { labelDataType } from '../../shared/schemas/taxonomy.ts';
import { parseSpans } from '../domain/spans.ts';
import { stateOf } from './annotationService.ts';

export const CSV_COLUMNS = [
  'document_id', 'data_file_name', 'category', 'label_set', 'annotation_set', 'label', 'annotation_id', 'text',
  'normalized', 'confidence', 'review_state', 'page', 'x0', 'y0', 'x1', 'y1',
] as const;

const round = (v: number) => Math.round(v * 1000) / 1000;

export class ExportService {
  constructor(private readonly repos: Repos, private readonly projects: ProjectService) {}

  async projectCsv(user: UserRow, projectId: number): Promise<string> {
    await this.projects.get(user, projectId);
    const rows = await this.repos.annotations.exportRows(projectId);
    const out = [csvRecord(CSV_COLUMNS)];
    for (const r of rows) {
      const spans = parseSpans(r.spans);
      const first = spans[0];
      const onFirstPage = spans.filter((s) => s.page_index === first?.page_index);
      const dataType = labelDataType(r.data_type) ?? 'Text';
      const normalized = r.normalized === null ? null : (JSON.parse(r.normalized) as Normalized);
      out.push(
        csvRecord([
          r.document_id,
          r.data_file_name,
          r.category,
          r.label_set,
          r.annotation_set_id,
          r.label,
          r.id,
          r.offset_string,
          csvForm(normalized, dataType),
          r.confidence,
          stateOf(r),
          first ? first.page_index + 1 : null,
          first ? round(Math.min(...onFirstPage.map((s) => s.x0))) : null,
          first ? round(Math.min(...onFirstPage.map((s) => s.y0))) : null,
          first ? round(Math.max(...onFirstPage.map((s) => s.x1))) : null,
          first ? round(Math.max(...onFirstPage.map((s) => s.y1))) : null,
        ]),
      );
    }
    return out.join('');
  }
}
