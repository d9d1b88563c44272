/**
 * `node bench/scaled.ts [--quick] [--pairs P] [--duration S] [--warmup S] [--connections C] [--only 1,1z,…]`:
 * the bench's scenarios (bench/scenarios.ts) through two instances on
 * PostgreSQL + Redis, each run in turn with the same scenario on one embedded
 * instance (the bench's SQLite file, in-process limiter), on the same data.
 * There is no target for it (issue 16 asks for the figures beside the
 * embedded ones); the ratio reported is two scaled-out instances ÷ one
 * embedded instance, the median of the pairs.
 *
 * - Data: the full bench's data set (bench/data.ts builds it when it is
 *   missing; --quick: the quick one, to try the script), imported into a PostgreSQL database of its own once,
 *   `codebook_bench_<data set>`, and kept for later runs (as the SQLite file
 *   is); `postgres.json` beside the data records the import. Drop the database
 *   to import it again.
 * - Load: wrk against each scaled-out instance at once, the connections split
 *   evenly, throughput summed; p50 and p99 are the worse of the two
 *   instances'; memory is each instance's.
 * - Needs PostgreSQL and Redis on 127.0.0.1 (BENCH_POSTGRES_URL, BENCH_REDIS_URL).
 *   The Redis keys the instances made are removed at the end.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import pg from 'pg';
import { dataKey, ensureData, FULL_DATA, IMPORT_FLAGS, QUICK_DATA, runChild, type BenchData } from './data.ts';
import type { ImportTimings } from './import-data.ts';
import { freePort, httpGet, stopChild } from './http.ts';
import { ensureWrk, runLoad, type LoadResult } from './load.ts';
import { runPairs, summarise, type Pair, type PairSummary } from './pairs.ts';
import { unexpectedOf } from './report.ts';
import { codeIdAt, scenarios, type Scenario } from './scenarios.ts';
import { CURSOR_PAGE, deepPageDepth, loadCursors, RESULTS, setupAccess, startServer, type Server } from './setup.ts';
import { writeWrkScripts } from './wrk-script.ts';

const ADMIN_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const log = (line: string) => process.stderr.write(`${line}\n`);
/** The servers started, stopped at the end (or on Ctrl-C). */
const servers: Server[] = [];

interface PostgresBuild {
  database: string;
  builtAt: string;
  imports: ImportTimings;
}

