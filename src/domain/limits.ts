/** What a limit check answers: the state of the minute and month windows, and whether the request may pass. */

export interface WindowState {
  /** null: unlimited. */
  limit: number | null;
  /** null: unlimited. */
  remaining: number | null;
  resetSeconds: number;
}

export interface LimitDecision {
  allowed: boolean;
  /** Which limit refused the request; the month is checked first. */
  refusedBy: 'month' | 'minute' | null;
  minute: WindowState;
  month: WindowState;
  /** When the month window resets, for messages. */
  monthResetsAt: Date;
  /**
   * The key, organisation or plan the caller looked up may be out of date
   * (revoked, changed): nothing was counted and the other fields mean
   * nothing. Look the key up afresh and ask again. Only with an AccessCheck.
   */
  stale?: boolean;
  /** Which state decided: the shared Redis, or this process alone (embedded, or the fallback while Redis is down). */
  backend?: 'memory' | 'redis' | 'fallback';
}

/**
 * Lets a limiter that carries revocation (Redis) vouch for a cached key
 * lookup in the same round trip that counts the request.
 */
export interface AccessCheck {
  /** The limiter's accessVersion() when the lookup was made or cached. */
  version: number;
}
