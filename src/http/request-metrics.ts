/**
 * The metrics every request adds to, kept as plain numbers and written in
 * Prometheus's text format only when /metrics is read.
 *
 * Through prom-client, each request built its label set's key twice (the
 * counter's and the histogram's) and checked its labels, and each limit
 * decision once more: ~1 µs and ~0.7 KB of garbage a request, against a
 * few additions here (bench/HISTORY.md, "2026-12-06"). The other metrics
 * (errors of the stores, Redis's fallback, the process's) change seldom and
 * stay on prom-client's registry, whose text this text follows.
 */
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

/** Upper bounds of the latency histogram's buckets, in seconds. */
export const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5] as const;

const BACKENDS = ['memory', 'redis', 'fallback'] as const;
const DECISIONS = ['allowed', 'month', 'minute'] as const;

interface RouteCounts {
  /** Requests by status. */
  statuses: Map<number, number>;
  /** Requests by the first bucket whose bound holds their latency; the last slot counts those beyond every bound. */
  buckets: Float64Array;
  sum: number;
  count: number;
}

export class RequestMetrics {
  readonly #routes = new Map<string, RouteCounts>();
  /** Decisions by backend (rows) and decision (columns). */
  readonly #decisions = new Float64Array(BACKENDS.length * DECISIONS.length);
  /** Requests the express lane answered (express-lane.ts), counted in the families above as well. */
  #expressLane = 0;

  /** One request answered by the express lane. */
  expressLane(): void {
    this.#expressLane++;
  }

  /** A finished request: its route pattern ("unmatched" for none), status and latency in seconds. */
  request(route: string, status: number, seconds: number): void {
    let counts = this.#routes.get(route);
    if (counts === undefined) {
      counts = { statuses: new Map(), buckets: new Float64Array(LATENCY_BUCKETS.length + 1), sum: 0, count: 0 };
      this.#routes.set(route, counts);
    }
    counts.statuses.set(status, (counts.statuses.get(status) ?? 0) + 1);
    let bucket = 0;
    while (bucket < LATENCY_BUCKETS.length && seconds > LATENCY_BUCKETS[bucket]!) bucket++;
    counts.buckets[bucket]!++;
    counts.sum += seconds;
    counts.count++;
  }

  /** A limit decision on a /v1 request (a stale one decided nothing). */
  decision(d: LimitDecision): void {
    if (d.stale) return;
    const backend = d.backend === 'redis' ? 1 : d.backend === 'fallback' ? 2 : 0;
    const decision = d.refusedBy === 'month' ? 1 : d.refusedBy === 'minute' ? 2 : 0;
    this.#decisions[backend * DECISIONS.length + decision]!++;
  }

  /** The three metric families in Prometheus's text format (version 0.0.4). */
  text(): string {
    const lines: string[] = [
      '# HELP codebook_http_requests_total HTTP requests by route (the route pattern; "unmatched" for no route), status and outcome.',
      '# TYPE codebook_http_requests_total counter',
    ];
    for (const [route, counts] of this.#routes) {
      for (const [status, n] of counts.statuses) {
        lines.push(`codebook_http_requests_total{route="${label(route)}",status="${status}",outcome="${requestOutcome(status)}"} ${n}`);
      }
    }
    lines.push(
      '',
      '# HELP codebook_http_request_duration_seconds Time from receiving a request to sending the response, by route.',
      '# TYPE codebook_http_request_duration_seconds histogram',
    );
    for (const [route, counts] of this.#routes) {
      const name = label(route);
      let below = 0;
      LATENCY_BUCKETS.forEach((bound, i) => {
        below += counts.buckets[i]!;
        lines.push(`codebook_http_request_duration_seconds_bucket{le="${bound}",route="${name}"} ${below}`);
      });
      lines.push(`codebook_http_request_duration_seconds_bucket{le="+Inf",route="${name}"} ${counts.count}`);
      lines.push(`codebook_http_request_duration_seconds_sum{route="${name}"} ${counts.sum}`);
      lines.push(`codebook_http_request_duration_seconds_count{route="${name}"} ${counts.count}`);
    }
    lines.push(
      '',
      '# HELP codebook_limiter_decisions_total Limit decisions on /v1 requests, by the state that decided (redis, memory, or fallback while Redis is down) and the decision.',
      '# TYPE codebook_limiter_decisions_total counter',
    );
    BACKENDS.forEach((backend, b) =>
      DECISIONS.forEach((decision, d) => {
        const n = this.#decisions[b * DECISIONS.length + d]!;
        if (n > 0) lines.push(`codebook_limiter_decisions_total{backend="${backend}",decision="${decision}"} ${n}`);
      }),
    );
    lines.push(
      '',
      '# HELP codebook_http_express_lane_total Requests answered before routing by the express lane (a code by its id, the 401 of an unknown key); the rest took the full path.',
      '# TYPE codebook_http_express_lane_total counter',
      `codebook_http_express_lane_total ${this.#expressLane}`,
    );
    return `${lines.join('\n')}\n`;
  }
}

/** A label value as the text format writes it: backslash, double quote and line feed escaped. */
function label(value: string): string {
  return value.replaceAll('\\', '\\\\').replaceAll('"', '\\"').replaceAll('\n', '\\n');
}
