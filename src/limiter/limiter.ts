/**
 * Per-organisation request limits: the plan's rate per UTC minute and its
 * allowance per UTC month, checked and consumed in one atomic step. A request
 * refused by one limit consumes nothing from the other.
 */
import type { Plan } from '../domain/access.ts';
import type { AccessCheck, LimitDecision } from '../domain/limits.ts';

export type { AccessCheck, LimitDecision, WindowState } from '../domain/limits.ts';

/**
 * How often each instance with Redis mirrors its counts to PostgreSQL and reads
 * the access version there: a change made by a process without Redis reaches
 * the instances within one tick (and the time the tick takes).
 */
export const REDIS_TICK_MS = 1_000;

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
  /**
   * consume() answered at once, for a limiter that can decide without waiting
   * for anything (counts it holds in this process); undefined when it cannot
   * (then call consume()), and nothing was counted.
   */
  consumeNow?(orgId: string, plan: Plan, nowMs: number): LimitDecision | undefined;
  /** Writes counts to durable storage now. */
  flush(): Promise<void>;
  /** Flushes and stops background work. */
  close(): Promise<void>;
}
