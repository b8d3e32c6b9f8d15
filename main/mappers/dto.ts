// The response mappers (main/mappers/<resource>.ts) turn stored rows and service views into the JSON of the
// API (shared/schemas). They live here, outside main/http, because the same JSON leaves Folio by more than
// one door: the route table (HTTP, the desktop window's IPC, OpenAPI) answers with it, and the core hands
// `documentOut` to the completion callbacks (events/eventJobs.ts), which know no HTTP server. So the core and
// the events import mappers, never main/http; the routes import mappers, never store row types.
// This file holds the pieces the mappers share.

/** Stored timestamps are UTC `...Z`; the API writes them with an explicit offset (compat.md). */
export function isoOut(t: string): string;
export function isoOut(t: string | null): string | null;
export function isoOut(t: string | null): string | null {
  return t === null ? null : t.endsWith('Z') ? `${t.slice(0, -1)}+00:00` : t;
}
