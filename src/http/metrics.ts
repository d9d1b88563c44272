/**
 * The service's Prometheus metrics, on a registry of their own (one per app,
 * so two instances in one test process do not mix their counts). Label
 * children are bound once per combination: the hot path only increments.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { LimitDecision } from '../domain/limits.ts';

export type RequestOutcome = 'ok' | 'client_error' | 'refused_auth' | 'refused_limit' | 'unavailable' | 'server_error';

export function requestOutcome(status: number): RequestOutcome {
  if (status < 400) return 'ok';
  if (status === 401 || status === 403) return 'refused_auth';
  if (status === 429) return 'refused_limit';
  if (status === 503) return 'unavailable';
  if (status >= 500) return 'server_error';
  return 'client_error';
}

export class Metrics {
  readonly registry = new Registry();
  private readonly requests = new Counter({
    name: 'codebook_http_requests_total',
    help: 'HTTP requests by route (the route pattern; "unmatched" for no route), status and outcome.',
    labelNames: ['route', 'status', 'outcome'] as const,
    registers: [this.registry],
  });
  private readonly latency = new Histogram({
    name: 'codebook_http_request_duration_seconds',
    help: 'Time from receiving a request to sending the response, by route.',
    labelNames: ['route'] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [this.registry],
  });
  private readonly decisions = new Counter({
    name: 'codebook_limiter_decisions_total',
    help: 'Limit decisions on /v1 requests, by the state that decided (redis, memory, or fallback while Redis is down) and the decision.',
    labelNames: ['backend', 'decision'] as const,
    registers: [this.registry],
  });
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
  private readonly requestChildren = new Map<string, { inc(): void }>();
  private readonly latencyChildren = new Map<string, { observe(v: number): void }>();
  private readonly decisionChildren = new Map<string, { inc(): void }>();

  constructor(options: { processMetrics?: boolean } = {}) {
    if (options.processMetrics) collectDefaultMetrics({ register: this.registry, prefix: 'codebook_' });
  }

  request(route: string, status: number, seconds: number): void {
    const id = `${route} ${status}`;
    let counter = this.requestChildren.get(id);
    if (!counter) this.requestChildren.set(id, (counter = this.requests.labels(route, String(status), requestOutcome(status))));
    counter.inc();
    let histogram = this.latencyChildren.get(route);
    if (!histogram) this.latencyChildren.set(route, (histogram = this.latency.labels(route)));
    histogram.observe(seconds);
  }

  decision(d: LimitDecision): void {
    if (d.stale) return;
    const id = `${d.backend ?? 'memory'} ${d.refusedBy ?? 'allowed'}`;
    let counter = this.decisionChildren.get(id);
    if (!counter) this.decisionChildren.set(id, (counter = this.decisions.labels(d.backend ?? 'memory', d.refusedBy ?? 'allowed')));
    counter.inc();
  }

  storeError(store: 'database' | 'redis'): void {
    this.storeErrors.labels(store).inc();
  }

  redisFallback(active: boolean): void {
    this.redisDown.set(active ? 1 : 0);
  }

  async text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
