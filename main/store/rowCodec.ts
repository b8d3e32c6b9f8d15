// Rows leave the store in the domain's shapes, not SQLite's encodings: a 0/1 column is a boolean and a JSON
// text column is its parsed value in the rows the repositories return and accept. Each table names its
// encoded columns once (schema.ts `codecs`); its repository reads and writes through that table's codec, so
// no service or mapper converts, and a store whose database has native booleans and JSON (PostgreSQL)
// returns the same rows.
import type { Page } from '../../shared/listParams.ts';

/** `R` with the columns `B` as booleans and the columns of `J` parsed (optional stays optional, null stays). */
export type Decoded<R, B extends PropertyKey, J = {}> = {
  [K in keyof R]: K extends B ? boolean : K extends keyof J ? J[K] | (null extends R[K] ? null : never) : R[K];
};
/** `W` as SQLite stores it: 0/1 for the columns `B`, JSON text for the columns of `J`. */
export type Encoded<W, B extends PropertyKey, J = {}> = {
  [K in keyof W]: K extends B ? number : K extends keyof J ? string | (null extends W[K] ? null : never) : W[K];
};
/** What a write may hold of the encoded columns: booleans, and parsed JSON (never text already encoded). */
type Writable<B extends PropertyKey, J> = { [K in B]?: boolean } & { [K in keyof J]?: J[K] | null };
/** A row read, or none (`executeTakeFirst`'s undefined). */
type DecodedOrNone<R, B extends PropertyKey, J> = R extends object ? Decoded<R, B, J> : undefined;

export interface RowCodec<B extends string, J = {}> {
  /** A row (or part of one, or one joined with other columns) as read: 0/1 become booleans, JSON is parsed. */
  read<R extends object | undefined>(row: R): DecodedOrNone<R, B, J>;
  readAll<R extends object>(rows: R[]): Decoded<R, B, J>[];
  readPage<R extends object>(page: Page<R>): Page<Decoded<R, B, J>>;
  /** Values to insert or set: booleans become 0/1, JSON columns text (null stays SQL NULL). */
  write<W extends Writable<B, J>>(values: W): Encoded<W, B, J>;
}

/**
 * The codec of a table whose 0/1 columns are `booleans` and whose JSON text columns are `json` (their
 * parsed types are `J`); its methods may be passed on (`.then(c.read)`).
 */
export function rowCodec<B extends string, J = {}>(booleans: readonly B[], json: readonly (keyof J & string)[] = []): RowCodec<B, J> {
  function read<R extends object | undefined>(row: R): DecodedOrNone<R, B, J> {
    if (row === undefined) return undefined as DecodedOrNone<R, B, J>;
    const out = { ...row } as Record<string, unknown>;
    for (const k of booleans) if (k in out) out[k] = out[k] === 1 || out[k] === true;
    for (const k of json) if (typeof out[k] === 'string') out[k] = JSON.parse(out[k] as string);
    return out as DecodedOrNone<R, B, J>;
  }
  const readAll = <R extends object>(rows: R[]): Decoded<R, B, J>[] => rows.map((r) => read(r) as Decoded<R, B, J>);
  return {
    read,
    readAll,
    readPage: (page) => ({ ...page, items: readAll(page.items) }),
    write<W extends Writable<B, J>>(values: W): Encoded<W, B, J> {
      const out = { ...values } as Record<string, unknown>;
      for (const k of booleans) if (typeof out[k] === 'boolean') out[k] = out[k] ? 1 : 0;
      for (const k of json) if (out[k] !== undefined && out[k] !== null) out[k] = JSON.stringify(out[k]);
      return out as Encoded<W, B, J>;
    },
  };
}
