/**
 * The embedded limiter: counts live in this process, so a check-and-consume is
 * one synchronous step (exact under any concurrency), and are written to the
 * store every second so that a restart loses at most a second of counts.
 * Only valid with one server process per database.
 */
import type { Plan } from '../domain/access.ts';
import type { CounterRow, CounterStore } from '../store/access-store.ts';
import type { LimitDecision, Limiter } from './limiter.ts';
import { givenBackWindow, windowsAt, type Windows } from '../domain/windows.ts';
import { flushUntilWritten } from '../store/flush-until-written.ts';

interface OrgCounts {
  month: string;
  /** Requests admitted in the month. */
  monthCount: number;
  /** Of those, given back (server errors): the allowance used is monthCount − givenBack. */
  givenBack: number;
  minute: string;
  minuteCount: number;
}

export interface MemoryLimiterOptions {
  flushIntervalMs?: number;
  onFlushError?: (error: unknown) => void;
}

export class MemoryLimiter implements Limiter {
  private readonly store: CounterStore;
  private readonly counts = new Map<string, OrgCounts>();
  private readonly loading = new Map<string, Promise<OrgCounts>>();
  private readonly dirty = new Set<string>();
  /** Final counts of months that ended before they were written. */
  private readonly ended: CounterRow[] = [];
  private readonly timer: NodeJS.Timeout;
  private readonly onFlushError: (error: unknown) => void;

  constructor(store: CounterStore, options: MemoryLimiterOptions = {}) {
    this.store = store;
    this.onFlushError = options.onFlushError ?? (() => undefined);
    this.timer = setInterval(() => {
      this.flush().catch(this.onFlushError);
    }, options.flushIntervalMs ?? 1000);
    this.timer.unref();
  }

  /** The org's counts for the current windows; loaded from the store on first use of a month. */
  private async countsFor(orgId: string, w: Windows): Promise<OrgCounts> {
    const known = this.counts.get(orgId);
    if (known && known.month === w.month) return known;
    let pending = this.loading.get(orgId);
    if (!pending) {
      pending = this.store.loadCounters(orgId, [w.month, w.givenBack, w.minute]).then((stored) => {
        const fresh: OrgCounts = {
          month: w.month,
          monthCount: stored.get(w.month) ?? 0,
          givenBack: stored.get(w.givenBack) ?? 0,
          minute: w.minute,
          minuteCount: stored.get(w.minute) ?? 0,
        };
        const previous = this.counts.get(orgId);
        if (previous && previous.month !== w.month) this.endMonth(orgId, previous);
        this.counts.set(orgId, fresh);
        return fresh;
      });
      this.loading.set(orgId, pending);
      pending.finally(() => this.loading.delete(orgId)).catch(() => undefined);
    }
    return pending;
  }

  /** The decision without a promise once the organisation's month is loaded (nearly every request). */
  consumeNow(orgId: string, plan: Plan, nowMs: number): LimitDecision | undefined {
    const w = windowsAt(nowMs);
    const c = this.counts.get(orgId);
    if (c === undefined || c.month !== w.month) return undefined;
    return this.decideFor(c, orgId, plan, w, true);
  }

  async consume(orgId: string, plan: Plan, nowMs: number): Promise<LimitDecision> {
    return this.decide(orgId, plan, nowMs, true);
  }

  async peek(orgId: string, plan: Plan, nowMs: number): Promise<LimitDecision> {
    return this.decide(orgId, plan, nowMs, false);
  }

  private async decide(orgId: string, plan: Plan, nowMs: number, consume: boolean): Promise<LimitDecision> {
    const w = windowsAt(nowMs);
    return this.decideFor(await this.countsFor(orgId, w), orgId, plan, w, consume);
  }

  /** Checks and consumes in one step: nothing here waits. */
  private decideFor(c: OrgCounts, orgId: string, plan: Plan, w: Windows, consume: boolean): LimitDecision {
    if (c.month !== w.month) {
      // Another caller loaded an older month meanwhile; start the new one.
      this.endMonth(orgId, c);
      c.month = w.month;
      c.monthCount = 0;
      c.givenBack = 0;
    }
    if (c.minute !== w.minute) {
      c.minute = w.minute;
      c.minuteCount = 0;
    }
    const quota = plan.monthlyQuota;
    let refusedBy: LimitDecision['refusedBy'] = null;
    if (quota !== null && c.monthCount - c.givenBack >= quota) refusedBy = 'month';
    else if (c.minuteCount >= plan.ratePerMinute) refusedBy = 'minute';
    if (consume && refusedBy === null) {
      c.monthCount++;
      c.minuteCount++;
      this.dirty.add(orgId);
    }
    return {
      allowed: refusedBy === null,
      refusedBy,
      minute: { limit: plan.ratePerMinute, remaining: Math.max(0, plan.ratePerMinute - c.minuteCount), resetSeconds: w.minuteResetSeconds },
      month: {
        limit: quota,
        remaining: quota === null ? null : Math.max(0, quota - (c.monthCount - c.givenBack)),
        resetSeconds: w.monthResetSeconds,
      },
      monthResetsAt: w.monthResetsAt,
    };
  }

  /**
   * A month that already ended keeps what it counted (a request that began in
   * it and failed after it ended is not given back).
   */
  async giveBack(orgId: string, countedAtMs: number): Promise<void> {
    const c = this.counts.get(orgId);
    if (!c || c.month !== windowsAt(countedAtMs).month || c.monthCount - c.givenBack <= 0) return;
    c.givenBack++;
    this.dirty.add(orgId);
  }

  /** Keeps the last count of a month that is being replaced by the next one, until it is written. */
  private endMonth(orgId: string, c: OrgCounts): void {
    if (!this.dirty.has(orgId)) return;
    this.ended.push({ orgId, window: c.month, count: c.monthCount });
    if (c.givenBack > 0) this.ended.push({ orgId, window: givenBackWindow(c.month), count: c.givenBack });
  }

  async flush(): Promise<void> {
    if (this.dirty.size === 0 && this.ended.length === 0) return;
    const ended = this.ended.splice(0);
    const rows: CounterRow[] = [...ended];
    const keep = new Set<string>();
    for (const orgId of this.dirty) {
      const c = this.counts.get(orgId);
      if (!c) continue;
      rows.push({ orgId, window: c.month, count: c.monthCount }, { orgId, window: c.minute, count: c.minuteCount });
      // Zero is never written: the count only grows within its month.
      if (c.givenBack > 0) rows.push({ orgId, window: givenBackWindow(c.month), count: c.givenBack });
      keep.add(c.minute);
    }
    const written = [...this.dirty];
    this.dirty.clear();
    let ok = false;
    try {
      ok = await this.store.writeCounters(rows, [...keep]);
    } finally {
      // Not written (busy or failed): keep them dirty for the next tick.
      if (!ok) {
        for (const orgId of written) this.dirty.add(orgId);
        this.ended.unshift(...ended);
      }
    }
  }

  /** Stops the timer and writes everything pending (see flushUntilWritten). */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await flushUntilWritten(
      () => this.flush(),
      () => this.dirty.size > 0 || this.ended.length > 0,
    );
  }
}
