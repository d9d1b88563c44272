/**
 * `npm run bench [-- --quick]`: Codebook measured as users hit it, beside
 * baselines measured in the same run on the same machine.
 *
 * 1. Data: generated and imported once per set of parameters (bench/data/),
 *    timing the snapshot import and its re-import; reused afterwards.
 * 2. Access, the real server (src/main.js) as a child process, the time from
 *    spawn to its first answered request, cursors for random depths
 *    (bench/setup.ts).
 * 3. Each scenario (bench/scenarios.ts) under wrk, interleaved with its
 *    baseline L0 (bare node:http answering a body of the same size): L0,
 *    scenario, L0, scenario… (bench/pairs.ts); then L1 (bare Fastify) once per
 *    body, and the first and deep page against offset paging (N).
 * 4. A table on stdout and bench/results/latest.json; a non-zero exit when a
 *    response was unexpected (anything but 2xx, or the 401s of scenario 4).
 */
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { cpus, loadavg, release, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ensureData, FULL_DATA, QUICK_DATA, ROOT, timeSnapshotImport } from './data.ts';
import { freePort, httpGet, spawnReady, stopChild } from './http.ts';
import { ensureWrk, memoryMb, runLoad, type LoadResult, type RequestSource } from './load.ts';
import { runPairs, summarise } from './pairs.ts';
import { evaluateTargets, formatReport, type PairedRecord, type RunRecord } from './report.ts';
import { baselineOf, codeIdAt, PLAIN_BODIES, sampleBody, scenarios, type BodyClass } from './scenarios.ts';
import { CURSOR_PAGE, deepPageDepth, loadCursors, ORGS, RESULTS, setupAccess, startServer, type Server } from './setup.ts';
import { writeWrkScripts } from './wrk-script.ts';
import { historyStorage, navScenarios, runNavScenario, type NavRecord } from './navigation-http.ts';
import { formatSearch, runSearchScenarios, type SearchReport } from './search-scenarios.ts';

const FULL = { ...FULL_DATA, warmup: 3, duration: 5 };
const QUICK = { ...QUICK_DATA, warmup: 1, duration: 1 };

const log = (line: string) => process.stderr.write(`${line}\n`);

// The search benchmark is a run of its own (bench/search.ts).
if (process.argv.includes('--search')) {
  await import('./search.ts');
  process.exit(0);
}

// The 5 000 000-code import is a run of its own too (bench/large-import.ts), not part of CI.
if (process.argv.includes('--large')) {
  await import('./large-import.ts');
  process.exit(0);
}

// So is the search index's share of the snapshot import (bench/import-share.ts): minutes a pair.
if (process.argv.includes('--import-share')) {
  await import('./import-share.ts');
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
      threads: { type: 'string', default: '1' },
      pairs: { type: 'string', default: '3' },
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
      'usage: npm run bench -- [--quick] [--codes N --changes M --dates D --seed S] [--connections C] [--threads T] [--pairs P] [--warmup S] [--duration S] [--rebuild | --time-import] [--only 1,1z,2,L1,N,S,…] [--profile]\n',
    );
    process.exit(0);
  }
  const base = values.quick ? QUICK : FULL;
  const num = (text: string | undefined, fallback: number) => {
    if (text === undefined) return fallback;
    const n = Number(text);
    if (!Number.isInteger(n) || n <= 0) throw new Error(`not a positive whole number: ${text}`);
    return n;
  };
  const pairs = num(values.pairs, 3);
  if (pairs < 3) throw new Error('--pairs: at least 3, so that the median of the pairs means something');
  return {
    quick: values.quick,
    params: {
      codes: num(values.codes, base.codes),
      changes: num(values.changes, base.changes),
      dates: num(values.dates, base.dates),
      seed: Number(values.seed),
    },
    connections: num(values.connections, 32),
    threads: num(values.threads, 1),
    pairs,
    warmup: num(values.warmup, base.warmup),
    duration: num(values.duration, base.duration),
    rebuild: values.rebuild,
    only: values.only === undefined ? null : new Set(values.only.split(',')),
    /** Runs the server under load with --cpu-prof (bench/results/profiles/); combine with --only. */
    profile: values.profile,
    /** Times the snapshot import and re-import again (on a scratch database) instead of reporting the build's. */
    timeImport: values['time-import'],
  };
}

