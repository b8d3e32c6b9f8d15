// The list conventions of every collection endpoint (spec section 4): paging, date bounds, ordering.
// Parsed once at the HTTP edge; repositories apply them with their own whitelists of fields and filters.

export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 1000;

export interface Ordering {
  field: string;
  desc: boolean;
}

export interface ListParams {
  limit: number;
  offset: number;
  ordering: Ordering[];
  /** ISO timestamps; created_at must be strictly after / before them. */
  createdAfter?: string;
  createdBefore?: string;
  /** Raw query values of resource-specific filters; each repository validates the ones it knows. */
  filters: Record<string, string>;
}

export interface Page<T> {
  count: number;
  items: T[];
}

/** One page of a list that is already in memory (short lists: members, pages, languages). */
export function pageOfList<T>(all: readonly T[], params: ListParams): Page<T> {
  return { count: all.length, items: all.slice(params.offset, params.offset + params.limit) };
}
