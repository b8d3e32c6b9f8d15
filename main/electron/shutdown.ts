// A bounded shutdown: quitting waits for the core to close (running jobs stop at their next safe point,
// the database is closed cleanly), but not forever. Past the limit the app quits anyway: SQLite's journal
// and the durable job queue make an interrupted job resume at the next start.

export const SHUTDOWN_LIMIT_MS = 20_000;

/** Runs `close` and resolves when it ends or after `limitMs`, whichever is first; says which. */
export async function closeWithin(close: () => Promise<void>, limitMs = SHUTDOWN_LIMIT_MS): Promise<'closed' | 'timed-out'> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<'timed-out'>((resolve) => {
    timer = setTimeout(() => resolve('timed-out'), limitMs);
  });
  const closing = close().then(
    () => 'closed' as const,
    (err: unknown) => {
      console.error('[folio] shutdown failed:', err);
      return 'closed' as const;
    },
  );
  try {
    return await Promise.race([closing, limit]);
  } finally {
    clearTimeout(timer);
  }
}
