// Shared pieces of the response mappers (store rows -> API JSON).

/** Stored timestamps are UTC `...Z`; the API writes them with an explicit offset (compat.md). */
export function isoOut(t: string): string;
export function isoOut(t: string | null): string | null;
export function isoOut(t: string | null): string | null {
  return t === null ? null : t.endsWith('Z') ? `${t.slice(0, -1)}+00:00` : t;
}

export const bool = (v: number): boolean => v === 1;
