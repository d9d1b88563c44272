/**
 * Per-organisation request limits: the plan's rate per UTC minute and its
 * allowance per UTC month, checked and consumed in one atomic step. A request
 * refused by one limit consumes nothing from the other.
 */
import type { Plan } from '../domain/access.ts';

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

export interface Limiter {
  /** Checks both limits and, when both admit, counts the request against both. */
  consume(orgId: string, plan: Plan, nowMs: number, access?: AccessCheck): Promise<LimitDecision>;
  /** The same decision without counting anything (for responses refused before the limits). */
  peek(orgId: string, plan: Plan, nowMs: number, access?: AccessCheck): Promise<LimitDecision>;
  /**
   * Gives one request counted at countedAtMs back to that month's allowance
   * (the service failed it); the minute keeps it. Atomic, and never takes the
   * month below zero. Never throws.
   */
  giveBack(orgId: string, countedAtMs: number): Promise<void>;
  /** Writes counts to durable storage now. */
  flush(): Promise<void>;
  /** Flushes and stops background work. */
  close(): Promise<void>;
}
