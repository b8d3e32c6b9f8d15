// Login throttling: failed password checks are counted per account (the email as typed, whether or not
// such an account exists, so that the throttle says nothing about which do) and per client address, in
// a sliding window. Past the limit, logins for that account or from that address are refused without
// checking the password, until enough failures have left the window. Kept in memory: a restart forgets
// the counts, which costs an attacker a restart of Folio they cannot cause.

export interface LoginLimits {
  /** Failures per account within the window; 0 turns the limit off. */
  perAccount: number;
  /** Failures per client address within the window; 0 turns the limit off. */
  perAddress: number;
  windowMs: number;
}

export const DEFAULT_LOGIN_LIMITS: LoginLimits = { perAccount: 10, perAddress: 100, windowMs: 15 * 60_000 };

/** Keys kept at most: a flood of made-up emails must not grow memory without end. */
const MAX_KEYS = 10_000;

export class LoginThrottle {
  /** Failure times per key, oldest first. */
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly limits: LoginLimits = DEFAULT_LOGIN_LIMITS,
    private readonly clock: () => number = Date.now,
  ) {}

  private keys(account: string, address: string | undefined): [string, number][] {
    const keys: [string, number][] = [[`account:${account.trim().toLowerCase()}`, this.limits.perAccount]];
    if (address) keys.push([`address:${address}`, this.limits.perAddress]);
    return keys.filter(([, limit]) => limit > 0);
  }

  private recent(key: string, now: number): number[] {
    const times = this.failures.get(key);
    if (!times) return [];
    const since = now - this.limits.windowMs;
    const kept = times.filter((t) => t > since);
    if (kept.length) this.failures.set(key, kept);
    else this.failures.delete(key);
    return kept;
  }

  /**
   * Seconds until a login for `account` from `address` will be checked again; 0 when it may be checked now.
   * A key at its limit opens again when its oldest failures leave the window.
   */
  retryAfterSeconds(account: string, address: string | undefined): number {
    const now = this.clock();
    let waitMs = 0;
    for (const [key, limit] of this.keys(account, address)) {
      const times = this.recent(key, now);
      if (times.length >= limit) waitMs = Math.max(waitMs, times[times.length - limit] + this.limits.windowMs - now);
    }
    return waitMs > 0 ? Math.max(1, Math.ceil(waitMs / 1000)) : 0;
  }

  recordFailure(account: string, address: string | undefined): void {
    const now = this.clock();
    for (const [key] of this.keys(account, address)) {
      const times = this.recent(key, now);
      times.push(now);
      // Re-inserted, so that the map's order is least recently failed first: those go when it is full.
      this.failures.delete(key);
      this.failures.set(key, times);
    }
    while (this.failures.size > MAX_KEYS) this.failures.delete(this.failures.keys().next().value!);
  }

  /** A correct password clears the account's failures; the address's stay (it may be guessing other accounts). */
  recordSuccess(account: string): void {
    this.failures.delete(`account:${account.trim().toLowerCase()}`);
  }
}
