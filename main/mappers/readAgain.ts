// Reading a region again (issue 10) as the API answers it. Why mappers live in main/mappers: dto.ts.
import type { RegionResult } from '../services/readAgainService.ts';
import { annotationOut } from './annotations.ts';

export const readRegionOut = (result: RegionResult) => ({
  found: result.found,
  text: result.text,
  span: result.spans.map(({ line_index, ...s }) => ({ ...s, line_index })),
  annotation: result.annotation ? annotationOut(result.annotation.row, result.annotation.refs) : null,
  dpi: result.dpi,
});
