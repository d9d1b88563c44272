/**
 * What the Redis limiter decides with while Redis is unreachable: an
 * in-process MemoryLimiter per instance, starting from the counts PostgreSQL
 * last mirrored, that never writes them back (PostgreSQL holds what Redis
 * counted). It remembers how many requests it admitted per organisation and
 * month, so they can be added to Redis once it is back.
 */
import { randomBytes } from 'node:crypto';
import type { Plan } from '../domain/access.ts';
import type { UsageStore } from '../store/access-store.ts';
import type { LimitDecision } from './limiter.ts';
import { MemoryLimiter } from './memory-limiter.ts';
import { windowsAt } from '../domain/windows.ts';

export interface Admitted {
  /** Names this replay, so that Redis applies it once however often it is sent. */
  id: string;
  orgId: string;
  /** 'month:YYYY-MM' */
  month: string;
  count: number;
  /** Requests given back to the month meanwhile (some may have been admitted by Redis before it went away). */
  givenBack: number;
}

export class FallbackLimiter {
  private readonly memory: MemoryLimiter;
  private readonly admitted = new Map<string, Admitted>();

  constructor(usage: Pick<UsageStore, 'loadCounters'>) {
    this.memory = new MemoryLimiter(
      {
        loadCounters: (orgId, windows) => usage.loadCounters(orgId, windows),
        writeCounters: async () => true,
      },
      { flushIntervalMs: 60_000 },
    );
  }

  async decide(orgId: string, plan: Plan, nowMs: number, consume: boolean): Promise<LimitDecision> {
    const decision = consume ? await this.memory.consume(orgId, plan, nowMs) : await this.memory.peek(orgId, plan, nowMs);
    if (consume && decision.allowed) {
      const month = windowsAt(nowMs).month;
      const id = `${orgId} ${month}`;
      const entry = this.admitted.get(id);
      if (entry) entry.count++;
      else this.admitted.set(id, { id: randomBytes(12).toString('hex'), orgId, month, count: 1, givenBack: 0 });
    }
    return { ...decision, backend: 'fallback' };
  }

  /** Given back here, and in Redis once it is back (where the script keeps the month from going below zero). */
  async giveBack(orgId: string, countedAtMs: number): Promise<void> {
    await this.memory.giveBack(orgId, countedAtMs);
    const month = windowsAt(countedAtMs).month;
    const id = `${orgId} ${month}`;
    const entry = this.admitted.get(id);
    if (entry) entry.givenBack++;
    else this.admitted.set(id, { id: randomBytes(12).toString('hex'), orgId, month, count: 0, givenBack: 1 });
  }

  /** What was admitted, for replay into Redis; this limiter is done after it. */
  async drain(): Promise<Admitted[]> {
    await this.memory.close();
    return [...this.admitted.values()];
  }
}
