/**
 * `npm run bench [-- --quick]`: Codebook measured as users hit it, beside
 * baselines measured in the same run on the same machine.
 *
 * 1. Data: generated and imported once per set of parameters (bench/data/),
 *    timing the snapshot import and its re-import; reused afterwards.
 * 2. Access: a plan with limits that never refuse, organisations and keys,
 *    made through the services on that database.
 * 3. The real server (src/main.ts) as a child process; time from spawn to its
 *    first answered request; cursors collected beforehand for random depths.
 * 4. Each scenario under autocannon from this process, interleaved with the
 *    baselines for its response size: L0 (bare node:http) and L1 (bare
 *    Fastify) answering a precomputed body of the same size, and N (offset
 *    paging over the same SQLite file) at the depths of scenario 5.
 * 5. A table on stdout and bench/results/latest.json; a non-zero exit when a
 *    response was unexpected (anything but 2xx, or the 401s of scenario 4).
 */
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { cpus, release, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.ts';
import { createDeps } from '../src/deps.ts';
import { ENDPOINTS } from '../src/domain/access.ts';
import { createKey, createOrg, listKeys, revokeKey, setOrgPlan, setPlan } from '../src/services/access/admin.ts';
import { SYSTEMS, type GenerateManifest } from '../src/services/generate.ts';
import { ensureData, ROOT, timeSnapshotImport, type BenchData, type DataParams } from './data.ts';
import { freePort, httpGet, sleep, spawnReady, stopChild } from './http.ts';
import { rssMb, runLoad, type LoadResult, type RequestSpec } from './load.ts';
import { evaluateTargets, formatReport, type RunRecord } from './report.ts';
import { serverNodeFlags } from './server-flags.ts';

const FULL = { codes: 1_000_000, changes: 2_000_000, dates: 24, warmup: 3, duration: 10 };
const QUICK = { codes: 20_000, changes: 40_000, dates: 6, warmup: 1, duration: 2 };
const RESULTS = join(ROOT, 'bench', 'results');
/** Keys of this many organisations take turns, so no one organisation's minute limit comes near. */
const ORGS = 8;
const CURSOR_PAGE = 200;
const DEEP_PAGE = 900_000;

const log = (line: string) => process.stderr.write(`${line}\n`);

// The search benchmark is a run of its own (bench/search.ts).
if (process.argv.includes('--search')) {
  await import('./search.ts');
  process.exit(0);
}

function options() {
  const { values } = parseArgs({
    options: {
      quick: { type: 'boolean', default: false },
      codes: { type: 'string' },
      changes: { type: 'string' },
      dates: { type: 'string' },
      seed: { type: 'string', default: '1' },
      connections: { type: 'string', default: '32' },
      warmup: { type: 'string' },
      duration: { type: 'string' },
      rebuild: { type: 'boolean', default: false },
      only: { type: 'string' },
      profile: { type: 'boolean', default: false },
      'time-import': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(
      'usage: npm run bench -- [--quick] [--codes N --changes M --dates D --seed S] [--connections C] [--warmup S] [--duration S] [--rebuild | --time-import] [--only 1,2,L0,…] [--profile]\n',
    );
    process.exit(0);
  }
  const base = values.quick ? QUICK : FULL;
  const num = (text: string | undefined, fallback: number) => {
    if (text === undefined) return fallback;
    const n = Number(text);
    if (!Number.isFinite(n) || n <= 0) throw new Error(`not a positive number: ${text}`);
    return n;
  };
  return {
    quick: values.quick!,
    params: { codes: num(values.codes, base.codes), changes: num(values.changes, base.changes), dates: num(values.dates, base.dates), seed: Number(values.seed) } as DataParams,
    connections: num(values.connections, 32),
    warmup: num(values.warmup, base.warmup),
    duration: num(values.duration, base.duration),
    rebuild: values.rebuild!,
    only: values.only === undefined ? null : new Set(values.only.split(',')),
    /** Runs the server under load with --cpu-prof (bench/results/profiles/); combine with --only. */
    profile: values.profile!,
    /** Times the snapshot import and re-import again (on a scratch database) instead of reporting the build's. */
    timeImport: values['time-import']!,
  };
}

/** mulberry32: the same request sequence on every run. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// ---------------------------------------------------------------------------
// Access: a plan that never refuses, and keys of several organisations.

async function setupAccess(dbFile: string): Promise<string[]> {
  const deps = await createDeps(loadConfig({ DATABASE_URL: `sqlite:${dbFile}`, LOG_LEVEL: 'silent' }));
  try {
    await setPlan(deps.admin, { name: 'bench', endpoints: [...ENDPOINTS], ratePerMinute: 1_000_000, monthlyQuota: null, testKeysAllowed: true });
    const keys: string[] = [];
    for (let i = 1; i <= ORGS; i++) {
      const slug = `bench-${i}`;
      let org = await deps.store.access.getOrg(slug);
      if (!org) org = await createOrg(deps.admin, slug, 'bench');
      else if (org.plan !== 'bench') org = await setOrgPlan(deps.admin, slug, 'bench');
      // Keys of earlier runs are revoked: each run works with its own.
      for (const k of await listKeys(deps.admin, org)) if (k.revokedAt === null) await revokeKey(deps.admin, k.id, org);
      keys.push((await createKey(deps.admin, org, 'live', 'bench')).key);
    }
    return keys;
  } finally {
    await deps.close();
  }
}

// ---------------------------------------------------------------------------
// The server under test.

interface Server {
  child: ChildProcess;
  port: number;
  startMs: number;
  /** Set when the process has exited, with its code or signal. */
  exit: { value: string | null };
}

async function startServer(data: BenchData, port: number, probe: RequestSpec, logFile: string, profile = false): Promise<Server> {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: `sqlite:${data.dbFile}`, LOG_LEVEL: 'warn' };
  // The secret kept in the database signs the cursors collected beforehand.
  delete env.CURSOR_SECRET;
  const out = createWriteStream(logFile, { flags: 'a' });
  const started = performance.now();
  const flags = [...serverNodeFlags(ROOT), ...(profile ? ['--cpu-prof', `--cpu-prof-dir=${join(RESULTS, 'profiles')}`] : [])];
  const child = spawn(process.execPath, [...flags, 'src/main.ts'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.pipe(out, { end: false });
  child.stderr!.pipe(out, { end: false });
  const exit: Server['exit'] = { value: null };
  child.once('exit', (code, signal) => {
    exit.value = signal ?? `code ${code}`;
    out.end(`[bench] the server exited: ${exit.value}\n`);
  });
  for (;;) {
    if (exit.value !== null) throw new Error(`the server exited during start-up (${exit.value}); see ${logFile}`);
    try {
      const response = await httpGet(port, probe.path, probe.headers);
      if (response.status !== 200) throw new Error(`the server's first answer was ${response.status}: ${response.body.slice(0, 300)}`);
      return { child, port, startMs: performance.now() - started, exit };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ECONNREFUSED') throw error;
      await sleep(2);
    }
  }
}

// ---------------------------------------------------------------------------
// Cursors, collected by walking the collections once (and kept beside the data).

interface Cursors {
  codes: string[];
  changes: string[];
}

async function walk(port: number, key: string, path: string): Promise<string[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const cursors: string[] = [];
  let cursor: string | null = null;
  try {
    do {
      const response = await httpGet(port, `${path}?limit=${CURSOR_PAGE}${cursor ? `&cursor=${cursor}` : ''}`, { authorization: `Bearer ${key}` }, agent);
      if (response.status !== 200) throw new Error(`walking ${path}: ${response.status} ${response.body.slice(0, 300)}`);
      const match = /"next_cursor":"([^"]+)"/.exec(response.body.slice(-4096));
      cursor = match ? match[1]! : null;
      if (cursor) cursors.push(cursor);
    } while (cursor);
  } finally {
    agent.destroy();
  }
  return cursors;
}

async function loadCursors(data: BenchData, port: number, key: string): Promise<Cursors> {
  const file = join(data.dir, 'cursors.json');
  if (existsSync(file)) {
    const cached = JSON.parse(readFileSync(file, 'utf8')) as Cursors;
    const probes = [cached.codes[0], cached.codes.at(-1), cached.changes[0], cached.changes.at(-1)];
    let valid = probes.every((c) => c !== undefined);
    for (const [i, c] of probes.entries()) {
      if (!valid) break;
      const response = await httpGet(port, `/v1/${i < 2 ? 'codes' : 'changes'}?limit=1&cursor=${c}`, { authorization: `Bearer ${key}` });
      valid = response.status === 200;
    }
    if (valid) return cached;
    log('cursors: the cached ones are no longer accepted; collecting them again');
  }
  const started = performance.now();
  const [codes, changes] = await Promise.all([walk(port, key, '/v1/codes'), walk(port, key, '/v1/changes')]);
  log(`cursors: walked ${codes.length + 1} pages of codes and ${changes.length + 1} of changes (${CURSOR_PAGE} a page) in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  writeFileSync(file, JSON.stringify({ codes, changes }));
  return { codes, changes };
}

// ---------------------------------------------------------------------------
// Scenarios: request generators, each a fresh deterministic sequence.

type BodyClass = 'record' | 'page50' | 'changes200' | 'error401';

interface Scenario {
  id: string;
  title: string;
  body: BodyClass;
  /** The one status this scenario's responses should have. */
  expect: number;
  connections: number;
  makeNext: () => () => RequestSpec;
}

function codeIds(manifest: GenerateManifest, count: number, seed: number): string[] {
  const rnd = random(seed);
  const systems = manifest.systems.map((s) => ({ ...s, spec: SYSTEMS.find((x) => x.name === s.system)! }));
  const ids: string[] = [];
  for (let n = 0; n < count; n++) {
    let i = Math.floor(rnd() * manifest.codes);
    for (const s of systems) {
      if (i < s.codes) {
        ids.push(`${s.system}:${encodeURIComponent(s.spec.code(i))}`);
        break;
      }
      i -= s.codes;
    }
  }
  return ids;
}

/** Well-formed keys that no organisation has: more of them than the server caches. */
function unknownKeys(count: number, seed: number): string[] {
  const rnd = random(seed);
  const chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  return Array.from({ length: count }, () => `svc_live_${Array.from({ length: 32 }, () => chars[Math.floor(rnd() * chars.length)]).join('')}`);
}

function scenarios(manifest: GenerateManifest, keys: string[], cursors: Cursors, connections: number, deepDepth: number): Scenario[] {
  const auth = keys.map((k) => ({ authorization: `Bearer ${k}` }));
  const ids = codeIds(manifest, 100_000, 11);
  const strangers = unknownKeys(50_000, 13).map((k) => ({ authorization: `Bearer ${k}` }));
  const deepCursor = cursors.codes[deepDepth / CURSOR_PAGE - 1];
  if (deepDepth > 0 && deepCursor === undefined) throw new Error(`no cursor ${deepDepth} codes deep`);
  // Each call of makeNext starts the same sequence again: a baseline gets the very requests its scenario got.
  const sequence = (seed: number, path: (rnd: () => number, turn: number) => string, headers = auth) => () => {
    const rnd = random(seed);
    let turn = 0;
    return (): RequestSpec => {
      const spec = { path: path(rnd, turn), headers: headers[turn % headers.length]! };
      turn++;
      return spec;
    };
  };
  const at = (list: string[], rnd: () => number) => {
    // Depth 0 (no cursor) is one of the choices, as likely as any other.
    const k = Math.floor(rnd() * (list.length + 1));
    return k === 0 ? '' : `&cursor=${list[k - 1]}`;
  };
  return [
    {
      id: '1',
      title: 'GET /v1/codes/{id}, random ids',
      body: 'record',
      expect: 200,
      connections,
      makeNext: sequence(1, (_rnd, turn) => `/v1/codes/${ids[turn % ids.length]}`),
    },
    {
      id: '2',
      title: 'GET /v1/codes?limit=50, random depths',
      body: 'page50',
      expect: 200,
      connections,
      makeNext: sequence(2, (rnd) => `/v1/codes?limit=50${at(cursors.codes, rnd)}`),
    },
    {
      id: '3',
      title: 'GET /v1/changes?limit=200, random depths',
      body: 'changes200',
      expect: 200,
      connections,
      makeNext: sequence(3, (rnd) => `/v1/changes?limit=200${at(cursors.changes, rnd)}`),
    },
    {
      id: '4',
      title: 'unknown key (401)',
      body: 'error401',
      expect: 401,
      connections,
      makeNext: sequence(4, (rnd) => `/v1/codes/${ids[Math.floor(rnd() * ids.length)]}`, strangers),
    },
    {
      id: '5a',
      title: 'GET /v1/codes?limit=50, first page',
      body: 'page50',
      expect: 200,
      connections,
      makeNext: sequence(5, () => '/v1/codes?limit=50'),
    },
    {
      id: '5b',
      title: `GET /v1/codes?limit=50, ${deepDepth} codes deep`,
      body: 'page50',
      expect: 200,
      connections,
      makeNext: sequence(6, () => `/v1/codes?limit=50&cursor=${deepCursor}`),
    },
  ];
}

/** The body a baseline answers with: a real response of the scenario, of median size. */
async function sampleBody(port: number, scenario: Scenario): Promise<string> {
  const next = scenario.makeNext();
  const samples: string[] = [];
  for (let i = 0; i < 21; i++) {
    const spec = next();
    const response = await httpGet(port, spec.path, spec.headers);
    if (response.status !== scenario.expect) throw new Error(`scenario ${scenario.id}: ${spec.path} answered ${response.status}, expected ${scenario.expect}: ${response.body.slice(0, 300)}`);
    const parsed = JSON.parse(response.body) as { data?: unknown[] };
    if (scenario.body === 'page50' && parsed.data?.length !== 50) throw new Error(`scenario ${scenario.id}: ${spec.path} returned ${parsed.data?.length} codes, not 50`);
    samples.push(response.body);
  }
  samples.sort((a, b) => Buffer.byteLength(a) - Buffer.byteLength(b));
  return samples[Math.floor(samples.length / 2)]!;
}

// ---------------------------------------------------------------------------

async function main(): Promise<void> {
  const o = options();
  const startedAt = new Date();
  mkdirSync(RESULTS, { recursive: true });
  const serverLog = join(RESULTS, 'server.log');
  rmSync(serverLog, { force: true });
  const bodies = mkdtempSync(join(tmpdir(), 'codebook-bench-'));
  const wanted = (id: string) => o.only === null || o.only.has(id);
  log(`bench: ${o.quick ? 'quick' : 'full'} — ${o.params.codes} codes, ${o.params.changes} changes, ${o.params.dates} dates; ${o.connections} connections, ${o.warmup} s warm-up, ${o.duration} s per scenario`);

  const data = await ensureData(o.params, { rebuild: o.rebuild, log });
  // A fresh build has just timed its imports; a reused one reports the build's figures unless asked to time them again.
  const imports = data.reused && o.timeImport ? await timeSnapshotImport(data, log) : data.build.imports;
  const importsMeasured = !data.reused || o.timeImport ? 'in this run' : `when the data was built, ${data.build.builtAt}`;
  const keys = await setupAccess(data.dbFile);
  const port = await freePort();
  const firstId = codeIds(data.manifest, 1, 99)[0]!;
  const probe = { path: `/v1/codes/${firstId}`, headers: { authorization: `Bearer ${keys[0]}` } };

  // Start-up: cold starts of the process on this data (three, one in quick mode), the last one kept for the load.
  const startMs: number[] = [];
  let server: Server | null = null;
  const children: ChildProcess[] = [];
  process.once('SIGINT', () => {
    for (const child of children) child.kill('SIGTERM');
    process.exit(130);
  });
  const runs: RunRecord[] = [];
  try {
    const starts = o.quick ? 1 : 3;
    for (let i = 0; i < starts; i++) {
      if (server) await stopChild(server.child);
      server = await startServer(data, port, probe, serverLog, o.profile && i === starts - 1);
      children.push(server.child);
      startMs.push(Math.round(server.startMs));
      log(`server: first answer ${Math.round(server.startMs)} ms after spawn`);
    }
    const srv = server!;
    const idleRssMb = Math.round(rssMb(srv.child.pid!));
    const cursors = await loadCursors(data, port, keys[0]!);
    const deepDepth = Math.min(DEEP_PAGE, Math.floor((0.9 * data.manifest.codes) / CURSOR_PAGE) * CURSOR_PAGE);
    const all = scenarios(data.manifest, keys, cursors, o.connections, deepDepth);
    const load = async (pid: number, targetPort: number, connections: number, next: () => RequestSpec, timeoutSeconds = 30): Promise<LoadResult> =>
      runLoad({
        port: targetPort,
        connections,
        warmupSeconds: o.warmup,
        durationSeconds: o.duration,
        timeoutSeconds,
        next,
        serverPid: pid,
        perConnection: o.quick ? 250 : 1000,
      });

    const baselineDone = new Set<BodyClass>();
    for (const scenario of all) {
      if (!wanted(scenario.id)) continue;
      const body = await sampleBody(port, scenario);
      log(`run ${scenario.id}: ${scenario.title} (response ${Buffer.byteLength(body)} B)`);
      const result = await load(srv.child.pid!, port, scenario.connections, scenario.makeNext());
      runs.push({ id: scenario.id, kind: 'scenario', title: scenario.title, body: scenario.body, bodyBytes: Buffer.byteLength(body), expect: scenario.expect, result });
      if (baselineDone.has(scenario.body)) continue;
      baselineDone.add(scenario.body);
      const bodyFile = join(bodies, `${scenario.body}.json`);
      writeFileSync(bodyFile, body);
      for (const [id, script, title] of [
        ['L0', 'bench/baselines/bare-http.ts', 'bare node:http'],
        ['L1', 'bench/baselines/bare-fastify.ts', 'bare Fastify'],
      ] as const) {
        if (!wanted(id)) continue;
        const basePort = await freePort();
        const child = await spawnReady(script, { PORT: String(basePort), BODY_FILE: bodyFile }, ROOT);
        children.push(child);
        try {
          log(`run ${id} (${scenario.body}): ${title}, the same ${Buffer.byteLength(body)} B body`);
          const r = await load(child.pid!, basePort, scenario.connections, scenario.makeNext());
          runs.push({ id: `${id}:${scenario.body}`, kind: id, title: `${title}, ${scenario.body} body`, body: scenario.body, bodyBytes: Buffer.byteLength(body), expect: 200, result: r });
        } finally {
          await stopChild(child);
        }
      }
    }

    // Deep page against offset paging: one connection, so p50 is what one request costs.
    if (wanted('N')) {
      const first = all.find((s) => s.id === '5a')!;
      const deep = all.find((s) => s.id === '5b')!;
      for (const s of [first, deep]) {
        log(`run ${s.id}@1: ${s.title}, 1 connection`);
        const r = await load(srv.child.pid!, port, 1, s.makeNext());
        runs.push({ id: `${s.id}@1`, kind: 'latency', title: `${s.title}, 1 connection`, body: 'page50', bodyBytes: 0, expect: 200, result: r });
      }
      const nPort = await freePort();
      const child = await spawnReady('bench/baselines/offset-paging.ts', { PORT: String(nPort), DATABASE_FILE: data.dbFile }, ROOT);
      children.push(child);
      try {
        for (const [id, offset] of [
          ['N-first', 0],
          ['N-deep', deepDepth],
        ] as const) {
          log(`run ${id}@1: offset paging, OFFSET ${offset}, 1 connection`);
          const r = await load(child.pid!, nPort, 1, () => ({ path: `/codes?limit=50&offset=${offset}`, headers: {} }), 120);
          runs.push({ id: `${id}@1`, kind: 'N', title: `offset paging, LIMIT 50 OFFSET ${offset}, 1 connection`, body: 'page50', bodyBytes: 0, expect: 200, result: r });
        }
      } finally {
        await stopChild(child);
      }
    }

    // A server that died under load fails the run, whatever the numbers say.
    const died = srv.exit.value === null ? null : `the server exited during the run (${srv.exit.value}); see ${serverLog}`;
    const stopStarted = performance.now();
    await stopChild(srv.child);
    const stopMs = Math.round(performance.now() - stopStarted);

    const report = {
      version: 1,
      mode: o.quick ? 'quick' : 'full',
      startedAt: startedAt.toISOString(),
      finishedAt: new Date().toISOString(),
      machine: { cpus: cpus().length, cpuModel: cpus()[0]?.model ?? 'unknown', memoryGb: Math.round(totalmem() / 2 ** 30), kernel: release(), node: process.version },
      settings: { connections: o.connections, warmupSeconds: o.warmup, durationSeconds: o.duration, orgs: ORGS, deepDepth },
      data: { params: o.params, reused: data.reused, builtAt: data.build.builtAt, generateMs: data.build.generateMs, imports, importsMeasured },
      server: { startMs, startMedianMs: [...startMs].sort((a, b) => a - b)[Math.floor(startMs.length / 2)]!, idleRssMb, stopMs },
      runs,
      targets: [] as ReturnType<typeof evaluateTargets>['targets'],
      unexpected: [] as string[],
    };
    const evaluation = evaluateTargets(report);
    report.targets = evaluation.targets;
    report.unexpected = died ? [died, ...evaluation.unexpected] : evaluation.unexpected;
    const text = formatReport(report);
    process.stdout.write(text);
    const json = `${JSON.stringify(report, null, 2)}\n`;
    writeFileSync(join(RESULTS, 'latest.json'), json);
    writeFileSync(join(RESULTS, `latest-${report.mode}.json`), json);
    log(`results: ${join(RESULTS, 'latest.json')} (the run took ${Math.round((Date.now() - startedAt.getTime()) / 1000)} s)`);
    if (report.unexpected.length > 0) {
      log(`bench: FAILED — unexpected responses or errors:\n  ${report.unexpected.join('\n  ')}`);
      process.exitCode = 1;
    }
  } finally {
    for (const child of children) await stopChild(child);
    rmSync(bodies, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
