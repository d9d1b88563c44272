/**
 * One measured load: wrk (C, Debian package `wrk`) against a server, keep-alive,
 * a fixed number of connections for a fixed duration. A load generator on the
 * same two cores takes CPU from the server it measures: wrk drives bare
 * node:http about three times as fast as a Node.js generator does, so it
 * caps the baselines far less.
 *
 * Each request's path and key come from the Lua script (bench/wrk-script.ts)
 * and the request files the bench writes; wrk's latencies are per response,
 * in µs. The server's RSS (max of VmRSS) and CPU are read from /proc while
 * wrk runs; wrk's own CPU comes from its script.
 */
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

export interface RequestSource {
  /** Request paths, one a line. */
  pathsFile: string;
  pick: 'uniform' | 'zipf' | 'cycle';
  /** A file of API keys taken in turn, or 'random' for a fresh unknown key on every request. */
  keys: string;
  /** Zipf exponent, for pick 'zipf'. */
  exponent?: number;
  /** Sent as Accept-Encoding on every request (absent: no such header). */
  acceptEncoding?: string;
  /** Sent as If-None-Match on every request (absent: no such header). */
  ifNoneMatch?: string;
}

export interface LoadOptions {
  script: string;
  port: number;
  connections: number;
  threads: number;
  seconds: number;
  /** Per-request timeout; a timed-out request counts as an error. */
  timeoutSeconds: number;
  source: RequestSource;
  seed: number;
  /** The server process to sample. */
  serverPid: number;
  /** With the statuses script every status is counted; else only wrk's count of responses ≥ 400. */
  expect: number;
}

export interface LoadResult {
  connections: number;
  durationSeconds: number;
  responses: number;
  requestsPerSecond: number;
  /** Latency percentiles, in ms. */
  p50: number;
  p90: number;
  p99: number;
  max: number;
  /** Status → count; `other` is wrk's count of responses ≥ 400 when the statuses were not counted one by one. */
  statuses: Record<string, number>;
  /** Connection errors (connect, read, write) and timeouts. */
  errors: number;
  timeouts: number;
  meanResponseBytes: number;
  serverRssMaxMb: number;
  /** Max of the server's anonymous RSS (RssAnon): its own memory, without the file pages it maps (see memoryMb). */
  serverAnonMaxMb: number;
  /** Share of one core, in %, over the measured period. */
  serverCpu: number;
  clientCpu: number;
}

const CLOCK_TICKS = 100;

/**
 * A process's resident memory, in MB: all of it (VmRSS), and its anonymous part
 * (RssAnon: heap, stacks, buffers). The rest is file pages it maps, such as the
 * SQLite file the server reads through a memory map: the kernel's page cache,
 * shared and reclaimable, there whether a page is mapped or read with pread().
 */
export function memoryMb(pid: number): { rss: number; anon: number } {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) / 1024;
    return { rss: kb('VmRSS'), anon: kb('RssAnon') };
  } catch {
    return { rss: 0, anon: 0 };
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

function onPath(command: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

/**
 * wrk is installed with apt-get when it is missing (as root, on Debian or
 * Ubuntu, as `.ci/run` does); anywhere else the error says what to install.
 */
export function ensureWrk(log: (line: string) => void): void {
  if (onPath('wrk')) return;
  if (process.getuid?.() === 0 && onPath('apt-get')) {
    log('wrk: not installed; installing the Debian package with apt-get');
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    for (const args of [
      ['update', '-qq'],
      ['install', '-y', '-qq', 'wrk'],
    ]) {
      const result = spawnSync('apt-get', args, { stdio: ['ignore', 'ignore', 'inherit'], env });
      if (result.status !== 0) throw new Error(`apt-get ${args.join(' ')} failed (exit ${result.status})`);
    }
    if (onPath('wrk')) return;
  }
  throw new Error('the benchmark needs wrk, the HTTP load generator: install it (Debian/Ubuntu: apt-get install wrk; macOS: brew install wrk) and run again');
}

interface WrkJson {
  requests: number;
  durationUs: number;
  bytes: number;
  connect: number;
  read: number;
  write: number;
  status: number;
  timeout: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  cpuTicks: number;
  statuses: Record<string, number>;
}

export async function runLoad(o: LoadOptions): Promise<LoadResult> {
  const s = o.source;
  const args = [
    `-t${Math.min(o.threads, o.connections)}`,
    `-c${o.connections}`,
    `-d${Math.max(1, Math.round(o.seconds))}s`,
    `--timeout`,
    `${o.timeoutSeconds}s`,
    '-s',
    o.script,
    `http://127.0.0.1:${o.port}`,
    '--',
    s.pathsFile,
    s.pick,
    s.keys,
    String(o.seed),
    String(s.exponent ?? 1),
    s.acceptEncoding ?? '-',
    s.ifNoneMatch ?? '-',
  ];
  let rssMax = 0;
  let anonMax = 0;
  const sample = () => {
    const m = memoryMb(o.serverPid);
    rssMax = Math.max(rssMax, m.rss);
    anonMax = Math.max(anonMax, m.anon);
  };
  sample();
  const serverCpuBefore = cpuSeconds(o.serverPid);
  const sampler = setInterval(sample, 100);
  let out = '';
  let err = '';
  try {
    await new Promise<void>((resolve, reject) => {
      const child = spawn('wrk', args, { stdio: ['ignore', 'pipe', 'pipe'] });
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
      child.on('error', reject);
      child.on('exit', (code, signal) =>
        code === 0 ? resolve() : reject(new Error(`wrk ${args.join(' ')} exited with ${signal ?? code}: ${err.trim() || out.trim()}`)),
      );
    });
  } finally {
    clearInterval(sampler);
  }
  sample();
  const line = out.split('\n').find((l) => l.startsWith('WRK_JSON '));
  if (!line) throw new Error(`wrk printed no result: ${out.trim()} ${err.trim()}`);
  const w = JSON.parse(line.slice('WRK_JSON '.length)) as WrkJson;
  const seconds = w.durationUs / 1e6;
  // The server is idle while wrk sets up, so its CPU over wrk's whole life is its CPU under load.
  const serverCpu = cpuSeconds(o.serverPid) - serverCpuBefore;
  const counted = Object.keys(w.statuses).length > 0;
  const statuses = counted ? w.statuses : { [o.expect]: w.requests - w.status, ...(w.status > 0 ? { other: w.status } : {}) };
  const ms = (us: number) => us / 1000;
  return {
    connections: o.connections,
    durationSeconds: seconds,
    responses: w.requests,
    requestsPerSecond: seconds > 0 ? w.requests / seconds : 0,
    p50: ms(w.p50),
    p90: ms(w.p90),
    p99: ms(w.p99),
    max: ms(w.max),
    statuses,
    errors: w.connect + w.read + w.write + w.timeout,
    timeouts: w.timeout,
    meanResponseBytes: w.requests === 0 ? 0 : Math.round(w.bytes / w.requests),
    serverRssMaxMb: Math.round(rssMax),
    serverAnonMaxMb: Math.round(anonMax),
    serverCpu: seconds > 0 ? Math.round((serverCpu / seconds) * 100) : 0,
    clientCpu: seconds > 0 ? Math.round((w.cpuTicks / CLOCK_TICKS / seconds) * 100) : 0,
  };
}
