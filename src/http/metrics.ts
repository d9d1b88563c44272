/**
 * The service's Prometheus metrics, on a registry of their own (one per app,
 * so two instances in one test process do not mix their counts); the ones
 * every request adds to are plain numbers until they are read (request-metrics.ts).
 */
import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import type { LimitDecision } from '../domain/limits.ts';
import { RequestMetrics } from './request-metrics.ts';

export { requestOutcome, type RequestOutcome } from './request-metrics.ts';

export class Metrics {
  readonly registry = new Registry();
  /** Requests, their latency and the limit decisions: counted on every request, outside prom-client (request-metrics.ts). */
  private readonly requests = new RequestMetrics();
  private readonly storeErrors = new Counter({
    name: 'codebook_store_errors_total',
    help: 'Failures to reach a store: database (PostgreSQL or SQLite) or redis.',
    labelNames: ['store'] as const,
    registers: [this.registry],
  });
  private readonly redisDown = new Gauge({
    name: 'codebook_redis_fallback_active',
    help: '1 while Redis is unreachable and limits are enforced per instance; 0 otherwise.',
    registers: [this.registry],
  });

  constructor(options: { processMetrics?: boolean } = {}) {
    if (options.processMetrics) collectDefaultMetrics({ register: this.registry, prefix: 'codebook_' });
  }

  request(route: string, status: number, seconds: number): void {
    this.requests.request(route, status, seconds);
  }

  /** A request the express lane answered (it is counted by request() too). */
  expressLane(): void {
    this.requests.expressLane();
  }

  decision(d: LimitDecision): void {
    this.requests.decision(d);
  }

  storeError(store: 'database' | 'redis'): void {
    this.storeErrors.labels(store).inc();
  }

  redisFallback(active: boolean): void {
    this.redisDown.set(active ? 1 : 0);
  }

  async text(): Promise<string> {
    return `${this.requests.text()}\n${await this.registry.metrics()}`;
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
