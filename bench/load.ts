/**
 * One measured load: autocannon from this process against a server child,
 * keep-alive, a fixed number of connections, a warm-up that is thrown away,
 * then a fixed duration. Each request's path and headers come from a
 * generator, so every request can hit another id or depth: each connection
 * gets its own list of requests drawn from it, built into bytes before the
 * clock starts and sent in turn (rebuilding every request in setupRequest
 * costs the client a few microseconds each, which the small-body baselines
 * would pay in throughput).
 *
 * Latencies are taken from autocannon's per-response event, in fractional
 * milliseconds and for every status (its own histogram keeps whole
 * milliseconds of 2xx only). The server's RSS and CPU are sampled from /proc
 * while the load runs.
 */
import { readFileSync } from 'node:fs';
import type { EventEmitter } from 'node:events';
import autocannon from 'autocannon';

export interface RequestSpec {
  path: string;
  headers: Record<string, string>;
}

export interface LoadOptions {
  port: number;
  connections: number;
  warmupSeconds: number;
  durationSeconds: number;
  /** Per-request timeout; a timed-out request counts as an error. */
  timeoutSeconds: number;
  next: () => RequestSpec;
  /** Distinct requests per connection, sent in a loop. */
  perConnection?: number;
  /** The server process to sample. */
  serverPid: number;
}

export interface LoadResult {
  connections: number;
  durationSeconds: number;
  responses: number;
  requestsPerSecond: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  statuses: Record<string, number>;
  /** Connection errors and timeouts. */
  errors: number;
  timeouts: number;
  meanResponseBytes: number;
  serverRssMaxMb: number;
  /** Share of one core, in %, over the measured period. */
  serverCpu: number;
  clientCpu: number;
}

const CLOCK_TICKS = 100;

export function rssMb(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** utime + stime of a process, in seconds. */
function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}

function percentile(sorted: Float64Array, q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

interface Attack {
  result: autocannon.Result;
  latencies: Float64Array;
  statuses: Record<string, number>;
  bytes: number;
}

/** The requests of each connection, drawn once from the generator and reused by warm-up and measure. */
function requestLists(o: LoadOptions): autocannon.Request[][] {
  const per = o.perConnection ?? 1000;
  const lists: autocannon.Request[][] = Array.from({ length: o.connections }, () => []);
  // Dealt round-robin, so the connections together follow the generator's sequence.
  for (let i = 0; i < per * o.connections; i++) {
    const spec = o.next();
    lists[i % o.connections]!.push({ method: 'GET', path: spec.path, headers: spec.headers });
  }
  return lists;
}

function attack(o: LoadOptions, lists: autocannon.Request[][], seconds: number, record: boolean): Promise<Attack> {
  let latencies = new Float64Array(record ? 1 << 16 : 0);
  let count = 0;
  let bytes = 0;
  const statuses: Record<string, number> = {};
  let clients = 0;
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: `http://127.0.0.1:${o.port}`,
        connections: o.connections,
        duration: seconds,
        timeout: o.timeoutSeconds,
        setupClient: (client) => client.setRequests(lists[clients++ % lists.length]!),
      },
      (error, result) => {
        if (error) reject(error as Error);
        else resolve({ result, latencies: latencies.subarray(0, count), statuses, bytes });
      },
    );
    if (record) {
      (instance as unknown as EventEmitter).on('response', (_client: unknown, status: number, resBytes: number, ms: number) => {
        if (count === latencies.length) {
          const grown = new Float64Array(latencies.length * 2);
          grown.set(latencies);
          latencies = grown;
        }
        latencies[count++] = ms;
        bytes += resBytes;
        statuses[status] = (statuses[status] ?? 0) + 1;
      });
    }
  });
}

export async function runLoad(o: LoadOptions): Promise<LoadResult> {
  const lists = requestLists(o);
  if (o.warmupSeconds > 0) await attack(o, lists, o.warmupSeconds, false);

  let rssMax = rssMb(o.serverPid);
  const sampler = setInterval(() => (rssMax = Math.max(rssMax, rssMb(o.serverPid))), 100);
  const serverCpuBefore = cpuSeconds(o.serverPid);
  const clientCpuBefore = process.cpuUsage();
  const started = performance.now();
  let run: Attack;
  try {
    run = await attack(o, lists, o.durationSeconds, true);
  } finally {
    clearInterval(sampler);
  }
  const elapsed = (performance.now() - started) / 1000;
  rssMax = Math.max(rssMax, rssMb(o.serverPid));
  const clientCpu = process.cpuUsage(clientCpuBefore);
  const serverCpu = cpuSeconds(o.serverPid) - serverCpuBefore;

  const sorted = run.latencies.slice().sort();
  const responses = sorted.length;
  // autocannon stops at its first one-second tick after the duration: its own measure of the time.
  const seconds = run.result.duration > 0 ? run.result.duration : elapsed;
  return {
    connections: o.connections,
    durationSeconds: seconds,
    responses,
    requestsPerSecond: responses / seconds,
    p50: percentile(sorted, 0.5),
    p90: percentile(sorted, 0.9),
    p99: percentile(sorted, 0.99),
    max: percentile(sorted, 1),
    statuses: run.statuses,
    errors: run.result.errors,
    timeouts: run.result.timeouts,
    meanResponseBytes: responses === 0 ? 0 : Math.round(run.bytes / responses),
    serverRssMaxMb: Math.round(rssMax),
    serverCpu: Math.round((serverCpu / elapsed) * 100),
    clientCpu: Math.round(((clientCpu.user + clientCpu.system) / 1e6 / elapsed) * 100),
  };
}
