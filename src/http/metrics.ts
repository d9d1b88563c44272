/**
 * The service's Prometheus metrics, on a registry of their own (one per app,
 * so two instances in one test process do not mix their counts); the ones
 * every request adds to are plain numbers until they are read (request-metrics.ts).
 */
import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import type { LimitDecision } from '../domain/limits.ts';
import type { ReadCacheStats } from '../services/read-cache.ts';
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

  /** The read cache's counts, read when /metrics is (watchReadCache). */
  private readCache: (() => ReadCacheStats) | null = null;

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

  /** Reports the read cache's hits, misses, evictions and size from now on (deps.ts wires the catalog's). */
  watchReadCache(stats: () => ReadCacheStats): void {
    this.readCache = stats;
  }

  async text(): Promise<string> {
    const cache = this.readCache === null ? '' : `\n${readCacheText(this.readCache())}`;
    return `${this.requests.text()}${cache}\n${await this.registry.metrics()}`;
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}

/** The read cache's families in the text format: counters since the process started, and its size now. */
function readCacheText(s: ReadCacheStats): string {
  const family = (name: string, type: 'counter' | 'gauge', help: string, value: number) => `# HELP ${name} ${help}\n# TYPE ${name} ${type}\n${name} ${value}\n`;
  return [
    family('codebook_read_cache_hits_total', 'counter', 'Reads answered from the read cache (records, pages, systems and releases).', s.hits),
    family('codebook_read_cache_misses_total', 'counter', 'Reads the read cache did not hold, read from the store.', s.misses),
    family('codebook_read_cache_evictions_total', 'counter', 'Entries the read cache evicted to make room.', s.evictions),
    family('codebook_read_cache_entries', 'gauge', 'Entries the read cache holds.', s.entries),
    family('codebook_read_cache_bytes', 'gauge', 'Bytes the read cache holds, its index counted (at most READ_CACHE_MB).', s.bytes),
    family('codebook_read_cache_max_bytes', 'gauge', "The read cache's bound, READ_CACHE_MB in bytes.", s.maxBytes),
  ].join('\n');
}
