// Applies the list conventions (filters, date bounds, ordering, paging) to a repository's base query.
// Each repository names the fields it lets clients filter and order by; anything else is refused.
import { sql, type RawBuilder, type SelectQueryBuilder } from 'kysely';
import type { ListParams, Ordering, Page } from '../../shared/listParams.ts';
import { ValidationError } from '../domain/errors.ts';

// Dynamic column names make kysely's static row types moot here; repositories re-type the rows.
type AnyQuery = SelectQueryBuilder<any, any, any>;
export type Filter = (qb: AnyQuery, raw: string, name: string) => AnyQuery;

export interface ListSpec {
  /** API field name -> column reference, for `ordering` (or an expression, e.g. a name compared without case). */
  orderable: Record<string, string | RawBuilder<unknown>>;
  /** Query parameter -> how it narrows the query. */
  filters: Record<string, Filter>;
  createdAtColumn: string;
  idColumn: string;
  defaultOrder: Ordering[];
}

export function parseIntStrict(raw: string, name: string): number {
  if (!/^-?\d+$/.test(raw.trim())) throw ValidationError.of(name, `A valid integer is required, got "${raw}".`);
  return Number(raw);
}

const TRUE = new Set(['true', '1', 'yes', 'on']);
const FALSE = new Set(['false', '0', 'no', 'off']);

export function parseBool(raw: string, name: string): boolean {
  const v = raw.trim().toLowerCase();
  if (TRUE.has(v)) return true;
  if (FALSE.has(v)) return false;
  throw ValidationError.of(name, `Must be true or false, got "${raw}".`);
}

/** `?project=3` style filter on an integer column; `null`/empty matches rows where it is unset. */
export const intFilter = (column: string): Filter => (qb, raw, name) => {
  if (raw === '' || raw === 'null') return qb.where(sql.ref(column), 'is', null);
  const ids = raw.split(',').map((x) => parseIntStrict(x, name));
  return ids.length === 1 ? qb.where(sql.ref(column), '=', ids[0]) : qb.where(sql.ref(column), 'in', ids);
};

export const boolFilter = (column: string): Filter => (qb, raw, name) =>
  qb.where(sql.ref(column), '=', parseBool(raw, name) ? 1 : 0);

/** Case-insensitive substring match. */
export const containsFilter = (column: string): Filter => (qb, raw) => {
  const pattern = `%${raw.toLowerCase().replace(/[%_\\]/g, (c) => `\\${c}`)}%`;
  return qb.where(sql<boolean>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`);
};

export async function runList<T>(base: AnyQuery, params: ListParams, spec: ListSpec, select: (qb: AnyQuery) => AnyQuery): Promise<Page<T>> {
  let qb = base;
  for (const [name, raw] of Object.entries(params.filters)) {
    // Own keys only: `?constructor=` or `?__proto__=` must not reach Object.prototype's members.
    const f = Object.hasOwn(spec.filters, name) ? spec.filters[name] : undefined;
    if (f) qb = f(qb, raw, name);
  }
  if (params.createdAfter) qb = qb.where(sql.ref(spec.createdAtColumn), '>', params.createdAfter);
  if (params.createdBefore) qb = qb.where(sql.ref(spec.createdAtColumn), '<', params.createdBefore);

  const ordering = params.ordering.length ? params.ordering : spec.defaultOrder;
  for (const o of ordering) {
    if (!Object.hasOwn(spec.orderable, o.field)) {
      throw ValidationError.of('ordering', `Cannot order by "${o.field}". Allowed: ${Object.keys(spec.orderable).join(', ')}.`);
    }
  }
  const countRow = await qb.clearSelect().select(sql<number>`count(*)`.as('n')).executeTakeFirst();
  let rowsQb = select(qb);
  for (const o of ordering) {
    const column = spec.orderable[o.field];
    // Nulls first going up and last going down, SQLite's default, said out loud so PostgreSQL (the other
    // way round) orders alike.
    rowsQb = rowsQb.orderBy(typeof column === 'string' ? sql.ref(column) : column, (ob) => (o.desc ? ob.desc().nullsLast() : ob.asc().nullsFirst()));
  }
  // A stable tie-break so that pages never repeat or skip rows.
  rowsQb = rowsQb.orderBy(sql.ref(spec.idColumn), 'asc').limit(params.limit).offset(params.offset);
  const items = (await rowsQb.execute()) as T[];
  return { count: Number(countRow?.n ?? 0), items };
}