/** The data set in a PostgreSQL database of its own: imported once (snapshot and deltas, as the SQLite file), then reused. */
async function ensurePostgres(data: BenchData): Promise<string> {
  const database = `codebook_bench_${dataKey(data.build.params).replaceAll('-', '_')}`;
  const url = new URL(ADMIN_URL);
  url.pathname = `/${database}`;
  const recordFile = join(data.dir, 'postgres.json');
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  try {
    const exists = (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [database])).rowCount === 1;
    if (exists && existsSync(recordFile) && (JSON.parse(readFileSync(recordFile, 'utf8')) as PostgresBuild).database === database) {
      log(`postgres: reusing ${database}`);
      return url.toString();
    }
    // A database without the record is an import that did not finish: started again.
    rmSync(recordFile, { force: true });
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${database}`);
  } finally {
    await admin.end();
  }
  log(`postgres: importing the data set into ${database} (once; minutes)`);
  const imports = JSON.parse(
    await runChild([...IMPORT_FLAGS, 'bench/import-data.ts', join(data.dir, 'files'), url.toString(), '--no-reimport']),
  ) as ImportTimings;
  writeFileSync(recordFile, `${JSON.stringify({ database, builtAt: new Date().toISOString(), imports } satisfies PostgresBuild, null, 2)}\n`);
  return url.toString();
}

/** Two loads at once, one per instance, as one result: counts summed, latencies the worse of the two. */
function combined(results: LoadResult[]): LoadResult {
  const sum = (pick: (r: LoadResult) => number) => results.reduce((total, r) => total + pick(r), 0);
  const max = (pick: (r: LoadResult) => number) => Math.max(...results.map(pick));
  const statuses: Record<string, number> = {};
  for (const r of results) for (const [status, n] of Object.entries(r.statuses)) statuses[status] = (statuses[status] ?? 0) + n;
  const responses = sum((r) => r.responses);
  return {
    connections: sum((r) => r.connections),
    durationSeconds: max((r) => r.durationSeconds),
    responses,
    requestsPerSecond: sum((r) => r.requestsPerSecond),
    p50: max((r) => r.p50),
    p90: max((r) => r.p90),
    p99: max((r) => r.p99),
    max: max((r) => r.max),
    statuses,
    errors: sum((r) => r.errors),
    timeouts: sum((r) => r.timeouts),
    meanResponseBytes: responses > 0 ? sum((r) => r.meanResponseBytes * r.responses) / responses : 0,
    serverRssMaxMb: max((r) => r.serverRssMaxMb),
    serverAnonMaxMb: max((r) => r.serverAnonMaxMb),
    serverCpu: sum((r) => r.serverCpu),
    clientCpu: sum((r) => r.clientCpu),
  };
}

interface ScaledRecord {
  id: string;
  title: string;
  expect: number;
  /** baseline: one embedded instance; scenario: two scaled-out instances. */
  pairs: Pair[];
  summary: PairSummary;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      pairs: { type: 'string', default: '3' },
      duration: { type: 'string' },
      warmup: { type: 'string' },
      connections: { type: 'string', default: '32' },
      only: { type: 'string' },
      quick: { type: 'boolean', default: false },
    },
  });
  const pairsCount = Number(values.pairs);
  // As npm run bench: 1 s each in quick mode, 5 s after 3 s of warm-up otherwise.
  const duration = Number(values.duration ?? (values.quick ? 1 : 5));
  const warmup = Number(values.warmup ?? (values.quick ? 1 : 3));
  const connections = Number(values.connections);
  if (![pairsCount, duration, warmup, connections].every((n) => Number.isInteger(n) && n > 0) || pairsCount < 3) {
    throw new Error('--pairs (at least 3), --duration, --warmup and --connections take whole numbers above 0');
  }
  const only = values.only === undefined ? null : new Set(values.only.split(','));
  const startedAt = new Date();
  const loadAtStart = loadavg();
  ensureWrk(log);
  mkdirSync(RESULTS, { recursive: true });
  const temp = mkdtempSync(join(tmpdir(), 'codebook-bench-scaled-'));
  const serverLog = join(RESULTS, 'server-scaled.log');
  rmSync(serverLog, { force: true });

  const data = await ensureData({ ...(values.quick ? QUICK_DATA : FULL_DATA), seed: 1 }, { rebuild: false, log });
  const pgUrl = await ensurePostgres(data);
  const prefix = `cbbench:${process.pid}:`;
  const scaledEnv = { DATABASE_URL: pgUrl, REDIS_URL, REDIS_PREFIX: prefix };
  const embeddedKeys = await setupAccess(`sqlite:${data.dbFile}`);
  const scaledKeys = await setupAccess(pgUrl);
  const scripts = writeWrkScripts(temp);
  const probe = (key: string) => ({ path: `/v1/codes/${codeIdAt(data.manifest, 0)}`, headers: { authorization: `Bearer ${key}` } });
  const records: ScaledRecord[] = [];
  const unexpected: string[] = [];
  try {
    const embedded = await startServer(data, await freePort(), probe(embeddedKeys[0]!), serverLog);
    servers.push(embedded);
    for (let i = 0; i < 2; i++) servers.push(await startServer(data, await freePort(), probe(scaledKeys[0]!), serverLog, false, scaledEnv));
    const scaled = servers.slice(1);
    const deepDepth = deepPageDepth(data.manifest.codes);
    const scenarioSet = async (server: Server, keys: string[], dir: string, cursorFile: string): Promise<Scenario[]> => {
      mkdirSync(dir, { recursive: true });
      const cursors = await loadCursors(data, server.port, keys[0]!, log, cursorFile);
      const first = await httpGet(server.port, '/v1/codes?limit=50', { authorization: `Bearer ${keys[0]!}` });
      return scenarios(dir, data.manifest, keys, cursors, deepDepth, CURSOR_PAGE, String(first.headers.etag));
    };
    const embeddedSet = await scenarioSet(embedded, embeddedKeys, join(temp, 'embedded'), join(data.dir, 'cursors.json'));
    const scaledSet = await scenarioSet(scaled[0]!, scaledKeys, join(temp, 'scaled'), join(data.dir, 'cursors-postgres.json'));

    const load = (targets: Server[], scenario: Scenario, seed: number, seconds: number) =>
      Promise.all(
        targets.map((server) =>
          runLoad({
            script: scenario.expect === 200 ? scripts.plain : scripts.counting,
            port: server.port,
            connections: Math.max(1, Math.round(connections / targets.length)),
            threads: 1,
            seconds,
            timeoutSeconds: 30,
            source: scenario.source,
            seed,
            serverPid: server.child.pid!,
            expect: scenario.expect,
          }),
        ),
      ).then(combined);

    for (const [i, scenario] of scaledSet.entries()) {
      if (only !== null && !only.has(scenario.id)) continue;
      const here = embeddedSet[i]!;
      log(`run ${scenario.id}: ${scenario.title}; ${warmup} s warm-up each, then ${pairsCount} × (one embedded, two scaled out) of ${duration} s`);
      await load([embedded], here, 1000, warmup);
      await load(scaled, scenario, 1000, warmup);
      const pairs = await runPairs(
        pairsCount,
        (seed) => load([embedded], here, seed, duration),
        (seed) => load(scaled, scenario, seed, duration),
      );
      const summary = summarise(pairs);
      records.push({ id: scenario.id, title: scenario.title, expect: scenario.expect, pairs, summary });
      pairs.forEach((p, n) => {
        unexpected.push(...unexpectedOf(`${scenario.id}, scaled out (pair ${n + 1})`, p.scenario, scenario.expect));
        unexpected.push(...unexpectedOf(`${scenario.id}, embedded (pair ${n + 1})`, p.baseline, scenario.expect));
      });
      log(`  two scaled out ÷ one embedded: ${summary.ratio.toFixed(2)} (pairs ${pairs.map((p) => p.ratio.toFixed(2)).join(', ')})`);
    }
  } finally {
    for (const server of servers) await stopChild(server.child);
    const redis = new Redis(REDIS_URL);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
    rmSync(temp, { recursive: true, force: true });
  }
  writeFileSync(
    join(RESULTS, 'latest-scaled.json'),
    `${JSON.stringify({ startedAt: startedAt.toISOString(), loadAtStart, loadAtEnd: loadavg(), cpus: cpus().length, connections, records, unexpected }, null, 2)}\n`,
  );
  process.stdout.write(formatScaled(records, connections, loadAtStart));
  for (const line of unexpected) log(`unexpected: ${line}`);
  if (unexpected.length > 0) process.exitCode = 1;
}

function formatScaled(records: ScaledRecord[], connections: number, loadAtStart: number[]): string {
  const lines = [
    `${connections} connections in all (split over the two scaled-out instances), ${cpus().length} CPUs shared by every server, PostgreSQL, Redis and wrk; load average ${loadAtStart.map((n) => n.toFixed(2)).join(' ')} at the start`,
    '',
    '| Scenario | one embedded, req/s | two on PostgreSQL + Redis, req/s | two ÷ one (pairs) | p50 ms (embedded / two) | p99 ms (embedded / two) | anon MB (embedded / each of two) |',
    '|---|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of records) {
    const s = r.summary;
    lines.push(
      `| ${r.id} ${r.title} | ${Math.round(s.baselineRequestsPerSecond)} | ${Math.round(s.requestsPerSecond)} | ` +
        `${s.ratio.toFixed(2)} (${s.ratioMin.toFixed(2)}–${s.ratioMax.toFixed(2)})${s.noisy ? ' !' : ''} | ` +
        `${s.baselineP50.toFixed(2)} / ${s.p50.toFixed(2)} | ${s.baselineP99.toFixed(2)} / ${s.p99.toFixed(2)} | ` +
        `${Math.round(Math.max(...r.pairs.map((p) => p.baseline.serverAnonMaxMb)))} / ${Math.round(s.serverAnonMaxMb)} |`,
    );
  }
  return `${lines.join('\n')}\n`;
}

process.once('SIGINT', () => {
  for (const server of servers) server.child.kill('SIGTERM');
  process.exit(130);
});
await main();