async function main(): Promise<void> {
  const o = options();
  const startedAt = new Date();
  const loadAtStart = loadavg();
  mkdirSync(RESULTS, { recursive: true });
  const serverLog = join(RESULTS, 'server.log');
  rmSync(serverLog, { force: true });
  const temp = mkdtempSync(join(tmpdir(), 'codebook-bench-'));
  const wanted = (id: string) => o.only === null || o.only.has(id);
  ensureWrk(log);
  const scripts = writeWrkScripts(temp);
  log(
    `bench: ${o.quick ? 'quick' : 'full'} — ${o.params.codes} codes, ${o.params.changes} changes, ${o.params.dates} dates; wrk, ${o.connections} connections, ` +
      `${o.pairs} pairs of ${o.duration} s per scenario after ${o.warmup} s of warm-up`,
  );

  const data = await ensureData(o.params, { rebuild: o.rebuild, log });
  // A fresh build has just timed its imports; a reused one reports the build's figures unless asked to time them again.
  const imports = data.reused && o.timeImport ? await timeSnapshotImport(data, log) : data.build.imports;
  const importsMeasured = !data.reused || o.timeImport ? 'in this run' : `when the data was built, ${data.build.builtAt}`;
  const keys = await setupAccess(`sqlite:${data.dbFile}`);
  await readThrough(data.dbFile, log);
  const port = await freePort();
  const probe = { path: `/v1/codes/${codeIdAt(data.manifest, 0)}`, headers: { authorization: `Bearer ${keys[0]}` } };

  const startMs: number[] = [];
  let server: Server | null = null;
  const children: ChildProcess[] = [];
  process.once('SIGINT', () => {
    for (const child of children) child.kill('SIGTERM');
    process.exit(130);
  });
  const paired: PairedRecord[] = [];
  const runs: RunRecord[] = [];
  const navigation: NavRecord[] = [];
  try {
    // Start-up: cold starts of the process on this data (three, one in quick mode), the last one kept for the load.
    const starts = o.quick ? 1 : 3;
    for (let i = 0; i < starts; i++) {
      if (server) await stopChild(server.child);
      server = await startServer(data, port, probe, serverLog, o.profile && i === starts - 1);
      children.push(server.child);
      startMs.push(Math.round(server.startMs));
      log(`server: first answer ${Math.round(server.startMs)} ms after spawn`);
    }
    const srv = server!;
    const idleRssMb = Math.round(memoryMb(srv.child.pid!).rss);
    const cursors = await loadCursors(data, port, keys[0]!, log);
    const deepDepth = deepPageDepth(data.manifest.codes);
    const firstPage = await httpGet(port, '/v1/codes?limit=50', { authorization: `Bearer ${keys[0]!}` });
    const firstPageTag = String(firstPage.headers.etag);
    const all = scenarios(temp, data.manifest, keys, cursors, deepDepth, CURSOR_PAGE, firstPageTag);

    const load = (
      pid: number,
      targetPort: number,
      source: RequestSource,
      seed: number,
      expect: number,
      seconds = o.duration,
      connections = o.connections,
      timeoutSeconds = 30,
    ): Promise<LoadResult> =>
      runLoad({
        script: expect === 200 ? scripts.plain : scripts.counting,
        port: targetPort,
        connections,
        threads: o.threads,
        seconds,
        timeoutSeconds,
        source,
        seed,
        serverPid: pid,
        expect,
      });
    const spawnBaseline = async (script: string, bodyFile: string, env: Record<string, string> = {}) => {
      const basePort = await freePort();
      const child = await spawnReady(script, { ...env, PORT: String(basePort), BODY_FILE: bodyFile }, ROOT);
      children.push(child);
      return { child, port: basePort };
    };

    // One L0 per body, kept for every scenario with that body; warmed once.
    const l0 = new Map<BodyClass, { child: ChildProcess; port: number; bytes: number; bodyFile: string }>();
    for (const scenario of all) {
      if (!wanted(scenario.id)) continue;
      const lines = readFileSync(scenario.source.pathsFile, 'utf8').trimEnd().split('\n');
      let base = l0.get(scenario.body);
      const fresh = !base;
      if (!base) {
        const { bytes, env } = baselineOf(scenario.body, await sampleBody(port, scenario, lines, keys));
        const bodyFile = join(temp, `${scenario.body}.json`);
        writeFileSync(bodyFile, bytes);
        const { child, port: basePort } = await spawnBaseline('bench/baselines/bare-http.ts', bodyFile, env);
        base = { child, port: basePort, bytes: bytes.length, bodyFile };
        l0.set(scenario.body, base);
        await load(child.pid!, basePort, scenario.source, 1000, 200, o.warmup);
      } else {
        await sampleBody(port, scenario, lines, keys);
      }
      const bodyBytes = base.bytes;
      log(`run ${scenario.id}: ${scenario.title}; L0 answers ${bodyBytes} B; ${o.warmup} s warm-up, then ${o.pairs} × (L0, scenario) of ${o.duration} s`);
      // Quick mode warms the server once per body (the same code path); a full run before every scenario.
      if (!o.quick || fresh) await load(srv.child.pid!, port, scenario.source, 1000, scenario.expect, o.warmup);
      const b = base;
      const pairs = await runPairs(
        o.pairs,
        (seed) => load(b.child.pid!, b.port, scenario.source, seed, 200),
        (seed) => load(srv.child.pid!, port, scenario.source, seed, scenario.expect),
      );
      const summary = summarise(pairs);
      paired.push({ id: scenario.id, title: scenario.title, body: scenario.body, bodyBytes, expect: scenario.expect, pairs, summary });
      log(
        `  × L0 ${(summary.ratio * 100).toFixed(0)} % (pairs ${pairs.map((p) => `${(p.ratio * 100).toFixed(0)} %`).join(', ')})${summary.noisy ? ' — the pairs disagree by more than 15 %' : ''}`,
      );

      // Quick mode runs L1 only when asked (--only …,L1): CI's run stays short.
      const l1Wanted = o.quick ? o.only?.has('L1') === true : wanted('L1');
      if (l1Wanted && PLAIN_BODIES.includes(scenario.body) && !runs.some((r) => r.id === `L1:${scenario.body}`)) {
        const { child, port: fastifyPort } = await spawnBaseline('bench/baselines/bare-fastify.ts', b.bodyFile);
        try {
          if (!o.quick) await load(child.pid!, fastifyPort, scenario.source, 1000, 200, o.warmup);
          const r = await load(child.pid!, fastifyPort, scenario.source, 1, 200);
          runs.push({
            id: `L1:${scenario.body}`,
            kind: 'L1',
            title: `bare Fastify, ${scenario.body} body`,
            body: scenario.body,
            bodyBytes,
            expect: 200,
            result: r,
          });
        } finally {
          await stopChild(child);
        }
      }
    }
    for (const base of l0.values()) await stopChild(base.child);

    // Navigation (issue 14): each scenario in pairs with the read it is judged against, both on the server.
    const navWanted = (id: string) => wanted(id) || wanted('nav');
    if (['H1', 'H2', 'H3', 'A1', 'A2', 'B1'].some(navWanted)) {
      const byId = (id: string) => all.find((x) => x.id === id)!.source.pathsFile;
      for (const s of await navScenarios(temp, data, port, keys, byId('2'), byId('1'), log)) {
        if (!navWanted(s.id)) continue;
        log(`run ${s.id}: ${s.title}; against ${s.reference}; ${o.warmup} s warm-up each, then ${o.pairs} × (reference, scenario) of ${o.duration} s`);
        const record = await runNavScenario(
          s,
          o.pairs,
          (source, seed) => load(srv.child.pid!, port, source, seed, 200),
          (source) => load(srv.child.pid!, port, source, 1000, 200, o.warmup),
        );
        navigation.push(record);
        log(
          `  ${record.measure === 'p50' ? 'p50 ÷ reference' : 'ids/s ÷ reference'} ${record.ratio.toFixed(2)} (pairs ${record.pairs.map((p) => p.ratio.toFixed(2)).join(', ')})`,
        );
      }
    }

    // Deep page against offset paging: one connection, so p50 is what one request costs.
    if (wanted('N')) {
      for (const s of all.filter((x) => x.id === '5a' || x.id === '5b')) {
        log(`run ${s.id}@1: ${s.title}, 1 connection`);
        const r = await load(srv.child.pid!, port, s.source, 1, 200, o.quick ? o.duration : o.duration * 2, 1);
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
          const file = join(temp, `offset-${offset}.txt`);
          writeFileSync(file, `/codes?limit=50&offset=${offset}\n`);
          const r = await load(
            child.pid!,
            nPort,
            { pathsFile: file, pick: 'cycle', keys: join(temp, 'keys.txt') },
            1,
            200,
            o.quick ? o.duration : o.duration * 2,
            1,
            120,
          );
          runs.push({
            id: `${id}@1`,
            kind: 'N',
            title: `offset paging, LIMIT 50 OFFSET ${offset}, 1 connection`,
            body: 'page50',
            bodyBytes: 0,
            expect: 200,
            result: r,
          });
        }
      } finally {
        await stopChild(child);
      }
    }

    // Search (issue 13): the query classes at one connection, a deep page, throughput against scenario 2, systems
    // against scenario 1. Quick runs only with --only …,S: CI's run stays short.
    let search: SearchReport | null = null;
    if (o.quick ? o.only?.has('S') === true : wanted('S')) {
      search = await runSearchScenarios({
        dir: temp,
        manifest: data.manifest,
        port,
        keys,
        keysFile: join(temp, 'keys.txt'),
        listPages: join(temp, 'pages50.txt'),
        codeIds: join(temp, 'ids.txt'),
        pairs: o.pairs,
        connections: o.connections,
        load: (source, seed, connections, seconds) => load(srv.child.pid!, port, source, seed, 200, seconds, connections),
        log,
      });
    }

    // A server that died under load fails the run, whatever the numbers say.
    const died = srv.exit.value === null ? null : `the server exited during the run (${srv.exit.value}); see ${serverLog}`;
    const stopStarted = performance.now();
    await stopChild(srv.child);
    const stopMs = Math.round(performance.now() - stopStarted);

    const report = {
      version: 2,
      mode: o.quick ? 'quick' : 'full',
      startedAt: startedAt.toISOString(),
      finishedAt: new Date().toISOString(),
      machine: {
        cpus: cpus().length,
        cpuModel: cpus()[0]?.model ?? 'unknown',
        memoryGb: Math.round(totalmem() / 2 ** 30),
        kernel: release(),
        node: process.version,
      },
      loadAverage: { atStart: loadAtStart.map((x) => Number(x.toFixed(2))), atEnd: loadavg().map((x) => Number(x.toFixed(2))) },
      settings: {
        generator: 'wrk',
        connections: o.connections,
        threads: o.threads,
        pairs: o.pairs,
        warmupSeconds: o.warmup,
        durationSeconds: o.duration,
        orgs: ORGS,
        deepDepth,
      },
      data: { params: o.params, reused: data.reused, builtAt: data.build.builtAt, generateMs: data.build.generateMs, imports, importsMeasured },
      server: { startMs, startMedianMs: [...startMs].sort((a, b) => a - b)[Math.floor(startMs.length / 2)]!, idleRssMb, stopMs },
      scenarios: paired,
      runs,
      navigation,
      history: navigation.length > 0 ? historyStorage(data.dbFile) : null,
      search,
      targets: [] as ReturnType<typeof evaluateTargets>['targets'],
      unexpected: [] as string[],
    };
    const evaluation = evaluateTargets(report);
    report.targets = [...evaluation.targets, ...(search?.targets ?? [])];
    report.unexpected = [...(died ? [died] : []), ...evaluation.unexpected, ...(search?.unexpected ?? [])];
    process.stdout.write(formatReport(report));
    if (search) process.stdout.write(formatSearch(search));
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
    rmSync(temp, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});

/**
 * Reads the database file once, so that every run starts with it in the OS's page cache: a
 * machine that reclaims idle file pages (this one's memory manager does) otherwise made the
 * first uniform scenario read from disk, with the server 33 % idle and a p99 of 195 ms.
 */
async function readThrough(file: string, log: (line: string) => void): Promise<void> {
  const started = performance.now();
  const handle = await open(file, 'r');
  const buffer = Buffer.allocUnsafe(1 << 20);
  let bytes = 0;
  try {
    for (let read = 1; read > 0; bytes += read) ({ bytesRead: read } = await handle.read(buffer, 0, buffer.length, bytes));
  } finally {
    await handle.close();
  }
  log(
    `data: read the database file through once (${(bytes / 2 ** 20).toFixed(0)} MB in ${((performance.now() - started) / 1000).toFixed(1)} s), so no run starts from disk`,
  );
}
