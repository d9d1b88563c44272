/**
 * Counts requests per key, UTC day and outcome in memory and adds them to the
 * store every second, so a crash loses at most a second of counts.
 */
import type { Outcome } from '../../domain/access.ts';
import type { UsageRow, UsageStore } from '../../store/access-store.ts';
import { flushUntilWritten } from '../../store/flush-until-written.ts';

export class UsageRecorder {
  private readonly store: UsageStore;
  private pending = new Map<string, UsageRow>();
  /** Key id → when it was last used (ms); turned into text only when written. */
  private lastUsed = new Map<string, number>();
  private readonly timer: NodeJS.Timeout;
  private dayNumber = Number.NaN;
  private dayText = '';

  constructor(store: UsageStore, options: { flushIntervalMs?: number; onFlushError?: (error: unknown) => void } = {}) {
    this.store = store;
    this.timer = setInterval(() => {
      this.flush().catch(options.onFlushError ?? (() => undefined));
    }, options.flushIntervalMs ?? 1000);
    this.timer.unref();
  }

  /** On every /v1 response to a request the key was accepted for: counts it, and the key was used now. */
  record(keyId: string, nowMs: number, outcome: Outcome): void {
    this.count(keyId, nowMs, outcome);
    this.lastUsed.set(keyId, nowMs);
  }

  /** A request refused because its key is revoked: counted, but the key was not used ("last used" stays). */
  recordRefusal(keyId: string, nowMs: number): void {
    this.count(keyId, nowMs, 'refused_auth');
  }

  /** Kept cheap: no date formatting but once a day. */
  private count(keyId: string, nowMs: number, outcome: Outcome): void {
    const dayNumber = Math.floor(nowMs / 86_400_000);
    if (dayNumber !== this.dayNumber) {
      this.dayNumber = dayNumber;
      this.dayText = new Date(dayNumber * 86_400_000).toISOString().slice(0, 10);
    }
    const day = this.dayText;
    const id = `${keyId} ${day} ${outcome}`;
    const row = this.pending.get(id);
    if (row) row.count++;
    else this.pending.set(id, { keyId, day, outcome, count: 1 });
  }

  async flush(): Promise<void> {
    if (this.pending.size === 0) return;
    const rows = this.pending;
    const lastUsed = this.lastUsed;
    this.pending = new Map();
    this.lastUsed = new Map();
    let ok = false;
    try {
      const lastUsedText = new Map([...lastUsed].map(([keyId, ms]) => [keyId, new Date(ms).toISOString()]));
      ok = await this.store.addUsage([...rows.values()], lastUsedText);
    } finally {
      if (!ok) this.restore(rows, lastUsed);
    }
  }

  /** Puts unwritten counts back, merged with what arrived meanwhile. */
  private restore(rows: Map<string, UsageRow>, lastUsed: Map<string, number>): void {
    for (const [id, row] of rows) {
      const now = this.pending.get(id);
      if (now) now.count += row.count;
      else this.pending.set(id, row);
    }
    for (const [keyId, at] of lastUsed) if (!this.lastUsed.has(keyId)) this.lastUsed.set(keyId, at);
  }

  /** Stops the timer and writes everything pending (see flushUntilWritten). */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await flushUntilWritten(
      () => this.flush(),
      () => this.pending.size > 0,
    );
  }
}
