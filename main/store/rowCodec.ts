// Rows leave the store in the domain's shapes, not SQLite's encodings: a 0/1 column is a boolean in the
// rows the repositories return and accept. Each table names its encoded columns once (schema.ts); its
// repository reads and writes through that table's codec, so no service or mapper converts, and a store
// whose database has native booleans (PostgreSQL) returns the same rows.
import type { Page } from '../../shared/listParams.ts';

/** `R` with the columns `B` as booleans (optional stays optional: inserts and updates). */
export type Decoded<R, B extends PropertyKey> = { [K in keyof R]: K extends B ? boolean : R[K] };
/** A row read or none (`executeTakeFirst`'s undefined). */
type DecodedOrNone<R, B extends PropertyKey> = R extends object ? Decoded<R, B> : undefined;
/** `W` with the columns `B` as SQLite stores them. */
export type Encoded<W, B extends PropertyKey> = { [K in keyof W]: K extends B ? number : W[K] };

export interface RowCodec<B extends string> {
  /** A row (or part of one, or one joined with other columns) as read: 0/1 become booleans. */
  read<R extends object | undefined>(row: R): DecodedOrNone<R, B>;
  readAll<R extends object>(rows: R[]): Decoded<R, B>[];
  readPage<R extends object>(page: Page<R>): Page<Decoded<R, B>>;
  /** Values to insert or set: booleans become 0/1. */
  write<W extends object>(values: W): Encoded<W, B>;
}

/** The codec of a table whose 0/1 columns are `booleans`; its methods may be passed on (`.then(c.read)`). */
export function rowCodec<B extends string>(booleans: readonly B[]): RowCodec<B> {
  function read<R extends object | undefined>(row: R): DecodedOrNone<R, B> {
    if (row === undefined) return undefined as DecodedOrNone<R, B>;
    const out = { ...row } as Record<string, unknown>;
    for (const k of booleans) if (k in out) out[k] = out[k] === 1 || out[k] === true;
    return out as DecodedOrNone<R, B>;
  }
  const readAll = <R extends object>(rows: R[]): Decoded<R, B>[] => rows.map((r) => read(r) as Decoded<R, B>);
  return {
    read,
    readAll,
    readPage: (page) => ({ ...page, items: readAll(page.items) }),
    write<W extends object>(values: W): Encoded<W, B> {
      const out = { ...values } as Record<string, unknown>;
      for (const k of booleans) if (typeof out[k] === 'boolean') out[k] = out[k] ? 1 : 0;
      return out as Encoded<W, B>;
    },
  };
}
