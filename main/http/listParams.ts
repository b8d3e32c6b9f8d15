// Reads the list conventions from a query string and builds the paging envelope's next/previous URLs.
import type { Request } from 'express';
import { DEFAULT_LIMIT, MAX_LIMIT, type ListParams, type Ordering } from '../../shared/listParams.ts';
import { ValidationError } from '../domain/errors.ts';

/** Query parameters that belong to the conventions, not to resource filters. */
const RESERVED = new Set(['limit', 'offset', 'ordering', 'fields', 'created_at_after', 'created_at_before', 'token', 'format', 'expand']);

function firstValue(v: unknown): string | undefined {
  if (Array.isArray(v)) return firstValue(v[0]);
  return typeof v === 'string' ? v : undefined;
}

/** A whole number of 0 or more; beyond 2^53 - 1 it is taken as that (no list is that long, and the
 * database compares only integers it can hold: a larger one was a 500). */
function nonNegativeInt(raw: string | undefined, name: string, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw ValidationError.of(name, `Must be a whole number of 0 or more, got "${raw}".`);
  return Math.min(Number(raw), Number.MAX_SAFE_INTEGER);
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Dates are exclusive bounds (spec 4): `created_at_after=2024-05-01` keeps items created on May 2nd
 * or later, `created_at_before=2024-05-01` items created on April 30th or earlier. A full ISO
 * timestamp is accepted too and compared exactly.
 */
function dateBound(raw: string | undefined, name: string, side: 'after' | 'before'): string | undefined {
  if (!raw) return undefined;
  if (DATE.test(raw)) {
    const d = new Date(`${raw}T00:00:00.000Z`);
    if (Number.isNaN(d.getTime())) throw ValidationError.of(name, `"${raw}" is not a valid date.`);
    if (side === 'after') d.setUTCDate(d.getUTCDate() + 1);
    // Rows store ISO text; "at or after the next midnight" equals "after the last instant of the day".
    return side === 'after' ? new Date(d.getTime() - 1).toISOString() : d.toISOString();
  }
  const t = new Date(raw);
  if (Number.isNaN(t.getTime())) throw ValidationError.of(name, `Enter a date as YYYY-MM-DD (or an ISO 8601 timestamp), got "${raw}".`);
  return t.toISOString();
}

export function parseListParams(query: Request['query']): ListParams {
  const limitRaw = firstValue(query.limit);
  let limit = nonNegativeInt(limitRaw, 'limit', DEFAULT_LIMIT);
  if (limit === 0) limit = DEFAULT_LIMIT;
  limit = Math.min(limit, MAX_LIMIT);
  const offset = nonNegativeInt(firstValue(query.offset), 'offset', 0);
  const ordering: Ordering[] = (firstValue(query.ordering) ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => (s.startsWith('-') ? { field: s.slice(1), desc: true } : { field: s.replace(/^\+/, ''), desc: false }));
  const filters: Record<string, string> = {};
  for (const [k, v] of Object.entries(query)) {
    if (RESERVED.has(k)) continue;
    const s = firstValue(v);
    if (s !== undefined) filters[k] = s;
  }
  return {
    limit,
    offset,
    ordering,
    createdAfter: dateBound(firstValue(query.created_at_after), 'created_at_after', 'after'),
    createdBefore: dateBound(firstValue(query.created_at_before), 'created_at_before', 'before'),
    filters,
  };
}

/** The request's absolute URL (`requestUrl`) with limit and offset replaced. */
export function pageUrl(requestUrl: string, limit: number, offset: number): string {
  const url = new URL(requestUrl);
  url.searchParams.set('limit', String(limit));
  if (offset > 0) url.searchParams.set('offset', String(offset));
  else url.searchParams.delete('offset');
  return url.toString();
}

export function pageLinks(requestUrl: string, params: ListParams, count: number): { next: string | null; previous: string | null } {
  const { limit, offset } = params;
  const next = offset + limit < count ? pageUrl(requestUrl, limit, offset + limit) : null;
  // Past the end, previous points at the last page that has items.
  const previous = offset > 0 ? pageUrl(requestUrl, limit, Math.max(0, Math.min(offset - limit, count - limit))) : null;
  return { next, previous };
}
