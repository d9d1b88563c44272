/** A Limiter that reports every counting decision (metrics) and otherwise passes through. */
import type { Plan } from '../domain/access.ts';
import type { AccessCheck, LimitDecision, Limiter } from './limiter.ts';

export class ObservedLimiter implements Limiter {
  private readonly inner: Limiter;
  private readonly onDecision: (d: LimitDecision) => void;

  constructor(inner: Limiter, onDecision: (d: LimitDecision) => void) {
    this.inner = inner;
    this.onDecision = onDecision;
  }

  async consume(orgId: string, plan: Plan, nowMs: number, access?: AccessCheck): Promise<LimitDecision> {
    const decision = await this.inner.consume(orgId, plan, nowMs, access);
    this.onDecision(decision);
    return decision;
  }

  consumeNow(orgId: string, plan: Plan, nowMs: number): LimitDecision | undefined {
    const decision = this.inner.consumeNow?.(orgId, plan, nowMs);
    if (decision !== undefined) this.onDecision(decision);
    return decision;
  }

  peek(orgId: string, plan: Plan, nowMs: number, access?: AccessCheck): Promise<LimitDecision> {
    return this.inner.peek(orgId, plan, nowMs, access);
  }

  giveBack(orgId: string, countedAtMs: number): Promise<void> {
    return this.inner.giveBack(orgId, countedAtMs);
  }

  flush(): Promise<void> {
    return this.inner.flush();
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
