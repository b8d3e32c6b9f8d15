// The store's change stamp: how the response cache (main/http/responseCache.ts) knows that nothing at all
// changed since it built an answer, so that it may serve that answer again. SQLite gives it for free
// (`pragma data_version` with total_changes(), store/db.ts); the team server's PostgreSQL store keeps the
// same contract with its transaction snapshot (pgStore.ts, pgChangeStamp: why not a trigger-bumped counter).
//
// THE CONTRACT:
// - Never stale: two equal stamps mean that no write committed between the two reads, by this process or
//   any other on the same database (the CLI beside the server, the other instances of a team server),
//   and none is pending in this process's connection. A stamp that changes without a write is allowed:
//   it costs one rebuilt answer, where an equal stamp over a change would serve an old one.
// - Read first: the caller reads the stamp before it reads what it caches (http/server.ts), so the
//   answer is at least as new as its stamp.
// - Cheap: it is read on every cached GET. SQLite answers synchronously from two pragmas; an
//   implementation that must ask its database (a counter row every write moves, through a trigger) may
//   answer with a promise.
export interface ChangeStamp {
  changeStamp(): string | Promise<string>;
}
