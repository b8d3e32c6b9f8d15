// What the workers of both queues (jobQueue.ts on SQLite, pgBossQueue.ts on PostgreSQL) share about
// scheduling: claim rounds that never overlap, and waiting for the jobs in hand, with a limit, on stop.

/**
 * Runs `round` when woken, one round at a time: a wake during a round asks for exactly one more right
 * after it (so a job sent meanwhile is not missed, and a burst of wakes costs one extra round).
 */
export class Rounds {
  private current: Promise<void> | undefined;
  private again = false;

  constructor(
    private readonly round: () => Promise<void>,
    /** False once the worker stops: wakes then do nothing. */
    private readonly active: () => boolean,
  ) {}

  wake(): void {
    if (!this.active()) return;
    if (this.current) {
      this.again = true;
      return;
    }
    this.current = this.round().finally(() => {
      this.current = undefined;
      if (this.again) {
        this.again = false;
        this.wake();
      }
    });
  }

  /** Resolves once the round in progress, if any, has ended. */
  async idle(): Promise<void> {
    await this.current;
  }
}

/** True when every job in `running` has ended within `timeoutMs`; false when the time ran out first. */
export async function endedWithin(running: Iterable<Promise<void>>, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
  try {
    return await Promise.race([Promise.allSettled(running).then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
