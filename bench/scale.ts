/**
 * `npx node bench/scale.ts [--duration S] [--connections N]`: throughput of
 * GET /v1/codes?limit=50 through two instances on PostgreSQL + Redis, against
 * one embedded instance (SQLite, in-process limiter) on the same data.
 *
 * Every server is the real one (src/main.js) in a process of its own; the
 * load comes from wrk (one process per instance, at the same time), keep-alive,
 * with the same total number of connections in both set-ups (split evenly over
 * the two instances).
 * Needs PostgreSQL and Redis on 127.0.0.1 (BENCH_POSTGRES_URL, BENCH_REDIS_URL).
 * Cleans up what it made: the temp SQLite file, the database, the Redis keys.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import pg from 'pg';
import { loadConfig } from '../src/config.ts';
import { createDeps } from '../src/deps.ts';
import { createKey, createOrg, setPlan } from '../src/services/access/admin.ts';
import { loadDemo } from '../src/services/demo.ts';
import { ensureWrk, runLoad } from './load.ts';
import { serverNodeFlags } from './server-flags.ts';
import { writeWrkScripts } from './wrk-script.ts';

const { values } = parseArgs({
  options: { duration: { type: 'string', default: '10' }, connections: { type: 'string', default: '32' }, warmup: { type: 'string', default: '3' } },
});
const DURATION = Number(values.duration);
const CONNECTIONS = Number(values.connections);
const WARMUP = Number(values.warmup);
const PATH = '/v1/codes?limit=50';
const ADMIN_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const ROOT = new URL('..', import.meta.url).pathname;
const log = (line: string) => process.stderr.write(`${line}\n`);

/** The same data and an organisation whose limits never refuse: returns the key. */
async function prepare(env: Record<string, string>): Promise<string> {
  const deps = await createDeps(loadConfig({ ...env, LOG_LEVEL: 'silent' }), { onWarning: () => undefined });
  try {
    await loadDemo(deps.store);
    await setPlan(deps.admin, {
      name: 'bench',
      endpoints: ['codes.list', 'codes.get', 'changes.list'],
      ratePerMinute: 1_000_000,
      monthlyQuota: null,
      testKeysAllowed: true,
    });
    const org = await createOrg(deps.admin, `bench-${randomBytes(3).toString('hex')}`, 'bench');
    return (await createKey(deps.admin, org, 'live', 'bench')).key;
  } finally {
    await deps.close();
  }
}

async function startServer(env: Record<string, string>, port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, [...serverNodeFlags(ROOT), join(ROOT, 'src/main.js')], {
    env: { ...process.env, ...env, PORT: String(port), LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (let waited = 0; waited < 30_000; waited += 100) {
    if (child.exitCode !== null) throw new Error(`server on port ${port} exited with ${child.exitCode}`);
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) return child;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`server on port ${port} not ready within 30 s`);
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

interface Load {
  rps: number;
  non2xx: number;
  errors: number;
  p50: number;
  p99: number;
}

/** wrk against each instance at once, the connections split evenly; throughput summed. */
async function load(servers: [port: number, pid: number][], key: string, seconds: number, dir: string): Promise<Load> {
  const script = writeWrkScripts(dir).plain;
  const pathsFile = join(dir, 'paths.txt');
  const keys = join(dir, 'keys.txt');
  writeFileSync(pathsFile, `${PATH}\n`);
  writeFileSync(keys, `${key}\n`);
  const results = await Promise.all(
    servers.map(([port, pid]) =>
      runLoad({
        script,
        port,
        connections: Math.max(1, Math.round(CONNECTIONS / servers.length)),
        threads: 1,
        seconds,
        timeoutSeconds: 30,
        source: { pathsFile, pick: 'cycle', keys },
        seed: 1,
        serverPid: pid,
        expect: 200,
      }),
    ),
  );
  return {
    rps: results.reduce((sum, r) => sum + r.requestsPerSecond, 0),
    non2xx: results.reduce((sum, r) => sum + (r.statuses.other ?? 0), 0),
    errors: results.reduce((sum, r) => sum + r.errors, 0),
    p50: Math.max(...results.map((r) => r.p50)),
    p99: Math.max(...results.map((r) => r.p99)),
  };
}

async function measure(name: string, servers: [port: number, pid: number][], key: string, dir: string): Promise<Load> {
  log(`${name}: warm-up ${WARMUP} s, then ${DURATION} s with ${CONNECTIONS} connections`);
  await load(servers, key, WARMUP, dir);
  const result = await load(servers, key, DURATION, dir);
  log(
    `${name}: ${Math.round(result.rps)} requests/s, p50 ${result.p50.toFixed(2)} ms, p99 ${result.p99.toFixed(2)} ms, non-2xx ${result.non2xx}, errors ${result.errors}`,
  );
  return result;
}

async function main(): Promise<void> {
  ensureWrk(log);
  const dir = mkdtempSync(join(tmpdir(), 'codebook-bench-scale-'));
  const database = `codebook_bench_${process.pid}`;
  const prefix = `cbbench:${process.pid}:`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${database}`);
  const pgUrl = new URL(ADMIN_URL);
  pgUrl.pathname = `/${database}`;
  const embeddedEnv = { DATABASE_URL: `sqlite:${join(dir, 'bench.db')}` };
  const scaledEnv = { DATABASE_URL: pgUrl.toString(), REDIS_URL, REDIS_PREFIX: prefix };
  const children: ChildProcess[] = [];
  try {
    const embeddedKey = await prepare(embeddedEnv);
    const scaledKey = await prepare(scaledEnv);

    const started = async (env: Record<string, string>, port: number): Promise<[number, number]> => {
      const child = await startServer(env, port);
      children.push(child);
      return [port, child.pid!];
    };
    const embeddedServer = await started(embeddedEnv, 18_401);
    const embedded = await measure('one embedded instance (SQLite, in-process limiter)', [embeddedServer], embeddedKey, dir);
    await stop(children.pop()!);

    const first = await started(scaledEnv, 18_402);
    const single = await measure('one instance (PostgreSQL + Redis), for context', [first], scaledKey, dir);
    const second = await started(scaledEnv, 18_403);
    const scaled = await measure('two instances (PostgreSQL + Redis)', [first, second], scaledKey, dir);

    const ratio = scaled.rps / embedded.rps;
    process.stdout.write(
      [
        `GET ${PATH}, ${CONNECTIONS} connections, ${DURATION} s, ${cpus().length} CPUs (servers, PostgreSQL, Redis and wrk share them)`,
        `| set-up | requests/s | p50 ms | p99 ms |`,
        `|---|---|---|---|`,
        `| one embedded instance (SQLite) | ${Math.round(embedded.rps)} | ${embedded.p50.toFixed(2)} | ${embedded.p99.toFixed(2)} |`,
        `| one instance, PostgreSQL + Redis | ${Math.round(single.rps)} | ${single.p50.toFixed(2)} | ${single.p99.toFixed(2)} |`,
        `| two instances, PostgreSQL + Redis | ${Math.round(scaled.rps)} | ${scaled.p50.toFixed(2)} | ${scaled.p99.toFixed(2)} |`,
        `ratio (two scaled-out / one embedded): ${ratio.toFixed(2)}`,
        '',
      ].join('\n'),
    );
    if ([embedded, single, scaled].some((r) => r.non2xx + r.errors > 0)) process.exitCode = 1;
  } finally {
    for (const child of children) await stop(child);
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin.end();
    const redis = new Redis(REDIS_URL);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
